// What the table page and the replay viewer share: seat names (counted from 1), the game's
// narration in words, what an event highlights on the board, and the result's breakdown.
import { h, seatColour, seatChip } from "/static/dom.js";
import { t } from "/static/i18n.js";

const SEAT_KEYS = new Set(["seat", "winner", "victim", "seats"]);
const isSeatKey = (key) => SEAT_KEYS.has(key) || key.endsWith("_seat");

/** A bot's seat as the game names it ("Ben (Hard bot)", „Ben (schwerer Bot)“) and, for a
 * tooltip, what it is technically (its seat spec and rating). `info` is the game's entry of
 * /api/games: its four levels name each seat; any other spec is a "bot" (or "random bot"). */
export function botSeat(info, spec, seat) {
  const level = info && (info.bots || []).find((b) => b.spec === spec);
  if (level) return { text: level.seats[seat], title: level.tech };
  const other = info && info.other_bots && info.other_bots[spec === "random" ? "random" : "other"];
  return { text: other ? other[seat] : t("seat.n", { n: seat + 1 }), title: spec };
}

/** Names for the seats of a table as one viewer sees them. `names()` gives the seats' display
 * names now (they change while people claim seats); `info` (the game's /api/games entry)
 * names the bots. */
export function seatNamer(seats, names, viewer, info = null) {
  const bot = (p) => (seats && seats[p] && seats[p].kind === "bot" ? botSeat(info, seats[p].bot, p) : null);
  /** A seat in a label or a panel: your own is "You". */
  const seatName = (p) => {
    const seat = seats && seats[p];
    const name = names()[p] || (seat && seat.name);
    let label = name || t("seat.n", { n: p + 1 });
    if (bot(p)) label = bot(p).text;
    return p === viewer ? (name ? t("seat.name_you", { name }) : t("seat.you")) : label;
  };
  /** What a seat's name stands for, as a tooltip: a bot's spec and rating (else null). */
  seatName.title = (p) => (bot(p) ? bot(p).title : null);
  /** A seat as the subject of a log line: your own is "Ada (you)", not "You" ("You plays"). */
  const logName = (p) => {
    if (p !== viewer) return seatName(p);
    return t("seat.name_you", { name: names()[p] || t("seat.n", { n: p + 1 }) });
  };
  /** A game's text ("seat 2 plays red-7", „Platz 2 spielt Rot 7“: seats as the rules count
   * them, from 0) with its seats named as on the page. */
  const nameSeats = (text) => text.replace(/\b(?:seat|Platz) (\d+)\b/g, (whole, n) =>
    seats && Number(n) < seats.length ? logName(Number(n)) : whole);
  return { seatName, logName, nameSeats };
}

/** An event of the game's narration in words: the server's text in the page's language
 * (`ev.text`, seats named by `nameSeats`), else its template (`narration[key]`), seats named. */
export function eventText(narration, ev, logName, nameSeats = null) {
  if (typeof ev.text === "string" && nameSeats) return nameSeats(ev.text);
  const template = narration[ev.key];
  if (!template) return ev.key;
  return template.replace(/\{(\w+)\}/g, (whole, key) => {
    const value = ev.params[key];
    if (value === undefined || value === null) return "";
    if (key === "gains") {
      return value.length ? value.map((g) => `${logName(g.seat)} ${g.points > 0 ? "+" : ""}${g.points}`).join(", ") : t("seat.nobody");
    }
    if (isSeatKey(key) && Array.isArray(value)) return value.map((p) => logName(p)).join(", ");
    if (isSeatKey(key) && typeof value === "number") return logName(value);
    return String(value);
  });
}

/** The board pieces an event is about, as CSS selectors. */
export function eventMarks(ev) {
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

/** Every seat panel a renderer drew (`.seat[data-seat]`) in its seat's colour, the same colour
 * as the seat's pieces on the board and its lines in the log; a bot's panel heading carries
 * what the bot is technically as a tooltip (`seatName.title`). */
export function colourSeats(root, seatName = null) {
  for (const node of root.querySelectorAll(".seat[data-seat]")) {
    const p = Number(node.dataset.seat);
    node.style.setProperty("--seat", seatColour(p));
    const title = seatName && seatName.title ? seatName.title(p) : null;
    const heading = node.querySelector("h3");
    if (title && heading) heading.title = title;
  }
}

/** One log line: the action's text and, under it, what it made happen. */
export function logItem(line, { nameSeats, words, mine }) {
  const events = (line.events || []).filter((ev) => !ev.quiet);
  const bySeat = typeof line.actor === "number";
  const cls = [mine ? "mine" : null, bySeat ? "by-seat" : null].filter(Boolean).join(" ") || null;
  return h("li", { class: cls, value: line.i + 1, "data-i": line.i, style: bySeat ? { "--seat": seatColour(line.actor) } : null },
    h("span", { class: "line", text: nameSeats(line.text) }),
    events.map((ev) => h("span", { class: "event", "data-event": ev.key, text: words(ev) })));
}

/** The result: who won and why, every seat's score with its breakdown (the game's
 * explanation), the tie-break only where it decided something. */
export function resultNodes(result, explained, seatName, words) {
  const winners = result.winners || [];
  const scores = result.scores || [];
  const head = explained ? words(explained.verdict)
    : winners.length ? t(winners.length > 1 ? "result.winners" : "result.winner", { names: winners.map((p) => seatName(p)).join(", ") }) : t("result.no_winner");
  const rows = explained ? explained.rows : scores.map((score, p) => ({ seat: p, total: score, parts: [] }));
  return [
    h("h2", { id: "verdict", text: t("result.game_over", { verdict: head }) }),
    h("table", { class: "breakdown" },
      h("tr", {}, h("th", { text: t("result.seat") }), h("th", { text: t("result.score") }), h("th", { text: t("result.how") }), h("th", { text: "" })),
      rows.map((row) => h("tr", { "data-seat": row.seat },
        h("td", {}, seatChip(row.seat, seatName)),
        h("td", { class: "total", text: String(row.total) }),
        h("td", { class: "parts" }, row.parts.map((ev) => h("div", { "data-part": ev.key, text: words(ev) }))),
        h("td", { text: winners.includes(row.seat) ? t("result.winner_mark") : "" })))),
    explained && explained.tie_break ? h("p", { id: "tie-break", text: t("result.tie_break", { text: words(explained.tie_break) }) }) : null,
    ...((explained && explained.notes) || []).map((ev) => h("p", { class: "small", text: `${words(ev)}.` })),
    !explained && result.tie_break ? h("p", { class: "small", text: t("result.tie_break", { text: result.tie_break }) }) : null,
  ].filter(Boolean);
}

/** The game's own words in the page's language (`texts` of /api/games/<game>?lang=, from the
 * game's texts.toml; glossary terms as "@key"): `say(key, params)` fills `{name}` parameters,
 * and a pair [one, other] is chosen by the count `n`. A key the game lacks shows as itself. */
export function gameSay(texts) {
  return (key, params = {}) => {
    let template = (texts || {})[key];
    if (template === undefined) return key;
    if (Array.isArray(template)) template = params.n === 1 ? template[0] : template[1];
    return template.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
  };
}
