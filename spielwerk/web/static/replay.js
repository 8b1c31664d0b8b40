// The replay viewer: a finished table (/table/<id>/replay) or an opened record file
// (/replay/<id>) stepped through action by action with the game's own renderer, as any seat or
// as a spectator. Buttons, the arrow keys (Home/End too) and a slider move; the address keeps
// the step and the viewer (#step=12&seat=1), so a position can be shared.
import { h } from "/static/dom.js";
import { t, lang } from "/static/i18n.js";
import { seatNamer, eventText, eventMarks, foldLog, logItem, resultNodes, colourSeats, gameSay } from "/static/narration.js";
import { chatLineNode } from "/static/chat.js";
import { createReview } from "/static/review.js";

const parts = location.pathname.split("/").filter(Boolean).map(decodeURIComponent);
const api = parts[0] === "table"
  ? `/api/tables/${encodeURIComponent(parts[1])}/replay`
  : `/api/replays/${encodeURIComponent(parts[1] || "")}`;
const el = (id) => document.getElementById(id);
const fragment = new URLSearchParams(location.hash.slice(1));

let meta = null;           // the replay's summary for this viewer: seats, names, steps, log
let renderer = null;
let info = null;
// The viewer from the address: a seat's number as the rules count it (from 0), else the
// spectator; a seat the game does not have falls back to the spectator once the seats are known.
let viewer = /^\d+$/.test(fragment.get("seat") || "") ? Number(fragment.get("seat")) : null;
let step = 0;
let shown = null;          // the step message drawn now
let loading = 0;           // the newest step asked for (answers to older requests are dropped)

// The Review panel (a table's replay only): the viewer's seat's review, its marks on the log.
const review = createReview({
  panel: el("review"), tableId: parts[0] === "table" ? parts[1] : null,
  go: (target) => go(target).catch((e) => fail(String(e.message || e))), names: () => names(), lang,
});
review.onChange(() => { if (shown) draw(); });

function fail(text) {
  el("toast").textContent = text;
  el("toast").hidden = false;
  el("status").textContent = t("replay.failed");
}

async function getJson(url) {
  const response = await fetch(url);
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.message || t("replay.server_answered", { status: response.status }));
  return answer;
}

async function load() {
  try {
    meta = await getJson(api + query());
  } catch (error) {
    if (viewer === null) throw error;
    viewer = null;                          // no such seat: as a spectator
    meta = await getJson(api + query());
  }
  if (!renderer) {
    [renderer, info] = await Promise.all([
      import(meta.renderer),
      getJson(`/api/games/${encodeURIComponent(meta.game)}?lang=${encodeURIComponent(lang)}`),
    ]);
  }
  const title = info.title || meta.title;   // the title in the page's language
  el("game-title").textContent = t("replay.title", { title });
  document.title = `${t("replay.title", { title })} · spielwerk`;
  const select = el("viewer");
  // The seats by their names as at the table (not "you": the picker says whose eyes these are).
  const { seatName } = seatNamer(meta.seats.map((s, p) => ({ ...s, name: meta.names[p] })), () => meta.names, null);
  select.replaceChildren(h("option", { value: "", text: t("replay.spectator") }),
    ...meta.seats.map((s) => h("option", { value: String(s.seat), text: seatName(s.seat) })));
  select.value = viewer === null ? "" : String(viewer);
  el("slider").max = String(meta.steps);
  review.view(viewer);
  const wanted = fragment.has("step") ? Number(fragment.get("step")) : meta.steps;
  await go(Math.min(Math.max(0, wanted), meta.steps));
}

/** The viewer and the page's language as a query: the game's texts come in that language. */
function query() {
  return `?lang=${encodeURIComponent(lang)}${viewer === null ? "" : `&seat=${viewer}`}`;
}

function names() {
  const seats = meta.seats.map((s, p) => ({ ...s, name: meta.names[p] }));
  return seatNamer(seats, () => meta.names, viewer, info);
}

