// The table page shell, the same for every game: connects the websocket, keeps the log,
// shows whose turn it is and the result, and hands the board to the game's renderer module
// (static/games/<game>.js). Legal actions the renderer does not draw as board controls are
// listed as buttons, so every legal action is always one click away.
import { h } from "/static/dom.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("token");
const invitation = token ? null : fragment.get("invite");
const SEATS = "spielwerk-seats";   // the lobby's store of seat tokens taken in this browser
const NAME = "spielwerk-name";

const el = (id) => document.getElementById(id);
const ui = {
  title: el("game-title"), seat: el("seat-label"), rules: el("rules-link"), conn: el("conn"),
  toast: el("toast"), trouble: el("trouble"), devices: el("devices"), claim: el("claim"), status: el("status"), result: el("result"), board: el("board"),
  actions: el("actions"), log: el("log"),
};

let socket = null;
let table = null;          // the welcome message's table
let mySeat = null;
let renderer = null;       // the game's renderer module
let info = null;           // /api/games/<game>: options, component data
let latest = null;         // the newest state message
let waiting = false;       // an action is on its way: controls are off until its state comes
let sentRef = 0;           // the "ref" of the last action sent
let awaitVersion = null;   // after "ok": the version whose state ends the wait
let retry = 500;
let finalClose = false;

// Seats are numbered from 1 on the page (the rules count from 0); a claimed seat shows its
// player's name, a bot its level, your own seat "(you)".
function seatName(p) {
  const seat = table && table.seats[p];
  const name = (latest && latest.names && latest.names[p]) || (seat && seat.name);
  let label = name || `Seat ${p + 1}`;
  if (seat && seat.kind === "bot") label = `Seat ${p + 1} (bot ${seat.bot})`;
  return p === mySeat ? (name ? `${name} (you)` : "You") : label;
}

/** A seat as the subject of a log line: your own is "Ada (you)", not "You" ("You plays"). */
function logName(p) {
  if (p !== mySeat) return seatName(p);
  const name = latest && latest.names && latest.names[p];
  return `${name || `Seat ${p + 1}`} (you)`;
}

/** A rules text ("seat 2 plays red-7") with its seats named as on the page. */
function nameSeats(text) {
  return text.replace(/\bseat (\d+)\b/g, (whole, n) =>
    table && Number(n) < table.seats.length ? logName(Number(n)) : whole);
}

function showToast(text) {
  ui.toast.textContent = text;
  ui.toast.hidden = false;
  clearTimeout(showToast.timer);
  showToast.timer = setTimeout(() => { ui.toast.hidden = true; }, 6000);
}

function send(message) {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

function setWaiting(on) {
  waiting = on;
  document.body.classList.toggle("waiting", on);
  if (!on) awaitVersion = null;
}

function act(action) {
  if (waiting || mySeat === null || !socket || socket.readyState !== WebSocket.OPEN) return;
  setWaiting(true);
  sentRef += 1;
  // The version the action was chosen in: the server refuses it if the seat's turn has moved
  // on since (another tab of this seat acted first).
  send({ type: "act", action, version: latest.version, ref: sentRef });
  if (latest && renderer) render();     // the controls go away until the answer
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => {
    retry = 500;
    ui.conn.textContent = "connected";
    ui.conn.classList.remove("off");
    send(token ? { type: "hello", token } : { type: "hello" });
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    ui.conn.textContent = "disconnected";
    ui.conn.classList.add("off");
    setWaiting(false);
    if (finalClose || [4400, 4403, 4404].includes(event.code)) return;
    setTimeout(connect, retry);          // the server may be restarting: come back
    retry = Math.min(retry * 2, 8000);
  });
}

let narration = {};        // event key -> English template (from /api/games/<game>)
const flashes = new Map(); // CSS selector of a board piece -> when its highlight ends
const SEAT_KEYS = new Set(["seat", "winner", "victim", "seats"]);
const isSeatKey = (key) => SEAT_KEYS.has(key) || key.endsWith("_seat");

/** An event of the game's narration in words: its template, seats named. */
function eventText(ev) {
  const template = narration[ev.key];
  if (!template) return ev.key;
  return template.replace(/\{(\w+)\}/g, (whole, key) => {
    const value = ev.params[key];
    if (value === undefined || value === null) return "";
    if (key === "gains") {
      return value.length ? value.map((g) => `${logName(g.seat)} ${g.points > 0 ? "+" : ""}${g.points}`).join(", ") : "nobody";
    }
    if (isSeatKey(key) && Array.isArray(value)) return value.map((p) => logName(p)).join(", ");
    if (isSeatKey(key) && typeof value === "number") return logName(value);
    return String(value);
  });
}

