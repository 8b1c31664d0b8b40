"""Every game's board in Chromium at desktop (1366 px) and phone (390 px) width, in German and
in English, played to the end: every text fits its box (the panels, the cards, the tracks and
maps, the status, the log, the result table), no word is broken across lines, no lifted card
covers a label, no text runs off the edge of the SVG it is drawn in; Isolde's stacked discs stay
inside their squares (four players: stacks of four on every start space); Tintenblut's map
prints whole words, large enough to read on a phone, each spelled out in the legend; Tainted
Grail's tiles keep their texts inside and free; the pages show sentences, not the game's
internal ids, and in a German page no English of the board, the log or the buttons. On a phone
the page header stays small on every page and the log is one tap away with the board still in
view."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
from test_web_browser import Page
from web_parts import Server, games_by_language

from spielwerk.web.i18n import translate

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
    labels = page.page.evaluate(INK_LABELS)
    assert labels, "the map's places are labelled"
    if width == "phone":
        assert [label for label in labels if label["px"] < 11] == []
    legend = page.page.inner_text("#board .legend")
    places = dict(re.findall(r"([^·:\n]+?): ([^·\n]+)", legend.split("\n", 1)[0].split(":", 1)[1]))
    places = {short.strip(): full.strip() for short, full in places.items()}
    for label in labels:
        assert label["text"] in legend  # every place's name spelled out
        if width == "phone":
            full = places[label["text"]]  # a whole word, not the first letters of one ("Omb")
            assert not any(w != label["text"] and w.startswith(label["text"]) for w in full.split())
    signs = {
        "de": ("M Mut", "S Stärke", "K Klugheit", "E Ehre", "P Proviant", "St Staubfinger"),
        "en": ("C Courage", "S Strength", "W Wisdom", "H Honour", "P provisions", "Du Dustfinger"),
    }
    for sign in signs[lang]:
        assert sign in legend


ISOLDE_STACKS = """() => {
  const problems = [];
  for (const track of document.querySelectorAll("svg.isolde-track")) {
    const box = (r) => r.getBoundingClientRect();
    const squares = [...track.querySelectorAll("rect.square")].map(box);
    for (const disc of track.querySelectorAll(".seat-marker")) {
      const d = disc.getBoundingClientRect(), x = (d.left + d.right) / 2;
      const square = squares.find((q) => q.left <= x && x <= q.right);
      if (!square || d.top < square.top - 0.5 || d.bottom > square.bottom + 0.5) {
        problems.push(`${track.getAttribute("aria-label")}: disc ${disc.dataset.mark}`);
      }
    }
  }
  return problems;
}"""

GAMES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "witches": (["human", "random", "random"], {}),
    "inkheart_dice": (["human", "random", "random"], {"max_turns": 30}),
    "isolde": (["human", "random", "random", "random"], {}),
    "inkspell": (["human", "random"], {"max_rounds": 6}),
    "tainted_grail": (["human", "random"], {}),
}
"""Each game's table: the person and random bots (Tainted Grail: a bot beside the person, so that
a bot's seat is named in the decision panel)."""


def check(page: Page, game: str, lang: str) -> None:
    """Everything at both widths, on the same page resized (the layout is CSS only); the
    page is left at phone width."""
    for width in ("desktop", "phone"):
        page.page.set_viewport_size(WIDTHS[width])
        # measured once what the last move changed has stopped sliding in
        page.page.wait_for_function("() => document.getAnimations().length === 0")
        assert page.layout_problems() == [], width
        assert page.fits_width(), page.too_wide()
        if game == "tainted_grail":
            check_grail(page)
        elif game == "inkspell":
            check_inkspell(page, width, lang)
        elif game == "isolde":
            assert page.page.evaluate(ISOLDE_STACKS) == [], width
        if game in ENGLISH:
            check_language(page, game, lang)


