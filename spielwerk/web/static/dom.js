// Small DOM and SVG helpers shared by the lobby, the table shell and the game renderers.
// Everything from the server is inserted as text (textContent), never as HTML.

const SVG_NS = "http://www.w3.org/2000/svg";

/** An HTML element: h("div", {class: "x", onclick: f}, child, "text", ...). */
export function h(tag, attrs = {}, ...children) {
  return build(document.createElement(tag), attrs, children);
}

/** An SVG element, same calling convention as h(). */
export function s(tag, attrs = {}, ...children) {
  return build(document.createElementNS(SVG_NS, tag), attrs, children);
}

function build(node, attrs, children) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      node.textContent = String(value);
    } else if (key === "style") {
      // CSSOM, not a style attribute: the Content-Security-Policy allows no inline styles.
      for (const [property, v] of Object.entries(value)) node.style.setProperty(property, String(v));
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Make `node` a control for one legal action: clickable, focusable, marked for tests. */
export function legalControl(node, entry, act) {
  node.classList.add("legal");
  node.setAttribute("data-action-id", String(entry.id));
  node.setAttribute("role", "button");
  node.setAttribute("tabindex", "0");
  node.setAttribute("aria-label", accessibleName(node, entry.text));
  // The tooltip: the action, then what the piece does if it says so itself (its rule).
  const own = node.namespaceURI === SVG_NS ? node.querySelector(":scope > title") : null;
  const rule = own ? own.textContent : node.title;
  const tip = rule && rule !== entry.text ? `${entry.text}\n${rule}` : entry.text;
  if (node.namespaceURI !== SVG_NS) node.title = tip;
  else if (own) own.textContent = tip;
  else node.prepend(s("title", { text: tip }));
  const fire = (event) => { event.preventDefault(); act(entry.action); };
  node.addEventListener("click", fire);
  node.addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") fire(event);
  });
  return node;
}

/** What a control is called for a screen reader: what the piece shows, in the order it is drawn,
 * then the action when it says more ("6 6 red: plays red-6"), so that the visible label is part
 * of the name (WCAG 2.5.3, "label in name"). A piece that shows much more than its name (a
 * board with its track) names itself in `data-name`. */
function accessibleName(node, action) {
  const what = action.replace(/^seat \d+ /, "");
  let shown;
  if (node.dataset && node.dataset.name) {
    shown = node.dataset.name;
  } else if (node.namespaceURI === SVG_NS) {
    const pieces = [];
    for (const text of node.querySelectorAll("text")) {
      // the text as drawn (not a <title> inside it); a space after it keeps words apart
      const drawn = [...text.childNodes].filter((c) => c.nodeType === Node.TEXT_NODE).map((c) => c.nodeValue).join("").trim();
      if (drawn) pieces.push(drawn);
      text.after(" ");
    }
    shown = pieces.join(" ");
  } else {
    shown = node.textContent.trim().replace(/\s+/g, " ");
  }
  if (!shown || shown === what || what.startsWith(`${shown} `)) return what;
  return `${shown}: ${what}`;
}

/** Index legal actions by a key built from their JSON form, e.g. "play:red-7". */
export function legalIndex(legal, keyOf) {
  const index = new Map();
  for (const entry of legal) index.set(keyOf(entry.action), entry);
  return index;
}

/** The board's controls: `control(node, key)` makes `node` the control of the legal action
 * whose key (`keyOf` of its JSON form) is `key`, if there is one, and returns `node`; `handled`
 * collects the ids so controlled (the page lists the others as buttons). */
export function legalControls(legal, keyOf, act) {
  const index = legalIndex(legal, keyOf);
  const handled = new Set();
  const control = (node, key) => {
    const entry = index.get(key);
    if (entry) { legalControl(node, entry, act); handled.add(entry.id); }
    return node;
  };
  return { control, handled, index };
}

/** A die face (1-6) as SVG. */
export function dieFace(value, size = 46) {
  const pips = {
    1: [[2, 2]], 2: [[1, 1], [3, 3]], 3: [[1, 1], [2, 2], [3, 3]],
    4: [[1, 1], [3, 1], [1, 3], [3, 3]], 5: [[1, 1], [3, 1], [2, 2], [1, 3], [3, 3]],
    6: [[1, 1], [3, 1], [1, 2], [3, 2], [1, 3], [3, 3]],
  }[value] || [];
  return s("svg", { class: "die", viewBox: "0 0 40 40", width: size, height: size },
    s("rect", { x: 1.5, y: 1.5, width: 37, height: 37, rx: 7, fill: "#fffef8", stroke: "#333", "stroke-width": 2 }),
    pips.map(([x, y]) => s("circle", { cx: x * 10, cy: y * 10, r: 3.6, fill: "#222" })),
    s("text", { x: 20, y: 39, "font-size": 1, fill: "transparent", text: String(value) }));
}

