"""The Witches of Blackmore's words: its texts (glossary.toml, texts.toml) and the names of its
cards in a language. Pure: the language is always a parameter."""

from __future__ import annotations

from spielwerk.core.i18n import Lang, Texts, game_texts

TEXTS: Texts = game_texts(__package__ or "spielwerk.games.witches")


def card(lang: Lang, name: str) -> str:
    """A card's name ("red-7") in `lang`: "red-7", "Rot 7"."""
    colour, _, value = name.partition("-")
    return TEXTS.say(lang, "card", colour=TEXTS.term(lang, colour), value=value)


def seat(lang: Lang, player: int) -> str:
    """A seat as the rules count it (from 0): "seat 2", "Platz 2"."""
    return TEXTS.say(lang, "seat", n=player)
