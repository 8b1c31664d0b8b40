"""The glossaries of Tintenblut and Tainted Grail (`glossary.toml` beside each game's data):
every term has a German and an English name and a provenance tag for each, and every name the
game's component data shows a player is a term of its glossary, so no card, place or resource
can appear in one language only."""

from __future__ import annotations

import importlib
import os
from typing import Any

import pytest

from spielwerk.core.data import read_toml

TAGS = {"seed", "public", "design"}
FIELDS = {"de", "en", "de_tag", "en_tag", "note"}
GAMES = ("inkspell", "tainted_grail")


def glossary(game: str) -> dict[str, dict[str, str]]:
    package = f"spielwerk.games.{game}"
    importlib.import_module(package)
    terms: dict[str, dict[str, str]] = read_toml(package, "glossary.toml")["terms"]
    return terms


@pytest.mark.parametrize("game", GAMES)
def test_every_term_has_both_languages_and_valid_tags(game: str) -> None:
    terms = glossary(game)
    assert terms
    for key, term in terms.items():
        assert key.isidentifier() and key == key.lower(), key
        assert set(term) <= FIELDS, (key, set(term) - FIELDS)
        for lang in ("de", "en"):
            assert isinstance(term.get(lang), str) and term[lang].strip(), (key, lang)
            assert term[lang] == term[lang].strip(), (key, lang)
            assert term.get(f"{lang}_tag") in TAGS, (key, f"{lang}_tag")


@pytest.mark.parametrize("game", GAMES)
def test_keys_are_unique_in_the_file(game: str) -> None:
    """Each key is defined once: a second `[terms.x]` is refused by TOML, and the raw lines
    are counted too, so that every header in the file is a term of the parsed glossary."""
    module = importlib.import_module(f"spielwerk.games.{game}")
    assert module.__file__ is not None
    path = os.path.join(os.path.dirname(module.__file__), "glossary.toml")
    with open(path, encoding="utf-8") as handle:
        headers = [line.strip() for line in handle if line.startswith("[terms.")]
    assert len(headers) == len(set(headers)) == len(glossary(game))


def _names(data: dict[str, Any], *tables: str) -> set[str]:
    return {str(row["name"]) for table in tables for row in data[table]}


def test_inkspell_names_are_the_glossarys_german_terms() -> None:
    """Every location, villain, advantage card and tile kind of data.toml, Die Tintenwelt and
    Staubfinger: their German names are the glossary's, and seed-tagged where the rulebook
    prints them (the locations, the tiles)."""
    terms = glossary("inkspell")
    german = {t["de"] for t in terms.values()}
    data = read_toml("spielwerk.games.inkspell")
    shown = _names(data, "locations", "villains", "advantages", "tiles")
    shown |= {data["map"]["tintenwelt_name"], "Staubfinger", "Natternkopf", "Weiße Frauen"}
    assert shown - german == set()
    seed = {t["de"] for t in terms.values() if t["de_tag"] == "seed"}
    assert _names(data, "locations", "tiles") <= seed


def test_inkspell_tile_letters_are_distinct_in_each_language() -> None:
    """The tile chips show one letter per kind (and P for provisions): in each language the
    letters tell the kinds apart."""
    terms = glossary("inkspell")
    for lang in ("de", "en"):
        letters = [terms[f"{kind}_abbr"][lang] for kind in ("courage", "strength", "wisdom")]
        letters += [terms["honour_abbr"][lang], terms["provision_abbr"][lang]]
        assert len(set(letters)) == len(letters), (lang, letters)
        for kind in ("courage", "strength", "wisdom", "honour"):
            assert terms[kind][lang].startswith(terms[f"{kind}_abbr"][lang]), (lang, kind)


def test_tainted_grail_demo_names_are_the_glossarys_english_terms() -> None:
    """Every name the demo scenario shows (title, characters, locations, items, guardians,
    time dials, events, improvements, attributes, counters) has a German entry."""
    from spielwerk.games.tainted_grail.scenario import load_scenario

    sc = load_scenario("demo")
    english = {t["en"] for t in glossary("tainted_grail").values()}
    shown = {sc.title, *sc.attributes, *sc.counters}
    for group in (sc.characters, sc.locations, sc.items, sc.guardians, sc.dials, sc.improvements):
        shown |= {thing.name for thing in group}
    shown |= {event.title for event in sc.events}
    shown |= {word for item in sc.items for word in item.keywords}
    assert shown - english == set()


def test_tainted_grail_dawn_steps_are_the_rulebooks() -> None:
    """The eight dawn steps are named as the German rulebook prints them."""
    terms = glossary("tainted_grail")
    for step in range(1, 9):
        assert terms[f"dawn_{step}"]["de_tag"] == "seed"
    assert terms["dawn_1"]["de"] == "Entfernt erloschene Menhire"
    assert terms["phase_dawn"]["de"] == "Tagesanbruch"
