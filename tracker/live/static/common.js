// Shared by /overlay and /referee: the /ws connection (reconnects with backoff, pages keep the
// last state meanwhile) and small helpers. No framework, no build step.
"use strict";

const WINDS = ["East", "South", "West", "North"];
const WIND_CHARS = { E: "East", S: "South", W: "West", N: "North" };

function connectStream(onMessage, onConnection) {
  let wait = 500;
  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws`);
    ws.onopen = () => { wait = 500; onConnection(true); };
    ws.onmessage = (msg) => {
      let data;
      try { data = JSON.parse(msg.data); } catch (err) { return; }
      // a client that fell a little behind gets what piled up as one array, in order
      for (const item of Array.isArray(data) ? data : [data]) {
        item.received_wall = Date.now() / 1000;
        onMessage(item);
      }
    };
    ws.onclose = () => {
      onConnection(false);
      setTimeout(open, wait);
      wait = Math.min(wait * 2, 8000);
    };
  }
  open();
}

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) if (child) node.append(child);
  return node;
}

function formatClock(seconds) {
  if (seconds === null || seconds === undefined) return "";
  const s = Math.max(0, Math.floor(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

function seatWind(seat, oya) {
  return WINDS[(seat - oya + 4) % 4];
}
