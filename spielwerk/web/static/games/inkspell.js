// Tintenblut: the map of the nine locations with its roads (the dashed secret path is
// Staubfinger's alone), every figure, Staubfinger and the White Women; the victory track as a
// ring of 40 spaces; each seat's tiles, provisions, villains and location cards; this seat's
// advantage cards. Click a location to travel there with its card (or with Die Tintenwelt: the
// ✦ beside it) or to send Staubfinger there; the reward rows, the advantage cards and the
// turn's other choices are buttons beside the map. Names and rewards come from the game's
// component data, every word in the page's language from the game's texts (texts.toml, the
// glossary's terms as "@key"); the places on the drawing are chosen here, only for the picture.
import { h, s, legalControls, seatMarker, seatChip } from "/static/dom.js";

const PLACES = {
  grenze: [70, 62], hof: [205, 36], ombra: [345, 62], siechenhaus: [345, 252], nachtburg: [70, 252],
  lager: [205, 124], spielleute: [305, 144], festung: [160, 206], muehle: [262, 222],
};
const GROUP_COLOURS = { castle: "#c0392b", blue: "#1d6fd1", green: "#2a9d4b" };
/** A tile kind's data key -> its glossary term (spielwerk/games/inkspell/words.py). */
const TILE_TERMS = { M: "courage", S: "strength", K: "wisdom", E: "honour" };


let say = (key) => key;  // the game's words in the page's language (ctx.say), set by render()

/** A glossary term in the page's language. */
function term(key) { return say(`@${key}`); }

function tileName(kind) {
  if (kind === "P") return term("provision");
  if (kind === "V") return term("advantage_card");
  return term(TILE_TERMS[kind]);
}

function tileLetter(kind) {
  if (kind === "P") return term("provision_abbr");
  if (kind === "V") return term("advantage_abbr");
  return term(`${TILE_TERMS[kind]}_abbr`);
}

function placeName(key) { return key === "tintenwelt" ? term("tintenwelt") : term(`loc_${key}`); }

/** What an advantage card does, in one line (Meggie, Mo and Resa only score). */
function advantageRule(key) {
  const story = ["meggie", "mo", "resa"].includes(key);
  return say(story ? "rule.adv_story" : `rule.adv_${key}`, { name: term(`adv_${key}`) });
}

function villainName(villain) {
  return villain.natternkopf ? term("natternkopf") : term(`villain_${villain.key}`);
}

function locations(data) {
  return Object.fromEntries((data.locations || []).map((l) => [l.key, l]));
}

function shortName(location) {
  return location ? mapName(location.key) : term("tintenwelt");
}

/** A place's short name, a whole word or two, printed by its circle on a phone's map (the
 * legend spells it out). */
function mapName(key) {
  return term(`loc_${key}_short`);
}

function rowText(row) {
  return (row || []).map(([what, count]) => `${count} ${tileName(what)}`).join(" + ");
}

