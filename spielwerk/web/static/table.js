// The table page shell, the same for every game: connects the websocket, keeps the log,
// shows whose turn it is and the result, and hands the board to the game's renderer module
// (static/games/<game>.js). Legal actions the renderer does not draw as board controls are
// listed as buttons, so every legal action is always one click away.
import { h } from "/static/dom.js";
import { t, lang } from "/static/i18n.js";
import { seatNamer, eventText, eventMarks, foldLog, logItem, resultNodes, colourSeats, gameSay } from "/static/narration.js";
import { chatPanel } from "/static/chat.js";
import { presencePanel } from "/static/presence.js";
import { createHints } from "/static/hints.js";

const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop() || "");
const fragment = new URLSearchParams(location.hash.slice(1));
let token = fragment.get("token");
const invitation = token ? null : fragment.get("invite");
const SEATS = "spielwerk-seats";   // the lobby's store of seat tokens taken in this browser
const NAME = "spielwerk-name";

const el = (id) => document.getElementById(id);
const ui = {
  title: el("game-title"), seat: el("seat-label"), rules: el("rules-link"), conn: el("conn"),
  toast: el("toast"), notice: el("notice"), trouble: el("trouble"), devices: el("devices"), claim: el("claim"), status: el("status"), result: el("result"), board: el("board"),
  actions: el("actions"), log: el("log"), undo: el("undo"),
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
let online = false;        // the websocket is open and welcomed
let fatal = null;          // a terminal error (bad link, no such table): no reconnecting
let reconnectAt = 0;       // when the next attempt to reconnect starts (performance.now())
let countdown = null;      // the timer that shows the seconds until then

// Why a table cannot be opened at all: the close codes after which reconnecting cannot help.
const FINAL = {
  4400: t("table.final_4400"),
  4403: t("table.final_4403"),
  4404: t("table.final_4404"),
  4410: t("table.final_4410"),   // a spectator let go: nothing happened at the table for long
};

// Seats are numbered from 1 on the page (the rules count from 0); a claimed seat shows its
// player's name, a bot its level, your own seat "(you)".
const namer = () => seatNamer(table && table.seats, () => (latest && latest.names) || [], mySeat, info);
const seatName = (p) => namer().seatName(p);
seatName.title = (p) => namer().seatName.title(p);    // a bot's spec and rating, as a tooltip
const chat = chatPanel(el("chat-panel"), { send: (m) => send(m), seatName: (p) => seatName(p), tableId });
const presence = presencePanel(el("presence-panel"), { send: (m) => send(m), seatName: (p) => seatName(p) });
const logName = (p) => namer().logName(p);
const nameSeats = (text) => namer().nameSeats(text);

/** A refusal in the page's language: the server names it by a code (its English `message` is
 * for programs and logs); one the page does not know is said in general words. */
function refusalText(message) {
  const key = `error.${message.code || "refused"}`;
  const text = t(key);
  return text === key ? t("error.refused") : text;
}

const hints = createHints({ panel: el("hints"), tableId, token: () => token, send: (m) => send(m), nameSeats, seatName });
hints.onUsed(() => { if (latest && renderer) render(); });

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
  if (waiting || !online || mySeat === null || !socket || socket.readyState !== WebSocket.OPEN) return;
  setWaiting(true);
  sentRef += 1;
  // The version the action was chosen in: the server refuses it if the seat's turn has moved
  // on since (another tab of this seat acted first).
  send({ type: "act", action, version: latest.version, ref: sentRef });
  if (latest && renderer) render();     // the controls go away until the answer
}

// Take back this seat's last action (Board Game Arena's rule: the server refuses, saying why,
// once anybody else acted or the action showed something hidden).
function undo() {
  if (waiting || !online || mySeat === null || !latest) return;
  setWaiting(true);
  sentRef += 1;
  send({ type: "undo", version: latest.version, ref: sentRef });
  if (renderer) render();
}

// "Play again": the server starts the rematch (or names the one already started); this seat's
// link opens the same seat there.
function rematch() {
  if (waiting || !online || mySeat === null) return;
  setWaiting(true);
  sentRef += 1;
  send({ type: "rematch", ref: sentRef });
}

function rematchUrl(id) {
  return `/table/${encodeURIComponent(id)}${token && mySeat !== null ? `#token=${token}` : ""}`;
}