/** The back of a card with an optional count on it. */
export function cardBack(count = null, cls = "card") {
  return s("svg", { class: cls, viewBox: "0 0 60 90" },
    s("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: "#3d2c5e", stroke: "#1d1430", "stroke-width": 2 }),
    s("rect", { x: 6, y: 6, width: 48, height: 78, rx: 4, fill: "none", stroke: "#b9a6e0", "stroke-width": 1.5, "stroke-dasharray": "3 3" }),
    count === null ? null : s("text", { x: 30, y: 52, "text-anchor": "middle", "font-size": 22, "font-weight": 700, fill: "#fff", text: String(count) }));
}

export function plural(n, noun) { return `${n} ${noun}${n === 1 ? "" : "s"}`; }

/** Seat colours, the same in every game: a seat's disc, figure or marker. Colour is never the
 * only sign: every marker also carries the seat's number (counted from 1) and its own shape. */
export const SEAT_COLOURS = ["#d62828", "#1d6fd1", "#2a9d4b", "#e0a100", "#8e44ad", "#1b998b"];
export function seatColour(p) { return SEAT_COLOURS[p % SEAT_COLOURS.length]; }
/** The ink on a seat's colour that reads best (dark on the light yellow). */
export function seatInk(p) { return p % SEAT_COLOURS.length === 3 ? "#111" : "#fff"; }
const SEAT_SHAPES = ["circle", "square", "diamond", "triangle", "hexagon", "circle"];
export function seatShape(p) { return SEAT_SHAPES[p % SEAT_SHAPES.length]; }

/** A seat's marker on a board: its shape in its colour with its number, centred at (cx, cy),
 * `r` its radius; `fill` overrides the colour (a fallen figure in grey). */
export function seatMarker(p, cx, cy, r, { fill = null, label = null } = {}) {
  const colour = fill || seatColour(p);
  const attrs = { fill: colour, stroke: "#111", "stroke-width": Math.max(0.8, r / 6) };
  const shape = seatShape(p);
  const poly = (points) => s("polygon", { ...attrs, points: points.map(([x, y]) => `${(cx + x * r).toFixed(2)},${(cy + y * r).toFixed(2)}`).join(" ") });
  const body = shape === "square" ? s("rect", { ...attrs, x: cx - r * 0.9, y: cy - r * 0.9, width: r * 1.8, height: r * 1.8, rx: r * 0.2 })
    : shape === "diamond" ? poly([[0, -1.15], [1.15, 0], [0, 1.15], [-1.15, 0]])
      : shape === "triangle" ? poly([[0, -1.2], [1.15, 0.85], [-1.15, 0.85]])
        : shape === "hexagon" ? poly([[0, -1.1], [0.95, -0.55], [0.95, 0.55], [0, 1.1], [-0.95, 0.55], [-0.95, -0.55]])
          : s("circle", { ...attrs, cx, cy, r });
  const text = label === null ? String(p + 1) : label;
  const dy = shape === "triangle" ? r * 0.5 : r * 0.38;
  return s("g", { class: "seat-marker", "data-mark": String(p + 1) }, body,
    s("text", { x: cx, y: cy + dy, "text-anchor": "middle", "font-size": (r * (text.length > 1 ? 1.05 : 1.35)).toFixed(2), "font-weight": 700, fill: fill ? "#fff" : seatInk(p), "aria-hidden": "true", text }));
}

/** The font size (SVG units) at which `text` fits `width` units, at most `largest`: a word is
 * never cut off at a card's edge, it gets smaller. */
export function fittingSize(text, width, largest, bold = false) {
  const em = bold ? 0.62 : 0.58;  // an average glyph's width in ems, generous for capitals
  return Math.min(largest, width / (Math.max(1, text.length) * em));
}

/** A face-up card: a title at the top, a big mark in the middle, a footer; `colour` frames it.
 * A footer "A / B" too long for one line goes on two; every text is sized to fit the card. */
export function faceCard({ title = "", big = "", footer = "", colour = "#444", cls = "card", tip = null, data = {} }) {
  const attrs = { class: cls, viewBox: "0 0 60 90" };
  for (const [key, value] of Object.entries(data)) attrs[`data-${key}`] = value;
  const lines = footer.length > 12 && footer.includes(" / ") ? footer.split(" / ").map((l, i, all) => (i < all.length - 1 ? `${l} /` : l)) : [footer];
  const footerSize = Math.min(...lines.map((line) => fittingSize(line, 52, 8)));
  return s("svg", attrs,
    s("title", { text: tip || [title, big, footer].filter(Boolean).join(" ") }),
    s("rect", { x: 1, y: 1, width: 58, height: 88, rx: 6, fill: "#fffdf6", stroke: colour, "stroke-width": 2.5 }),
    s("rect", { x: 5, y: 5, width: 50, height: 17, rx: 3, fill: colour, opacity: 0.16 }),
    s("text", { x: 30, y: 17, "text-anchor": "middle", "font-size": fittingSize(title, 48, 9.5, true).toFixed(2), "font-weight": 700, fill: "#333", text: title }),
    s("text", { x: 30, y: 60, "text-anchor": "middle", "font-size": String(big).length > 2 ? 20 : 30, "font-weight": 800, fill: colour, text: String(big) }),
    footer ? lines.map((line, i) => s("text", { x: 30, y: 84 - (lines.length - 1 - i) * (footerSize + 1), "text-anchor": "middle", "font-size": footerSize.toFixed(2), fill: colour, text: line })) : null);
}

/** The name of a seat as a coloured chip. */
export function seatChip(p, seatName) {
  const title = seatName.title ? seatName.title(p) : null;   // a bot's spec, for the curious
  return h("span", { class: "seat-chip", "data-mark": String(p + 1), "data-shape": seatShape(p), title, style: { "--seat": seatColour(p), "--seat-ink": seatInk(p) }, text: seatName(p) });
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
