// Tainted Grail, the day cycle: the scenario's map on its grid (locations joined by arrows, the
// menhirs' light, guardians, every character), the decision in front of the table (a story
// section's options, joining an action, resting, buying an improvement), each character's card
// with health, energy, terror, food, attributes and items, and the day's events. Click a
// location to travel there, your own location to explore it, an action of the place or an item
// to use it, an option to choose it. Everything is public: all seats see the same table.
import { h, s, legalControls, seatMarker, seatChip, plural } from "/static/dom.js";

const CELL_W = 96, CELL_H = 72, PAD = 10;

function keyOf(action) {
  const { type, ...rest } = action;
  return [type, ...Object.keys(rest).sort().map((k) => rest[k])].join(":");
}

function withoutName(text, names) {
  for (const name of names) {
    if (text.startsWith(`${name} `)) return text.slice(name.length + 1);
    if (text.startsWith(`${name}: `)) return text.slice(name.length + 2);
  }
  return text;
}

let origin = [0, 0];  // the top-left cell drawn: the map is cropped to the cells in use

function centre(x, y) {
  return [PAD + (x - origin[0]) * CELL_W + CELL_W / 2, PAD + (y - origin[1]) * CELL_H + CELL_H / 2];
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
  const places = view.locations.map((place) => {
    const [cx, cy] = centre(place.x, place.y);
    const x = cx - CELL_W / 2 + 6, y = cy - CELL_H / 2 + 6, w = CELL_W - 12, hgt = CELL_H - 12;
    const menhir = view.menhirs.find((m) => m.location === place.id);
    const guardians = view.guardians.filter((g) => g.location === place.id);
    const node = s("g", { class: "location", "data-location": place.id },
      s("rect", { x, y, width: w, height: hgt, rx: 8, fill: place.in_range ? "#f6efd9" : "#c9c2b0", stroke: "#6b5a2e", "stroke-width": 1.5 }),
      s("text", { x: cx, y: y + 13, "text-anchor": "middle", "font-size": 8.5, "font-weight": 700, fill: "#2b2340", text: place.name }),
      place.explore ? s("text", { x: x + w - 8, y: y + hgt - 5, "text-anchor": "middle", "font-size": 10, fill: "#7a3e9d", text: "?" }, s("title", { text: "can be explored" })) : null,
      place.actions.length ? s("text", { x: x + 5, y: y + hgt - 5, "font-size": 7, fill: "#555", text: place.actions.map((a) => a.label).join(" · ").slice(0, 26) }) : null,
      place.instant_markers ? s("text", { x: cx, y: y + 24, "text-anchor": "middle", "font-size": 7, fill: "#555", text: `${plural(place.instant_markers, "marker")}` }) : null,
      menhir ? s("g", {}, s("title", { text: `menhir ${menhir.id}: dial ${menhir.dial}` }),
        s("path", { d: `M${x + 6} ${y + hgt - 4} l5 -16 l5 16 z`, fill: "#5d6d7e", stroke: "#222" }),
        s("text", { x: x + 11, y: y + hgt - 22, "text-anchor": "middle", "font-size": 8, "font-weight": 700, fill: "#1d6fd1", text: String(menhir.dial) })) : null,
      guardians.map((g, i) => s("g", {}, s("title", { text: `guardian: ${g.name}` }),
        s("rect", { x: x + w - 18 - i * 12, y: y + 17, width: 10, height: 10, fill: "#8b0000", stroke: "#111", transform: `rotate(45 ${x + w - 13 - i * 12} ${y + 22})` }))));
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
        s("title", { text: `${c.name} (${seatName(p)})` }),
        seatMarker(p, cx - 18 + i * 14, cy + 8, 7, { fill: c.fallen ? "#777" : null })));
    });
  }
  return s("svg", { class: "grail-map", viewBox: `0 0 ${width} ${height}`, role: "group", "aria-label": `map of ${view.scenario}` },
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
      const chip = h("button", { type: "button", class: "chip-button", "data-item": item.id,
        text: `${item.name}${item.equipped ? "" : " (not equipped)"}${item.exhausted ? " (used)" : ""}` });
      control(chip, `use:${item.id}`);
      control(chip, `equip:${item.id}`);
      control(chip, `unequip:${item.id}`);
      return chip;
    });
    return h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${p === seat ? " me" : ""}`, "data-seat": p },
      h("h3", {}, seatChip(p, seatName), h("span", { text: c.name }),
        toMove.includes(p) ? h("span", { class: "badge turn", text: "to move" }) : null,
        c.fallen ? h("span", { class: "badge", text: "fallen" }) : c.passed ? h("span", { class: "badge", text: "passed" }) : null),
      meter("health", c.health, c.max_health, "#c0392b"),
      meter("energy", c.energy, c.max_energy, "#e0a100"),
      meter("terror", c.terror, c.terror_limit, "#6c3483"),
      h("div", { class: "small", text: `food ${c.food} · xp ${c.xp} · ${Object.entries(c.attributes).map(([k, v]) => `${k} ${v}`).join(" · ")}` }),
      h("div", { class: "row" }, items),
      c.improvements.length ? h("div", { class: "small muted", text: `improvements: ${c.improvements.join(", ")}` }) : null);
  }));
}

function decisionPanel(view, ctx, control, isHandled) {
  const { legal, seatName } = ctx;
  const decision = view.decision;
  const names = view.characters.map((c) => c.name);
  const parts = [];
  if (decision && decision.kind === "choose") {
    parts.push(h("h3", { text: decision.title }), h("p", { text: decision.text }),
      h("div", { class: "small muted", text: `involved: ${decision.involved.map((c) => view.characters[c].name).join(", ")}` }));
  } else if (decision && decision.kind === "join") {
    parts.push(h("p", { text: `${view.characters[decision.members[0]].name} ${decision.action === "travel" ? "travels" : "begins"} ${decision.target ? `(${decision.target})` : ""}: join?` }));
  } else if (decision && decision.character !== undefined) {
    const who = view.characters[decision.character];
    parts.push(h("p", { class: "small", text: `${who.name} (${seatName(decision.character)}): ${{ act: "act or pass", rest: "rest for the night", improve: "buy an improvement", equip: "equip items" }[decision.kind] || decision.kind}` }));
  }
  const acting = decision && decision.character !== undefined ? view.characters[decision.character] : null;
  if (acting) {
    const place = view.locations.find((l) => l.id === acting.location);
    if (place && place.actions.length) {
      parts.push(h("div", { class: "small", text: `At ${place.name}:` }),
        h("div", { class: "row" }, place.actions.map((a) => control(
          h("button", { type: "button", "data-location-action": a.id, text: `${a.label} (${a.cost})${a.markers ? `, ${plural(a.markers, "marker")}` : ""}` }),
          `location_action:${a.id}`))));
    }
  }
  const rest = legal.filter((entry) => !isHandled(keyOf(entry.action)) && !["travel", "explore", "use", "equip", "unequip", "location_action"].includes(entry.action.type));
  if (rest.length) {
    parts.push(h("div", { class: "options" }, rest.map((entry) =>
      control(h("button", { type: "button", text: withoutName(entry.text, names) }), keyOf(entry.action)))));
  }
  return parts.length ? h("div", { class: "panel decision" }, parts) : null;
}

function eventsPanel(view) {
  const dials = Object.entries(view.time_dials || {});
  const counters = Object.entries(view.counters || {});
  return h("div", { class: "panel" },
    h("dl", { class: "kv" },
      h("dt", { text: "today" }), h("dd", { text: view.today.join(", ") || "no event yet" }),
      h("dt", { text: "quests" }), h("dd", { text: view.quest_pile.join(", ") || "none" }),
      h("dt", { text: "event deck" }), h("dd", { text: `${plural(view.event_deck, "card")} · ${view.events_discarded} discarded` }),
      dials.length ? [h("dt", { text: "time dials" }), h("dd", { text: dials.map(([k, v]) => `${k} ${v}`).join(", ") })] : null,
      counters.length ? [h("dt", { text: "counters" }), h("dd", { text: counters.map(([k, v]) => `${k} ${v}`).join(", ") })] : null,
      view.flags.length ? [h("dt", { text: "flags" }), h("dd", { text: view.flags.join(", ") })] : null),
    h("h3", { text: "Chronicle" }),
    h("ol", { class: "chronicle", tabindex: 0, "aria-label": "Chronicle", start: Math.max(1, view.log_size - view.log.length + 1) }, view.log.map((line) => h("li", { text: line }))));
}

export function render(ctx) {
  const { view, legal, act } = ctx;
  const { control, handled, index } = legalControls(legal, keyOf, act);
  const isHandled = (key) => handled.has(index.get(key)?.id);
  const phase = { dawn: "Dawn", day: "Day", dusk: "Dusk", night: "Night" }[view.phase] || view.phase;
  const head = h("div", { class: "felt" },
    h("div", { class: "row" },
      h("strong", { text: view.scenario }),
      h("span", { text: `Day ${view.day} · ${phase}${view.phase === "dawn" && view.dawn_step ? `, step ${view.dawn_step}` : ""}` }),
      view.result ? h("span", { text: `${view.result.outcome === "win" ? "Won" : "Lost"}: ${view.result.reason}` }) : null));
  const map = mapSvg(view, ctx, control);
  const cards = characterCards(view, ctx, control);
  const decision = decisionPanel(view, ctx, control, isHandled);
  return { node: h("div", { class: "grail" }, head, map, decision, cards, eventsPanel(view)), handled };
}
