// Who is at the table: each person here or gone, a bot playing for one who left, and the move
// clock. A player may let a bot play for a person who has been gone long enough (the server
// says how long: the welcome's `hand_over_after`); the seat is theirs again when they are back.
import { h } from "/static/dom.js";
import { t } from "/static/i18n.js";

const HAND_OVER_REF = 2_000_000;

/** The panel in `root`; `send` writes to the websocket, `seatName(seat)` names a seat. */
export function presencePanel(root, { send, seatName }) {
  let mySeat = null;
  let waitSeconds = 90;
  let state = null;
  let receivedAt = 0;       // performance.now() when `state` arrived: the countdowns run from it
  let ref = HAND_OVER_REF;
  const list = h("ul", { class: "presence", id: "presence" });
  root.replaceChildren(h("h2", { text: t("presence.title") }), list);
  setInterval(() => { if (state) draw(); }, 1000);

  function elapsed() { return (performance.now() - receivedAt) / 1000; }

  function row(seat, now) {
    const name = seatName(seat);
    if (now.here && !now.sit_in) {
      return h("li", { class: "here", "data-seat": String(seat) }, h("span", { class: "dot", "aria-hidden": "true" }),
        name, clockText(seat));
    }
    const parts = [h("span", { class: "dot away", "aria-hidden": "true" }), name, " · "];
    if (now.sit_in) {
      parts.push(h("span", { class: "sit-in", text: t("presence.bot_plays") }));
    } else {
      const away = (now.away || 0) + elapsed();
      parts.push(t("presence.gone", { minutes: Math.floor(away / 60), seconds: String(Math.floor(away % 60)).padStart(2, "0") }));
      if (mySeat !== null && seat !== mySeat && !state.over) {
        const left = Math.ceil(waitSeconds - away);
        parts.push(" ", left > 0
          ? h("span", { class: "muted small", text: t("presence.hand_over_in", { seconds: left }) })
          : h("button", { type: "button", class: "small hand-over", "data-seat": String(seat),
            text: t("presence.hand_over", { name }),
            onclick: () => { ref += 1; send({ type: "hand_over", seat, ref }); } }));
      }
    }
    parts.push(clockText(seat));
    return h("li", { class: now.sit_in ? "sit-in" : "away", "data-seat": String(seat) }, ...parts);
  }

  function clockText(seat) {
    const clock = state && state.clock;
    if (!clock || clock.left[String(seat)] === undefined) return null;
    const left = Math.max(0, Math.ceil(clock.left[String(seat)] - elapsed()));
    return h("span", { class: left <= 10 ? "clock low" : "clock", "data-clock": String(seat),
      text: ` ⏱ ${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}` });
  }

  function draw() {
    const seats = (state && state.seats_now) || [];
    list.replaceChildren(...seats.map((now, seat) => row(seat, now)));
  }

  return {
    welcome(message) {
      mySeat = message.seat;
      waitSeconds = message.hand_over_after;
    },
    update(message) {
      state = message;
      receivedAt = performance.now();
      draw();
    },
    redraw: draw,
  };
}