function goToRematch(id) {
  if (token && mySeat !== null) rememberSeat(mySeat, token, id);
  finalClose = true;
  location.assign(rematchUrl(id));
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  socket = new WebSocket(`${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`);
  socket.addEventListener("open", () => {
    send(token ? { type: "hello", token, lang } : { type: "hello", lang });
  });
  socket.addEventListener("message", (event) => onMessage(JSON.parse(event.data)));
  socket.addEventListener("close", (event) => {
    setWaiting(false);
    if (finalClose) return;
    if (FINAL[event.code]) {
      showFatal(FINAL[event.code]);
      return;
    }
    // The server may be restarting or the network gone: the board is disabled and the page
    // comes back by itself, with back-off, counting down to the next attempt.
    setOnline(false);
    reconnectAt = performance.now() + retry;
    setTimeout(connect, retry);
    retry = Math.min(retry * 2, 8000);
    tickCountdown();
  });
}

function setOnline(on) {
  online = on;
  document.body.classList.toggle("offline", !on && latest !== null);
  ui.board.inert = !on;
  ui.actions.inert = !on;
  ui.conn.textContent = on ? t("table.connected") : latest ? t("table.disconnected") : t("table.connecting");
  ui.conn.classList.toggle("off", !on);
  if (on) {
    clearInterval(countdown);
    countdown = null;
  }
  if (latest && renderer) render();
}

function tickCountdown() {
  if (countdown === null) countdown = setInterval(tickCountdown, 250);
  renderStatus();
}

/** A link that can never work: say so for good, stop trying, leave the board disabled. */
function showFatal(text) {
  fatal = text;
  online = false;
  clearInterval(countdown);
  ui.toast.hidden = true;
  ui.board.inert = true;
  ui.actions.inert = true;
  document.body.classList.add("offline");
  ui.conn.textContent = t("table.closed");
  ui.conn.classList.add("off");
  ui.status.className = "status fatal";
  ui.status.replaceChildren(text, " ",
    h("a", { href: "/", text: t("page.back_to_lobby") }),
    tableId && text !== FINAL[4404] ? h("span", {}, " · ", h("a", { href: `/table/${encodeURIComponent(tableId)}`, text: t("table.watch_table") })) : null);
}

let narration = {};        // event key -> template in the page's language (/api/games/<game>)
let say = gameSay({});     // the game's own words in the page's language
const flashes = new Map(); // CSS selector of a board piece -> when its highlight ends
const words = (ev) => eventText(narration, ev, logName, nameSeats);

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

/** The game's title in the page's language (from /api/games/<game>; until it has come, the
 * page shows none rather than the server's English one). */
function gameTitle() { return (info && info.title) || ""; }

async function onMessage(message) {
  if (message.type === "welcome") {
    retry = 500;
    table = message.table;
    mySeat = message.seat;
    ui.log.replaceChildren();            // the server sends the whole log again
    logLines.length = 0;
    logEntries = [];
    ui.rules.href = `${table.rules_url}?lang=${lang}`;
    ui.seat.textContent = mySeat === null ? t("table.spectator") : t("seat.n", { n: mySeat + 1 });
    chat.welcome(message);
    presence.welcome(message);
    hints.welcome(mySeat);
    if (!renderer) {
      [renderer, info] = await Promise.all([
        import(table.renderer),
        fetch(`/api/games/${encodeURIComponent(table.game)}?lang=${encodeURIComponent(lang)}`).then((r) => r.json()),
      ]);
      narration = info.narration || {};
      say = gameSay(info.texts);
      ui.title.textContent = gameTitle();
      document.title = `${gameTitle()} · spielwerk`;
      if (latest) { rewriteLog(); render(); }
    }
  } else if (message.type === "state") {
    const first = latest === null;
    latest = message;
    if (!online || first) setOnline(true);
    if (message.log_from < logLines.length) {   // a move was taken back: its line goes
      logLines.length = message.log_from;
      rewriteLog();
    }
    appendLog(message.log, message.log_from > 0);
    showNotice(message.notice, message.version);
    if (waiting && awaitVersion !== null && message.version >= awaitVersion) setWaiting(false);
    document.body.dataset.version = String(message.version);
    document.body.dataset.over = String(message.over);
    presence.update(message);
    chat.redraw();
    hints.state(message);
    if (renderer) render();
  } else if (message.type === "chat") {
    chat.add(message.lines);
  } else if (hints.message(message)) {
    // a hint for this seat: the hints panel shows it
  } else if (message.type === "ok") {
    if (message.ref !== sentRef) return;
    if (latest && latest.version >= message.version) {
      setWaiting(false);
      if (renderer) render();
    } else {
      awaitVersion = message.version;
    }
  } else if (message.type === "rematch") {
    if (message.ref === sentRef) goToRematch(message.table);
  } else if (message.type === "error") {
    if (message.ref === undefined || message.ref === sentRef) setWaiting(false);
    if (!table) return;                  // before the welcome: the close code tells what went wrong
    showToast(refusalText(message));
    if (latest && renderer) render();
  }
}

