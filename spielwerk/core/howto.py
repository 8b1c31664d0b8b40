"""How to play a game, for players: `how_to_play.<lang>.md` beside the game's code.

Each game's players' rules are a Markdown text per language (the goal, the set-up, a turn, the
scoring, the end), written from the rulebook in its words; the web's rules page
(`spielwerk.web.rules`) and `spielwerk rules` show them. A picture of a component is an image
whose address names a piece of the game's board (`![Red 7](piece:card/red-7)`): the web page
draws it, the terminal leaves it out (`without_pictures`). The developer's rules (provenance
tags, design notes, tests) are in `docs/games/<game>.md`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from importlib.resources import files

LANGUAGES = ("en", "de")
PIECE = "piece:"
"""The address of a picture drawn by the game's board: `piece:NAME/ARG/...`."""
_PICTURE = re.compile(r"!\[[^\]]*\]\(" + PIECE + r"[^)]*\)")


@dataclass(frozen=True)
class HowToPlay:
    markdown: str
    lang: str
    """The language of `markdown`: the one asked for, or English when that text is missing."""


def how_to_play_file(game: str, lang: str) -> str | None:
    """The text of `spielwerk/games/<game>/how_to_play.<lang>.md`, or None if there is none."""
    if lang not in LANGUAGES or not game.isidentifier():
        return None
    try:
        path = files("spielwerk.games").joinpath(game, f"how_to_play.{lang}.md")
        return path.read_text(encoding="utf-8")
    except (FileNotFoundError, NotADirectoryError, ModuleNotFoundError):
        return None


def how_to_play(game: str, lang: str) -> HowToPlay | None:
    """The game's players' rules in `lang`, else in English; None if it has none."""
    for candidate in (lang, "en"):
        text = how_to_play_file(game, candidate)
        if text is not None:
            return HowToPlay(text, candidate)
    return None


def without_pictures(markdown: str) -> str:
    """The text with its pictures of pieces left out (for the terminal), no blank lines
    doubled where a paragraph of pictures was."""
    text = _PICTURE.sub("", markdown)
    return re.sub(r"\n[ \t]*\n(?:[ \t]*\n)+", "\n\n", text)
