// Die Holde Isolde: the seven boards as tracks with every seat's disc (a stack's top disc is
// ahead), the round, the shields, and this seat's cards. Click a card to keep it in the draft
// or to play it (a combat card: its joust or tourney chip), a board to move your disc there
// (Isolde's reward, the advanced start player's "on top"). Every word comes from the game's
// texts.toml in the page's language (`ctx.say`).
import { h, s, legalControls, seatMarker, seatChip, faceCard, cardBack } from "/static/dom.js";
import { t } from "/static/i18n.js";

const TYPE_COLOURS = {
  isolde: "#b0307f", combat: "#c0392b", studies: "#11808f", king: "#b7860b",
  quest: "#2a8a3e", charity: "#2f5fb3",
};
const BOARD_COLOURS = { ...TYPE_COLOURS, joust: "#c0392b", tourney: "#d4622a" };
const PHASES = ["deal", "draft", "play", "tiebreak", "isolde_moves", "over"];

function parseCard(name) {
  const at = name.lastIndexOf("-");
  return { type: name.slice(0, at), value: Number(name.slice(at + 1)) };
}

/** A card's name ("combat-4") in the page's language ("Kampf 4"). */
function cardName(say, name) {
  const { type, value } = parseCard(name);
  return say("card", { type: say(`@type_${type}`), value });
}

function card(say, name, cls = "card") {
  const { type, value } = parseCard(name);
  const boards = type === "combat" ? `${say("@board_joust")} / ${say("@board_tourney")}` : say(`@board_${type}`);
  const rule = type === "combat" ? say("rule.combat", { card: cardName(say, name), value })
    : say("rule.card", { card: cardName(say, name), value, board: say(`@board_${type}`) });
  return faceCard({ title: say(`board.type_${type}`), big: value, footer: boards, colour: TYPE_COLOURS[type] || "#555", cls, tip: rule, data: { card: name } });
}

function scoringText(say, board) {
  const count = board.scored_after.length;
  const rounds = count === 6 ? say("board.every_round") : say("board.after_rounds", { n: count, rounds: board.scored_after.join(", ") });
  const rewards = board.scoring === "spaces"
    ? board.rewards.filter(([, points]) => points > 0).map(([space, points]) => say("board.points_from", { points, space })).join(", ")
    : board.scoring === "moves" ? say("board.moves", { steps: board.rewards.slice().reverse().join("/+") }) : board.rewards.join("/");
  return `${rewards} · ${rounds}`;
}

/** Each board: its name and scoring above a track of spaces 0..N, discs stacked bottom to top
 * (the view lists them front first). The whole board is the control when a disc may move there. */
