"""Die Holde Isolde's words: its texts (glossary.toml, texts.toml) and the names of its cards,
boards and seats in a language. Pure: the language is always a parameter."""

from __future__ import annotations

from spielwerk.core.i18n import Lang, Texts, game_texts, seat_name

TEXTS: Texts = game_texts(__package__ or "spielwerk.games.isolde")


def card(lang: Lang, name: str) -> str:
    """A card's name ("combat-4") in `lang`: "combat-4", "Kampf 4"."""
    kind, _, value = name.rpartition("-")
    return TEXTS.say(lang, "card", type=TEXTS.term(lang, f"type_{kind}"), value=value)


def board(lang: Lang, board_id: str) -> str:
    """A board (its id, "joust") in `lang`: "joust", "Lanzenstechen"."""
    return TEXTS.term(lang, f"board_{board_id}")


def seat(lang: Lang, player: int) -> str:
    """A seat as a person counts it, from 1: the rules' seat 0 is "seat 1", „Platz 1“."""
    return seat_name(lang, player)


def direction(lang: Lang, which: str) -> str:
    """A passing direction ("left", "right") in `lang`."""
    return TEXTS.term(lang, which) if which in ("left", "right") else which