let lastNotice = "";

// What happened without a step (a seat took back its move): a line in the log and a status.
function showNotice(notice, version) {
  const key = notice ? `${version}:${notice.kind}:${notice.seat}` : "";
  if (key === lastNotice) return;
  lastNotice = key;
  ui.notice.hidden = !notice;
  if (!notice) return;
  const text = notice.seat === mySeat ? t("table.you_took_back") : t("table.took_back", { seat: seatName(notice.seat) });
  ui.notice.textContent = text;
  // It floats over the page for a while; the log keeps it.
  clearTimeout(showNotice.timer);
  showNotice.timer = setTimeout(() => { ui.notice.hidden = true; }, 6000);
  ui.log.append(h("li", { class: "notice", text }));
  ui.log.scrollTop = ui.log.scrollHeight;
}

const logLines = [];       // every log line received, to write again once names are known
let logEntries = [];       // the log as shown: lines folded into groups (a deal, a trick)

function logEntry(entry) {
  return logItem(entry, { nameSeats, words, mine: (actor) => mySeat !== null && actor === mySeat });
}

function appendLog(lines, fresh) {
  for (const line of lines) {
    logLines.push(line);
    // Only what just happened is highlighted, not the history sent on (re)connecting.
    if (fresh) {
      const until = performance.now() + 1600;
      for (const ev of line.events || []) for (const mark of eventMarks(ev)) flashes.set(mark, until);
    }
  }
  // A line that folds into the last entry's group rewrites that entry; the others are added.
  const entries = foldLog(logLines);
  const kept = entries.length && logEntries.length ? Math.min(entries.length, logEntries.length) - 1 : 0;
  const items = ui.log.querySelectorAll(":scope > li:not(.notice)");
  for (let k = kept; k < items.length; k++) items[k].remove();
  ui.log.append(...entries.slice(kept).map(logEntry));
  logEntries = entries;
  ui.log.scrollTop = ui.log.scrollHeight;
}

function rewriteLog() {
  logEntries = foldLog(logLines);
  ui.log.replaceChildren(...logEntries.map(logEntry));
  ui.log.scrollTop = ui.log.scrollHeight;
}

function renderStatus() {
  const state = latest;
  if (fatal) return;
  if (!online) {
    const seconds = Math.max(0, Math.ceil((reconnectAt - performance.now()) / 1000));
    ui.status.className = "status offline";
    ui.status.textContent = seconds > 0
      ? t("table.reconnecting_in", { seconds })
      : t("table.reconnecting");
    return;
  }
  if (!state) return;
  // The server could not save its own move (a bot's, a card drawn): it retries by itself.
  ui.trouble.hidden = !state.trouble;
  ui.trouble.textContent = state.trouble ? t("table.trouble") : "";
  const devices = state.devices || 1;
  ui.devices.hidden = devices < 2;
  ui.devices.textContent = devices < 2 ? "" : t("table.devices", { n: devices });
  ui.status.className = "status";
  if (state.broken) {
    ui.status.textContent = t("table.broken");
    return;
  }
  if (state.over) {
    ui.status.classList.add("over");
    ui.status.textContent = t("page.game_over");
    return;
  }
  const movers = state.to_move;
  noticeTurn(mySeat !== null && movers.includes(mySeat) && !state.over);
  if (mySeat !== null && movers.includes(mySeat)) {
    ui.status.classList.add("your-turn");
    ui.status.textContent = t("table.your_turn");
  } else if (movers.length === 0) {
    ui.status.textContent = t("table.waiting");
  } else {
    ui.status.textContent = t("page.to_move", { seats: movers.map((p) => seatName(p)).join(", ") });
  }
}

