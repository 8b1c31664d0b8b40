// The rules page's pictures. Every placeholder `<span class="piece" data-piece="NAME/ARG/...">`
// of the text (spielwerk/web/rules.py) is drawn by the game's own board script, the code that
// draws the table: its `piece(name, args, ctx)` returns the SVG or HTML of that component, from
// the arguments and the view of a game just dealt (the article's `data-view`), in the words of
// the page's language (the game's texts from /api/games/<game>).
import { gameSay } from "/static/dom.js";

const article = document.querySelector("article.rules");

async function drawPieces() {
  const { game, renderer, seatWord, view } = article.dataset;
  const lang = article.lang;
  const [board, info] = await Promise.all([
    import(renderer),
    fetch(`/api/games/${encodeURIComponent(game)}?lang=${encodeURIComponent(lang)}`).then((r) => r.json()),
  ]);
  const ctx = {
    view: JSON.parse(view), seat: null, legal: [], toMove: [], over: false, result: null,
    data: info.data || {}, say: gameSay(info.texts), lang, act: () => {},
    seatName: (p) => seatWord.replace("{n}", String(p + 1)),
  };
  for (const node of article.querySelectorAll(".piece[data-piece]")) {
    const [name, ...args] = node.dataset.piece.split("/").map(decodeURIComponent);
    const drawn = board.piece ? board.piece(name, args, ctx) : null;
    if (drawn) node.querySelector(".piece-art").replaceChildren(drawn);
    else throw new Error(`${game}: the board draws no piece "${node.dataset.piece}"`);
  }
}

if (article && article.dataset.renderer) {
  drawPieces()
    .then(() => { document.body.dataset.pieces = "drawn"; })
    .catch((error) => { console.error(error); document.body.dataset.pieces = "failed"; });
}
