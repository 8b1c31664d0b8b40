// The table's chat: lines from the players (and spectators where the creator allowed it), quick
// phrases every reader sees in their own language, and the table's own notices (who left, who
// is back). Everything is inserted as text. Muting a seat hides its lines in this browser only.
import { h } from "/static/dom.js";
import { t } from "/static/i18n.js";

export const PHRASES = ["hello", "good_luck", "your_turn", "one_moment", "well_played", "good_game", "thanks", "bye"];
const MUTED = "spielwerk-muted";   // per table: the seats ("spectators" for all of them) muted
const CHAT_REF = 1_000_000;        // refs of chat messages, apart from the moves' refs

/** A chat line as a list item: who wrote it and what, a quick phrase or the table's own notice
 * in the page's language, seats named by `seatName`. */
export function chatLineNode(line, seatName, mySeat = null) {
  if (line.kind === "system") {
    const params = { ...(line.params || {}) };
    for (const key of ["seat", "by"]) if (typeof params[key] === "number") params[key] = seatName(params[key]);
    return h("li", { class: "chat-system", text: t(`chat.system.${line.key}`, params) });
  }
  const who = line.seat === null || line.seat === undefined ? t("chat.spectator") : seatName(line.seat);
  const words = line.kind === "text" ? line.text : t(`chat.phrase.${line.key}`);
  return h("li", { class: line.seat === mySeat && line.seat !== null ? "chat-line mine" : "chat-line" },
    h("span", { class: "chat-who", text: `${who}: ` }), words);
}

/**
 * The chat panel in `root`. `send(message)` writes to the table's websocket; `seatName(seat)`
 * names a seat as the page does; `tableId` keys the mute list.
 */
export function chatPanel(root, { send, seatName, tableId }) {
  let mySeat = null;
  let mayWrite = false;
  let ref = CHAT_REF;
  const lines = [];
  const list = h("ol", { class: "chat-lines", id: "chat-lines", tabindex: "0", "aria-live": "polite",
    "aria-label": t("chat.title") });
  const input = h("input", { id: "chat-text", maxlength: "200", autocomplete: "off",
    "aria-label": t("chat.say"), placeholder: t("chat.say") });
  const form = h("form", { class: "chat-form", id: "chat-form" },
    input, h("button", { type: "submit", class: "small", text: t("chat.send") }));
  const phrases = h("div", { class: "chat-phrases", id: "chat-phrases" },
    PHRASES.map((key) => h("button", {
      type: "button", class: "small phrase", "data-phrase": key, text: t(`chat.phrase.${key}`),
      onclick: () => say({ phrase: key }),
    })));
  const mutes = h("div", { class: "chat-mutes small", id: "chat-mutes" });
  const note = h("p", { class: "muted small", id: "chat-note", hidden: true, text: t("chat.read_only") });
  root.replaceChildren(h("h2", { text: t("chat.title") }), list, phrases, form, note, mutes);
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const text = input.value.trim();
    if (text) say({ text });
    input.value = "";
  });

  function say(body) {
    if (!mayWrite) return;
    ref += 1;
    send({ type: "chat", ...body, ref });
  }

  function muted() {
    try { return new Set((JSON.parse(localStorage.getItem(MUTED) || "{}")[tableId]) || []); } catch { return new Set(); }
  }
  function setMuted(key, on) {
    let all;
    try { all = JSON.parse(localStorage.getItem(MUTED) || "{}"); } catch { all = {}; }
    const mine = new Set(all[tableId] || []);
    if (on) mine.add(key); else mine.delete(key);
    all[tableId] = [...mine];
    localStorage.setItem(MUTED, JSON.stringify(all));
    draw();
  }

  const item = (line) => chatLineNode(line, seatName, mySeat);
  function draw() {
    const hidden = muted();
    const key = (line) => (line.seat === null || line.seat === undefined ? "spectators" : String(line.seat));
    list.replaceChildren(...lines.filter((l) => l.kind === "system" || !hidden.has(key(l))).map(item));
    list.scrollTop = list.scrollHeight;
    const writers = [...new Set(lines.filter((l) => l.kind !== "system").map(key))]
      .filter((k) => k !== String(mySeat));
    mutes.replaceChildren(...writers.map((k) => {
      const name = k === "spectators" ? t("chat.spectators") : seatName(Number(k));
      const on = hidden.has(k);
      return h("button", { type: "button", class: "small mute", "data-mute": k, "aria-pressed": String(on),
        text: on ? t("chat.unmute", { name }) : t("chat.mute", { name }),
        onclick: () => setMuted(k, !on) });
    }));
  }

  return {
    welcome(message) {
      mySeat = message.seat;
      mayWrite = Boolean(message.chat);
      lines.length = 0;
      form.hidden = !mayWrite;
      phrases.hidden = !mayWrite;
      note.hidden = mayWrite;
      draw();
    },
    add(newLines) {
      for (const line of newLines) if (!lines.some((l) => l.i === line.i)) lines.push(line);
      lines.sort((a, b) => a.i - b.i);
      draw();
    },
    /** Names may have changed (a seat was claimed): write the lines again. */
    redraw: draw,
    isChatRef: (r) => r > CHAT_REF,
  };
}
