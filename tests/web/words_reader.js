// What a page shows a player, collected for tests/web/test_words.py: after every change of
// the page (a state drawn, a log line added) every text it shows goes into window.__said
// (the page's text, the names of controls, tooltips, SVG labels and <title>s, the choices of
// every list), and every seat named against its shape into window.__wrong: what stands for
// seat p (a panel, a disc, a chip: data-seat, data-mark) names no other seat.
() => {
  const seatWords = /(?<!\p{L})(?:[Ss]eat|[Pp]latz) (\d+)(?!\d)/gu;
  const said = new Set();
  const wrong = new Set();
  const add = (text) => {
    for (const line of (text || "").split("\n")) if (line.trim()) said.add(line.trim());
  };
  const named = (node) => [node.textContent, ...[...node.querySelectorAll("[aria-label], [title]")]
    .flatMap((n) => [n.getAttribute("aria-label"), n.getAttribute("title")])].join(" ");
  const shapes = () => {
    for (const node of document.querySelectorAll("[data-seat]")) {
      const p = Number(node.dataset.seat);
      if (node.dataset.seat === "" || !Number.isInteger(p)) continue;
      const own = node.cloneNode(true);
      for (const other of own.querySelectorAll("[data-seat]")) {
        if (Number(other.dataset.seat) !== p) other.remove();
      }
      const text = named(own);
      for (const m of text.matchAll(seatWords)) {
        if (Number(m[1]) !== p + 1) wrong.add(`seat ${p + 1} says "${m[0]}": ${text.slice(0, 120)}`);
      }
      for (const mark of own.querySelectorAll("[data-mark]")) {
        if (Number(mark.dataset.mark) !== p + 1) {
          wrong.add(`seat ${p + 1} carries the mark of seat ${mark.dataset.mark}`);
        }
      }
    }
    for (const chip of document.querySelectorAll(".seat-chip[data-mark]")) {
      for (const m of chip.textContent.matchAll(seatWords)) {
        if (m[1] !== chip.dataset.mark) {
          wrong.add(`the chip of seat ${chip.dataset.mark} says "${chip.textContent}"`);
        }
      }
    }
  };
  const read = () => {
    if (document.body.classList.contains("translating")) return;  // not shown yet
    add(document.title);
    add(document.body.innerText);
    for (const node of document.querySelectorAll("[aria-label], [title], [placeholder], [alt]")) {
      for (const name of ["aria-label", "title", "placeholder", "alt"]) add(node.getAttribute(name));
    }
    for (const node of document.querySelectorAll("svg text, svg title, option")) add(node.textContent);
    shapes();
  };
  let pending = false;
  new MutationObserver(() => {
    if (pending) return;
    pending = true;
    setTimeout(() => { pending = false; read(); }, 0);
  }).observe(document.body, {
    subtree: true, childList: true, characterData: true,
    attributes: true, attributeFilter: ["aria-label", "title"],
  });
  window.__readWords = () => { read(); return { said: [...said], wrong: [...wrong] }; };
  read();
}
