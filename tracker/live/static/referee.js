// /referee: the alert feed, newest first. Loads the store (GET /api/alerts), then follows /ws:
// new alerts arrive flashing with a banner (and a beep when sound is on); acknowledge/dismiss
// POST with the token; filters by table, seat, rule code and status.
"use strict";

const feed = document.getElementById("feed");
const cards = new Map(); // alert id -> record
let oya = 0;

const $ = (id) => document.getElementById(id);
for (const id of ["who", "token"]) {
  $(id).value = sessionStorage.getItem(`mjmon-${id}`) || "";
  $(id).addEventListener("change", () => sessionStorage.setItem(`mjmon-${id}`, $(id).value));
}

function filters() {
  return { table: $("f-table").value.trim(), seat: $("f-seat").value, code: $("f-code").value.trim(), status: $("f-status").value };
}

function passes(record) {
  const f = filters();
  if (f.table && record.table !== f.table) return false;
  if (f.seat !== "" && String(record.alert.seat) !== f.seat) return false;
  if (f.code && !record.alert.code.includes(f.code)) return false;
  if (f.status && record.status !== f.status) return false;
  return true;
}

function card(record, fresh) {
  const a = record.alert;
  const seat = a.seat === null ? "table" : `seat ${a.seat} (${seatWind(a.seat, oya)})`;
  const when = new Date(record.created * 1000).toLocaleTimeString();
  const node = el(
    "article",
    { class: "card" + (fresh ? " fresh" : ""), "data-id": record.id, "data-status": record.status, "data-code": a.code },
    record.thumb ? el("img", { class: "thumb", src: record.thumb, alt: "evidence" }) : el("div", { class: "nothumb", text: "no image" }),
    el(
      "div",
      {},
      el("h2", { text: a.code.replaceAll("_", " ") }),
      el(
        "div",
        { class: "meta" },
        el("span", { class: "badge penalty", "data-penalty": a.penalty, text: a.penalty.replaceAll("_", " ") }),
        el("span", { class: "badge seat", text: seat }),
        el("span", { class: "badge", text: `table ${record.table}` }),
        el("span", { text: `video ${formatClock(a.t)} · frame ${a.frame ?? "–"} · ${when} · ${a.rules}` }),
      ),
      el("div", { class: "message", text: a.message }),
      record.status !== "new"
        ? el("div", { class: "who", text: `${record.status} by ${record.status_by} at ${new Date(record.status_at * 1000).toLocaleTimeString()}` })
        : null,
    ),
    el(
      "div",
      { class: "actions" },
      el("button", { class: "ack", "data-action": "ack", disabled: record.status !== "new", text: "Acknowledge" }),
      el("button", { class: "dismiss", "data-action": "dismiss", disabled: record.status !== "new", text: "Dismiss" }),
    ),
  );
  node.querySelectorAll("button").forEach((b) => b.addEventListener("click", () => act(record.id, b.dataset.action)));
  return node;
}

const nodes = new Map(); // alert id -> [version, element]: unchanged cards keep their element

function render(freshIds = new Set()) {
  const shown = [...cards.values()].filter(passes).sort((x, y) => y.created - x.created || (y.id > x.id ? 1 : -1));
  if (!shown.length) { feed.replaceChildren(el("div", { class: "empty", text: "No alerts match." })); return; }
  const elements = shown.map((r) => {
    const version = `${r.status}|${r.status_at}`;
    const known = nodes.get(r.id);
    if (known && known[0] === version) return known[1];
    const node = card(r, freshIds.has(r.id));
    nodes.set(r.id, [version, node]);
    return node;
  });
  const current = [...feed.children];
  if (current.length !== elements.length || current.some((n, i) => n !== elements[i])) feed.replaceChildren(...elements);
}

async function load() {
  try {
    const response = await fetch("/api/alerts?limit=1000");
    const body = await response.json();
    cards.clear();
    for (const r of body.alerts) cards.set(r.id, r);
    render();
  } catch (err) { $("error").textContent = `cannot load alerts: ${err}`; }
}

async function act(id, action) {
  $("error").textContent = "";
  const response = await fetch(`/api/alerts/${encodeURIComponent(id)}/${action}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${$("token").value}` },
    body: JSON.stringify({ who: $("who").value || "referee" }),
  });
  if (response.status === 401) { $("error").textContent = "the token is missing or wrong"; return; }
  if (!response.ok) { $("error").textContent = `${action} failed (${response.status})`; return; }
  const record = await response.json();
  cards.set(record.id, record);
  render();
}

function beep() {
  if (!$("sound").checked) return;
  const ctx = new (window.AudioContext || window.webkitAudioContext)();
  for (const [at, freq] of [[0, 880], [0.18, 660]]) {
    const osc = ctx.createOscillator();
    const gain = ctx.createGain();
    osc.frequency.value = freq;
    gain.gain.setValueAtTime(0.2, ctx.currentTime + at);
    gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + at + 0.16);
    osc.connect(gain).connect(ctx.destination);
    osc.start(ctx.currentTime + at);
    osc.stop(ctx.currentTime + at + 0.17);
  }
}

function announce(records) {
  const banner = $("banner");
  const a = records[0].alert;
  banner.textContent = `NEW ALERT: ${a.code.replaceAll("_", " ")} — seat ${a.seat ?? "–"} — ${a.penalty.replaceAll("_", " ")}` +
    (records.length > 1 ? ` (+${records.length - 1} more)` : "");
  banner.classList.remove("show");
  void banner.offsetWidth; // restart the animation
  banner.classList.add("show");
  document.title = `(!) mjmon referee`;
  beep();
}

function onMessage(msg) {
  if (msg.state) oya = msg.state.oya;
  if (msg.source) $("source").textContent = `source: ${msg.source}`;
  // every snapshot (a reconnect, or a resync after falling behind) reloads the feed from the
  // store: alerts raised while this page was away are there, even if it had none before
  if (msg.type === "snapshot") load();
  if (msg.type === "update" && msg.alerts && msg.alerts.length) {
    const fresh = new Set();
    for (const r of msg.alerts) { cards.set(r.id, r); fresh.add(r.id); }
    render(fresh);
    announce(msg.alerts);
  }
  if (msg.type === "alert_status") { cards.set(msg.alert.id, msg.alert); render(); }
}

for (const id of ["f-table", "f-seat", "f-code", "f-status"]) {
  for (const kind of ["input", "change"]) $(id).addEventListener(kind, () => render());
}
document.addEventListener("visibilitychange", () => { if (!document.hidden) document.title = "mjmon referee"; });
connectStream(onMessage, (up) => { $("link").textContent = up ? "● live" : "○ reconnecting…"; $("link").style.color = up ? "#39c07f" : "#ff4d4f"; });
load();
