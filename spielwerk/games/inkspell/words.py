"""Tintenblut's words: its texts (glossary.toml, texts.toml) and the names of its locations,
cards and tiles in a language. Pure: the language is always a parameter.

Component data names things by key (data.toml); each key has its glossary term: a location
`loc_<key>`, a villain card `villain_<key>` (every Natternkopf card: `natternkopf`), an
advantage card `adv_<key>`, a tile kind by `TILE_TERMS`.
"""

from __future__ import annotations

from collections.abc import Sequence

from spielwerk.core.i18n import Lang, Texts, game_texts, seat_name
from spielwerk.games.inkspell.params import ADVANTAGE, PARAMS, PROVISION

TEXTS: Texts = game_texts(__package__ or "spielwerk.games.inkspell")

TILE_TERMS = {"M": "courage", "S": "strength", "K": "wisdom", "E": "honour"}
"""A tile kind's data key -> its glossary term (the letter is the term `<term>_abbr`)."""
_VILLAIN = {key: v for v, key in enumerate(PARAMS.villain_keys)}


def seat(lang: Lang, player: int) -> str:
    """A seat as a person counts it, from 1: the rules' seat 0 is "seat 1", „Platz 1“."""
    return seat_name(lang, player)


def location(lang: Lang, key: str) -> str:
    """A location (or Die Tintenwelt) by its key: "Die Nachtburg", "The Castle of Night"."""
    if key == PARAMS.tintenwelt_key:
        return TEXTS.term(lang, "tintenwelt")
    return TEXTS.term(lang, f"loc_{key}")


def location_of(lang: Lang, index: int) -> str:
    """A location card by its index (Die Tintenwelt is the last)."""
    return location(lang, PARAMS.location_card_key(index))


def short_location(lang: Lang, key: str) -> str:
    """A location's last word, for lists of roads: "Grenze", "Inn"."""
    return location(lang, key).split()[-1]


def villain_name(lang: Lang, key: str) -> str:
    index = _VILLAIN[key]
    term = "natternkopf" if index in PARAMS.natternkopf else f"villain_{key}"
    return TEXTS.term(lang, term)


def villain(lang: Lang, key: str) -> str:
    """A villain card with tier and value: "Natternkopf (II, 3)", "Adderhead (II, 3)"."""
    index = _VILLAIN[key]
    return TEXTS.say(
        lang,
        "villain_label",
        name=villain_name(lang, key),
        tier="I" * PARAMS.villain_tiers[index],
        value=PARAMS.villain_values[index],
    )


def advantage(lang: Lang, key: str) -> str:
    return TEXTS.term(lang, f"adv_{key}")


def tile(lang: Lang, key: str) -> str:
    """A tile kind by its key ("E"): "Ehre", "Honour"."""
    return TEXTS.term(lang, TILE_TERMS[key])


def letter(lang: Lang, key: str) -> str:
    """The letter of a tile kind, provisions or an advantage card in a reward row ("E", "H")."""
    if key == PROVISION:
        return TEXTS.term(lang, "provision_abbr")
    if key == ADVANTAGE:
        return TEXTS.term(lang, "advantage_abbr")
    return TEXTS.term(lang, f"{TILE_TERMS[key]}_abbr")


def provisions(lang: Lang, n: int) -> str:
    return TEXTS.say(lang, "provisions", n=n)


def items(lang: Lang, text: str) -> str:
    """Given or received items in the JSON form: "PP" -> "2 provisions", "MS" -> "Mut, Stärke"."""
    if set(text) == {PROVISION}:
        return provisions(lang, len(text))
    return ", ".join(tile(lang, c) for c in text)


def entries(lang: Lang, row: Sequence[tuple[str, int]]) -> str:
    """A reward row in words: (("E", 3), ("V", 1)) -> "3 Ehre + 1 Vorteilskarte"."""
    parts = []
    for what, amount in row:
        if what == PROVISION:
            parts.append(provisions(lang, amount))
        elif what == ADVANTAGE:
            parts.append(TEXTS.say(lang, "advantage_cards", n=amount))
        else:
            parts.append(TEXTS.say(lang, "amount", n=amount, what=tile(lang, what)))
    return " + ".join(parts)
