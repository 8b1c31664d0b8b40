// The Review panel of the replay viewer: the game review of the seat the replay is seen by
// (spielwerk/review, made by the server's bot workers and stored with the table), as a chart
// of its winning chances over its decisions, its marked moves (also on the game log), and, for
// a decision clicked, every move as the search judged it. Also the moves played after a hint.
import { h, s } from "/static/dom.js";
import { t } from "/static/i18n.js";
import { percent } from "/static/hints.js";

const MARKS = ["inaccuracy", "mistake", "blunder"];
const SIGNS = { inaccuracy: "?!", mistake: "?", blunder: "??" };
const POLL_MS = 1000;

/** The panel `panel` for the replay of table `tableId` (null for an opened record file);
 * `go(step)` shows a position, `names()` the page's seat names, `lang` the page's language. */
export function createReview({ panel, tableId, go, names, lang }) {
  let seat = null;          // the seat reviewed: the replay's viewer
  let status = null;        // the server's answer: none, running, done, failed
  let review = null;
  let chosen = null;        // the decision whose moves are shown
  let timer = null;
  let hinted = new Map();   // action index -> seat, for the moves played after a hint
  let onChange = () => {};

  const api = () => `/api/tables/${encodeURIComponent(tableId)}/review/${seat}`;

  async function fetchJson(url, options) {
    const response = await fetch(url, options);
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.message || String(response.status));
    return data;
  }

  async function poll(start) {
    clearTimeout(timer);
    const asked = seat;
    try {
      const answer = await fetchJson(api(), start
        ? { method: "POST", headers: { "content-type": "application/json" }, body: "{}" }
        : undefined);
      if (asked !== seat) return;
      status = answer;
    } catch (error) {
      if (asked !== seat) return;
      status = { state: "failed", message: String(error.message || error) };
    }
    review = status.state === "done" ? status.review : null;
    if (status.state === "running") timer = setTimeout(() => poll(false), POLL_MS);
    draw();
    onChange();
  }

  function markOf(step) {
    if (!review) return null;
    return review.decisions.find((d) => d.step === step) || null;
  }

  function show(decision) {
    chosen = decision;
    go(decision.step);
    draw();
    panel.querySelector("#review-moves")?.focus();
  }

  function text(move) {
    return names().nameSeats(move.text[lang] || move.text.en);
  }

  function chart() {
    const decisions = review.decisions;
    const width = 320;
    const height = 120;
    const pad = 6;
    const left = 34;         // room for the scale: 0 %, 50 %, 100 %
    const x = (i) => left + (decisions.length < 2 ? 0 : (i * (width - left - pad)) / (decisions.length - 1));
    const y = (chance) => height - pad - chance * (height - 2 * pad);
    const line = (pick) => decisions.map((d, i) => `${x(i).toFixed(1)},${y(pick(d)).toFixed(1)}`).join(" ");
    const seatLabel = names().logName(seat);
    return s("svg", {
      id: "review-chart", class: "review-chart", viewBox: `0 0 ${width} ${height}`, role: "img",
      "aria-label": t("review.chart_label", { seat: seatLabel }),
    },
    s("title", { text: t("review.chart_label", { seat: seatLabel }) }),
    [0, 0.5, 1].map((level) => [
      s("line", { x1: left, x2: width - pad, y1: y(level), y2: y(level), class: "grid" }),
      s("text", { x: left - 4, y: y(level) + 4, class: "scale", text: percent(level) }),
    ]),
    s("polyline", { points: line((d) => d.moves[d.best].chance), class: "best" }),
    s("polyline", { points: line((d) => d.moves[d.played].chance), class: "played" }),
    decisions.map((d, i) => d.mark
      ? s("circle", { cx: x(i), cy: y(d.moves[d.played].chance), r: 4, class: `mark-${d.mark}` })
      : null));
  }

  function markButton(decision) {
    const played = decision.moves[decision.played];
    return h("li", {}, h("button", {
      type: "button", class: `review-mark mark-${decision.mark}`, "data-step": decision.step,
      onclick: () => show(decision),
      text: t("review.mark_button", {
        number: decision.number, mark: t(`review.mark.${decision.mark}`), move: text(played),
        drop: percent(decision.drop),
      }),
    }));
  }

  function alternatives(decision) {
    return h("div", { id: "review-moves", tabindex: "-1", class: "review-moves" },
      h("h3", { text: t("review.alternatives", { number: decision.number }) }),
      h("table", {},
        h("thead", {}, h("tr", {}, h("th", { text: t("review.col_move") }), h("th", { text: t("review.col_chance") }))),
        h("tbody", {}, decision.moves.map((move, i) => {
          const tags = [i === decision.best ? t("review.best") : "", i === decision.played ? t("review.played") : ""].filter(Boolean);
          return h("tr", { class: i === decision.played ? "played" : null },
            h("td", {}, text(move), tags.length ? h("span", { class: "tag", text: ` (${tags.join(", ")})` }) : null),
            h("td", { class: "chance", text: percent(move.chance) }));
        }))),
      decision.mark ? h("p", { class: "small", text: t("review.drop", { drop: percent(decision.drop), mark: t(`review.mark.${decision.mark}`) }) }) : null);
  }

  function draw() {
    if (tableId === null) {
      panel.replaceChildren(h("h2", { text: t("review.heading") }), h("p", { class: "small muted", text: t("review.tables_only") }));
      return;
    }
    const parts = [h("h2", { text: t("review.heading") })];
    if (seat === null) {
      parts.push(h("p", { class: "small muted", text: t("review.choose_seat") }));
    } else if (!status) {
      parts.push(h("p", { class: "small muted", text: t("review.loading") }));
    } else if (status.state === "none") {
      parts.push(h("button", { type: "button", id: "review-start", onclick: () => poll(true), text: t("review.start", { seat: names().logName(seat) }) }));
    } else if (status.state === "running") {
      const done = status.done || 0;
      const total = status.total ?? 0;
      const label = status.total === null || status.total === undefined ? t("review.queued") : t("review.progress", { done, total });
      parts.push(h("p", { id: "review-progress-label", class: "small", text: label }),
        h("progress", { id: "review-progress", max: String(Math.max(total, 1)), value: String(done), "aria-labelledby": "review-progress-label" }));
    } else if (status.state === "failed") {
      parts.push(h("p", { class: "toast", role: "alert", text: status.message }),
        h("button", { type: "button", id: "review-start", onclick: () => poll(true), text: t("review.again") }));
    } else if (review) {
      const counts = Object.fromEntries(MARKS.map((m) => [m, review.decisions.filter((d) => d.mark === m).length]));
      parts.push(
        h("p", { class: "small", text: review.calibrated ? t("review.calibrated", { positions: review.calibration.held_out_positions }) : t("review.uncalibrated") }),
        review.cooperative ? h("p", { class: "small", text: t("review.team") }) : null,
        chart(),
        h("p", { class: "small legend" },
          h("span", { class: "key played", text: t("review.played_line") }), " ",
          h("span", { class: "key best", text: t("review.best_line") })),
        h("p", { id: "review-summary", class: "small", text: t("review.summary", { inaccuracies: counts.inaccuracy, mistakes: counts.mistake, blunders: counts.blunder }) }));
      const marked = review.decisions.filter((d) => d.mark);
      if (marked.length) parts.push(h("ol", { class: "review-marks" }, marked.map(markButton)));
      if (chosen) parts.push(alternatives(chosen));
    }
    panel.replaceChildren(...parts.filter(Boolean));
    panel.dataset.seat = seat === null ? "" : String(seat);
    panel.dataset.state = review ? "done" : status ? status.state : "loading";
  }

  return {
    /** The replay is now seen by `viewer` (a seat, or null): its review, if there is one. */
    view(viewer) {
      clearTimeout(timer);
      seat = viewer;
      status = null;
      review = null;
      chosen = null;
      draw();
      if (tableId !== null && seat !== null) poll(false);
    },
    /** The game log as drawn: the review's marks and the hinted moves on its lines. */
    decorate(log) {
      // An entry may fold several steps (a trick, a turn's dice): each of them is looked at.
      for (const item of log.querySelectorAll("li[data-i]")) {
        const last = Number(item.dataset.i);
        const first = item.dataset.from === undefined ? last : Number(item.dataset.from);
        let wasHinted = false;
        for (let step = first; step <= last; step += 1) {
          const decision = markOf(step);
          if (decision && decision.mark) {
            item.append(" ", h("button", {
              type: "button", class: `log-mark mark-${decision.mark}`, onclick: () => show(decision),
              "aria-label": t("review.log_mark", { mark: t(`review.mark.${decision.mark}`), number: decision.number }),
              text: SIGNS[decision.mark],
            }));
          }
          wasHinted = wasHinted || hinted.has(step);
        }
        if (wasHinted) item.append(" ", h("span", { class: "hinted", text: t("review.hinted") }));
      }
    },
    /** After the end: the moves played after a hint (table replays only). */
    async loadHints() {
      if (tableId === null) return;
      try {
        const answer = await fetchJson(`/api/tables/${encodeURIComponent(tableId)}/hints`);
        hinted = new Map(answer.hints.filter((x) => x.action !== null).map((x) => [x.action, x.seat]));
      } catch { hinted = new Map(); }
      onChange();
    },
    /** A line for the result: who played moves after hints. */
    resultNode() {
      if (!hinted.size) return null;
      const bySeat = new Map();
      for (const p of hinted.values()) bySeat.set(p, (bySeat.get(p) || 0) + 1);
      const list = [...bySeat].map(([p, n]) => t("hints.used_by", { seat: names().seatName(p), n })).join(", ");
      return h("p", { id: "hints-used", class: "small", text: t("hints.used", { list }) });
    },
    onChange(callback) { onChange = callback; },
  };
}
