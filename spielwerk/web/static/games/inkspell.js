// Tintenblut: the map of the nine locations with its roads (the dashed secret path is
// Staubfinger's alone), every figure, Staubfinger and the White Women; the victory track as a
// ring of 40 spaces; each seat's tiles, provisions, villains and location cards; this seat's
// advantage cards. Click a location to travel there with its card (or with Die Tintenwelt: the
// ✦ beside it) or to send Staubfinger there; the reward rows, the advantage cards and the
// turn's other choices are buttons beside the map. Names and rewards come from the game's
// component data; the places on the drawing are chosen here, only for the picture.
import { h, s, legalControls, seatMarker, seatChip, plural } from "/static/dom.js";

const PLACES = {
  grenze: [70, 62], hof: [205, 36], ombra: [345, 62], siechenhaus: [345, 252], nachtburg: [70, 252],
  lager: [205, 124], spielleute: [305, 144], festung: [160, 206], muehle: [262, 222],
};
const GROUP_COLOURS = { castle: "#c0392b", blue: "#1d6fd1", green: "#2a9d4b" };
const TILE_NAMES = { M: "Mut", S: "Stärke", K: "Klugheit", E: "Ehre", P: "Proviant", V: "Vorteilskarte" };

function locations(data) {
  return Object.fromEntries((data.locations || []).map((l) => [l.key, l]));
}

function shortName(location) {
  return location ? location.name.split(" ").at(-1) : "Tintenwelt";
}

/** A place's three letters inside its circle on the map (the legend spells them out). */
function abbreviation(place) {
  return shortName(place).slice(0, 3);
}

function rowText(row) {
  return (row || []).map(([what, count]) => `${count} ${TILE_NAMES[what] || what}`).join(" + ");
}

function withoutSeat(text) {
  return text.replace(/^seat \d+ /, "");
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
      s("title", { text: "the secret path: Staubfinger only" })));
  }
  const nodes = Object.entries(PLACES).map(([key, [x, y]]) => {
    const place = places[key] || { name: key, group: "" };
    const colour = GROUP_COLOURS[place.group] || "#555";
    const here = [];
    view.positions.forEach((at, p) => { if (at === key) here.push(p); });
    const figures = here.map((p, i) =>
      s("g", { "data-seat": p },
        s("title", { text: seatName(p) }),
        seatMarker(p, x - 14 + i * 12, y - 22, 5.5)));
    const marks = [];
    if (view.staubfinger === key) {
      marks.push(s("g", {}, s("title", { text: "Staubfinger" }),
        s("rect", { x: x + 16, y: y - 2, width: 12, height: 12, rx: 2, fill: "#777", stroke: "#222" }),
        s("text", { x: x + 22, y: y + 7.5, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#fff", text: "St" })));
    }
    if (view.white_women !== null && view.white_women !== undefined && view.positions[view.white_women] === key) {
      marks.push(s("g", {}, s("title", { text: `the White Women (with ${seatName(view.white_women)})` }),
        s("circle", { cx: x - 18, cy: y + 2, r: 5, fill: "#fff", stroke: "#555" })));
    }
    const node = s("g", { class: "location", "data-location": key },
      // the name first: a control's name reads as drawn, and on a phone only the letters show
      s("text", { class: "place-label name", x, y: y + 27, "text-anchor": "middle", "font-weight": 600, fill: "#222", text: place.name }),
      s("circle", { cx: x, cy: y, r: 14, fill: "#fffaf0", stroke: colour, "stroke-width": 3 }),
      s("text", { class: "place-label abbr", x, y: y + 4, "text-anchor": "middle", "font-weight": 700, fill: colour, text: abbreviation(place) }),
      figures, marks);
    control(node, `play:${key}`);
    control(node, `staubfinger:${key}`);
    const badge = s("g", { class: "tintenwelt", "data-location": key },
      s("circle", { cx: x + 16, cy: y - 16, r: 7, fill: "#f3e9ff", stroke: "#7a3e9d" }),
      s("text", { x: x + 16, y: y - 12.5, "text-anchor": "middle", "font-size": 9, fill: "#7a3e9d", text: "✦" }));
    const viaInkworld = control(badge, `play:tintenwelt:${key}`);
    return [node, viaInkworld.classList.contains("legal") ? viaInkworld : null];
  });
  return s("svg", { class: "ink-map", viewBox: "0 0 410 290", role: "group", "aria-label": "the map" },
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
        s("title", { text: `${seatName(p)}: ${score}${score >= length ? ` (lap ${Math.floor(score / length) + 1})` : ""}` }),
        seatMarker(p, c + rr * Math.cos(angle), c + rr * Math.sin(angle), 5)));
    });
  }
  const status = view.final_round ? "final round" : view.end_triggered ? "end triggered" : `round ${view.round}`;
  return s("svg", { class: "ink-track", viewBox: "0 0 220 220", role: "img", "aria-label": "the victory track" },
    cells, stones,
    s("text", { x: c, y: c - 6, "text-anchor": "middle", "font-size": 11, "font-weight": 700, fill: "#333", text: status }),
    s("text", { x: c, y: c + 8, "text-anchor": "middle", "font-size": 7.5, fill: "#555", text: `${track.white_women}: White Women` }),
    s("text", { x: c, y: c + 18, "text-anchor": "middle", "font-size": 7.5, fill: "#555", text: `${track.end_trigger}: the end begins` }));
}

