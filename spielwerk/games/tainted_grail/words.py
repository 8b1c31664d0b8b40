"""Tainted Grail's words: its texts (glossary.toml, texts.toml) and a scenario's texts in a
language. Pure: the language is always a parameter.

A scenario is written in English; its `[translations.de]` table gives the German of its texts
(`"Hollow Camp" = "Senkenlager"`), and a name that is a term of the game's glossary (the demo
scenario's names are) is translated by the glossary. `translation_table` collects both for
every text a player may see; the state puts it in its views, so that the terminal, the
narration and the web board all word a view the same way without the scenario at hand.

The game log is data, not text: each entry a key of texts.toml (``narrate.<key>``) with its
parameters; `line` words it. Parameters are worded by name (`value`): a string is a text of
the scenario, ``names`` a list of them joined by "and", ``places`` one joined by commas,
``face`` a guardian die face, ``step``/``dusk`` a step of the dawn or of the end of the day,
``cost`` a list of [resource, amount], ``paid`` a list of [name, amount, resource]; numbers
are shown as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from spielwerk.core.i18n import LANGUAGES, Lang, Texts, game_texts
from spielwerk.games.tainted_grail.scenario import TRANSLATED, Scenario, shown_texts

TEXTS: Texts = game_texts(__package__ or "spielwerk.games.tainted_grail")

Table = Mapping[str, Mapping[str, str]]
"""A scenario's translations: language -> English text -> text in that language."""

RESOURCE_TERMS = {
    "energy": "energy",
    "health": "health",
    "terror": "terror",
    "food": "food",
    "xp": "experience",
}
"""A resource's name in the data -> its glossary term."""
FACE_TERMS = {"N": "dir_n", "E": "dir_e", "S": "dir_s", "W": "dir_w", "stay": "dir_stay"}
DUSK_TERMS = ("dusk_rest", "dusk_recover", "dusk_dreams", "dusk_improve", "dusk_discard_events")


@cache
def _glossary_by_english(lang: Lang) -> dict[str, str]:
    return {term.en: term(lang) for term in TEXTS.terms.values()}


def translation_table(sc: Scenario) -> dict[str, dict[str, str]]:
    """Every shown text of the scenario that has a translation, by language."""
    table: dict[str, dict[str, str]] = {}
    for lang in TRANSLATED:
        own = sc.translations.get(lang, {})
        glossary = _glossary_by_english(lang)
        table[lang] = {
            text: own.get(text) or glossary[text]
            for text in shown_texts(sc)
            if text in own or text in glossary
        }
    return table


def scene(lang: Lang, text: str, table: Table) -> str:
    """A text of the scenario in `lang` (as written where it has no translation)."""
    if lang == "en":
        return text
    return table.get(lang, {}).get(text, text)


def resource(lang: Lang, name: str) -> str:
    """A resource ("energy", "xp") in `lang`: "Energie", "Erfahrung"."""
    return TEXTS.term(lang, RESOURCE_TERMS[name]) if name in RESOURCE_TERMS else name


def cost(lang: Lang, amounts: Sequence[Sequence[Any]]) -> str:
    """A cost in words: "2 energy, 1 food" (terror is gained: "+1 terror"); "free"."""
    parts = [
        TEXTS.say(
            lang,
            "cost.gain" if name == "terror" else "cost.pay",
            n=amount,
            resource=resource(lang, str(name)),
        )
        for name, amount in amounts
    ]
    return ", ".join(parts) or TEXTS.say(lang, "cost.free")


def joined(lang: Lang, names: Sequence[str]) -> str:
    """Names joined by "and": "Ada and Ben", "Ada, Ben und Cai"."""
    if len(names) < 2:
        return "".join(names)
    return TEXTS.say(lang, "and", a=", ".join(names[:-1]), b=names[-1])


def value(lang: Lang, name: str, found: Any, table: Table) -> Any:
    """A log parameter in words (see the module's description); numbers stay numbers."""
    if name == "names":
        return joined(lang, [scene(lang, str(n), table) for n in found])
    if name == "places":
        return ", ".join(scene(lang, str(n), table) for n in found)
    if name == "face":
        return TEXTS.term(lang, FACE_TERMS[str(found)])
    if name == "step" and isinstance(found, int):
        return found
    if name == "step_name":
        return TEXTS.term(lang, f"dawn_{found}")
    if name == "dusk_name":
        return TEXTS.term(lang, DUSK_TERMS[int(found)])
    if name == "cost":
        return cost(lang, found)
    if name == "paid":
        return ", ".join(
            TEXTS.say(
                lang,
                "paid_share",
                name=scene(lang, str(who), table),
                n=amount,
                resource=resource(lang, str(what)),
            )
            for who, amount, what in found
        )
    if isinstance(found, str):
        return scene(lang, found, table)
    return found


def line(lang: Lang, key: str, params: Mapping[str, Any], table: Table) -> str:
    """A log entry in `lang`."""
    worded = {name: value(lang, name, found, table) for name, found in params.items()}
    return TEXTS.say(lang, f"narrate.{key}", **worded)


def both(key: str, params: Mapping[str, Any], table: Table) -> dict[str, Any]:
    """A log entry's parameters for the narration: each worded in every language
    (`{"en": ..., "de": ...}`), numbers as they are (a count chooses the plural)."""
    return {
        name: (
            found
            if isinstance(found, int) and name not in WORDED_NUMBERS
            else {lang: value(lang, name, found, table) for lang in LANGUAGES}
        )
        for name, found in params.items()
    }


WORDED_NUMBERS = frozenset({"step_name", "dusk_name"})
"""Parameters that are numbers in the log but words on the page: a step of the dawn or of the
end of the day by its index ("remove extinguished menhirs", not "1")."""