function boardsPanel(view, control, say, seatName) {
  const cell = 20, r = 4.6, lift = 7.5;
  const rows = view.boards.map((board) => {
    const colour = BOARD_COLOURS[board.board] || "#555";
    const width = (board.spaces + 1) * cell;
    const stacks = new Map();
    for (const disc of [...board.discs].reverse()) {
      if (!stacks.has(disc.space)) stacks.set(disc.space, []);
      stacks.get(disc.space).push(disc);
    }
    // The squares are as tall as the highest stack needs: every disc inside its square.
    const tallest = Math.max(1, ...[...stacks.values()].map((stack) => stack.length));
    const top = 3, height = Math.max(20, 2 * r + 3 + (tallest - 1) * lift), bottom = top + height;
    const cells = [];
    for (let space = 0; space <= board.spaces; space++) {
      const x = space * cell;
      let fill = space === 0 ? "#e8e1d3" : "#fbf8f1";
      if (board.scoring === "spaces") {
        const zone = board.rewards.filter(([from]) => space >= from).at(-1);
        if (zone && zone[1] > 0) fill = zone[1] >= 12 ? "#f3d98b" : "#f8ebc4";
      }
      cells.push(s("rect", { class: "square", x: x + 1, y: top, width: cell - 2, height, rx: 3, fill, stroke: "#cbbfa6" }),
        s("text", { x: x + cell / 2, y: bottom + 8, "text-anchor": "middle", "font-size": 7, fill: "#8a8170", text: space === 0 ? "S" : String(space) }));
    }
    const discs = [];
    for (const [space, stack] of stacks) {
      stack.forEach((disc, level) => {
        const cx = space * cell + cell / 2, cy = bottom - r - 1.5 - level * lift;
        discs.push(s("g", { "data-seat": disc.seat },
          s("title", { text: say("board.disc_title", { seat: seatName(disc.seat), distance: disc.distance }) + (disc.laps ? say("board.laps", { n: disc.laps }) : "") }),
          seatMarker(disc.seat, cx, cy, r),
          disc.laps ? s("text", { x: cx + 5, y: cy - 2, "font-size": 7, "font-weight": 700, fill: "#222", text: "+".repeat(Math.min(disc.laps, 3)) }) : null));
      });
    }
    // A control's name is the board's name and the move, not every number drawn on the track.
    const row = h("div", { class: `isolde-board${board.scored_this_round ? " scored" : ""}`, "data-board": board.board, "data-name": say(`@board_${board.board}`) },
      h("div", { class: "isolde-board-head" },
        h("span", { class: "swatch", style: { "--board": colour } }),
        h("strong", { text: say(`@board_${board.board}`) }),
        h("span", { class: "small muted", text: `${board.loops ? "" : say("board.ends_at", { space: board.spaces }).replace(/^, /, "")}${board.loops ? "" : " · "}${scoringText(say, board)}` }),
        board.scored_this_round ? h("span", { class: "badge", text: say("board.scored_this_round") }) : null),
      s("svg", { class: "isolde-track", viewBox: `0 0 ${width} ${bottom + 12}`, role: "img", "aria-label": say("board.discs_of", { board: say(`@board_${board.board}`) }) }, cells, discs));
    control(row, `bonus_move:${board.board}`);
    control(row, `go_on_top:${board.board}`);
    return row;
  });
  return h("div", { class: "isolde-boards" }, rows);
}