@pytest.mark.parametrize(("game", "lang"), games_by_language(GAMES, ["de", "en"], turn=0))
def test_every_board_fits_and_explains_itself(
    shared_server: Server, browser: Any, game: str, lang: str
) -> None:
    """Played to the end by clicking at phone width, checked at both widths at the start, every
    six moves and with the result; by default each game in one language, the other one's in
    test_web_a11y's turn (`games_by_language`), both with `-m slow`. The browser asks for the
    page's language (Accept-Language), as a German reader's would."""
    seats, options = GAMES[game]
    created = shared_server.create(game, seats, **options)
    context = browser.new_context(locale="de-DE" if lang == "de" else "en-GB")
    try:
        page = Page(context, WIDTHS["phone"])
        page.goto(shared_server.base + created["seats"][0]["url"])
        rng = random.Random(23)
        moves = 0
        while moves < 3000:  # a game that never ends fails below instead of hanging
            page.wait_ready()
            if moves % 6 == 0 and not page.over:
                check(page, game, lang)
            if page.over:
                break
            page.click_random_control(rng)
            moves += 1
        assert page.over, "the game did not end within 3000 moves"
        # Measured once what the last move changed has stopped sliding in and glowing.
        page.page.wait_for_function("() => document.getAnimations().length === 0")
        assert page.page.locator("#result table td").count() > 0
        check(page, game, lang)
        assert page.stray_words() == [] and page.errors == []
    finally:
        context.close()


PAGES = {
    "table": lambda created: created["seats"][0]["url"],
    "lobby": lambda created: "/",
    "rules": lambda created: "/rules/tainted_grail",
}


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_header_is_small_on_a_phone(shared_server: Server, browser: Any, lang: str) -> None:
    """The header of the table page (the longest title, with its seat, rules link, notice
    button, connection and language), of the lobby and of a rules page: at most two short
    lines on a 390 px phone."""
    created = shared_server.create("tainted_grail", ["human", "random"])
    context = browser.new_context(locale="de-DE" if lang == "de" else "en-GB")
    try:
        page = Page(context, WIDTHS["phone"])
        for name, path in PAGES.items():
            page.goto(shared_server.base + path(created))
            page.page.wait_for_selector("header.top select#lang, header.top nav.links")
            if name == "table":
                page.wait_ready()
            height = page.page.evaluate(
                "() => document.querySelector('header.top').getBoundingClientRect().height"
            )
            assert height <= 100, (name, height)
            assert page.labels_fit() == [], name
        assert page.errors == []
    finally:
        context.close()


SHEET = """() => {
  const log = document.querySelector("#log"), lines = log.querySelectorAll("li");
  const last = lines[lines.length - 1].getBoundingClientRect();
  const sheet = document.querySelector("#log-panel").getBoundingClientRect();
  const board = document.querySelector("#board").getBoundingClientRect();
  const x = (last.left + last.right) / 2, y = (last.top + last.bottom) / 2;
  const onTop = document.elementFromPoint(x, y);
  return { lastShown: last.top >= 0 && last.bottom <= innerHeight && log.contains(onTop),
           boardInView: Math.min(board.bottom, sheet.top) - Math.max(board.top, 0),
           scrolled: scrollY };
}"""


@pytest.mark.parametrize("lang", ["de", "en"])
def test_the_log_is_one_tap_away_on_a_phone(shared_server: Server, browser: Any, lang: str) -> None:
    """At 390 px the log is not far below the board: one tap on its button shows its newest
    lines over the lower part of the page, the board still in view above them and the page
    not scrolled; another tap puts it away. At desktop width the log is beside the board."""
    created = shared_server.create("inkheart_dice", ["human", "random"])
    context = browser.new_context(locale="de-DE" if lang == "de" else "en-GB")
    try:
        page = Page(context, WIDTHS["phone"])
        page.goto(shared_server.base + created["seats"][0]["url"])
        rng = random.Random(3)
        for _ in range(4):
            page.wait_ready()
            page.click_random_control(rng)
        page.wait_ready()
        page.page.evaluate("() => window.scrollTo(0, 0)")
        toggle = page.page.locator("#log-toggle")
        assert toggle.is_visible()
        assert toggle.inner_text().strip() == translate(lang, "page.game_log")
        toggle.click()
        shown = page.page.evaluate(SHEET)
        assert shown["lastShown"], shown
        assert shown["boardInView"] >= 200 and shown["scrolled"] == 0, shown
        assert toggle.get_attribute("aria-expanded") == "true"
        toggle.click()
        assert toggle.get_attribute("aria-expanded") == "false"
        page.page.set_viewport_size(WIDTHS["desktop"])
        assert not toggle.is_visible()
        beside = page.page.evaluate(
            """() => document.querySelector("#log").getBoundingClientRect().left >
                     document.querySelector("#board").getBoundingClientRect().right"""
        )
        assert beside
        assert page.errors == []
    finally:
        context.close()