// The result: who won and why, every seat's score with its breakdown (the game's
// explanation), the tie-break only where it decided something.
function renderResult() {
  const result = latest.result;
  ui.result.hidden = !result;
  if (!result) return;
  const again = latest.rematch
    ? h("p", { class: "rematch" }, t("table.rematch_started"),
      h("a", { id: "join-rematch", href: rematchUrl(latest.rematch), text: mySeat === null ? t("table.watch_it") : t("table.join_it") }))
    : mySeat !== null
      ? h("p", {}, h("button", { type: "button", id: "rematch", class: "primary", disabled: waiting || !online, onclick: rematch, text: t("table.play_again") }))
      : null;
  ui.result.replaceChildren(...[
    ...resultNodes(result, latest.explanation, seatName, words),
    hints.resultNode(),
    again,
    h("p", {},
      h("a", { id: "replay", href: `/table/${encodeURIComponent(tableId)}/replay${mySeat === null ? "" : `#seat=${mySeat}`}`, text: t("table.watch_replay") }),
      " · ",
      h("a", { id: "record", href: `/api/tables/${encodeURIComponent(tableId)}/record`, text: t("table.download_record") }),
      " · ",
      h("a", { href: "/", text: t("page.back_to_lobby") })),
  ].filter(Boolean));
}

let handled = new Set();

/** The legal actions with the seats in their labels named as on the page ("Be last: Ada
 * starts the next round"). */
function namedLegal() {
  return (latest ? latest.legal : []).map((entry) => ({ ...entry, text: nameSeats(entry.text) }));
}

function renderActions() {
  const legal = namedLegal();
  const rest = legal.filter((entry) => !handled.has(entry.id));
  // "Take back" keeps its place beside the heading: it shows only when the rule allows it
  // for the newest move (the server decides), and nothing moves when it comes or goes.
  const offered = Boolean(latest && latest.may_undo);
  ui.undo.classList.toggle("offered", offered);
  ui.undo.disabled = !offered || waiting || !online;
  if (!legal.length) {
    ui.actions.replaceChildren(h("span", { class: "muted small", text: mySeat === null ? t("table.watching") : t("table.nothing_to_do") }));
    return;
  }
  const hint = rest.length < legal.length
    ? [h("p", { class: "small muted", text: rest.length ? t("table.click_piece_or") : t("table.click_piece") })]
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
    legal: waiting ? [] : namedLegal(),
    toMove: latest.to_move,
    over: latest.over,
    result: latest.result,
    table,
    info,
    data: (info && info.data) || {},
    seatName,
    say,
    lang,
    act,
  };
  let drawn;
  try {
    drawn = renderer.render(ctx);
  } catch (error) {
    console.error(error);
    drawn = { node: h("p", { class: "toast", text: t("page.board_error", { error }) }), handled: new Set() };
  }
  handled = drawn.handled || new Set();
  ui.board.replaceChildren(drawn.node);
  colourSeats(ui.board, seatName);
  applyFlashes();
  renderActions();
  keepFocus();
}

// Keyboard play: a redraw replaces the control that had the focus; the focus then goes to the
// first control of the new state instead of back to the top of the page.
let keyboardUser = false;
document.addEventListener("keydown", (event) => { if (["Tab", "Enter", " "].includes(event.key)) keyboardUser = true; });
document.addEventListener("pointerdown", () => { keyboardUser = false; });

function keepFocus() {
  const focused = document.activeElement;
  if (!keyboardUser || (focused && focused !== document.body)) return;
  const next = document.querySelector("#board [data-action-id], #actions [data-action-id]:not([disabled])");
  if (next) next.focus();
}

function rememberSeat(seat, seatToken, id = tableId) {
  let all;
  try { all = JSON.parse(localStorage.getItem(SEATS) || "{}"); } catch { all = {}; }
  all[id] = { ...(all[id] || {}), [seat]: seatToken };
  localStorage.setItem(SEATS, JSON.stringify(all));
}

// An invitation: first ask the server what it opens (read only). A used invitation, or another
// table's, is refused at once, in the page's words; a good one shows who invites you to which
// game and who sits at the table, then asks for a name and claims the seat (the server answers
// with a token of our own); the invitation is used up.
async function offerClaim() {
  ui.status.textContent = t("table.checking_invitation");
  const url = `/api/tables/${encodeURIComponent(tableId)}`;
  const post = (path, body) => fetch(`${url}${path}`, {
    method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
  });
  const response = await post("/invitation", { invitation });
  const invited = await response.json().catch(() => ({}));
  if (!response.ok) {
    showFatal(invited.code === "no_table" ? FINAL[4404] : refusalText(invited));
    return;
  }
  const game = await fetch(`/api/games/${encodeURIComponent(invited.game)}?lang=${encodeURIComponent(lang)}`)
    .then((r) => r.json()).catch(() => ({}));
  const title = game.title || invited.game;
  ui.title.textContent = title;
  document.title = `${title} · spielwerk`;
  const names = invited.seats.map((seat) => seat.name);
  const { seatName } = seatNamer(invited.seats, () => names, null, game);   // bots by name and level
  el("claim-heading").textContent = invited.host === null
    ? t("table.invited_to", { game: title })
    : t("table.invited_by", { host: names[invited.host] || seatName(invited.host), game: title });
  el("claim-seats").replaceChildren(...invited.seats.map((seat) => {
    const n = seat.seat + 1;
    let text = seatName(seat.seat);
    if (seat.seat === invited.seat) text = t("table.invited_your_seat", { n });
    else if (seat.kind === "human" && !seat.claimed) text = t("table.invited_open_seat", { n });
    else if (seat.kind === "human") text = t("table.invited_seat", { n, name: text });
    return h("li", { class: seat.seat === invited.seat ? "yours" : null, title: seatName.title(seat.seat) }, text);
  }));
  ui.status.textContent = t("table.take_seat_status");
  ui.claim.hidden = false;
  el("claim-name").value = localStorage.getItem(NAME) || "";
  el("claim-name").focus();
  ui.claim.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = el("claim-name").value.trim();
    const claimed = await post("/claim", name ? { invitation, name } : { invitation });
    const answer = await claimed.json().catch(() => ({}));
    if (!claimed.ok) {
      el("claim-error").replaceChildren(answer.code ? refusalText(answer) : t("table.claim_failed"), " · ",
        h("a", { href: `/table/${encodeURIComponent(tableId)}`, text: t("table.watch_table") }));
      el("claim-error").hidden = false;
      return;
    }
    if (name) localStorage.setItem(NAME, name);
    if (answer.table && answer.table !== tableId) {
      // The invitation had moved on to the table's rematch: the seat is there.
      rememberSeat(answer.seat, answer.token, answer.table);
      location.assign(answer.url);
      return;
    }
    token = answer.token;
    rememberSeat(answer.seat, token);
    history.replaceState(null, "", `#token=${token}`);
    ui.claim.hidden = true;
    connect();
  });
}

