// The lobby: create a table (game, options, seats: human or a bot of some strength), get your
// own seat's link and an invitation link for every other human seat, list the tables. Tokens
// of seats taken in this browser are remembered in localStorage: those tables are listed
// first ("Your tables") with their "Play" links. Finished tables move to "Recent games" with
// their replay; tables without a move for long (the server's --abandon-after) are folded away
// under "Abandoned tables".
import { h } from "/static/dom.js";

const el = (id) => document.getElementById(id);
let games = [];
const STORE = "spielwerk-seats";
const NAME = "spielwerk-name";

function remembered() {
  try { return JSON.parse(localStorage.getItem(STORE) || "{}"); } catch { return {}; }
}

function remember(tableId, seats) {
  const all = remembered();
  all[tableId] = Object.fromEntries(seats.filter((s) => s.token).map((s) => [s.seat, s.token]));
  localStorage.setItem(STORE, JSON.stringify(all));
}

function currentGame() {
  return games.find((g) => g.name === el("game").value);
}

function renderOptions() {
  const game = currentGame();
  el("game-rules").href = game.rules_url;
  el("options").replaceChildren(...game.options.flatMap((option) => {
    const id = `option-${option.name}`;
    let input;
    if (option.choices) {
      input = h("select", { id, "data-option": option.name, "data-type": option.type },
        option.choices.map((c) => h("option", { value: String(c), selected: c === option.default, text: String(c) })));
    } else if (option.type === "bool") {
      input = h("input", { id, type: "checkbox", "data-option": option.name, "data-type": "bool", checked: option.default });
    } else {
      input = h("input", {
        id, type: option.type === "int" ? "number" : "text", value: String(option.default),
        min: option.minimum, max: option.maximum, "data-option": option.name, "data-type": option.type,
      });
    }
    return [h("label", { for: id, title: option.help, text: option.name.replace(/_/g, " ") }),
      h("span", { class: "row" }, input, h("span", { class: "muted small", text: option.help }))];
  }));
  const players = el("players");
  const previous = Number(players.value) || game.min_players;
  players.replaceChildren(...Array.from({ length: game.max_players - game.min_players + 1 }, (_, i) => {
    const n = game.min_players + i;
    return h("option", { value: n, text: String(n) });
  }));
  players.value = String(Math.min(Math.max(previous, game.min_players), game.max_players));
  renderSeats();
}

function renderSeats() {
  const game = currentGame();
  const n = Number(el("players").value);
  const old = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  const fallback = game.bots.find((b) => b.spec === "heuristic") || game.bots[0];
  el("seats").replaceChildren(...Array.from({ length: n }, (_, seat) => {
    const select = h("select", { id: `seat-${seat}`, "aria-label": `seat ${seat + 1}` },
      h("option", { value: "human", text: "Human" }),
      game.bots.map((b) => h("option", { value: `bot:${b.spec}`, text: `Bot: ${b.label}` })));
    select.value = old[seat] || (seat === 0 ? "human" : `bot:${fallback.spec}`);
    return h("div", { class: "row" }, h("span", { text: `Seat ${seat + 1}` }), select);
  }));
}

