// The Witches of Blackmore: the table drawn from one seat's view.
// Trump pile and the witches' wheel, the draw pile, the trick in the middle, every seat with its
// hand size, cards it took face up and its captured pile, and your hand (click a card to play).
// Every word comes from the game's texts.toml in the page's language (`ctx.say`).
import { h, s, legalControls, cardBack } from "/static/dom.js";

const COLOURS = {
  red: "#d62828", yellow: "#d9a400", green: "#2a9d4b",
  blue: "#1d6fd1", purple: "#8e44ad", grey: "#6f7b80",
};
const ORDER = ["red", "yellow", "green", "blue", "purple", "grey"];

function parse(name) {
  const [colour, value] = name.split("-");
  return { colour, value: Number(value) };
}

function sortCards(names) {
  return [...names].sort((a, b) => {
    const x = parse(a), y = parse(b);
    return ORDER.indexOf(x.colour) - ORDER.indexOf(y.colour) || x.value - y.value;
  });
}

/** A card's name (its id, "red-7") in the page's language: "Red 7", "Rot 7". */
export function cardName(say, name) {
  const { colour, value } = parse(name);
  const word = say(`@${colour}`);
  return say("card", { colour: word.charAt(0).toUpperCase() + word.slice(1), value });
}

/** One card face as SVG: its colour, its value, the colour's name for colour-blind eyes. */
export function card(say, name, cls = "card", trumpColour = null) {
  const { colour, value } = parse(name);
  const fill = COLOURS[colour] || "#444";
  const isTrump = colour === trumpColour;
  return s("svg", { class: cls, viewBox: "0 0 60 90", "data-card": name },
    s("title", { text: say("rule.card", { card: cardName(say, name), value }) }),
    s("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: "#fffdf6", stroke: fill, "stroke-width": isTrump ? 4 : 2.5 }),
    s("rect", { x: 7, y: 20, width: 46, height: 50, rx: 23, fill, opacity: 0.14 }),
    s("text", { x: 30, y: 58, "text-anchor": "middle", "font-size": 34, "font-weight": 800, fill, text: String(value) }),
    s("text", { x: 6, y: 15, "font-size": 12, "font-weight": 700, fill, text: String(value) }),
    s("text", { x: 54, y: 84, "text-anchor": "end", "font-size": 9, fill, text: say(`@${colour}`) }),
    isTrump ? s("text", { x: 54, y: 15, "text-anchor": "end", "font-size": 13, fill, text: "★" }) : null);
}

/** The witches' wheel: values 1-9 around a circle, the trump value in the trump colour; the
 * bigger a number, the higher it ranks now. */
function wheel(view, say) {
  const order = view.wheel_order || [];
  const trump = view.trump ? parse(view.trump) : null;
  const fill = trump ? COLOURS[trump.colour] : "#999";
  const size = 150, c = size / 2, r = 56;
  const rank = Object.fromEntries(order.map((v, i) => [v, i]));
  const marks = [];
  for (let v = 1; v <= 9; v++) {
    const angle = ((v - 1) / 9) * 2 * Math.PI - Math.PI / 2;
    const x = c + r * Math.cos(angle), y = c + r * Math.sin(angle);
    const place = rank[v] ?? 8;
    const top = place === 0;
    marks.push(s("g", { "data-value": v },
      s("circle", { cx: x, cy: y, r: top ? 16 : 13 - place * 0.6, fill: top ? fill : "#fff", stroke: fill, "stroke-width": 2, opacity: 1 - place * 0.06 }),
      s("text", { x, y: y + 5, "text-anchor": "middle", "font-size": top ? 16 : 13, "font-weight": 700, fill: top ? "#fff" : "#333", text: String(v) })));
  }
  const arrow = say(view.wheel === "ascending" ? "board.wheel_ascending" : "board.wheel_descending");
  return s("svg", { viewBox: `0 0 ${size} ${size}`, width: size, height: size, class: "wheel", role: "img", "aria-label": say("board.wheel_label", { order: order.join(" ") }) },
    s("circle", { cx: c, cy: c, r: r + 18, fill: "#2b2340", opacity: 0.85 }),
    s("circle", { cx: c, cy: c, r: r - 22, fill: "none", stroke: "#b9a6e0", "stroke-dasharray": "4 3" }),
    s("text", { x: c, y: c + 4, "text-anchor": "middle", "font-size": 10, fill: "#fff", text: arrow }),
    marks);
}

export function render(ctx) {
  const { view, seat, legal, act, say } = ctx;
  const trumpColour = view.trump ? parse(view.trump).colour : null;
  const { control, handled } = legalControls(legal, (a) => `${a.type}:${a.card ?? ""}`, act);

  // ---- centre: trump pile, wheel, draw pile, the trick
  const centre = h("div", { class: "felt" }, centreZone(view, say, trumpColour), trickArea(view, ctx, control));

  // ---- seats, starting with this seat
  const n = view.players;
  const first = seat ?? 0;
  const seats = h("div", { class: "seats" },
    Array.from({ length: n }, (_, k) => seatPanel(view, ctx, (first + k) % n, trumpColour)));

  // ---- your hand
  let hand = null;
  if (seat !== null && view.hand) {
    hand = h("div", { class: "panel hand" },
      h("h3", { text: say("board.your_hand", { n: view.hand.length }) }),
      h("div", { class: "cards", "data-zone": "hand" },
        sortCards(view.hand).map((name) => control(card(say, name, "card", trumpColour), `play:${name}`))),
      trumpColour ? h("p", { class: "small muted", text: say("board.trump_mark", { colour: say(`@${trumpColour}`) }) }) : null);
  }
  return { node: h("div", { class: "witches" }, centre, hand, seats), handled };
}

/** The trump pile, the witches' wheel and the draw pile. */
function centreZone(view, say, trumpColour) {
  const pile = view.trump_pile || [];
  return h("div", { class: "zone" },
    h("figure", {},
      h("div", { class: "cards overlap" },
        pile.slice(0, -1).slice(-4).map((name) => card(say, name, "card small", null)),
        view.trump ? card(say, view.trump, "card big", trumpColour) : cardBack(null, "card big")),
      h("figcaption", { text: view.trump ? say("board.trump_pile_size", { card: cardName(say, view.trump), n: pile.length }) : say("board.no_trump") })),
    h("figure", {}, wheel(view, say),
      h("figcaption", { text: say("board.wheel", { order: (view.wheel_order || []).join(" > ") }) })),
    h("figure", {}, cardBack(view.draw_pile, "card big"),
      h("figcaption", { text: view.end_phase ? say("board.draw_pile_used_up") : say("board.draw_pile", { n: view.draw_pile }) })));
}

/** A component for the rules page (static/rules.js): `card/red-7`, `back` (the draw pile),
 * `wheel/blue-7/7.6.5.4.3.2.1.9.8/descending` (the wheel with that trump and order), `centre`
 * (trump pile, wheel and draw pile of a game just dealt, `ctx.view`). */
export function piece(name, args, ctx) {
  const { say, view } = ctx;
  if (name === "card") return card(say, args[0], "card big", args[1] ? parse(args[0]).colour : null);
  if (name === "back") return cardBack(null, "card big");
  if (name === "wheel") {
    const [trump, order, side] = args;
    return wheel({ trump, wheel_order: order.split(".").map(Number), wheel: side }, say);
  }
  if (name === "centre") return h("div", { class: "felt" }, centreZone(view, say, view.trump ? parse(view.trump).colour : null));
  return null;
}

function trickArea(view, ctx, control) {
  const { seatName, say } = ctx;
  const trick = view.trick || [];
  const choosing = view.trick_winner !== null && view.trick_winner !== undefined;
  const keep = control(h("button", { type: "button", text: view.trump ? say("button.keep_trump", { card: cardName(say, view.trump) }) : "" }), "keep_trump:");
  const played = trick.map((t) => h("figure", {},
    choosing ? control(card(say, t.card, "card big"), `change_trump:${t.card}`) : card(say, t.card, "card big"),
    h("figcaption", { text: seatName(t.player) })));
  let heading;
  const number = (view.tricks || []).length + 1;
  if (choosing) {
    heading = say(ctx.seat === view.trick_winner ? "board.won_trick_you" : "board.won_trick", { seat: seatName(view.trick_winner) });
  } else if (view.leader !== null && view.leader !== undefined) {
    heading = trick.length ? say("board.trick", { number })
      : view.leader === ctx.seat ? say("board.trick_you_lead", { number }) : say("board.trick_leads", { number, seat: seatName(view.leader) });
  } else {
    heading = say(view.result ? "board.all_played" : "board.dealing");
  }
  const last = (view.tricks || []).at(-1);
  return h("div", { class: "trick", "data-zone": "trick" },
    h("h3", { text: heading }),
    h("div", { class: "zone" }, played.length ? played : h("span", { class: "muted", text: say("board.no_card_played") })),
    choosing && keep.classList.contains("legal") ? h("div", { class: "row" }, keep) : null,
    last ? h("p", { class: "small" },
      say("board.last_trick", {
        plays: last.players.map((p, i) => `${seatName(p)} ${cardName(say, last.cards[i])}`).join(", "),
        seat: seatName(last.winner), points: last.points,
      }) + (last.new_trump ? say("board.new_trump", { card: cardName(say, last.new_trump) }) : "")) : null);
}

function seatPanel(view, ctx, p, trumpColour) {
  const { seat, seatName, toMove, result, say } = ctx;
  const known = (view.known_in_hands || [])[p] || [];
  const captured = (view.captured || [])[p] || [];
  const hidden = Math.max(0, view.hand_sizes[p] - (p === seat ? view.hand_sizes[p] : known.length));
  const winners = (result && result.winners) || [];
  return h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${p === seat ? " me" : ""}`, "data-seat": p },
    h("h3", {},
      h("span", { text: seatName(p) }),
      toMove.includes(p) ? h("span", { class: "badge turn", text: say("board.to_move") }) : null,
      view.leader === p ? h("span", { class: "badge", text: say("board.leads") }) : null,
      winners.includes(p) ? h("span", { class: "badge win", text: say("board.winner") }) : null),
    h("div", { class: "small", text: say("board.seat_counts", { cards: say("board.n_cards", { n: view.hand_sizes[p] }), points: say("board.n_points", { n: view.scores[p] }) }) }),
    p !== seat ? h("div", { class: "cards overlap" },
      Array.from({ length: Math.min(hidden, 9) }, () => cardBack(null, "card small")),
      known.map((name) => card(say, name, "card small", trumpColour))) : null,
    known.length && p !== seat ? h("div", { class: "small muted", text: say("board.took_face_up", { cards: known.map((name) => cardName(say, name)).join(", ") }) }) : null,
    captured.length ? h("div", {},
      h("div", { class: "small muted", text: say("board.captured", { n: captured.length }) }),
      // One small stack per colour, so 24 captured cards still fit the panel.
      h("div", { class: "captured" }, ORDER.map((colour) => {
        const mine = sortCards(captured).filter((name) => parse(name).colour === colour);
        return mine.length ? h("div", { class: "cards overlap", "data-colour": colour },
          mine.map((name) => card(say, name, "card tiny"))) : null;
      }))) : null);
}
