// Tainted Grail, the day cycle: the scenario's map on its grid (locations joined by arrows, the
// menhirs' light, guardians, every character), the decision in front of the table (a story
// section's options, joining an action, resting, buying an improvement), each character's card
// with health, energy, terror, food, attributes and items, and the day's events. Click a
// location to travel there, your own location to explore it, an action of the place or an item
// to use it, an option to choose it. Everything is public: all seats see the same table.
// Every word comes in the page's language: the game's texts (texts.toml, the glossary's terms
// as "@key") and the scenario's own texts through the translations every view carries.
import { h, s, legalControls, seatMarker, seatChip } from "/static/dom.js";

const CELL_W = 96, CELL_H = 72, PAD = 10;

function keyOf(action) {
  const { type, ...rest } = action;
  return [type, ...Object.keys(rest).sort().map((k) => rest[k])].join(":");
}

let scene = {};  // the scenario's texts in the page's language (English: none)

let say = (key) => key;  // the game's words in the page's language (ctx.say), set by render()

/** A glossary term in the page's language. */
function term(key) { return say(`@${key}`); }

/** A text of the scenario (a name, a label, a story line) in the page's language. */
function tr(text) { return scene[text] ?? text; }

const RESOURCES = { energy: "energy", health: "health", terror: "terror", food: "food", xp: "experience" };

/** A cost ([[resource, amount], ...]) in words: "2 energy, 1 food", terror as "+1 terror". */
function costText(amounts) {
  const parts = (amounts || []).map(([name, n]) =>
    say(name === "terror" ? "cost.gain" : "cost.pay", { n, resource: term(RESOURCES[name] || name) }));
  return parts.join(", ") || say("cost.free");
}

let origin = [0, 0];  // the top-left cell drawn: the map is cropped to the cells in use

function centre(x, y) {
  return [PAD + (x - origin[0]) * CELL_W + CELL_W / 2, PAD + (y - origin[1]) * CELL_H + CELL_H / 2];
}

/** A place's name in at most two lines that fit `width` (SVG units), and the font size: words
 * go to the second line when the first would be too wide; a long word makes the type smaller. */
function fitName(name, width) {
  const chars = (text, size) => text.length * size * 0.6;
  for (const size of [8.5, 7.5, 6.5]) {
    const words = name.split(" ");
    const lines = [""];
    for (const word of words) {
      const line = lines.at(-1) ? `${lines.at(-1)} ${word}` : word;
      if (chars(line, size) <= width || !lines.at(-1)) lines[lines.length - 1] = line;
      else lines.push(word);
    }
    if (lines.length <= 2 && lines.every((l) => chars(l, size) <= width)) return { lines, size };
  }
  return { lines: [name], size: 6.5 };
}