/** The board pieces an event is about, as CSS selectors. */
function eventMarks(ev) {
  const marks = [];
  const p = ev.params || {};
  const quote = (v) => CSS.escape(String(v));
  if (typeof p.seat === "number") marks.push(`[data-seat="${p.seat}"]`);
  if (typeof p.victim === "number") marks.push(`[data-seat="${p.victim}"]`);
  if (p.card) marks.push(`[data-card="${quote(p.card)}"]`);
  if (p.mark_board) marks.push(`[data-board="${quote(p.mark_board)}"]`);
  if (p.mark_place) marks.push(`[data-location="${quote(p.mark_place)}"]`);
  if (p.mark_character) marks.push(`[data-character="${quote(p.mark_character)}"]`);
  return marks;
}

function applyFlashes() {
  const now = performance.now();
  for (const [selector, until] of flashes) {
    if (until < now) { flashes.delete(selector); continue; }
    for (const node of ui.board.querySelectorAll(selector)) {
      node.classList.add("flash");
      setTimeout(() => node.classList.remove("flash"), until - now);
    }
  }
}

async function onMessage(message) {
  if (message.type === "welcome") {
    table = message.table;
    mySeat = message.seat;
    ui.log.replaceChildren();            // the server sends the whole log again
    logLines.length = 0;
    ui.title.textContent = table.title;
    document.title = `${table.title} · spielwerk`;
    ui.rules.href = table.rules_url;
    ui.seat.textContent = mySeat === null ? "Spectator" : `Seat ${mySeat + 1}`;
    if (!renderer) {
      [renderer, info] = await Promise.all([
        import(table.renderer),
        fetch(`/api/games/${encodeURIComponent(table.game)}`).then((r) => r.json()),
      ]);
      narration = info.narration || {};
      if (latest) { rewriteLog(); render(); }
    }
  } else if (message.type === "state") {
    latest = message;
    appendLog(message.log, message.log_from > 0);
    if (waiting && awaitVersion !== null && message.version >= awaitVersion) setWaiting(false);
    document.body.dataset.version = String(message.version);
    document.body.dataset.over = String(message.over);
    if (renderer) render();
  } else if (message.type === "ok") {
    if (message.ref !== sentRef) return;
    if (latest && latest.version >= message.version) {
      setWaiting(false);
      if (renderer) render();
    } else {
      awaitVersion = message.version;
    }
  } else if (message.type === "error") {
    if (message.ref === undefined || message.ref === sentRef) setWaiting(false);
    showToast(message.message);
    if (latest && renderer) render();
  }
}

const logLines = [];       // every log line received, to write again once names are known

function logItem(line) {
  const mine = mySeat !== null && line.actor === mySeat;
  const events = (line.events || []).filter((ev) => !ev.quiet);
  return h("li", { class: mine ? "mine" : null, value: line.i + 1, "data-i": line.i },
    h("span", { class: "line", text: nameSeats(line.text) }),
    events.map((ev) => h("span", { class: "event", "data-event": ev.key, text: eventText(ev) })));
}

function appendLog(lines, fresh) {
  for (const line of lines) {
    logLines.push(line);
    ui.log.append(logItem(line));
    // Only what just happened is highlighted, not the history sent on (re)connecting.
    if (fresh) {
      const until = performance.now() + 1600;
      for (const ev of line.events || []) for (const mark of eventMarks(ev)) flashes.set(mark, until);
    }
  }
  ui.log.scrollTop = ui.log.scrollHeight;
}

function rewriteLog() {
  ui.log.replaceChildren(...logLines.map(logItem));
  ui.log.scrollTop = ui.log.scrollHeight;
}

function renderStatus() {
  const state = latest;
  // The server could not save its own move (a bot's, a card drawn): it retries by itself.
  ui.trouble.hidden = !state.trouble;
  ui.trouble.textContent = state.trouble || "";
  const devices = state.devices || 1;
  ui.devices.hidden = devices < 2;
  ui.devices.textContent = devices < 2 ? "" : `This seat is open on ${devices} devices or tabs: if that is not you, somebody else has your link.`;
  ui.status.className = "status";
  if (state.broken) {
    ui.status.textContent = state.broken;
    return;
  }
  if (state.over) {
    ui.status.classList.add("over");
    ui.status.textContent = "Game over.";
    return;
  }
  const movers = state.to_move;
  if (mySeat !== null && movers.includes(mySeat)) {
    ui.status.classList.add("your-turn");
    ui.status.textContent = "Your turn.";
  } else if (movers.length === 0) {
    ui.status.textContent = "Waiting…";
  } else {
    ui.status.textContent = `${movers.map((p) => seatName(p)).join(", ")} to move.`;
  }
}

