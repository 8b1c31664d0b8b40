"""The Witches of Blackmore's words: its texts (glossary.toml, texts.toml) and the names of its
cards in a language. Pure: the language is always a parameter."""

from __future__ import annotations

from spielwerk.core.i18n import Lang, Texts, game_texts, seat_name

TEXTS: Texts = game_texts(__package__ or "spielwerk.games.witches")


def colour(lang: Lang, key: str) -> str:
    """A colour as a card's name begins: "Red", "Rot"."""
    word = TEXTS.term(lang, key)
    return word[:1].upper() + word[1:]


def card(lang: Lang, name: str) -> str:
    """A card's name (its id, "red-7") in `lang`: "Red 7", "Rot 7"."""
    key, _, value = name.partition("-")
    return TEXTS.say(lang, "card", colour=colour(lang, key), value=value)


def seat(lang: Lang, player: int) -> str:
    """A seat as a person counts it, from 1: the rules' seat 0 is "seat 1", „Platz 1“."""
    return seat_name(lang, player)
