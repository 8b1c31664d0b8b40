// The lobby: create a table (game, options, seats: human or a bot of some strength), get your
// own seat's link and an invitation link for every other human seat, list the tables. Tokens
// of seats taken in this browser are remembered in localStorage: those tables are listed
// first ("Your tables") with their "Play" links. Finished tables move to "Recent games" with
// their replay; tables without a move for long (the server's --abandon-after) are folded away
// under "Abandoned tables".
import { h } from "/static/dom.js";
import { t, lang } from "/static/i18n.js";
import { botSeat } from "/static/narration.js";

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
  el("game-rules").href = `${game.rules_url}?lang=${lang}`;
  // Every option by its name in the page's language, its values in words (a seat counted
  // from 1, "yes", "descending"), never as the game's keys.
  const worded = (option, value) => (option.value_labels || {})[String(value)] ?? String(value);
  el("options").replaceChildren(...game.options.flatMap((option) => {
    const id = `option-${option.name}`;
    let input;
    if (option.seat) {
      input = h("select", { id, class: "seat-option", "data-option": option.name, "data-type": option.type, "data-default": option.default });
    } else if (option.choices) {
      input = h("select", { id, "data-option": option.name, "data-type": option.type },
        option.choices.map((c) => h("option", { value: String(c), selected: c === option.default, text: worded(option, c) })));
    } else if (option.type === "bool") {
      input = h("input", { id, type: "checkbox", "data-option": option.name, "data-type": "bool", checked: option.default });
    } else {
      input = h("input", {
        id, type: option.type === "int" ? "number" : "text", value: String(option.default),
        min: option.minimum, max: option.maximum, "data-option": option.name, "data-type": option.type,
      });
    }
    return [h("label", { for: id, title: option.help, text: option.label }),
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
  // A seat option (the start player) offers the seats of this many players.
  for (const select of document.querySelectorAll("#options select.seat-option")) {
    const option = game.options.find((o) => o.name === select.dataset.option);
    const chosen = select.options.length ? Number(select.value) : Number(select.dataset.default);
    select.replaceChildren(...Array.from({ length: n }, (_, p) => h("option", { value: String(p), text: option.value_labels[String(p)] })));
    select.value = String(Math.min(chosen, n - 1));
  }
  const old = [...document.querySelectorAll("#seats select")].map((s) => s.value);
  // A new seat gets the easiest level: a first game against bots should be a gentle one.
  const fallback = game.bots[0];
  el("seats").replaceChildren(...Array.from({ length: n }, (_, seat) => {
    const about = h("span", { class: "muted small bot-about", id: `seat-${seat}-about` });
    const select = h("select", { id: `seat-${seat}`, "aria-label": t("lobby.seat_select", { n: seat + 1 }), "aria-describedby": about.id },
      h("option", { value: "human", text: t("lobby.human") }),
      game.bots.map((b) => h("option", { value: `bot:${b.spec}`, "data-level": b.level, title: b.tech, text: t("lobby.bot_option", { label: b.label }) })));
    const known = [...select.options].some((o) => o.value === old[seat]);
    select.value = known ? old[seat] : (seat === 0 ? "human" : `bot:${fallback.spec}`);
    const describe = () => {
      const bot = game.bots.find((b) => `bot:${b.spec}` === select.value);
      about.textContent = bot ? bot.about : "";
      if (bot) about.title = bot.tech; else about.removeAttribute("title");
    };
    select.addEventListener("change", describe);
    describe();
    return h("div", { class: "row" }, h("span", { text: t("seat.n", { n: seat + 1 }) }), select, about);
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
  const request = {
    game: el("game").value, options, seats,
    move_clock: Number(el("move-clock").value), spectator_chat: el("spectator-chat").checked,
    hints: el("allow-hints").checked,
  };
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
    el("create-error").textContent = answer.message || t("lobby.create_failed");
    el("create-error").hidden = false;
    return;
  }
  el("create-error").hidden = true;
  remember(answer.id, answer.seats);
  const origin = location.origin;
  const own = answer.seats.filter((s) => s.token);
  const invited = answer.seats.filter((s) => s.invitation);
  el("created").replaceChildren(
    h("h3", { text: t("lobby.created") }),
    ...own.map((s) => h("div", { class: "row" },
      h("a", { href: s.url, class: "play-link", "data-seat": s.seat, text: t("lobby.play_seat", { n: s.seat + 1 }) }),
      h("span", { class: "muted small", text: t("lobby.own_link") }))),
    ...invited.map((s) => h("div", { class: "row" },
      h("span", { text: t("lobby.invite_seat", { n: s.seat + 1 }) }),
      h("input", { readonly: true, class: "invite-link", "data-seat": s.seat, value: origin + s.url, "aria-label": t("lobby.invitation_for", { n: s.seat + 1 }), onclick: (e) => e.target.select() }))),
    h("div", { class: "row" },
      h("a", { href: answer.spectator_url, text: t("lobby.watch") }),
      h("input", { readonly: true, value: origin + answer.spectator_url, "aria-label": t("lobby.spectator_link"), onclick: (e) => e.target.select() })));
  el("created").hidden = false;
  loadTables();
}

const STATE_TEXT = {
  waiting: t("lobby.state_waiting"), playing: t("lobby.state_playing"),
  finished: t("lobby.state_finished"), abandoned: t("lobby.state_abandoned"),
};

/** "3 min", "5 h", "2 days" for a number of seconds (at least a minute). */
function span(seconds) {
  if (seconds < 3600) return t("lobby.minutes", { n: Math.floor(seconds / 60) });
  if (seconds < 86400) return t("lobby.hours", { n: Math.floor(seconds / 3600) });
  const days = Math.floor(seconds / 86400);
  return t(days === 1 ? "lobby.day" : "lobby.days", { n: days });
}

/** "just now", "3 min ago", "5 h ago", "2 days ago" for a number of seconds. */
function ago(seconds) {
  return seconds < 60 ? t("lobby.just_now") : t("lobby.ago", { time: span(seconds) });
}

function seatChips(table, tokens, info) {
  return table.seats.map((s) => {
    const bot = s.kind === "bot" ? botSeat(info, s.bot, s.seat) : null;
    const who = bot ? bot.text : s.claimed ? (s.name || t("lobby.a_player")) : t("lobby.open_seat");
    const mine = tokens[s.seat] ? t("lobby.you_suffix") : "";
    const cls = s.kind === "bot" ? "bot" : s.claimed ? "human" : "human open";
    return h("span", { class: `chip ${cls}`, "data-seat": s.seat, title: bot ? bot.title : null, text: t("lobby.seat_chip", { n: s.seat + 1, who, mine }) });
  });
}

function stateChip(table) {
  const words = table.state === "playing" ? t("lobby.state_playing_step", { n: table.steps })
    : table.state === "abandoned" ? t("lobby.state_abandoned_for", { time: table.idle < 60 ? span(60) : span(table.idle) })
    : STATE_TEXT[table.state] || table.state;
  return h("span", { class: `chip state ${table.state}`, "data-state": table.state, text: words });
}

/** One table of the list: a row per table, `recent` for finished games (ended when, replay). */
function tableList(id, tables, mine, infos, recent = false) {
  return h("table", { class: "tables", id },
    h("thead", {}, h("tr", {},
      h("th", { text: recent ? t("lobby.col_ended") : t("lobby.col_started") }), h("th", { text: t("lobby.col_game") }),
      h("th", { text: t("lobby.col_seats") }), h("th", { text: t("lobby.col_state") }), h("th", { text: "" }))),
    h("tbody", {}, tables.map((row) => {
      const tokens = mine[row.id] || {};
      const own = Object.keys(tokens).length > 0;
      return h("tr", { "data-table": row.id, class: own ? "own" : null },
        h("td", { class: "age", text: ago(recent ? row.idle : row.age) }),
        h("td", { class: "game", text: infos[row.game] ? infos[row.game].title : row.game }),
        h("td", { class: "seat-cell" }, seatChips(row, tokens, infos[row.game])),
        h("td", {}, stateChip(row)),
        h("td", { class: "links" },
          recent ? h("a", { href: `/table/${row.id}/replay`, class: "replay-link", text: t("lobby.replay") }) : null,
          recent ? null : Object.entries(tokens).map(([seat, token]) =>
            h("a", { href: `/table/${row.id}#token=${token}`, text: t("lobby.play_seat", { n: Number(seat) + 1 }), class: "play-link" })),
          h("a", { href: `/table/${row.id}`, text: recent ? t("lobby.final_board") : t("lobby.watch") })));
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
  const infos = Object.fromEntries(games.map((g) => [g.name, g]));
  const own = (t) => Object.keys(mine[t.id] || {}).length > 0;
  const byOwn = (a, b) => Number(own(b)) - Number(own(a));
  const unfinished = tables.filter((t) => t.state !== "finished");
  const yours = unfinished.filter(own);
  const others = unfinished.filter((t) => !own(t) && t.state !== "abandoned");
  const abandoned = unfinished.filter((t) => !own(t) && t.state === "abandoned");
  // Finished games, your own first, then the most recently ended.
  const recent = tables.filter((t) => t.state === "finished").sort((a, b) => byOwn(a, b) || a.idle - b.idle);
  const args = [mine, infos];
  el("tables").replaceChildren(...[
    ...section(t("lobby.your_tables"), "my-tables", yours, ...args),
    ...section(yours.length ? t("lobby.other_tables") : t("lobby.open_tables"), "open-tables", others, ...args),
    yours.length || others.length ? null : h("p", { class: "muted", text: t("lobby.no_tables") }),
    abandoned.length ? h("details", { class: "abandoned" },
      h("summary", { text: t("lobby.abandoned_tables", { n: abandoned.length }) }),
      tableList("abandoned-tables", abandoned, ...args)) : null,
  ].filter(Boolean));
  el("recent").replaceChildren(recent.length ? tableList("recent-games", recent, ...args, true)
    : h("p", { class: "muted", text: t("lobby.no_recent") }));
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
    el("record-error").textContent = answer.message || t("lobby.open_failed");
    el("record-error").hidden = false;
    return;
  }
  location.href = answer.url;
}

async function start() {
  el("record-file").addEventListener("change", openRecord);
  games = await (await fetch(`/api/games?lang=${encodeURIComponent(lang)}`)).json();
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