function seatsPanel(view, ctx) {
  const { seat, seatName, toMove, result, say } = ctx;
  const winners = (result && result.winners) || [];
  return h("div", { class: "seats" }, Array.from({ length: view.players }, (_, p) => {
    const picked = view.picked ? view.picked[p] : null;
    const awards = view.awards.filter((a) => a.seat === p && a.round === view.round);
    return h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${p === seat ? " me" : ""}`, "data-seat": p },
      h("h3", {}, seatChip(p, seatName),
        p === view.start_player ? h("span", { class: "badge", title: say("board.start_title"), text: say("board.start") }) : null,
        toMove.includes(p) ? h("span", { class: "badge turn", text: say("board.to_move") }) : null,
        winners.includes(p) ? h("span", { class: "badge win", text: say("board.winner") }) : null),
      h("div", { class: "small", text: `${say("board.n_shields", { n: view.scores[p] })} · ${say("board.in_hand", { n: view.hand_sizes[p] })}${view.kept_counts[p] ? say("board.kept", { n: view.kept_counts[p] }) : ""}` }),
      picked === null ? null : h("div", { class: "small muted", text: say(picked ? "board.has_picked" : "board.still_picking") }),
      p !== seat && view.hand_sizes[p] + view.kept_counts[p] > 0
        ? h("div", { class: "cards overlap" }, Array.from({ length: Math.min(view.hand_sizes[p] + view.kept_counts[p], 6) }, () => cardBack(null, "card tiny")))
        : null,
      awards.length ? h("div", { class: "small", text: say("board.this_round", { awards: awards.map((a) => `${say(`@board_${a.board}`)} ${a.points > 0 ? "+" : ""}${a.points}`).join(", ") }) }) : null);
  }));
}

function privateArea(view, ctx, control) {
  const { seat, say } = ctx;
  if (seat === null) return null;
  const parts = [];
  if (view.phase === "draft" || view.phase === "deal") {
    parts.push(h("h3", { text: view.phase === "draft" ? say("board.draft_step", { step: view.draft_step }) : say("board.dealt_to_you") }),
      h("div", { class: "cards", "data-zone": "packet" }, (view.packet || []).map((name) => control(card(say, name), `keep:${name}`))));
    if ((view.kept || []).length) {
      parts.push(h("div", { class: "small muted", text: say("board.kept_so_far") }),
        h("div", { class: "cards", "data-zone": "kept" }, view.kept.map((name) => card(say, name, "card small"))));
    }
    const passed = view.passed || [];
    if (passed.length) {
      const shown = passed.map((cards) => cards.map((name) => cardName(say, name)).join(" ")).join(" | ");
      parts.push(h("p", { class: "small muted", text: say("board.passed", { direction: say(`@${view.pass_direction}`), cards: shown }) }));
    }
  } else {
    const hand = view.hand || [];
    parts.push(h("h3", { text: say("board.your_hand", { n: hand.length }) }),
      h("div", { class: "cards", "data-zone": "hand" }, hand.map((name) => {
        const { type } = parseCard(name);
        if (type !== "combat") return control(card(say, name), `play:${name}:${type}`);
        const chips = ["joust", "tourney"].map((board) =>
          control(h("button", { type: "button", class: "chip-button", text: say(`@board_${board}`) }), `play:${name}:${board}`));
        return h("figure", { class: "with-chips" }, card(say, name), h("div", { class: "row" }, chips));
      })));
  }
  return h("div", { class: "panel hand" }, parts);
}

/** A component for the rules page (static/rules.js): `card/combat-4`, `board/king` (one
 * board of a game just dealt, `ctx.view`: every disc on its start space), `boards` (all
 * seven). */
export function piece(name, args, ctx) {
  const { say, view } = ctx;
  const none = () => null;
  const seatName = (p) => t("seat.n", { n: p + 1 });   // no table here: seats by number
  if (name === "card") return card(say, args[0], "card big");
  if (name === "board") return boardsPanel({ ...view, boards: view.boards.filter((b) => b.board === args[0]) }, none, say, seatName);
  if (name === "boards") return boardsPanel(view, none, say, seatName);
  return null;
}

export function render(ctx) {
  const { view, legal, act, seatName, say } = ctx;
  const keyOf = (a) => [a.type, a.card, a.board].filter((x) => x !== undefined).join(":");
  const { control, handled } = legalControls(legal, keyOf, act);
  const head = h("div", { class: "felt isolde-head" },
    h("div", { class: "row" },
      h("strong", { text: say("board.round_of", { round: view.round, rounds: view.rounds }) }),
      h("span", { text: PHASES.includes(view.phase) ? say(`board.phase_${view.phase}`) : view.phase }),
      h("span", { class: "muted", text: say(view.pass_direction === "left" ? "board.pass_left" : "board.pass_right") }),
      h("span", { class: "muted", text: say("board.deck", { deck: view.deck, discarded: view.discarded }) })),
    (view.pending_isolde_moves || []).length
      ? h("div", { class: "small", text: say("board.isolde_moves", { moves: view.pending_isolde_moves.map((m) => `${seatName(m.seat)} +${m.steps}`).join(", ") }) })
      : null);
  const played = (view.played || []).length ? view.played : view.last_round_played || [];
  const playedPanel = played.length
    ? h("div", { class: "panel" },
      h("h3", { text: say((view.played || []).length ? "board.played_this_round" : "board.played_last_round") }),
      h("div", { class: "cards played" }, played.map((p) => h("figure", {},
        card(say, p.card, "card small"), h("figcaption", { class: "small" }, seatChip(p.seat, seatName), ` → ${say(`@board_${p.board}`)}`)))))
    : null;
  return {
    node: h("div", { class: "isolde" }, head, privateArea(view, ctx, control), boardsPanel(view, control, say, seatName), seatsPanel(view, ctx), playedPanel),
    handled,
  };
}
