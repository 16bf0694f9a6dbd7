// /overlay: the table as a broadcast graphic. Draws TableState.to_json() snapshots sent over /ws:
// four rivers 6 a row (sideways and called-away tiles marked), melds, dora indicators, riichi,
// wall count, scores and the running turn timer. Read-only: it never sends anything.
"use strict";

const board = document.getElementById("board");
let current = { state: null, turn: null, t: null, tAt: null, lastDiscard: null };

function tile(code, opts = {}) {
  const classes = ["tile"];
  if (opts.sideways) classes.push("sideways");
  if (opts.called) classes.push("called");
  if (opts.faceDown || code === "back" || code === "?") classes.push("back");
  if (opts.last) classes.push("last");
  if (opts.tsumogiri) classes.push("tsumogiri");
  const node = el("div", {
    class: classes.join(" "),
    "data-code": code,
    "data-sideways": opts.sideways ? "1" : "0",
    "data-called": opts.called ? "1" : "0",
  });
  if (!classes.includes("back")) node.append(el("img", { src: `/tiles/${code}.png`, alt: code, draggable: "false" }));
  return node;
}

function riverNode(seatIndex, seat, lastDiscard) {
  const rows = [];
  seat.river.forEach((slot, i) => {
    while (rows.length <= slot.row) rows.push([]);
    rows[slot.row].push({ slot, i });
  });
  const river = el("div", { class: "river", "data-seat": seatIndex });
  for (const row of rows) {
    row.sort((a, b) => a.slot.col - b.slot.col);
    const line = el("div", { class: "river-row" });
    for (const { slot, i } of row) {
      const last = lastDiscard && lastDiscard[0] === seatIndex && lastDiscard[1] === i;
      line.append(tile(slot.code, { sideways: slot.sideways, called: slot.called_away, last, tsumogiri: slot.tsumogiri }));
    }
    river.append(line);
  }
  return river;
}

function meldNode(meld) {
  const node = el("div", { class: "meld", "data-type": meld.type });
  meld.tiles.forEach((code, i) => {
    const down = meld.face_down.includes(i);
    const sideways = meld.sideways === i;
    if (sideways && meld.added) {
      const stack = el("div", { class: "stack" });
      stack.append(tile(meld.added, { sideways: true }), tile(code, { sideways: true }));
      node.append(stack);
    } else {
      node.append(tile(code, { sideways, faceDown: down }));
    }
  });
  return node;
}

function drawSeat(layer, s, state) {
  const seat = state.seats[s];
  const active = current.turn && current.turn.seat === s;
  layer.replaceChildren();
  layer.classList.toggle("active", Boolean(active));
  const plate = el(
    "div",
    { class: "plate" },
    el("span", { class: "wind", text: seatWind(s, state.oya)[0] }),
    el("span", { class: "score", text: (state.scores[s] ?? 0).toLocaleString("en-US") }),
    seat.riichi ? el("span", { class: "riichi", text: "RIICHI" }) : null,
    el("span", { class: "timer", "data-seat": s, text: "" }),
  );
  const melds = el("div", { class: "melds", "data-seat": s });
  seat.melds.forEach((m) => melds.append(meldNode(m)));
  const stick = seat.riichi ? el("div", { class: "stick" }) : null;
  layer.append(...[el("div", { class: "seat-inner" }, riverNode(s, seat, current.lastDiscard)), plate, stick, melds].filter(Boolean));
}

function draw() {
  const state = current.state;
  if (!state) return;
  board.querySelectorAll(".seat-layer").forEach((layer) => drawSeat(layer, Number(layer.dataset.seat), state));
  document.getElementById("round").textContent =
    `${WIND_CHARS[state.bakaze] || state.bakaze} ${state.kyoku}` + (state.honba ? ` · ${state.honba} honba` : "");
  const dora = document.getElementById("dora");
  dora.replaceChildren(...state.dora_indicators.map((c) => tile(c)));
  document.getElementById("wall").textContent = state.live_wall;
  document.getElementById("sticks").textContent = state.kyotaku ? `${state.kyotaku} riichi stick${state.kyotaku > 1 ? "s" : ""}` : "";
  board.dataset.ready = "1";
  tickTimer();
}

function tickTimer() {
  board.querySelectorAll(".timer").forEach((node) => {
    const s = Number(node.dataset.seat);
    if (current.turn && current.turn.seat === s && current.t !== null) {
      const drift = current.tAt ? (Date.now() / 1000 - current.tAt) : 0;
      node.textContent = formatClock(current.t + Math.min(drift, 1) - current.turn.since);
    } else node.textContent = "";
  });
}

// the camera or stream dropped: the table stays as last seen, with a note of what is going on
function showSource(source) {
  const note = document.getElementById("source");
  const quiet = source === "playing" || source === "live" || source === "ended" || source === "starting";
  note.hidden = quiet;
  note.textContent = quiet ? "" : `camera ${source}`;
  board.dataset.source = source;
}

function onMessage(msg) {
  if (typeof msg.source === "string") showSource(msg.source);
  if (msg.type === "snapshot" || msg.type === "update" || msg.type === "tick") {
    if ("turn" in msg) current.turn = msg.turn;
    if (msg.t !== null && msg.t !== undefined) { current.t = msg.t; current.tAt = msg.received_wall; }
    for (const e of msg.events || []) {
      if (e.type === "dahai" && msg.state) current.lastDiscard = [e.actor, msg.state.seats[e.actor].river.length - 1];
      else if (e.type !== "hand_count" && e.type !== "wall_take") current.lastDiscard = null;
    }
    if (msg.state) { current.state = msg.state; draw(); }
    else tickTimer();
  }
  if (msg.type === "update" && msg.read_wall !== undefined) window.mjmonLastUpdate = msg;
}

connectStream(onMessage, (up) => document.getElementById("link").classList.toggle("up", up));
setInterval(tickTimer, 250);
if (new URLSearchParams(location.search).has("backdrop")) document.body.classList.add("backdrop");

// fit the 800 px table map to whatever size the browser source is given
function fit() {
  const scale = Math.min(window.innerWidth, window.innerHeight) / 800;
  board.style.transform = `scale(${scale})`;
}
window.addEventListener("resize", fit);
fit();
