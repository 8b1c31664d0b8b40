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
  // A random bot's name says all there is ("Clara (random bot)"); another spec is technical.
  return { text: other ? other[seat] : t("seat.n", { n: seat + 1 }), title: spec === "random" ? null : spec };
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
  /** A game's text ("seat 2 plays Red 7", „Platz 2 spielt Rot 7“: seats counted from 1, as
   * people count them) with its seats named as on the page. */
  const nameSeats = (text) => text.replace(/\b(?:seat|Platz) (\d+)\b/g, (whole, n) =>
    seats && Number(n) >= 1 && Number(n) <= seats.length ? logName(Number(n) - 1) : whole);
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

/** The log as a page shows it: one entry per action's line, except that consecutive lines
 * whose events fold into the same group (the game's `folded` events: a deal, a trick) are one
 * entry, `{group, lines}`. */
export function foldLog(lines) {
  const entries = [];
  for (const line of lines) {
    const fold = (line.events || []).find((ev) => ev.fold);
    const group = fold ? fold.fold.group : null;
    const last = entries.at(-1);
    if (group !== null && last && last.group === group) last.lines.push(line);
    else entries.push({ group, lines: [line] });
  }
  return entries;
}

/** One entry of the log: the action's text (a group's: the newest text of each of its parts)
 * and, under it, what it made happen; `mine(actor)` marks this seat's own lines. */
export function logItem(entry, { nameSeats, words, mine }) {
  const { lines } = entry;
  let text = nameSeats(lines[0].text);
  if (entry.group !== null) {
    const parts = new Map();
    for (const line of lines) {
      for (const ev of line.events || []) if (ev.fold && ev.fold.part !== null) parts.set(ev.fold.part, words(ev));
    }
    text = [...parts.values()].join("; ");
  }
  // Under it what it made happen; a fold's text is the entry's own (never told twice).
  const events = lines.flatMap((line) => (line.events || []).filter((ev) => !ev.quiet && !ev.fold));
  const actors = new Set(lines.map((line) => line.actor));
  const actor = actors.size === 1 ? lines[0].actor : null;
  const bySeat = typeof actor === "number";
  const cls = [bySeat && mine(actor) ? "mine" : null, bySeat ? "by-seat" : null].filter(Boolean).join(" ") || null;
  return h("li", { class: cls, value: lines[0].i + 1, "data-from": lines[0].i, "data-i": lines.at(-1).i, style: bySeat ? { "--seat": seatColour(actor) } : null },
    h("span", { class: "line", text }),
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

// The game's own words (`gameSay`) are drawn by the board scripts too, on pages without the
// shell's words (the rules page): they live in dom.js.
export { gameSay } from "/static/dom.js";
