"""Cards and tiles say what they do: in Chromium, in German and in English, every card, tile,
item and location a game's board draws has a tooltip with its rule in one line, from the
game's texts (`rule.*` in texts.toml) in the page's language; on a piece that is a control, the
action comes first and the rule under it."""

from __future__ import annotations

import json
from typing import Any

import pytest
from web_parts import Server, page_in_new_context

from spielwerk.core.i18n import Lang, texts_of_game
from spielwerk.web import rules

LOCALES = {"en": "en-GB", "de": "de-DE"}
TABLES = {
    "witches": ["human", "random", "random"],
    "inkheart_dice": ["human", "random"],
    "isolde": ["human", "random", "random"],
    "inkspell": ["human", "random"],
    "tainted_grail": ["human", "random"],
}
TIPS = """(selector) => [...document.querySelectorAll(selector)].map((e) => ({
  data: { ...e.dataset },
  tip: e instanceof SVGElement ? (e.querySelector(":scope > title")?.textContent ?? "") : e.title,
}))"""
"""Every piece a selector finds on the board, with its data attributes and its tooltip."""
INKHEART_CARDS = {"Basta": (-3, 0), "Capricorn": (-6, 1)}


def expected_tips(game: str, lang: Lang, piece: dict[str, str]) -> str:
    """The rule of one piece (its data attributes), as the game's texts word it in `lang`."""
    texts = texts_of_game(game)
    say, term = texts.say, texts.term
    if game == "witches":
        colour, value = piece["card"].split("-")
        word = term(lang, colour)  # capitalised in a card's name: "Yellow 8"
        name = say(lang, "card", colour=word[:1].upper() + word[1:], value=value)
        return say(lang, "rule.card", card=name, value=value)
    if game == "inkheart_dice":
        import tomllib
        from importlib.resources import files

        data = tomllib.loads(
            files("spielwerk.games").joinpath("inkheart_dice/data.toml").read_text()
        )
        card = next(c for c in data["cards"] if c["name"] == piece["card"])
        signed = f"+{card['value']}" if card["value"] > 0 else str(card["value"])
        rule = say(lang, "rule.card", name=card["name"], value=signed, number=abs(card["value"]))
        return rule + (say(lang, "rule.heart") if card["hearts"] else "")
    if game == "isolde":
        kind, value = piece["card"].rsplit("-", 1)
        name = say(lang, "card", type=term(lang, f"type_{kind}"), value=value)
        if kind == "combat":
            return say(lang, "rule.combat", card=name, value=value)
        return say(lang, "rule.card", card=name, value=value, board=term(lang, f"board_{kind}"))
    if game == "inkspell":
        if "tile" in piece:
            if piece["tile"] == "P":
                return say(lang, "rule.provision")
            key = {"M": "courage", "S": "strength", "K": "wisdom", "E": "honour"}[piece["tile"]]
            return say(lang, "rule.tile", tile=term(lang, key))
        place = term(
            lang, "tintenwelt" if piece["card"] == "tintenwelt" else f"loc_{piece['card']}"
        )
        return say(lang, "rule.location_card", place=place)
    view = json.loads(rules.start_view("tainted_grail"))  # the same scenario, the same items
    scene = view["translations"].get(lang, {})
    if "item" in piece:
        item = next(i for c in view["characters"] for i in c["items"] if i["id"] == piece["item"])
        return say(
            lang,
            "rule.item",
            item=scene.get(item["name"], item["name"]),
            keywords=", ".join(scene.get(k, k) for k in item["keywords"]),
            state=term(lang, "equipped" if item["equipped"] else "turned_over"),
        )
    place = next(p for p in view["locations"] if p["id"] == piece["location"])
    return say(lang, "rule.location", place=scene.get(place["name"], place["name"]))


SELECTORS = {
    "witches": "#board svg.card[data-card]",
    "inkheart_dice": "#board svg.card[data-card]",
    "isolde": "#board svg.card[data-card]",
    "inkspell": "#board [data-tile], #board button[data-card]",
    "tainted_grail": "#board [data-item], #board g.location[data-location]",
}


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", sorted(TABLES))
def test_every_card_and_tile_says_what_it_does(
    shared_server: Server, browser: Any, game: str, lang: Lang
) -> None:
    created = shared_server.create(game, TABLES[game])
    with page_in_new_context(browser, locale=LOCALES[lang]) as page:
        page.goto(shared_server.base + created["seats"][0]["url"])
        page.wait_for_function("() => document.querySelector('#board [data-action-id]') !== null")
        pieces = page.evaluate(TIPS, SELECTORS[game])
        assert len(pieces) >= 2, "the board draws pieces with tooltips"
        for piece in pieces:
            rule = expected_tips(game, lang, piece["data"])
            assert rule in piece["tip"].split("\n"), (piece, rule)
        if game == "inkheart_dice":
            castle = page.evaluate(TIPS, "#board .seat svg.card.small:not([data-card])")
            assert castle and all(
                texts_of_game(game).say(lang, "rule.castle") in c["tip"] for c in castle
            )
        for control in (p for p in pieces if "actionId" in p["data"]):
            assert "\n" in control["tip"], ("the action, then the rule", control)
        assert page.errors == []
