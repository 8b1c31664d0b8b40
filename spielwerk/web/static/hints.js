// Hints at the table page: the panel that asks for the three best moves of this seat's own
// decision (where the table allows hints: its creator enabled them and every player agreed,
// or one person plays against bots), the agreement, and after the end which seats played
// moves after a hint. The server decides who may have a hint; this panel only shows it.
import { h } from "/static/dom.js";
import { t, lang } from "/static/i18n.js";

const FIRST_REF = 1_000_000_000;   // hint requests' refs: apart from the page's actions'

/** The hints panel `panel` of table `tableId`; `token()` the seat's token (or null), `send`
 * the websocket's sender, `nameSeats`/`seatName` the page's seat names. */
export function createHints({ panel, tableId, token, send, nameSeats, seatName }) {
  let seat = null;
  let status = null;        // /hints/status: enabled, solo, humans, agreed, available, reason
  let latest = null;        // the newest state message
  let answer = null;        // the newest hint for this seat
  let asked = null;         // the ref of the hint asked for and not answered yet
  let ref = FIRST_REF;
  let used = null;          // after the end: [{seat, step, action}] of every hint given
  let onUsed = () => {};

  async function post(path, body) {
    const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/${path}`, {
      method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
    });
    const data = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(data.message || String(response.status));
    return data;
  }

  async function refresh() {
    if (seat === null || !token()) return;
    try {
      status = await post("hints/status", { token: token() });
    } catch {
      status = null;
    }
    draw();
  }

  async function agree() {
    try {
      status = await post("hints/agree", { token: token() });
    } catch (error) {
      panel.querySelector(".hint-error")?.replaceChildren(String(error.message || error));
      return;
    }
    draw();
  }

  function ask() {
    if (!latest || asked !== null) return;
    ref += 1;
    asked = ref;
    send({ type: "hint", version: latest.version, ref: asked });
    draw();
  }

  const myTurn = () => latest && !latest.over && seat !== null && latest.to_move.includes(seat);

  function draw() {
    const show = seat !== null && status && (status.available || status.enabled);
    panel.hidden = !show;
    if (!show) return;
    const parts = [h("h2", { text: t("hints.heading") })];
    if (status.available) {
      if (status.solo) parts.push(h("p", { class: "small muted", text: t("hints.solo") }));
      parts.push(h("button", {
        type: "button", id: "hint", disabled: !myTurn() || asked !== null,
        onclick: ask, text: asked !== null ? t("hints.asking") : t("hints.ask"),
      }));
      if (!myTurn()) parts.push(h("p", { class: "small muted", text: t("hints.your_turn_only") }));
      if (answer && latest && answer.version === latest.version) {
        parts.push(h("p", { class: "small", text: t("hints.top") }),
          h("ol", { id: "hint-moves", class: "hint-moves" }, answer.moves.map((move) =>
            h("li", {}, h("span", { class: "move", text: nameSeats(move.text) }), " ",
              h("span", { class: "chance", text: t("hints.chance", { chance: percent(move.chance) }) })))));
        if (!answer.calibrated) parts.push(h("p", { class: "small muted", text: t("hints.uncalibrated") }));
      }
    } else {
      const mine = status.agreed.includes(seat);
      parts.push(h("p", { class: "small", text: t("hints.agree_help") }));
      if (!mine) {
        parts.push(h("button", { type: "button", id: "agree-hints", onclick: agree, text: t("hints.agree") }));
      } else {
        const waiting = status.humans.filter((p) => !status.agreed.includes(p)).map((p) => seatName(p));
        parts.push(h("p", { class: "small muted", text: t("hints.waiting_for", { seats: waiting.join(", ") }) }));
      }
      parts.push(h("p", { class: "hint-error toast", role: "alert", hidden: true }));
    }
    panel.replaceChildren(...parts);
  }

  return {
    /** The welcome: this connection's seat (null: a spectator, who gets no panel). */
    welcome(mySeat) {
      seat = mySeat;
      refresh();
    },
    /** A new state: the panel follows the turn; other players' agreement may have come. */
    state(message) {
      const turnBegan = latest === null || latest.version !== message.version;
      latest = message;
      if (status && !status.available && turnBegan) refresh();
      else draw();
      if (message.over && used === null) loadUsed();
    },
    /** A message for the hints (true if it was one: a hint or the refusal of one). */
    message(message) {
      if (message.ref !== asked || asked === null) return false;
      asked = null;
      if (message.type === "hint") answer = message;
      draw();
      return message.type === "hint";
    },
    /** After the end: a line for the result naming the seats that played after hints. */
    resultNode() {
      if (!used || !used.length) return null;
      const bySeat = new Map();
      for (const hint of used) bySeat.set(hint.seat, (bySeat.get(hint.seat) || 0) + 1);
      const list = [...bySeat].map(([p, n]) => t("hints.used_by", { seat: seatName(p), n })).join(", ");
      return h("p", { id: "hints-used", class: "small", text: t("hints.used", { list }) });
    },
    onUsed(callback) { onUsed = callback; },
  };

  async function loadUsed() {
    used = [];
    try {
      const response = await fetch(`/api/tables/${encodeURIComponent(tableId)}/hints`);
      if (response.ok) used = (await response.json()).hints;
    } catch { /* no list: nothing to show */ }
    onUsed();
  }
}

const PERCENT = new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 });

/** A chance as a player reads it, in the page's language ("23%", „23 %“). */
export function percent(chance) {
  return PERCENT.format(chance);
}
