"""The rules pages (`/rules/GAME?lang=de|en`): how to play each game, written for players.

The texts are `spielwerk/games/<game>/how_to_play.<lang>.md` (package data, read by
`spielwerk.core.howto`): the goal, the set-up, a turn, the scoring and the end, English and
German with the same headings. They are rendered with markdown-it-py (CommonMark plus tables)
with raw HTML off, so nothing a file holds reaches the page as markup.

A picture of a component is written as an image whose address names a piece of the game's
board script: `![Red 7](piece:card/red-7)`. It becomes an empty placeholder with its caption
(`<span class="piece" data-piece="card/red-7">`); the page's script (`static/rules.js`) asks
the game's board script (`static/games/<game>.js`, its `piece`) to draw it, with the same code
that draws the table, from the arguments and the view of a game just dealt (`start_view`, in
the page as data). Any other image is shown as its caption only: a page loads nothing from
elsewhere. The developer's rules (provenance tags, design notes, test tables) are in
`docs/games/<game>.md`.
"""

from __future__ import annotations

import html
import json
import random
from collections import Counter
from collections.abc import Sequence
from functools import cache
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

import spielwerk
from spielwerk.core.howto import PIECE, how_to_play
from spielwerk.core.state import CHANCE
from spielwerk.web.i18n import LANGUAGES as LANGUAGE_NAMES
from spielwerk.web.i18n import translate

SAMPLE_PLAYERS = {"witches": 4, "isolde": 4, "tainted_grail": 2}
"""Players at the table the pictures show (3 where not listed)."""


def _image(self: Any, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
    """A picture of a piece of the board (`piece:NAME/ARG...`) as a placeholder with its
    caption; any other image as its caption alone."""
    token = tokens[idx]
    caption = self.renderInlineAsText(token.children or [], options, env)
    source = str(token.attrGet("src") or "")
    if not source.startswith(PIECE):
        return html.escape(caption)
    spec = html.escape(source.removeprefix(PIECE))
    return (
        f'<span class="piece" data-piece="{spec}"><span class="piece-art" aria-hidden="true" inert>'
        f'</span><span class="piece-caption">{html.escape(caption)}</span></span>'
    )


def _mark_tables(tokens: list[Token]) -> None:
    """Make tables focusable (they may scroll sideways on a phone) and give aligned cells a
    class instead of a style attribute (the pages' CSP allows no inline style)."""
    for token in tokens:
        if token.type == "table_open":
            token.attrSet("tabindex", "0")
        style = token.attrGet("style")
        if token.type in ("th_open", "td_open") and isinstance(style, str):
            del token.attrs["style"]
            token.attrJoin("class", "align-" + style.removeprefix("text-align:"))


@cache
def _parser() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.add_render_rule("image", _image)
    return md


def render(markdown: str) -> str:
    """`markdown` as HTML: raw HTML in it escaped, pictures of pieces as placeholders."""
    md = _parser()
    tokens = md.parse(markdown)
    _mark_tables(tokens)
    page: str = md.renderer.render(tokens, md.options, {})
    return page


def heading_counts(markdown: str) -> Counter[int]:
    """How many headings of each level (1-6) the text has (code blocks not counted)."""
    return Counter(int(t.tag[1]) for t in _parser().parse(markdown) if t.type == "heading_open")


@cache
def start_view(game: str) -> str:
    """The spectator's view of a game just dealt (chance events drawn with a fixed seed, up to
    the first decision), as JSON: what the pictures of the board are drawn from."""
    state = spielwerk.load(game).new_state(SAMPLE_PLAYERS.get(game, 3), seed=1)
    rng = random.Random(1)
    while state.to_move == CHANCE:
        state.apply(state.sample_chance(rng), player=CHANCE)
    return json.dumps(state.view(None), separators=(",", ":"))


def rules_page_html(game: str, lang: str, info: dict[str, Any]) -> str | None:
    """The whole rules page of `game` in `lang` (in English with a note saying so when the game
    has no text in `lang`); None when the game has no text at all. `info` is the game's lobby
    description in `lang` (title, players, renderer)."""
    text = how_to_play(game, lang)
    if text is None:
        return None
    e = html.escape
    title = f"{info['title']}: {translate(lang, 'rules.heading')}"
    links = " ".join(
        f'<a href="/rules/{e(game)}?lang={code}" lang="{code}" hreflang="{code}"'
        + (' aria-current="page"' if code == lang else "")
        + f">{e(name)}</a>"
        for code, name in LANGUAGE_NAMES.items()
    )
    note = (
        f'<p class="note" role="note">{e(translate(lang, "rules.fallback"))}</p>'
        if text.lang != lang
        else ""
    )
    players = translate(lang, "rules.players", low=info["min_players"], high=info["max_players"])
    data = {
        "data-game": game,
        "data-renderer": str(info["renderer"]),
        "data-seat-word": translate(text.lang, "rules.player_n"),
        "data-view": start_view(game),
    }
    attributes = "".join(f' {key}="{e(value)}"' for key, value in data.items())
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)} · spielwerk</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">'
        '<script type="module" src="/static/rules.js"></script></head>'
        '<body><header class="top"><a href="/">spielwerk</a>'
        f'<span class="title">{e(translate(lang, "rules.heading"))}</span>'
        '<span class="spacer"></span>'
        f'<nav class="links" aria-label="{e(translate(lang, "lang.label"))}">{links}</nav>'
        '</header><main class="rules-page">'
        f"{note}"
        f'<p class="muted">{e(players)} · <a href="/">'
        f"{e(translate(lang, 'page.back_to_lobby'))}</a></p>"
        f'<article class="rules" lang="{text.lang}"{attributes}>{render(text.markdown)}</article>'
        "</main></body></html>"
    )