async function go(target) {
  target = Math.min(Math.max(0, target), meta.steps);
  loading = target;
  const message = await getJson(`${api}/${target}${query()}`);
  if (message.step !== loading) return;      // a newer step was asked for meanwhile
  step = target;
  shown = message;
  history.replaceState(null, "", `#step=${step}${viewer === null ? "" : `&seat=${viewer}`}`);
  draw();
}

function draw() {
  const { seatName, logName, nameSeats } = names();
  const words = (ev) => eventText(info.narration || {}, ev, logName, nameSeats);
  el("slider").value = String(step);
  el("step-label").textContent = t("replay.step_of", { step, steps: meta.steps });
  document.body.dataset.step = String(step);
  const line = step > 0 ? meta.log[step - 1] : null;
  el("current").textContent = line ? nameSeats(line.text) : t("replay.start");
  const movers = shown.to_move;
  el("status").className = "status";
  // Nobody to decide: the next step is luck's (a card, a die), told by its line in the log.
  const next = meta.log[step];
  el("status").textContent = shown.over ? t("page.game_over")
    : movers.length ? t("page.to_move", { seats: movers.map((p) => seatName(p)).join(", ") })
      : next ? t("replay.next", { text: nameSeats(next.text) }) : "";
  el("result").hidden = !shown.result;
  if (shown.result) el("result").replaceChildren(...resultNodes(shown.result, shown.explanation, seatName, words), review.resultNode() || "");
  const lines = meta.log.slice(0, step);
  el("log").replaceChildren(...foldLog(lines).map((entry) => logItem(entry, { nameSeats, words, mine: (actor) => actor === viewer })));
  review.decorate(el("log"));
  el("log").scrollTop = el("log").scrollHeight;
  // The table's chat as it stood at this step (a finished table's; a record file has none).
  const said = (meta.chat || []).filter((c) => c.step <= step);
  el("replay-chat").hidden = !(meta.chat || []).length;
  el("chat-lines").replaceChildren(...said.map((c) => chatLineNode(c, seatName, viewer)));
  el("chat-lines").scrollTop = el("chat-lines").scrollHeight;
  const ctx = {
    view: shown.view, seat: viewer, legal: [], toMove: movers, over: shown.over,
    result: shown.result, table: { ...meta, id: null }, info, data: info.data || {}, seatName,
    say: gameSay(info.texts), lang, act: () => {},
  };
  let drawn;
  try {
    drawn = renderer.render(ctx);
  } catch (error) {
    drawn = { node: h("p", { class: "toast", text: t("page.board_error", { error }) }) };
  }
  el("board").replaceChildren(drawn.node);
  colourSeats(el("board"), seatName);
  if (line) {
    for (const ev of line.events || []) {
      for (const mark of eventMarks(ev)) for (const node of el("board").querySelectorAll(mark)) node.classList.add("flash");
    }
  }
}

const move = (delta) => go(step + delta).catch((e) => fail(String(e.message || e)));
el("first").addEventListener("click", () => go(0));
el("back").addEventListener("click", () => move(-1));
el("forward").addEventListener("click", () => move(1));
el("last").addEventListener("click", () => go(meta.steps));
el("slider").addEventListener("input", () => go(Number(el("slider").value)));
el("viewer").addEventListener("change", () => {
  viewer = el("viewer").value === "" ? null : Number(el("viewer").value);
  load().catch((e) => fail(String(e.message || e)));
});
document.addEventListener("keydown", (event) => {
  if (!meta || event.target instanceof HTMLInputElement || event.target instanceof HTMLSelectElement) return;
  const actions = { ArrowLeft: () => move(-1), ArrowRight: () => move(1), Home: () => go(0), End: () => go(meta.steps) };
  if (actions[event.key]) { event.preventDefault(); actions[event.key](); }
});

load().then(() => review.loadHints()).catch((e) => fail(String(e.message || e)));
