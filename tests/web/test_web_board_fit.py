"""Tainted Grail's and Tintenblut's boards in Chromium at desktop (1366 px) and phone (390 px)
width, in German and in English: every label fits its box, nothing is drawn over a place's
name, the map's labels are large enough to read on a phone, every abbreviation has a legend in
the page's language, and the page shows sentences, not the game's internal ids, and in a German
page no English of the board, the log or the buttons."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from test_web_browser import Page
from web_parts import Server

WIDTHS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}

GRAIL_TILES = """() => {
  const box = (e) => e.getBBox();
  const inside = (a, b) => a.x >= b.x - 0.5 && a.y >= b.y - 0.5 &&
    a.x + a.width <= b.x + b.width + 0.5 && a.y + a.height <= b.y + b.height + 0.5;
  const meet = (a, b) => a.x < b.x + b.width && b.x < a.x + a.width &&
    a.y < b.y + b.height && b.y < a.y + a.height;
  const problems = [];
  const map = document.querySelector("svg.grail-map");
  const tokens = [...map.querySelectorAll("[data-character]")].map(box);
  for (const place of map.querySelectorAll("g.location")) {
    const tile = box(place.querySelector("rect.tile"));
    const name = place.dataset.location;
    for (const text of place.querySelectorAll("text")) {
      if (!inside(box(text), tile)) problems.push(`${name}: "${text.textContent}" leaves its tile`);
    }
    const icons = [...place.querySelectorAll(".icon")].map(box).concat(tokens);
    for (const label of place.querySelectorAll("text.label")) {
      if (icons.some((icon) => meet(icon, box(label)))) {
        problems.push(`${name}: something is drawn over "${label.textContent}"`);
      }
    }
  }
  return problems;
}"""

INK_LABELS = """() => [...document.querySelectorAll("svg.ink-map text.place-label")]
  .filter((t) => getComputedStyle(t).display !== "none")
  .map((t) => ({ text: t.textContent,
                 px: parseFloat(getComputedStyle(t).fontSize) * t.getScreenCTM().a }))"""


def snake_case_words(text: str) -> list[str]:
    """Internal ids (hermit_ward, ash_hound) that a sentence would never contain."""
    return re.findall(r"\b[a-z]+_[a-z_]+\b", text)


# Words of the English boards and logs that a German page must not show.
ENGLISH = {
    "tainted_grail": (
        "Today's event",
        "Event deck",
        "energy",
        "health",
        "terror",
        "food",
        "travels",
        "explores",
        "Hollow Camp",
        "Withered Orchard",
        "to move",
        "place action",
        "dawn step",
        "Pass (end",
        "Forage in the hollow",
    ),
    "inkspell": (
        "Places:",
        "Tiles:",
        "Courage",
        "Honour",
        "Dustfinger",
        "provisions",
        "villain",
        "advantage card",
        "Round ",
        "Travel to",
        "Your location cards",
        "Border Inn",
        "to move",
        "winner",
    ),
}


def check_language(page: Page, game: str, lang: str) -> None:
    """A German page: no English of the board, the log or the buttons; the page is German."""
    assert page.page.evaluate("() => document.documentElement.lang") == lang
    if lang != "de":
        return
    text = page.page.inner_text("#board") + page.page.inner_text("#log")
    text += page.page.inner_text("#actions")
    assert [word for word in ENGLISH[game] if word in text] == []


def check_grail(page: Page) -> None:
    assert page.labels_fit() == []
    assert page.page.evaluate(GRAIL_TILES) == []
    board, log = page.page.inner_text("#board"), page.page.inner_text("#log")
    assert snake_case_words(board + log) == []
    assert "flags" not in board and "))" not in board + log
    assert "Chronicle" not in board, "one log: the chronicle's lines are the game log's"
    assert not re.search(r"guardian die for [^:\n]+: [NESW]\b", log)
    legend = page.page.inner_text("#board .legend")
    for sign in ("▲", "◆", "★", "?", "●"):
        assert sign in legend


def check_inkspell(page: Page, width: str, lang: str) -> None:
    assert page.labels_fit() == []
    labels = page.page.evaluate(INK_LABELS)
    assert labels, "the map's places are labelled"
    if width == "phone":
        assert [label for label in labels if label["px"] < 11] == []
    legend = page.page.inner_text("#board .legend")
    for label in labels:
        assert label["text"] in legend  # every place's letters spelled out
    signs = {
        "de": ("M Mut", "S Stärke", "K Klugheit", "E Ehre", "P Proviant", "St Staubfinger"),
        "en": ("C Courage", "S Strength", "W Wisdom", "H Honour", "P provisions", "Du Dustfinger"),
    }
    for sign in signs[lang]:
        assert sign in legend


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("lang", ["de", "en"])
@pytest.mark.parametrize("game", ["tainted_grail", "inkspell"])
def test_the_map_boards_fit_and_explain_themselves(
    shared_server: Server, browser: Any, game: str, lang: str, width: str
) -> None:
    """Played to the end by clicking, checked at the start, every few moves and at the end. Tainted
    Grail with a bot beside the person, so that a bot's seat is named in the decision panel. The
    browser asks for the page's language (Accept-Language), as a German reader's would."""
    seats = ["human", "random"]
    options = {"max_rounds": 6} if game == "inkspell" else {}
    created = shared_server.create(game, seats, **options)
    context = browser.new_context(locale="de-DE" if lang == "de" else "en-GB")
    try:
        play_and_check(shared_server, context, created, game, lang, width)
    finally:
        context.close()


def play_and_check(
    server: Server, context: Any, created: dict[str, Any], game: str, lang: str, width: str
) -> None:
    page = Page(context, WIDTHS[width])
    page.goto(server.base + created["seats"][0]["url"])
    rng = random.Random(23)
    moves = 0
    while moves < 3000:  # a game that never ends fails below instead of hanging
        page.wait_ready()
        if moves % 4 == 0 or page.over:
            if game == "tainted_grail":
                check_grail(page)
            else:
                check_inkspell(page, width, lang)
            check_language(page, game, lang)
        if page.over:
            break
        page.click_random_control(rng)
        moves += 1
    assert page.over, "the game did not end within 3000 moves"
    # Measured once what the last move changed has stopped sliding in and glowing.
    page.page.wait_for_function("() => document.getAnimations().length === 0")
    assert page.fits_width(), page.too_wide()
    assert page.stray_words() == [] and page.errors == []
