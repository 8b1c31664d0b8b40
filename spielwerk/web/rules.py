"""The rules pages: each game's rules as spielwerk plays them, rendered from Markdown.

The texts are `spielwerk/games/<game>/rules.<lang>.md` (package data): English and German, with
the same headings. They are rendered with markdown-it-py (CommonMark plus tables) with raw HTML
off, so nothing a file holds reaches the page as markup. Provenance tags become marked labels:

| tag in the file | English label | German label | meaning |
|---|---|---|---|
| `[seed]`, `[Regelheft]` | seed | Regelheft | from the rulebook |
| `[public]`, `[öffentlich]` | public | öffentlich | from public descriptions of the game |
| `[design]`, `[Entscheidung]` | design | Entscheidung | decided by spielwerk |
| `[rules file]`, `[Regeldatei]` | rules file | Regeldatei | settled in the project's rules file |

A tag may carry details after its word (`[seed, l. 27]`, `[seed: 6 each; order design]`); the
label is the language of the file the tag stands in, whichever word the file used. A list item,
table row, heading or paragraph holding a design tag (or a tag whose details say design,
`[seed; the order is design]`) is marked as a whole (class `design`); a tag in bold
(`**[design]**`) is the tag named, as in the legend at the top of a file, and marks nothing.
"""

from __future__ import annotations

import html
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from importlib.resources import files

from markdown_it import MarkdownIt
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from spielwerk.web.i18n import LANGUAGES as LANGUAGE_NAMES
from spielwerk.web.i18n import translate

LANGUAGES = ("en", "de")

TAG_KINDS: dict[str, str] = {
    "seed": "seed",
    "regelheft": "seed",
    "public": "public",
    "öffentlich": "public",
    "design": "design",
    "entscheidung": "design",
    "rules file": "rules-file",
    "regeldatei": "rules-file",
}
TAG_LABELS: dict[str, dict[str, str]] = {
    "en": {"seed": "seed", "public": "public", "design": "design", "rules-file": "rules file"},
    "de": {
        "seed": "Regelheft",
        "public": "öffentlich",
        "design": "Entscheidung",
        "rules-file": "Regeldatei",
    },
}
_TAG = re.compile(
    r"\[(" + "|".join(re.escape(word) for word in TAG_KINDS) + r")(?![\w-])([^\[\]]*)\]",
    re.IGNORECASE,
)
_DESIGN_WORD = re.compile(r"\b(design|Entscheidung)\b", re.IGNORECASE)
_MARKED_BLOCKS = ("list_item_open", "tr_open", "paragraph_open", "heading_open")


@dataclass(frozen=True)
class RulesText:
    markdown: str
    lang: str
    """The language of `markdown`: the one asked for, or English when that file is missing."""


def rules_file(game: str, lang: str) -> str | None:
    """The text of `spielwerk/games/<game>/rules.<lang>.md`, or None if there is none."""
    if lang not in LANGUAGES or not game.isidentifier():
        return None
    try:
        path = files("spielwerk.games").joinpath(game, f"rules.{lang}.md")
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, ModuleNotFoundError):
        return None


def rules_text(game: str, lang: str) -> RulesText | None:
    """The game's rules in `lang`, else in English; None if the game has no rules file."""
    for candidate in (lang, "en"):
        text = rules_file(game, candidate)
        if text is not None:
            return RulesText(text, candidate)
    return None


def _tag_rule(lang: str) -> Callable[[StateInline, bool], bool]:
    """The inline rule that turns `[seed ...]` etc. into a labelled span (labels in `lang`)."""

    def tag(state: StateInline, silent: bool) -> bool:
        if state.src[state.pos] != "[":
            return False
        match = _TAG.match(state.src, state.pos, state.posMax)
        if match is None:
            return False
        end = match.end()
        if end < state.posMax and state.src[end] in "([":  # a link or a reference, not a tag
            return False
        if not silent:
            kind = TAG_KINDS[match.group(1).lower()]
            opening = state.push("provenance_open", "span", 1)
            opening.attrs = {"class": f"tag tag-{kind}"}
            design = kind == "design" or bool(_DESIGN_WORD.search(match.group(2)))
            opening.meta = {"kind": kind, "design": design}
            state.push("text", "", 0).content = "[" + TAG_LABELS[lang][kind]
            old_max = state.posMax
            state.pos, state.posMax = match.start(2), match.end(2)
            state.md.inline.tokenize(state)
            state.posMax = old_max
            state.push("text", "", 0).content = "]"
            state.push("provenance_close", "span", -1)
        state.pos = end
        return True

    return tag


