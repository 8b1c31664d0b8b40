"""The review's words (`texts.toml` beside this module) and the game's own texts, seats from 1."""

from __future__ import annotations

import re

from spielwerk.core.i18n import Lang, Texts, game_texts, game_title

TEXTS: Texts = game_texts(__package__)
"""`texts.toml` of the review, with the words every game shares as its parent."""

_SEAT = re.compile(r"\b(seat|Platz) (\d+)\b")


def seats_from_one(text: str) -> str:
    """A game's text with its seats counted from 1 ("seat 0" -> "seat 1"), as a player counts
    them: the games' texts count from 0, as the rules do (docs/i18n.md)."""
    return _SEAT.sub(lambda match: f"{match.group(1)} {int(match.group(2)) + 1}", text)


def say(lang: Lang, key: str, /, **params: object) -> str:
    return TEXTS.say(lang, key, **params)


def percent(chance: float) -> str:
    """A chance as a player reads it: whole per cent."""
    return f"{100 * chance:.0f}%"


def title(game: str, lang: Lang) -> str:
    return game_title(game, lang)
