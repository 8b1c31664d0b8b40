// The lobby: create a table (game, options, seats: human or a bot of some strength), get your
// own seat's link and an invitation link for every other human seat, list the tables. Tokens
// of seats taken in this browser are remembered in localStorage so their "Play" links appear
// in the list.
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

async function loadTables() {
  const tables = await (await fetch("/api/tables")).json();
  const mine = remembered();
  const titles = Object.fromEntries(games.map((g) => [g.name, g.title]));
  if (!tables.length) {
    el("tables").replaceChildren(h("span", { class: "muted", text: "No tables yet: create one above." }));
    return;
  }
  el("tables").replaceChildren(h("table", { class: "tables" },
    h("tr", {}, h("th", { text: "Game" }), h("th", { text: "Seats" }), h("th", { text: "State" }), h("th", { text: "" })),
    tables.map((t) => {
      const tokens = mine[t.id] || {};
      return h("tr", {},
        h("td", { text: titles[t.game] || t.game }),
        h("td", {}, t.seats.map((s) => h("span", { class: `chip ${s.kind}`, text: `${s.seat}: ${s.kind === "human" ? (s.name || "open seat") : s.bot}` }))),
        h("td", {}, h("span", { class: `chip ${t.finished ? "done" : "live"}`, text: t.finished ? "finished" : `playing, step ${t.steps}` })),
        h("td", {},
          Object.entries(tokens).map(([seat, token]) =>
            h("a", { href: `/table/${t.id}#token=${token}`, text: `Play seat ${seat} `, class: "play-link" })),
          h("a", { href: `/table/${t.id}`, text: "Watch" })));
    })));
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