function mapSvg(view, ctx, control) {
  const { data, seatName } = ctx;
  const places = locations(data);
  const roads = ((data.map || {}).roads || []).map(([a, b]) =>
    s("line", { x1: PLACES[a][0], y1: PLACES[a][1], x2: PLACES[b][0], y2: PLACES[b][1], stroke: "#8a6d3b", "stroke-width": 3, "stroke-linecap": "round" }));
  const secret = (data.map || {}).secret_path;
  if (secret) {
    const [a, b] = secret;
    roads.push(s("line", { x1: PLACES[a][0], y1: PLACES[a][1], x2: PLACES[b][0], y2: PLACES[b][1], stroke: "#6b6459", "stroke-width": 1.5, "stroke-dasharray": "4 4" },
      s("title", { text: say("board.secret_path_title") })));
  }
  const nodes = Object.entries(PLACES).map(([key, [x, y]]) => {
    const place = places[key] || { key, group: "" };
    const colour = GROUP_COLOURS[place.group] || "#555";
    const here = [];
    view.positions.forEach((at, p) => { if (at === key) here.push(p); });
    const figures = here.map((p, i) =>
      s("g", { "data-seat": p },
        s("title", { text: seatName(p) }),
        seatMarker(p, x - 14 + i * 12, y - 22, 5.5)));
    const marks = [];
    if (view.staubfinger === key) {
      marks.push(s("g", {}, s("title", { text: term("staubfinger") }),
        s("rect", { x: x + 16, y: y - 2, width: 12, height: 12, rx: 2, fill: "#777", stroke: "#222" }),
        s("text", { x: x + 22, y: y + 7.5, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#fff", text: term("staubfinger_abbr") })));
    }
    if (view.white_women !== null && view.white_women !== undefined && view.positions[view.white_women] === key) {
      marks.push(s("g", {}, s("title", { text: say("board.white_women_title", { seat: seatName(view.white_women) }) }),
        s("circle", { cx: x - 18, cy: y + 2, r: 5, fill: "#fff", stroke: "#555" })));
    }
    const node = s("g", { class: "location", "data-location": key },
      // the name first and the phone's short name last: a control's name reads as drawn,
      // and what either width shows of it stays one piece of that name
      s("text", { class: "place-label name", x, y: y + 27, "text-anchor": "middle", "font-weight": 600, fill: "#222", text: placeName(key) }),
      s("circle", { cx: x, cy: y, r: 14, fill: "#fffaf0", stroke: colour, "stroke-width": 3 }),
      figures, marks,
      s("text", { class: "place-label short", x, y: y + 29, "text-anchor": "middle", "font-weight": 700, fill: "#222", text: mapName(key) }));
    control(node, `play:${key}`);
    control(node, `staubfinger:${key}`);
    const badge = s("g", { class: "tintenwelt", "data-location": key },
      s("circle", { cx: x + 16, cy: y - 16, r: 7, fill: "#f3e9ff", stroke: "#7a3e9d" }),
      s("text", { x: x + 16, y: y - 12.5, "text-anchor": "middle", "font-size": 9, fill: "#7a3e9d", text: "✦" }));
    const viaInkworld = control(badge, `play:tintenwelt:${key}`);
    return [node, viaInkworld.classList.contains("legal") ? viaInkworld : null];
  });
  return s("svg", { class: "ink-map", viewBox: "0 0 410 290", role: "group", "aria-label": say("board.map_label") },
    s("rect", { x: 0, y: 0, width: 410, height: 290, rx: 12, fill: "#efe4c8" }),
    roads, nodes);
}

function trackSvg(view, ctx) {
  const { data, seatName } = ctx;
  const track = data.track || { length: 40, special: [] };
  const length = track.length;
  const special = Object.fromEntries((track.special || []).map((t) => [t.space, t.group]));
  const c = 110, r = 88;
  const cells = [];
  for (let space = 0; space < length; space++) {
    const angle = (space / length) * 2 * Math.PI - Math.PI / 2;
    const x = c + r * Math.cos(angle), y = c + r * Math.sin(angle);
    const group = special[space];
    cells.push(s("g", { "data-space": space },
      s("circle", { cx: x, cy: y, r: 7, fill: group ? GROUP_COLOURS[group] : space === 0 ? "#ddd" : "#fffaf0", stroke: space === track.end_trigger ? "#000" : "#8a6d3b", "stroke-width": space === track.end_trigger ? 2 : 0.8 }),
      s("text", { x, y: y + 2.5, "text-anchor": "middle", "font-size": 6, fill: group ? "#fff" : "#555", text: String(space) })));
  }
  const stones = [];
  const bySpace = new Map();
  view.scores.forEach((score, p) => {
    const space = score % length;
    bySpace.set(space, [...(bySpace.get(space) || []), p]);
  });
  for (const [space, seats] of bySpace) {
    const angle = (space / length) * 2 * Math.PI - Math.PI / 2;
    seats.forEach((p, i) => {
      const rr = r - 16 - i * 9;
      const score = view.scores[p];
      stones.push(s("g", { "data-seat": p },
        s("title", { text: `${seatName(p)}: ${score}${score >= length ? say("board.lap", { n: Math.floor(score / length) + 1 }) : ""}` }),
        seatMarker(p, c + rr * Math.cos(angle), c + rr * Math.sin(angle), 5)));
    });
  }
  const status = view.final_round ? say("board.status_final") : view.end_triggered ? say("board.status_triggered") : say("board.status_round", { round: view.round });
  return s("svg", { class: "ink-track", viewBox: "0 0 220 220", role: "img", "aria-label": say("board.track_label") },
    cells, stones,
    s("text", { x: c, y: c - 6, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#333", text: status }),
    s("text", { x: c, y: c + 8, "text-anchor": "middle", "font-size": 7.5, fill: "#555", text: say("board.track_white_women", { space: track.white_women }) }),
    s("text", { x: c, y: c + 18, "text-anchor": "middle", "font-size": 7.5, fill: "#555", text: say("board.track_end", { space: track.end_trigger }) }));
}

/** Every abbreviation and sign of the board spelled out: the map's places (their names are
 * hidden on a phone, where the circles' letters are drawn larger), its marks, the tiles. */
function legend(data) {
  const places = (data.locations || []).map((l) => `${mapName(l.key)}: ${placeName(l.key)}`).join(" · ");
  const kinds = [...Object.keys(TILE_TERMS), "P", "V"];
  return h("div", { class: "small legend" },
    h("p", { class: "map-places" }, h("strong", { text: say("board.legend_places") }), places),
    h("p", {}, h("strong", { text: say("board.legend_map") }), say("board.legend_map_text", { abbr: term("staubfinger_abbr") })),
    h("p", {}, h("strong", { text: say("board.legend_tiles") }), kinds.map((k) => `${tileLetter(k)} ${tileName(k)}`).join(" · ")));
}

function tiles(counts, control, prefix) {
  return ["M", "S", "K", "E"].map((kind) => {
    const chip = h("span", { class: `tile ${kind}`, "data-tile": kind, title: say("rule.tile", { tile: tileName(kind) }), text: `${tileLetter(kind)} ${counts[kind] || 0}` });
    return prefix ? control(chip, `${prefix}:${kind}`) : chip;
  });
}

function seatPanels(view, ctx, control) {
  const { seat, seatName, toMove, result, data } = ctx;
  const places = locations(data);
  const villainNames = Object.fromEntries((data.villains || []).map((v) => [v.key, `${villainName(v)} ${v.value}`]));
  const winners = (result && result.winners) || [];
  return h("div", { class: "seats" }, Array.from({ length: view.players }, (_, p) => {
    const marks = [];
    if (p === view.start_player) marks.push(say("board.mark_start"));
    if (view.passed[p]) marks.push(say("board.mark_passed"));
    if (view.white_women === p) marks.push(say("board.mark_white_women"));
    const loss = (view.natternkopf_losses || []).find((l) => l.seat === p);
    return h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${p === seat ? " me" : ""}`, "data-seat": p },
      h("h3", {}, seatChip(p, seatName),
        toMove.includes(p) ? h("span", { class: "badge turn", text: say("board.to_move") }) : null,
        winners.includes(p) ? h("span", { class: "badge win", text: say("board.winner") }) : null),
      h("div", { class: "small", text: `${say("board.score_at", { score: view.scores[p], place: shortName(places[view.positions[p]]) })}${marks.length ? " · " + marks.join(" · ") : ""}` }),
      h("div", {}, tiles(view.tiles[p], control, p === seat ? "lose_tile" : null),
        h("span", { class: "tile P", "data-tile": "P", title: say("rule.provision"), text: `${tileLetter("P")} ${view.provisions[p]}` })),
      loss ? h("div", { class: "small", text: say("board.still_loses", { n: loss.tiles }) }) : null,
      h("div", { class: "small", text: say("board.villains", { sum: view.villain_sums[p], cards: view.villains[p].map((v) => villainNames[v] || v).join(", ") || say("none") }) }),
      h("div", { class: "small", text: say("board.advantage_count", { n: view.advantage_counts[p] }) }),
      h("div", { class: "small muted", text: say("board.hand", { cards: view.hands[p].map((k) => shortName(places[k])).join(", ") || say("none") }) }),
      view.played[p].length ? h("div", { class: "small muted", text: say("board.played", { cards: view.played[p].map((k) => shortName(places[k])).join(", "), number: view.last_played[p] }) }) : null);
  }));
}

function turnPanel(view, ctx, control) {
  const { seat, legal, data } = ctx;
  if (seat === null) return null;
  const places = locations(data);
  const parts = [];
  const here = places[view.positions[seat]];
  const rewards = legal.filter((e) => e.action.type === "reward");
  if (here) {
    parts.push(h("div", { class: "small" },
      h("strong", { text: placeName(here.key) }), say("board.here", { solo: rowText(here.solo), shared: rowText(here.shared) })));
  }
  if (rewards.length) {
    parts.push(h("div", { class: "row" }, rewards.map((entry) =>
      control(h("button", { type: "button", text: entry.text }), `reward:${entry.action.row}:${entry.action.take}`))));
  }
  const advantages = view.advantage || [];
  if (advantages.length) {

    const byCard = new Map();
    for (const entry of legal.filter((e) => e.action.type === "advantage")) {
      byCard.set(entry.action.card, [...(byCard.get(entry.action.card) || []), entry]);
    }
    parts.push(h("div", { class: "small muted", text: say("board.your_advantage") }),
      h("div", { class: "row" }, [...new Set(advantages)].map((key) => {
        const count = advantages.filter((k) => k === key).length;
        const label = `${term(`adv_${key}`)}${count > 1 ? ` ×${count}` : ""}`;
        const entries = byCard.get(key) || [];
        if (entries.length === 1) {
          return control(h("button", { type: "button", class: "chip-button", "data-advantage": key, title: advantageRule(key), text: label }), keyOf(entries[0].action));
        }
        return h("span", { class: "row" }, h("span", { class: "chip", "data-advantage": key, title: advantageRule(key), text: label }),
          entries.map((entry) => control(h("button", { type: "button", class: "chip-button", text: choiceOf(entry.text) }), keyOf(entry.action))));
      })));
  }
  const others = legal.filter((e) => ["pass", "exchange", "convert", "end_turn", "start"].includes(e.action.type));
  if (others.length) {
    parts.push(h("div", { class: "row" }, others.map((entry) =>
      control(h("button", { type: "button", text: entry.text }), keyOf(entry.action)))));
  }
  const hand = view.hands[seat] || [];
  parts.push(h("div", { class: "small muted", text: say("board.your_cards") }),
    h("div", { class: "row", "data-zone": "hand" }, hand.map((key) => {
      const place = places[key];
      const name = placeName(place ? place.key : key);
      const chip = h("button", { type: "button", class: "chip-button", "data-card": key, title: say("rule.location_card", { place: name }), text: name });
      return control(chip, `play:${key}`);
    })));
  return h("div", { class: "panel hand" }, parts);
}

/** An advantage card's choice from its button's label: "Use Farid: Dustfinger to Ombra" ->
 * "Dustfinger to Ombra" (the card's name stands beside the buttons). */
function choiceOf(text) {
  const at = text.indexOf(": ");
  return at < 0 ? text : text.slice(at + 2);
}

/** A stable key for any action's JSON form: its type, then its fields in order. */
function keyOf(action) {
  const { type, ...rest } = action;
  return [type, ...Object.keys(rest).sort().map((k) => rest[k])].join(":");
}

/** A component for the rules page (static/rules.js): `map` (the board of a game just dealt,
 * `ctx.view`, figures on their first locations), `track` (the victory track), `tiles` (one of
 * each experience tile and the provisions), `legend`. */
export function piece(name, args, ctx) {
  say = ctx.say;
  const none = (node) => node;
  if (name === "map") return mapSvg(ctx.view, ctx, none);
  if (name === "track") return trackSvg(ctx.view, ctx);
  if (name === "tiles") {
    return h("div", { class: "row" }, tiles({ M: 1, S: 1, K: 1, E: 1 }, none, null),
      h("span", { class: "tile P", "data-tile": "P", title: say("rule.provision"), text: `${tileLetter("P")} 1` }));
  }
  if (name === "legend") return legend(ctx.data);
  return null;
}

export function render(ctx) {
  const { view, legal, act } = ctx;
  say = ctx.say;
  const { control, handled } = legalControls(legal, keyOf, act);
  const supply = view.supply || {};
  const chips = Object.keys(TILE_TERMS).map((k) => `${tileLetter(k)} ${supply[k]}`).join(" ");
  const head = h("div", { class: "felt" },
    h("div", { class: "row" },
      h("strong", { text: `${say("board.round_head", { round: view.round })}${view.final_round ? say("board.final_round") : view.end_triggered ? say("board.end_triggered") : ""}` }),
      h("span", { text: say("board.supply", { tiles: chips, provisions: say("board.provisions_count", { n: supply.P }) }) }),
      h("span", { class: "muted", text: say("board.decks", { villains: view.villain_deck.join("/"), advantage: view.advantage_deck }) })));
  const boards = h("div", { class: "ink-boards" }, mapSvg(view, ctx, control), trackSvg(view, ctx));
  return {
    node: h("div", { class: "inkspell" }, head, boards, legend(ctx.data), turnPanel(view, ctx, control), seatPanels(view, ctx, control)),
    handled,
  };
}
