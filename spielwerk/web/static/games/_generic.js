// The board of a game that has no renderer of its own yet: the seat's view laid out as labelled
// sections (per-seat lists become one row per seat, card lists become chips). Every legal action
// stays playable through the shell's buttons. A game gets a real board by adding
// static/games/<game>.js with the same `render(ctx)` export (see docs/web.md).
import { h, plural } from "/static/dom.js";

const SKIP = new Set(["game", "viewer", "players", "to_move", "result"]);

function label(key) {
  return key.replace(/_/g, " ");
}

function value(data) {
  if (data === null || data === undefined) return h("span", { class: "muted", text: "–" });
  if (Array.isArray(data)) {
    if (!data.length) return h("span", { class: "muted", text: "none" });
    if (data.every((x) => typeof x !== "object" || x === null)) {
      return h("span", {}, data.map((x) => h("span", { class: "chip", text: String(x) })));
    }
    return h("ol", { start: 0 }, data.map((x) => h("li", {}, value(x))));
  }
  if (typeof data === "object") {
    return h("dl", {}, Object.entries(data).map(([k, v]) => [h("dt", { text: label(k) }), h("dd", {}, value(v))]));
  }
  return h("span", { text: String(data) });
}

export function render(ctx) {
  const { view, seat, seatName, toMove } = ctx;
  const n = view.players;
  const perSeat = [];
  const shared = [];
  for (const [key, data] of Object.entries(view)) {
    if (SKIP.has(key)) continue;
    if (Array.isArray(data) && data.length === n && n > 1 && key !== "hand") perSeat.push([key, data]);
    else shared.push([key, data]);
  }
  const seats = h("div", { class: "seats" }, Array.from({ length: n }, (_, p) =>
    h("div", { class: `seat${toMove.includes(p) ? " to-move" : ""}${p === seat ? " me" : ""}`, "data-seat": p },
      h("h3", {}, h("span", { text: seatName(p) }), toMove.includes(p) ? h("span", { class: "badge turn", text: "to move" }) : null),
      h("dl", {}, perSeat.map(([key, data]) => [h("dt", { text: label(key) }), h("dd", {}, value(data[p]))])))));
  return {
    node: h("div", { class: "generic" },
      h("div", { class: "panel" }, h("p", { class: "small muted", text: `${plural(n, "player")}. This game has no board drawing yet; its actions are listed beside.` }),
        h("dl", {}, shared.map(([key, data]) => [h("dt", { text: label(key) }), h("dd", {}, value(data))]))),
      seats),
    handled: new Set(),
  };
}