function mapSvg(view, ctx, control) {
  const { seatName } = ctx;
  const used = [...view.locations, ...view.characters];
  const xs = used.map((p) => p.x), ys = used.map((p) => p.y);
  origin = [Math.min(...xs), Math.min(...ys)];
  const cols = Math.max(...xs) - origin[0] + 1, rows = Math.max(...ys) - origin[1] + 1;
  const width = PAD * 2 + cols * CELL_W, height = PAD * 2 + rows * CELL_H;
  const byId = Object.fromEntries(view.locations.map((l) => [l.id, l]));
  const acting = view.decision && view.decision.character !== undefined ? view.characters[view.decision.character] : null;
  const grid = [];
  for (let y = 0; y < rows; y++) {
    for (let x = 0; x < cols; x++) {
      grid.push(s("rect", { x: PAD + x * CELL_W + 2, y: PAD + y * CELL_H + 2, width: CELL_W - 4, height: CELL_H - 4, rx: 6, fill: "#2d3b2f", opacity: 0.35 }));
    }
  }
  const links = [];
  const drawn = new Set();
  for (const place of view.locations) {
    for (const target of place.arrows) {
      const other = byId[target];
      if (!other) continue;
      const both = other.arrows.includes(place.id);
      const key = [place.id, target].sort().join("|");
      if (both && drawn.has(key)) continue;
      drawn.add(key);
      const [x1, y1] = centre(place.x, place.y), [x2, y2] = centre(other.x, other.y);
      links.push(s("line", { x1, y1, x2, y2, stroke: "#d9c48f", "stroke-width": 4, "stroke-linecap": "round", "marker-end": both ? null : "url(#grail-arrow)" }));
    }
  }
  // A tile (84 x 60): the name on one or two lines at the top; characters (left) and guardians
  // (right) in the middle row; the menhir and its light, markers, a place action and "can be
  // explored" in the bottom row. Nothing is drawn over the name, no text leaves the tile.
  const places = view.locations.map((place) => {
    const [cx, cy] = centre(place.x, place.y);
    const x = cx - CELL_W / 2 + 6, y = cy - CELL_H / 2 + 6, w = CELL_W - 12, hgt = CELL_H - 12;
    const menhir = view.menhirs.find((m) => m.location === place.id);
    const guardians = view.guardians.filter((g) => g.location === place.id);
    const { lines, size } = fitName(tr(place.name), w - 6);
    const bottom = y + hgt - 5;
    const actions = place.actions.map((a) => tr(a.label)).join("; ");
    const node = s("g", { class: "location", "data-location": place.id },
      s("title", { text: [say("rule.location", { place: tr(place.name) }), actions ? say("board.place_action", { actions }) : null, place.explore ? say("board.can_explore") : null].filter(Boolean).join("\n") }),
      s("rect", { class: "tile", x, y, width: w, height: hgt, rx: 8, fill: place.in_range ? "#f6efd9" : "#c9c2b0", stroke: "#6b5a2e", "stroke-width": 1.5 }),
      lines.map((line, i) => s("text", { class: "label", x: cx, y: y + 11 + i * (size + 1.5), "text-anchor": "middle", "font-size": size, "font-weight": 700, fill: "#2b2340", text: line })),
      menhir ? s("g", { class: "icon" }, s("title", { text: say("board.menhir_light", { dial: menhir.dial }) }),
        s("path", { d: `M${x + 5} ${bottom + 1} l4.5 -12 l4.5 12 z`, fill: "#5d6d7e", stroke: "#222" }),
        s("text", { x: x + 16, y: bottom, "font-size": 8.5, "font-weight": 700, fill: "#1d4f91", text: String(menhir.dial) })) : null,
      place.instant_markers ? s("g", { class: "icon" }, s("title", { text: say("board.markers", { n: place.instant_markers }) }),
        s("circle", { cx: x + 33, cy: bottom - 3, r: 3.5, fill: "#b7860b", stroke: "#222", "stroke-width": 0.8 }),
        s("text", { x: x + 38.5, y: bottom, "font-size": 8, fill: "#333", text: String(place.instant_markers) })) : null,
      actions ? s("text", { class: "icon", x: x + w - 22, y: bottom, "text-anchor": "middle", "font-size": 9, fill: "#7a3e9d", text: "★" }, s("title", { text: say("board.place_action", { actions }) })) : null,
      place.explore ? s("text", { class: "icon", x: x + w - 8, y: bottom, "text-anchor": "middle", "font-size": 10, "font-weight": 700, fill: "#7a3e9d", text: "?" }, s("title", { text: say("board.can_explore") })) : null,
      guardians.map((g, i) => s("g", { class: "icon" }, s("title", { text: say("board.guardian", { name: tr(g.name) }) }),
        s("rect", { x: x + w - 14 - i * 13, y: y + 29, width: 8, height: 8, fill: "#8b0000", stroke: "#111", transform: `rotate(45 ${x + w - 10 - i * 13} ${y + 33})` }))));
    control(node, `travel:${place.id}`);
    if (acting && acting.location === place.id) control(node, "explore");
    return node;
  });
  const tokens = [];
  const atCell = new Map();
  view.characters.forEach((c, p) => {
    const key = `${c.x},${c.y}`;
    atCell.set(key, [...(atCell.get(key) || []), p]);
  });
  for (const [key, seats] of atCell) {
    const [x, y] = key.split(",").map(Number);
    const [cx, cy] = centre(x, y);
    seats.forEach((p, i) => {
      const c = view.characters[p];
      tokens.push(s("g", { "data-character": c.id },
        s("title", { text: `${tr(c.name)} (${seatName(p)})` }),
        seatMarker(p, cx - CELL_W / 2 + 16 + i * 14, cy + 3, 6, { fill: c.fallen ? "#777" : null })));
    });
  }
  return s("svg", { class: "grail-map", viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": say("board.map_of", { scenario: tr(view.scenario) }) },
    s("defs", {}, s("marker", { id: "grail-arrow", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" },
      s("path", { d: "M0 0 L10 5 L0 10 z", fill: "#d9c48f" }))),
    s("rect", { x: 0, y: 0, width, height, rx: 12, fill: "#1f3324" }),
    grid, links, places, tokens);
}

function meter(label, value, max, colour) {
  const cells = Array.from({ length: Math.max(max, value) }, (_, i) =>
    s("rect", { x: i * 7, y: 0, width: 6, height: 8, rx: 1, fill: i < value ? colour : "#e3ddcf" }));
  return h("div", { class: "row small" }, h("span", { class: "meter", text: `${label} ${value}/${max}` }),
    s("svg", { viewBox: `0 0 ${Math.max(max, value) * 7} 8`, width: Math.max(max, value) * 7, height: 8 }, cells));
}

function characterCards(view, ctx, control) {
  const { seat, seatName, toMove } = ctx;
  return h("div", { class: "seats" }, view.characters.map((c, p) => {
    const items = c.items.map((item) => {
      const rule = say("rule.item", { item: tr(item.name), keywords: item.keywords.map(tr).join(", "), state: term(item.equipped ? "equipped" : "turned_over") });
      const chip = h("button", { type: "button", class: "chip-button", "data-item": item.id, title: rule,
        text: `${tr(item.name)}${item.equipped ? "" : say("board.not_equipped")}${item.exhausted ? say("board.used") : ""}` });
      control(chip, `use:${item.id}`);
      control(chip, `equip:${item.id}`);
      control(chip, `unequip:${item.id}`);
      return chip;
    });
    return h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${p === seat ? " me" : ""}`, "data-seat": p },
      h("h3", {}, seatChip(p, seatName), h("span", { text: tr(c.name) }),
        toMove.includes(p) ? h("span", { class: "badge turn", text: say("board.to_move") }) : null,
        c.fallen ? h("span", { class: "badge", text: say("board.fallen") }) : c.passed ? h("span", { class: "badge", text: say("board.passed") }) : null),
      meter(term("health"), c.health, c.max_health, "#c0392b"),
      meter(term("energy"), c.energy, c.max_energy, "#e0a100"),
      meter(term("terror"), c.terror, c.terror_limit, "#6c3483"),
      h("div", { class: "small", text: [say("board.stats", { food: c.food, xp: c.xp }), ...Object.entries(c.attributes).map(([k, v]) => `${tr(k)} ${v}`)].join(" · ") }),
      h("div", { class: "row" }, items),
      c.improvements.length ? h("div", { class: "small muted", text: say("board.improvements", { names: c.improvements.map(tr).join(", ") }) }) : null);
  }));
}

function decisionPanel(view, ctx, control, isHandled) {
  const { legal, seatName } = ctx;
  const decision = view.decision;
  const parts = [];
  if (decision && decision.kind === "choose") {
    parts.push(h("h3", { text: tr(decision.title) }), h("p", { text: tr(decision.text) }),
      h("div", { class: "small muted", text: say("board.involved", { names: decision.involved.map((c) => tr(view.characters[c].name)).join(", ") }) }));
  } else if (decision && decision.kind === "join") {
    const kind = { travel: "travel", exploration: "exploration" }[decision.action] || "location_action";
    parts.push(h("p", { text: say(`board.join_${kind}`, { name: tr(view.characters[decision.members[0]].name), target: targetName(view, kind, decision.target) }) }));
  } else if (decision && decision.character !== undefined) {
    const who = view.characters[decision.character];
    const task = ["act", "rest", "improve", "equip"].includes(decision.kind) ? say(`board.task_${decision.kind}`) : decision.kind;
    parts.push(h("p", { class: "small", text: say("board.task_line", { seat: seatName(decision.character), name: tr(who.name), task }) }));
  }
  const acting = decision && decision.character !== undefined ? view.characters[decision.character] : null;
  if (acting) {
    const place = view.locations.find((l) => l.id === acting.location);
    if (place && place.actions.length) {
      parts.push(h("div", { class: "small", text: say("board.at_place", { place: tr(place.name) }) }),
        h("div", { class: "row" }, place.actions.map((a) => control(
          h("button", { type: "button", "data-location-action": a.id, text: `${tr(a.label)} (${costText(a.amounts)})${a.markers ? say("board.markers_suffix", { n: a.markers }) : ""}` }),
          `location_action:${a.id}`))));
    }
  }
  const rest = legal.filter((entry) => !isHandled(keyOf(entry.action)) && !["travel", "explore", "use", "equip", "unequip", "location_action"].includes(entry.action.type));
  if (rest.length) {
    parts.push(h("div", { class: "options" }, rest.map((entry) =>
      control(h("button", { type: "button", text: entry.text }), keyOf(entry.action)))));
  }
  return parts.length ? h("div", { class: "panel decision" }, parts) : null;
}

/** What a group action is about, in words: the destination or place explored (its name), or
 * the location action (its label); the decision names it by id. */
function targetName(view, kind, id) {
  if (kind === "location_action") {
    for (const place of view.locations) {
      const found = place.actions.find((a) => a.id === id);
      if (found) return tr(found.label);
    }
    return "";
  }
  const place = view.locations.find((l) => l.id === id);
  return place ? tr(place.name) : "";
}

// What the map's signs mean (every sign and abbreviation on the board is explained here).
function legend() {
  return h("p", { class: "small legend" },
    h("strong", { text: say("board.legend_head") }), say("board.legend"));
}

/** The story's state in words. What happened is told once, in the game log beside the board
 * (the chronicle's lines are its events); story flags are the game's bookkeeping, not shown. */
function eventsPanel(view) {
  const dials = Object.entries(view.time_dials || {});
  const counters = Object.entries(view.counters || {});
  return h("div", { class: "panel" },
    h("dl", { class: "kv" },
      h("dt", { text: say("board.todays_event") }), h("dd", { text: view.today.map(tr).join(", ") || say("board.none_yet") }),
      h("dt", { text: say("board.quests") }), h("dd", { text: view.quest_pile.map(tr).join(", ") || say("board.none") }),
      h("dt", { text: say("board.event_deck") }), h("dd", { text: say("board.deck_count", { n: view.event_deck, discarded: view.events_discarded }) }),
      dials.length ? [h("dt", { text: say("board.time_dials") }), h("dd", { text: dials.map(([k, v]) => `${tr(k)}: ${v}`).join(", ") })] : null,
      counters.length ? [h("dt", { text: say("board.counters") }), h("dd", { text: counters.map(([k, v]) => `${tr(k)}: ${v}`).join(", ") })] : null));
}

/** A component for the rules page (static/rules.js): `map` (the scenario's map of a game just
 * dealt, `ctx.view`), `character/0` (a character's card: health, energy, terror, items),
 * `legend` (the map's signs). */
export function piece(name, args, ctx) {
  const { view } = ctx;
  say = ctx.say;
  scene = (view.translations || {})[ctx.lang || "en"] || {};
  const none = (node) => node;
  if (name === "map") return mapSvg(view, ctx, none);
  if (name === "character") {
    const cards = characterCards(view, { ...ctx, toMove: [] }, none);
    return cards.children[Number(args[0])] || null;
  }
  if (name === "legend") return legend();
  return null;
}

export function render(ctx) {
  const { view, legal, act } = ctx;
  say = ctx.say;
  const lang = ctx.lang || "en";
  scene = (view.translations || {})[lang] || {};
  const { control, handled, index } = legalControls(legal, keyOf, act);
  const isHandled = (key) => handled.has(index.get(key)?.id);
  const phase = ["dawn", "day", "dusk", "over"].includes(view.phase) ? say(`board.phase_${view.phase}`) : view.phase;
  const head = h("div", { class: "felt" },
    h("div", { class: "row" },
      h("strong", { text: tr(view.scenario) }),
      h("span", { text: `${say("board.day_head", { day: view.day, phase })}${view.phase === "dawn" && view.dawn_step ? say("board.step", { step: view.dawn_step }) : ""}` }),
      view.result ? h("span", { text: say(view.result.outcome === "win" ? "board.won" : "board.lost", { reason: tr(view.result.reason) }) }) : null));
  const map = mapSvg(view, ctx, control);
  const cards = characterCards(view, ctx, control);
  const decision = decisionPanel(view, ctx, control, isHandled);
  return { node: h("div", { class: "grail" }, head, map, legend(), decision, cards, eventsPanel(view)), handled };
}