/** Who sits at the table one is invited to: the players by name, the bots by their level. */
// ---------------------------------------------------------------- turn notice
// A player whose tab is in the background learns that it is their turn: the page title and the
// favicon change, and (if they allowed it with a click) the browser shows a notification.
let myTurn = false;
let notified = false;
const favicon = document.querySelector("link[rel=icon]");

function noticeTurn(turn) {
  const started = turn && !myTurn;
  myTurn = turn;
  if (!turn) notified = false;
  const title = info ? `${gameTitle()} · spielwerk` : t("table.page_title");
  const alert = turn && document.hidden;
  document.title = alert ? t("table.turn_title", { title }) : title;
  favicon.href = alert ? "/static/favicon-turn.svg" : "/static/favicon.svg";
  if (alert && started && !notified && "Notification" in window && Notification.permission === "granted") {
    notified = true;
    new Notification(t("table.turn_notification", { title: gameTitle() }), { body: "spielwerk", tag: `spielwerk-${tableId}` });
  }
}

document.addEventListener("visibilitychange", () => { if (latest) noticeTurn(myTurn); });

function offerNotifications() {
  const button = el("notify");
  if (!("Notification" in window) || Notification.permission !== "default") return;
  button.hidden = false;
  button.addEventListener("click", async () => {
    await Notification.requestPermission();
    button.hidden = true;
  });
}

ui.undo.addEventListener("click", undo);

// On a phone the log is a sheet over the lower part of the page: one tap opens it and the board
// stays in view above it; another tap, or Escape, closes it. (Wider pages show it beside the
// board; the button is not shown there.)
const logToggle = el("log-toggle");
function showLog(open) {
  document.body.classList.toggle("log-open", open);
  logToggle.setAttribute("aria-expanded", String(open));
  if (open) ui.log.scrollTop = ui.log.scrollHeight;
}
logToggle.addEventListener("click", () => showLog(!document.body.classList.contains("log-open")));
document.addEventListener("keydown", (event) => { if (event.key === "Escape") showLog(false); });
window.addEventListener("beforeunload", () => { finalClose = true; });
offerNotifications();
if (!tableId) {
  ui.status.textContent = t("table.no_table_id");
} else if (invitation) {
  offerClaim().catch(() => showFatal(t("error.refused")));
} else {
  connect();
}
