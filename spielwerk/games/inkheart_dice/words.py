"""Tintenherz - Das Würfelspiel's words: its texts (glossary.toml, texts.toml), the names of the
game's end, and seats in a language. Pure: the language is always a parameter."""

from __future__ import annotations

from spielwerk.core.i18n import Lang, Texts, game_texts, seat_name

TEXTS: Texts = game_texts(__package__ or "spielwerk.games.inkheart_dice")

END_KEYS = {
    "the centre could not be refilled: the draw pile is empty": "end.centre",
    "turn limit": "end.turns",
}
"""The result's end reasons (state.END_NAMES) and their texts; a test checks they agree."""


def seat(lang: Lang, player: int) -> str:
    """A seat as a person counts it, from 1: the rules' seat 0 is "seat 1", „Platz 1“."""
    return seat_name(lang, player)


def end_reason(lang: Lang, reason: str) -> str:
    """Why the game ended, in `lang`."""
    key = END_KEYS.get(reason)
    return TEXTS.say(lang, key) if key else reason