def _mark_design_blocks(tokens: list[Token]) -> None:
    """Give the innermost list item, table row, paragraph or heading that holds a design tag
    the class `design`; make tables focusable (they may scroll) and give aligned cells a class
    instead of a style attribute."""
    open_blocks: list[Token] = []
    for token in tokens:
        if token.type == "table_open":  # it scrolls sideways on a phone: reachable by keyboard
            token.attrSet("tabindex", "0")
        style = token.attrGet("style")
        if token.type in ("th_open", "td_open") and isinstance(style, str):
            # a column's alignment as a class: the pages' CSP allows no inline style
            del token.attrs["style"]
            token.attrJoin("class", "align-" + style.removeprefix("text-align:"))
        if token.type in _MARKED_BLOCKS:
            open_blocks.append(token)
        elif (
            token.nesting == -1
            and open_blocks
            and token.type == open_blocks[-1].type.replace("_open", "_close")
        ):
            open_blocks.pop()
        elif token.type == "inline" and open_blocks:
            children = token.children or []
            if any(
                c.type == "provenance_open"
                and c.meta.get("design")
                and not (i > 0 and children[i - 1].type == "strong_open")
                for i, c in enumerate(children)
            ):
                shown = [b for b in open_blocks if b.type != "paragraph_open" or not b.hidden]
                target = shown[-1] if shown else open_blocks[-1]
                target.attrJoin("class", "design")


@cache
def _parser(lang: str) -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False, "linkify": False, "typographer": False})
    md.enable("table")
    md.inline.ruler.before("link", "provenance", _tag_rule(lang))
    return md


def render(markdown: str, lang: str) -> str:
    """`markdown` as HTML (raw HTML in it escaped), its tags labelled in `lang`."""
    md = _parser(lang if lang in TAG_LABELS else "en")
    tokens = md.parse(markdown)
    _mark_design_blocks(tokens)
    page: str = md.renderer.render(tokens, md.options, {})
    return page


def heading_counts(markdown: str) -> Counter[int]:
    """How many headings of each level (1-6) the text has (code blocks not counted)."""
    md = _parser("en")
    return Counter(int(t.tag[1]) for t in md.parse(markdown) if t.type == "heading_open")


def _tag_meanings(lang: str) -> dict[str, str]:
    return {
        "seed": translate(lang, "rules.tag_seed"),
        "public": translate(lang, "rules.tag_public"),
        "design": translate(lang, "rules.tag_design"),
        "rules-file": translate(lang, "rules.tag_rules_file"),
    }


def rules_page_html(game: str, lang: str, info: dict[str, object]) -> str | None:
    """The whole rules page of `game` in `lang` (the page's words; the rules text in `lang`,
    or in English with a note saying so when the game has no `rules.<lang>.md`); None when the
    game has no rules file at all. `info` is the game's lobby description (title, players)."""
    text = rules_text(game, lang)
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
    legend = "".join(
        f'<li><span class="tag tag-{kind}">[{e(TAG_LABELS[text.lang][kind])}]</span> '
        f"{e(meaning)}</li>"
        for kind, meaning in _tag_meanings(lang).items()
    )
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{e(title)} · spielwerk</title>"
        '<link rel="stylesheet" href="/static/style.css">'
        '<link rel="icon" href="/static/favicon.svg" type="image/svg+xml"></head>'
        '<body><header class="top"><a href="/">spielwerk</a>'
        f'<span class="title">{e(translate(lang, "rules.heading"))}</span>'
        '<span class="spacer"></span>'
        f'<nav class="links" aria-label="{e(translate(lang, "lang.label"))}">{links}</nav>'
        '</header><main class="rules-page">'
        f"{note}"
        f'<p class="muted">{e(players)} · <a href="/">'
        f"{e(translate(lang, 'page.back_to_lobby'))}</a></p>"
        f'<aside class="tag-legend" aria-label="{e(translate(lang, "rules.tags_label"))}">'
        f"<p>{e(translate(lang, 'rules.tags'))}</p><ul>{legend}</ul></aside>"
        f'<article class="rules" lang="{text.lang}">{render(text.markdown, text.lang)}</article>'
        "</main></body></html>"
    )