// The result: who won and why, every seat's score with its breakdown (the game's
// explanation), the tie-break only where it decided something.
function renderResult() {
  const result = latest.result;
  ui.result.hidden = !result;
  if (!result) return;
  const winners = result.winners || [];
  const scores = result.scores || [];
  const explained = latest.explanation;
  const head = explained ? eventText(explained.verdict)
    : winners.length ? `Winner${winners.length > 1 ? "s" : ""}: ${winners.map((p) => seatName(p)).join(", ")}` : "No winner";
  const rows = explained ? explained.rows : scores.map((score, p) => ({ seat: p, total: score, parts: [] }));
  ui.result.replaceChildren(...[
    h("h2", { id: "verdict", text: `Game over. ${head}.` }),
    h("table", { class: "breakdown" },
      h("tr", {}, h("th", { text: "Seat" }), h("th", { text: "Score" }), h("th", { text: "How" }), h("th", { text: "" })),
      rows.map((row) => h("tr", { "data-seat": row.seat },
        h("td", { text: seatName(row.seat) }), h("td", { class: "total", text: String(row.total) }),
        h("td", { class: "parts" }, row.parts.map((ev) => h("div", { "data-part": ev.key, text: eventText(ev) }))),
        h("td", { text: winners.includes(row.seat) ? "winner" : "" })))),
    explained && explained.tie_break ? h("p", { id: "tie-break", text: `Tie-break: ${eventText(explained.tie_break)}.` }) : null,
    ...((explained && explained.notes) || []).map((ev) => h("p", { class: "small", text: `${eventText(ev)}.` })),
    !explained && result.tie_break ? h("p", { class: "small", text: `Tie-break: ${result.tie_break}` }) : null,
    h("p", {},
      h("a", { id: "record", href: `/api/tables/${encodeURIComponent(tableId)}/record`, text: "Download the record" }),
      " · ",
      h("a", { href: "/", text: "Back to the lobby" })),
  ].filter(Boolean));
}

let handled = new Set();

function renderActions() {
  const legal = latest ? latest.legal : [];
  const rest = legal.filter((entry) => !handled.has(entry.id));
  if (!legal.length) {
    ui.actions.replaceChildren(h("span", { class: "muted small", text: mySeat === null ? "You are watching." : "Nothing to do right now." }));
    return;
  }
  const hint = rest.length < legal.length
    ? [h("p", { class: "small muted", text: rest.length ? "Click a highlighted piece on the table, or:" : "Click a highlighted piece on the table." })]
    : [];
  ui.actions.replaceChildren(...hint,
    ...rest.map((entry) => h("button", {
      type: "button", class: "legal", "data-action-id": entry.id, disabled: waiting,
      onclick: () => act(entry.action), text: entry.text,
    })));
}

function render() {
  renderStatus();
  renderResult();
  const ctx = {
    view: latest.view,
    seat: mySeat,
    legal: waiting ? [] : latest.legal,
    toMove: latest.to_move,
    over: latest.over,
    result: latest.result,
    table,
    info,
    data: (info && info.data) || {},
    seatName,
    act,
  };
  let drawn;
  try {
    drawn = renderer.render(ctx);
  } catch (error) {
    console.error(error);
    drawn = { node: h("p", { class: "toast", text: `The board could not be drawn: ${error}` }), handled: new Set() };
  }
  handled = drawn.handled || new Set();
  ui.board.replaceChildren(drawn.node);
  applyFlashes();
  renderActions();
}

function rememberSeat(seat, seatToken) {
  let all = {};
  try { all = JSON.parse(localStorage.getItem(SEATS) || "{}"); } catch { all = {}; }
  all[tableId] = { ...(all[tableId] || {}), [seat]: seatToken };
  localStorage.setItem(SEATS, JSON.stringify(all));
}

// An invitation: ask for a name, claim the seat (the server answers with a token of our own),
// then play with that token; the invitation is used up.
function offerClaim() {
  ui.status.textContent = "Take your seat to start playing.";
  ui.claim.hidden = false;
  el("claim-name").value = localStorage.getItem(NAME) || "";
  ui.claim.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = el("claim-name").value.trim();
    const body = name ? { invitation, name } : { invitation };
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/claim`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) {
      el("claim-error").replaceChildren(answer.message || "the seat could not be taken", " · ",
        h("a", { href: `/table/${encodeURIComponent(tableId)}`, text: "Watch the table" }));
      el("claim-error").hidden = false;
      return;
    }
    if (name) localStorage.setItem(NAME, name);
    token = answer.token;
    rememberSeat(answer.seat, token);
    history.replaceState(null, "", `#token=${token}`);
    ui.claim.hidden = true;
    connect();
  });
}

window.addEventListener("beforeunload", () => { finalClose = true; });
if (!tableId) {
  ui.status.textContent = "No table id in the address.";
} else if (invitation) {
  offerClaim();
} else {
  connect();
}