/** Every abbreviation and sign of the board spelled out: the map's places (their names are
 * hidden on a phone, where the circles' letters are drawn larger), its marks, the tiles. */
function legend(data) {
  const places = (data.locations || []).map((l) => `${abbreviation(l)} ${l.name}`).join(" · ");
  return h("div", { class: "small legend" },
    h("p", { class: "map-places" }, h("strong", { text: "Places: " }), places),
    h("p", {}, h("strong", { text: "Map: " }), "St Staubfinger · ○ the White Women (beside the seat that has them) · ✦ travel there through the Tintenwelt · dashed line: the secret path, Staubfinger only · numbered shapes: the seats' figures"),
    h("p", {}, h("strong", { text: "Tiles: " }), Object.entries(TILE_NAMES).filter(([k]) => k !== "V").map(([k, v]) => `${k} ${v}`).join(" · ")));
}

function tiles(counts, control, prefix) {
  return ["M", "S", "K", "E"].map((kind) => {
    const chip = h("span", { class: `tile ${kind}`, title: TILE_NAMES[kind], text: `${kind} ${counts[kind] || 0}` });
    return prefix ? control(chip, `${prefix}:${kind}`) : chip;
  });
}

function seatPanels(view, ctx, control) {
  const { seat, seatName, toMove, result, data } = ctx;
  const places = locations(data);
  const villainNames = Object.fromEntries((data.villains || []).map((v) => [v.key, `${v.name} ${v.value}`]));
  const winners = (result && result.winners) || [];
  return h("div", { class: "seats" }, Array.from({ length: view.players }, (_, p) => {
    const marks = [];
    if (p === view.start_player) marks.push("starts the round");
    if (view.passed[p]) marks.push("passed");
    if (view.white_women === p) marks.push("has the White Women");
    const loss = (view.natternkopf_losses || []).find((l) => l.seat === p);
    return h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${p === seat ? " me" : ""}`, "data-seat": p },
      h("h3", {}, seatChip(p, seatName),
        toMove.includes(p) ? h("span", { class: "badge turn", text: "to move" }) : null,
        winners.includes(p) ? h("span", { class: "badge win", text: "winner" }) : null),
      h("div", { class: "small", text: `score ${view.scores[p]} · at ${shortName(places[view.positions[p]])}${marks.length ? " · " + marks.join(" · ") : ""}` }),
      h("div", {}, tiles(view.tiles[p], control, p === seat ? "lose_tile" : null),
        h("span", { class: "tile P", title: "provisions", text: `P ${view.provisions[p]}` })),
      loss ? h("div", { class: "small", text: `Natternkopf: still gives up ${plural(loss.tiles, "tile")}` }) : null,
      h("div", { class: "small", text: `villains (sum ${view.villain_sums[p]}): ${view.villains[p].map((v) => villainNames[v] || v).join(", ") || "none"}` }),
      h("div", { class: "small", text: `${plural(view.advantage_counts[p], "advantage card")}` }),
      h("div", { class: "small muted", text: `cards in hand: ${view.hands[p].map((k) => shortName(places[k]) || k).join(", ") || "none"}` }),
      view.played[p].length ? h("div", { class: "small muted", text: `played: ${view.played[p].map((k) => shortName(places[k]) || k).join(", ")} (last number ${view.last_played[p]})` }) : null);
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
      h("strong", { text: here.name }), `: alone ${rowText(here.solo)} · in company ${rowText(here.shared)}`));
  }
  if (rewards.length) {
    parts.push(h("div", { class: "row" }, rewards.map((entry) =>
      control(h("button", { type: "button", text: withoutSeat(entry.text) }), `reward:${entry.action.row}:${entry.action.take}`))));
  }
  const advantages = view.advantage || [];
  if (advantages.length) {
    const names = Object.fromEntries((data.advantages || []).map((a) => [a.key, a.name]));
    const byCard = new Map();
    for (const entry of legal.filter((e) => e.action.type === "advantage")) {
      byCard.set(entry.action.card, [...(byCard.get(entry.action.card) || []), entry]);
    }
    parts.push(h("div", { class: "small muted", text: "Your advantage cards:" }),
      h("div", { class: "row" }, [...new Set(advantages)].map((key) => {
        const count = advantages.filter((k) => k === key).length;
        const label = `${names[key] || key}${count > 1 ? ` ×${count}` : ""}`;
        const entries = byCard.get(key) || [];
        if (entries.length === 1) {
          return control(h("button", { type: "button", class: "chip-button", text: label }), keyOf(entries[0].action));
        }
        return h("span", { class: "row" }, h("span", { class: "chip", text: label }),
          entries.map((entry) => control(h("button", { type: "button", class: "chip-button", text: withoutSeat(entry.text).replace(/^uses [^:]*: ?/, "") }), keyOf(entry.action))));
      })));
  }
  const others = legal.filter((e) => ["pass", "exchange", "convert", "end_turn", "start"].includes(e.action.type));
  if (others.length) {
    parts.push(h("div", { class: "row" }, others.map((entry) =>
      control(h("button", { type: "button", text: withoutSeat(entry.text) }), keyOf(entry.action)))));
  }
  const hand = view.hands[seat] || [];
  parts.push(h("div", { class: "small muted", text: "Your location cards (click one to travel):" }),
    h("div", { class: "row", "data-zone": "hand" }, hand.map((key) => {
      const place = places[key];
      const chip = h("button", { type: "button", class: "chip-button", "data-card": key, text: place ? place.name : (data.map || {}).tintenwelt_name || key });
      return control(chip, `play:${key}`);
    })));
  return h("div", { class: "panel hand" }, parts);
}

/** A stable key for any action's JSON form: its type, then its fields in order. */
function keyOf(action) {
  const { type, ...rest } = action;
  return [type, ...Object.keys(rest).sort().map((k) => rest[k])].join(":");
}

export function render(ctx) {
  const { view, legal, act } = ctx;
  const { control, handled } = legalControls(legal, keyOf, act);
  const supply = view.supply || {};
  const head = h("div", { class: "felt" },
    h("div", { class: "row" },
      h("strong", { text: `Round ${view.round}${view.final_round ? " (final round)" : view.end_triggered ? " (end triggered)" : ""}` }),
      h("span", { text: `supply: M ${supply.M} S ${supply.S} K ${supply.K} E ${supply.E} · ${supply.P} provisions` }),
      h("span", { class: "muted", text: `villain deck ${view.villain_deck.join("/")} · advantage deck ${view.advantage_deck}` })));
  const boards = h("div", { class: "ink-boards" }, mapSvg(view, ctx, control), trackSvg(view, ctx));
  return {
    node: h("div", { class: "inkspell" }, head, boards, legend(ctx.data), turnPanel(view, ctx, control), seatPanels(view, ctx, control)),
    handled,
  };
}