async function createTable(event) {
  event.preventDefault();
  const options = {};
  for (const input of document.querySelectorAll("[data-option]")) {
    const type = input.dataset.type;
    options[input.dataset.option] = type === "bool" ? input.checked : type === "int" ? Number(input.value) : input.value;
  }
  const seats = [...document.querySelectorAll("#seats select")].map((select) =>
    select.value === "human" ? { kind: "human" } : { kind: "bot", bot: select.value.slice(4) });
  const request = { game: el("game").value, options, seats };
  const mine = seats.findIndex((s) => s.kind === "human");
  if (mine >= 0) request.claim = mine;    // the creator plays the first human seat
  const name = el("player-name").value.trim();
  if (name) {
    request.name = name;
    localStorage.setItem(NAME, name);
  }
  const response = await fetch("/api/tables", {
    method: "POST", headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  const answer = await response.json();
  if (!response.ok) {
    el("create-error").textContent = answer.message || "the table could not be created";
    el("create-error").hidden = false;
    return;
  }
  el("create-error").hidden = true;
  remember(answer.id, answer.seats);
  const origin = location.origin;
  const own = answer.seats.filter((s) => s.token);
  const invited = answer.seats.filter((s) => s.invitation);
  el("created").replaceChildren(
    h("h3", { text: "Table created" }),
    ...own.map((s) => h("div", { class: "row" },
      h("a", { href: s.url, class: "play-link", "data-seat": s.seat, text: `Play seat ${s.seat + 1}` }),
      h("span", { class: "muted small", text: "your own link: keep it to yourself" }))),
    ...invited.map((s) => h("div", { class: "row" },
      h("span", { text: `Invite seat ${s.seat + 1}:` }),
      h("input", { readonly: true, class: "invite-link", "data-seat": s.seat, value: origin + s.url, "aria-label": `invitation for seat ${s.seat + 1}`, onclick: (e) => e.target.select() }))),
    h("div", { class: "row" },
      h("a", { href: answer.spectator_url, text: "Watch" }),
      h("input", { readonly: true, value: origin + answer.spectator_url, "aria-label": "spectator link", onclick: (e) => e.target.select() })));
  el("created").hidden = false;
  loadTables();
}

const STATE_TEXT = {
  waiting: "waiting for players", playing: "playing", finished: "finished", abandoned: "abandoned",
};

/** "just now", "3 min ago", "5 h ago", "2 days ago" for a number of seconds. */
function ago(seconds) {
  if (seconds < 60) return "just now";
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86400) return `${Math.floor(seconds / 3600)} h ago`;
  const days = Math.floor(seconds / 86400);
  return `${days} day${days === 1 ? "" : "s"} ago`;
}

function seatChips(t, tokens, botLabels) {
  return t.seats.map((s) => {
    const who = s.kind === "bot" ? `bot ${botLabels[s.bot] || s.bot}`
      : s.claimed ? (s.name || "a player") : "open";
    const mine = tokens[s.seat] ? " (you)" : "";
    const cls = s.kind === "bot" ? "bot" : s.claimed ? "human" : "human open";
    return h("span", { class: `chip ${cls}`, "data-seat": s.seat, text: `Seat ${s.seat + 1}: ${who}${mine}` });
  });
}

function stateChip(t) {
  const words = t.state === "playing" ? `playing, step ${t.steps}`
    : t.state === "abandoned" ? `abandoned (no move for ${ago(t.idle).replace(" ago", "")})`
    : STATE_TEXT[t.state] || t.state;
  return h("span", { class: `chip state ${t.state}`, "data-state": t.state, text: words });
}

/** One table of the list: a row per table, `recent` for finished games (ended when, replay). */
function tableList(id, tables, mine, titles, botLabels, recent = false) {
  return h("table", { class: "tables", id },
    h("thead", {}, h("tr", {},
      h("th", { text: recent ? "Ended" : "Started" }), h("th", { text: "Game" }),
      h("th", { text: "Seats" }), h("th", { text: "State" }), h("th", { text: "" }))),
    h("tbody", {}, tables.map((t) => {
      const tokens = mine[t.id] || {};
      const own = Object.keys(tokens).length > 0;
      return h("tr", { "data-table": t.id, class: own ? "own" : null },
        h("td", { class: "age", text: ago(recent ? t.idle : t.age) }),
        h("td", { class: "game", text: titles[t.game] || t.game }),
        h("td", { class: "seat-cell" }, seatChips(t, tokens, botLabels)),
        h("td", {}, stateChip(t)),
        h("td", { class: "links" },
          recent ? h("a", { href: `/table/${t.id}/replay`, class: "replay-link", text: "Replay" }) : null,
          recent ? null : Object.entries(tokens).map(([seat, token]) =>
            h("a", { href: `/table/${t.id}#token=${token}`, text: `Play seat ${Number(seat) + 1}`, class: "play-link" })),
          h("a", { href: `/table/${t.id}`, text: recent ? "Final board" : "Watch" })));
    })));
}

function section(title, id, tables, ...rest) {
  return tables.length ? [h("h3", { text: title }), tableList(id, tables, ...rest)] : [];
}

async function loadTables() {
  const mine = remembered();
  const include = Object.keys(mine).join(",");
  const response = await fetch(`/api/tables${include ? `?include=${encodeURIComponent(include)}` : ""}`);
  if (!response.ok) return;  // the database did not answer: keep the list as it was
  const tables = await response.json();
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  const botLabels = Object.fromEntries(games.flatMap((g) => g.bots.map((b) => [b.spec, b.label])));
  const own = (t) => Object.keys(mine[t.id] || {}).length > 0;
  const byOwn = (a, b) => Number(own(b)) - Number(own(a));
  const unfinished = tables.filter((t) => t.state !== "finished");
  const yours = unfinished.filter(own);
  const others = unfinished.filter((t) => !own(t) && t.state !== "abandoned");
  const abandoned = unfinished.filter((t) => !own(t) && t.state === "abandoned");
  // Finished games, your own first, then the most recently ended.
  const recent = tables.filter((t) => t.state === "finished").sort((a, b) => byOwn(a, b) || a.idle - b.idle);
  const args = [mine, titles, botLabels];
  el("tables").replaceChildren(...[
    ...section("Your tables", "my-tables", yours, ...args),
    ...section(yours.length ? "Other tables" : "Open and running tables", "open-tables", others, ...args),
    yours.length || others.length ? null : h("p", { class: "muted", text: "No tables in play: create one above." }),
    abandoned.length ? h("details", { class: "abandoned" },
      h("summary", { text: `Abandoned tables (${abandoned.length}): no move for a long time` }),
      tableList("abandoned-tables", abandoned, ...args)) : null,
  ].filter(Boolean));
  el("recent").replaceChildren(recent.length ? tableList("recent-games", recent, ...args, true)
    : h("p", { class: "muted", text: "No finished games yet." }));
}

// A record file from this computer, opened in the replay viewer.
async function openRecord() {
  const file = el("record-file").files[0];
  if (!file) return;
  const response = await fetch("/api/replays", {
    method: "POST", headers: { "content-type": "application/json" }, body: await file.text(),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    el("record-error").textContent = answer.message || "the file could not be opened";
    el("record-error").hidden = false;
    return;
  }
  location.href = answer.url;
}

async function start() {
  el("record-file").addEventListener("change", openRecord);
  games = await (await fetch("/api/games")).json();
  el("game").replaceChildren(...games.map((g) => h("option", { value: g.name, text: g.title })));
  el("game").addEventListener("change", renderOptions);
  el("players").addEventListener("change", renderSeats);
  el("create-form").addEventListener("submit", createTable);
  el("player-name").value = localStorage.getItem(NAME) || "";
  renderOptions();
  loadTables();
  setInterval(loadTables, 5000);
}

start();
