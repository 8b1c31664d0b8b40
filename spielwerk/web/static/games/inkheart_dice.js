// Tintenherz – Das Würfelspiel: the centre cards, the dice, every seat's unsafe and safe cards,
// castle and hearts. Click a centre card to take it, an opponent's unsafe card to steal it, your
// own unsafe card to make it safe, a die to re-roll it. Values and hearts come from the game's
// component data (data.toml), the rest from the view; every word from the game's texts.toml in
// the page's language (`ctx.say`).
import { h, s, legalControls, cardBack, dieFace, fittingSize } from "/static/dom.js";

function cardInfo(data, name) {
  const entry = (data.cards || []).find((c) => c.name === name);
  return entry ? { value: entry.value, hearts: entry.hearts } : { value: 0, hearts: 0 };
}

/** A character card: name, value (green positive, red negative), hearts; its tooltip says
 * how it is taken and what it counts. */
function card(data, say, name, cls = "card") {
  const { value, hearts } = cardInfo(data, name);
  const fill = value > 0 ? "#2a7d46" : "#b3261e";
  const signed = `${value > 0 ? "+" : ""}${value}`;
  const rule = say("rule.card", { name, value: signed, number: Math.abs(value) }) + (hearts ? say("rule.heart") : "");
  return s("svg", { class: cls, viewBox: "0 0 60 90", "data-card": name },
    s("title", { text: rule }),
    s("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: "#fffaf0", stroke: fill, "stroke-width": 2.5 }),
    s("rect", { x: 5, y: 5, width: 50, height: 16, rx: 3, fill, opacity: 0.15 }),
    s("text", { x: 30, y: 17, "text-anchor": "middle", "font-size": fittingSize(name, 48, 9, true).toFixed(2), "font-weight": 700, fill: "#333", text: name }),
    s("text", { x: 30, y: 56, "text-anchor": "middle", "font-size": 26, "font-weight": 800, fill, text: `${value > 0 ? "+" : ""}${value}` }),
    hearts ? s("text", { x: 30, y: 80, "text-anchor": "middle", "font-size": 14, fill: "#d62828", text: "♥".repeat(hearts) }) : null);
}

/** The castle card: one heart, and whether its owner keeps it in the score. */
function castle(say, hearts, discarded) {
  return s("svg", { class: "card small", viewBox: "0 0 60 90" },
    s("title", { text: `${say("board.castle_title", { hearts })}${discarded ? say("board.castle_discarded") : ""}\n${say("rule.castle")}` }),
    s("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: discarded ? "#ddd" : "#e9dcc0", stroke: "#7a5b2e", "stroke-width": 2 }),
    s("path", { d: "M12 70 V36 h8 v8 h6 v-8 h8 v8 h6 v-8 h8 V70 Z", fill: "#7a5b2e" }),
    s("text", { x: 30, y: 84, "text-anchor": "middle", "font-size": 11, fill: "#d62828", text: `♥ ${hearts}` }));
}

/** A seat's score as it would count now: points × hearts of the better castle option. */
function scoreText(say, view, p) {
  const scoring = (view.scoring || [])[p];
  if (!scoring) return say("board.score_plain", { score: view.scores[p] });
  const chosen = scoring[scoring.castle];
  const note = scoring.castle === "discarded" ? say("board.score_discarded_note") : "";
  return say("board.score", chosen) + note;
}

/** A component for the rules page (static/rules.js): `card/Darius` (a character card),
 * `castle` (a castle card), `die/4`, `dice/6/3` (both dice), `centre` (the four cards in the
 * centre and the draw pile of a game just dealt, `ctx.view`). */
export function piece(name, args, ctx) {
  const { say, data, view } = ctx;
  if (name === "card") return card(data, say, args[0], "card big");
  if (name === "castle") return castle(say, 1, false);
  if (name === "die") return dieFace(Number(args[0]), 54);
  if (name === "dice") return h("div", { class: "row" }, args.map((v) => dieFace(Number(v), 54)));
  if (name === "centre") {
    return h("div", { class: "felt" }, h("div", { class: "zone" },
      h("div", { class: "cards" }, (view.centre || []).map((n) => card(data, say, n, "card big"))),
      cardBack(view.draw_pile, "card big")));
  }
  return null;
}

export function render(ctx) {
  const { view, seat, legal, act, data, seatName, toMove, result, say } = ctx;
  const { control, handled, index } = legalControls(legal, (a) => `${a.type}:${a.card ?? a.die ?? ""}`, act);

  // ---- centre and dice
  const dice = view.dice || [];
  const current = view.current;
  let diceNote = say("board.not_rolled");
  if (view.rerolling) diceNote = say(view.rerolling === "both" ? "board.rerolling_both" : "board.rerolling_one");
  else if (dice.length) {
    // Only the seat that may re-roll is told to click a die.
    const mayReroll = legal.some((entry) => entry.action.type === "reroll");
    diceNote = say("board.sum", { sum: dice[0] + dice[1] }) + (view.phase === "forced" ? say("board.forced")
      : view.rerolled ? say("board.rerolled") : mayReroll ? say("board.click_die") : "");
  }
  const centre = h("div", { class: "felt" },
    h("div", { class: "zone" },
      h("figure", {},
        h("div", { class: "cards", "data-zone": "centre" },
          (view.centre || []).map((name) => control(card(data, say, name, "card big"), `take:${name}`))),
        h("figcaption", { text: say("board.centre") })),
      h("figure", {}, cardBack(view.draw_pile, "card big"),
        h("figcaption", { text: say("board.draw_pile", { n: view.draw_pile }) })),
      h("figure", {},
        h("div", { class: "row", "data-zone": "dice" },
          dice.length ? dice.map((v) => control(dieFace(v, 54), `reroll:${v}`)) : [dieFace(1, 54), dieFace(1, 54)].map((d) => { d.setAttribute("opacity", "0.3"); return d; })),
        h("figcaption", { text: current !== null && current !== undefined ? say("board.dice_of", { seat: seatName(current), note: diceNote }) : diceNote }))),
    h("p", { class: "small muted", text: say("board.turn", { turn: view.turn, max: view.max_turns }) }));

  // ---- seats, starting with this seat
  const n = view.players;
  const first = seat ?? 0;
  const winners = (result && result.winners) || [];
  const seats = h("div", { class: "seats" }, Array.from({ length: n }, (_, k) => {
    const p = (first + k) % n;
    const mine = p === seat;
    const unsafe = view.unsafe[p] || [];
    const safe = view.safe[p] || [];
    const discarded = (view.castle || [])[p] === "discarded";
    return h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${mine ? " me" : ""}`, "data-seat": p },
      h("h3", {},
        h("span", { text: seatName(p) }),
        toMove.includes(p) ? h("span", { class: "badge turn", text: say("board.to_move") }) : null,
        winners.includes(p) ? h("span", { class: "badge win", text: say("board.winner") }) : null),
      h("div", { class: "small", "data-score": p, text: scoreText(say, view, p) }),
      h("div", { class: "small muted", text: say("board.unsafe") }),
      h("div", { class: "cards", "data-zone": `unsafe-${p}` },
        unsafe.length ? unsafe.map((name) => control(card(data, say, name, "card"), `${mine ? "secure" : "steal"}:${name}`))
          : h("span", { class: "muted small", text: say("board.none") })),
      h("div", { class: "small muted", text: say("board.safe") }),
      h("div", { class: "cards", "data-zone": `safe-${p}` },
        castle(say, view.hearts[p], discarded), safe.map((name) => card(data, say, name, "card small"))));
  }));

  // ---- the turn's other choices, as buttons
  const buttons = h("div", { class: "row" },
    ["reroll_both:", "end_turn:"].map((key) => {
      const entry = index.get(key);
      return entry ? control(h("button", { type: "button", text: entry.text }), key) : null;
    }));

  return { node: h("div", { class: "inkheart" }, centre, buttons, seats), handled };
}
