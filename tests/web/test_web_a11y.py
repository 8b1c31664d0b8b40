"""Accessibility of the pages in a real browser (Debian's Chromium via Playwright).

axe-core (the npm package tests/web/package-lock.json pins, installed by `make install`) checks
the lobby, every game's table page while playing and once the result is shown, the replay
viewer and every game's rules page, in German and in English (a browser whose language is
German or English), at desktop (1366 px) and phone (390 px) width: no serious or critical
violation (WCAG 2.1 A/AA and axe's best practices: names of controls, contrast, keyboard access
to scrolling regions, nesting of controls). Every game is played once to its end in each
language (clicking legal controls against random bots; the checks at both widths are made on
the same page, resized). The rules links of the lobby and the table pages lead to the rules in
the page's language. A whole game is then played with the keyboard alone: Tab to a highlighted
piece or button, Enter or Space to play it.
"""

from __future__ import annotations

import os
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import GAME_TABLES, Page
from web_parts import Server, games_by_language, missing

AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"
WIDTHS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
SERIOUS = ("serious", "critical")
RUN_AXE = """async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
  }));
}"""


MAX_MOVES = 3000
LANGS = {"en": "en-GB", "de": "de-DE"}  # the page language and the browser's locale for it


@pytest.fixture(scope="module")
def lang_contexts(browser: Any) -> Iterator[dict[str, Any]]:
    """One browser context per language for the whole module (its Accept-Language and
    navigator.language are that locale's): the pages of a language share it."""
    contexts = {lang: browser.new_context(locale=locale) for lang, locale in LANGS.items()}
    try:
        yield contexts
    finally:
        for opened in contexts.values():
            opened.close()


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        missing(f"axe-core is not installed at {AXE} (make install runs npm ci in tests/web)")
    return AXE.read_text()


def violations(page: Any, source: str) -> list[str]:
    """axe-core's serious and critical findings on the page as it is drawn now, one line each
    (rule, what it asks, the first offending elements)."""
    # What a move changed slides in and glows for a moment: colours are judged once it is still.
    page.wait_for_function("() => document.getAnimations().every((a) => a.playState !== 'running')")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.evaluate(source)  # through the devtools protocol: the page's CSP stays as it is
    found = page.evaluate(RUN_AXE)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} -- " + " | ".join(v["nodes"])
        for v in found
        if v["impact"] in SERIOUS
    ]


def violations_at_both_widths(page: Any, source: str) -> dict[str, list[str]]:
    """The findings at each width (the page resized in place; the layout is CSS only), the
    page left at desktop width."""
    found = {}
    for width in ("phone", "desktop"):
        page.set_viewport_size(WIDTHS[width])
        found[width] = violations(page, source)
    return found


def findings(found: dict[str, dict[str, list[str]]]) -> list[str]:
    """The findings of several moments (`found[when][width]`), one line each."""
    return [
        f"{when} at {width}: {line}"
        for when, widths in found.items()
        for width, lines in widths.items()
        for line in lines
    ]


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_lobby_has_no_serious_accessibility_violation(
    shared_server: Server, lang_contexts: dict[str, Any], axe_source: str, lang: str, width: str
) -> None:
    """The lobby, empty and after a table was created from its form (the links box shown), in
    the browser's language; its rules link opens the chosen game's rules in that language."""
    page = Page(lang_contexts[lang], WIDTHS[width])
    try:
        page.goto(shared_server.base + "/")
        page.page.wait_for_function(
            """() => document.querySelector("#game option") !== null &&
                 document.querySelector("#seat-0") !== null"""
        )
        assert page.page.evaluate("() => document.documentElement.lang") == lang
        assert violations(page.page, axe_source) == []
        page.page.select_option("#game", "inkheart_dice")
        rules = page.page.get_attribute("#game-rules", "href")
        assert rules == f"/rules/inkheart_dice?lang={lang}"
        page.page.select_option("#seat-1", "human")
        page.page.click("#create")
        page.page.locator("#created a.play-link").first.wait_for()
        assert violations(page.page, axe_source) == []
        assert page.errors == []
    finally:
        page.page.close()


@pytest.mark.parametrize(("game", "lang"), games_by_language(GAME_TABLES, LANGS, turn=1))
def test_every_table_page_has_no_serious_accessibility_violation(
    shared_server: Server, lang_contexts: dict[str, Any], axe_source: str, game: str, lang: str
) -> None:
    """Each game played to its end once in each language (by default in one, the languages
    taking turns: `games_by_language`), checked at both widths at the
    start, a few moves in, with the result, and in its replay; the rules link is in the
    page's language."""
    seats, options = GAME_TABLES[game]
    created = shared_server.create(game, seats, **options)
    page = Page(lang_contexts[lang], WIDTHS["desktop"])
    try:
        page.goto(shared_server.base + created["seats"][0]["url"])
        page.wait_ready()
        assert page.page.evaluate("() => document.documentElement.lang") == lang
        assert page.page.get_attribute("#rules-link", "href") == f"/rules/{game}?lang={lang}"
        found = {"start": violations_at_both_widths(page.page, axe_source)}
        rng = random.Random(7)
        moves = 0
        for _ in range(5):
            if page.over:
                break
            page.wait_ready()
            if not page.over:
                page.click_random_control(rng)
                moves += 1
        found["five moves in"] = violations_at_both_widths(page.page, axe_source)
        while not page.over and moves < MAX_MOVES:  # a game that never ends fails below
            page.wait_ready()
            if not page.over:
                page.click_random_control(rng)
                moves += 1
        assert page.over, f"the game did not end within {MAX_MOVES} moves"
        page.page.locator("#result").wait_for()
        found["result"] = violations_at_both_widths(page.page, axe_source)
        page.page.click("#replay")
        page.page.wait_for_function("() => document.body.dataset.step !== undefined")
        assert page.page.evaluate("() => document.documentElement.lang") == lang
        found["replay"] = violations_at_both_widths(page.page, axe_source)
        assert findings(found) == [], "\n".join(findings(found))
        assert page.errors == []
    finally:
        page.page.close()


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_every_rules_page_has_no_serious_accessibility_violation(
    shared_server: Server, lang_contexts: dict[str, Any], axe_source: str, lang: str
) -> None:
    """Every game's rules page in each language at both widths: headings, lists, the tables
    (they scroll sideways on a phone rather than widen the page) and the pictures of the
    components drawn by the board scripts."""
    page = Page(lang_contexts[lang], WIDTHS["desktop"])
    try:
        failures = []
        for game in sorted(GAME_TABLES):
            page.goto(f"{shared_server.base}/rules/{game}?lang={lang}")
            assert page.page.evaluate("() => document.documentElement.lang") == lang
            assert page.page.locator("article.rules h2").count() >= 5
            page.page.wait_for_function("() => document.body.dataset.pieces === 'drawn'")
            for width, lines in violations_at_both_widths(page.page, axe_source).items():
                failures += [f"{game} at {width}: {line}" for line in lines]
            page.page.set_viewport_size(WIDTHS["phone"])
            assert page.fits_width(), f"{game}: {page.too_wide()}"
        assert failures == [], "\n".join(failures)
        assert page.errors == []
    finally:
        page.page.close()


def focused_control(page: Any) -> bool:
    """The element with the keyboard's focus is a legal action's control."""
    return bool(
        page.evaluate(
            """() => { const e = document.activeElement;
                return e !== null && e.matches("[data-action-id]:not([disabled])"); }"""
        )
    )


KEYBOARD_GAMES = {
    "witches": (["human", "random", "random"], {}),
    "isolde": (["human", "random"], {}),
    "inkheart_dice": (["human", "random"], {"max_turns": 40}),
}


@pytest.mark.parametrize("game", sorted(KEYBOARD_GAMES))
def test_a_whole_game_is_played_with_the_keyboard_alone(
    shared_server: Server, context: Any, game: str
) -> None:
    """No mouse at all: each move Tabs forward to one of the highlighted controls (the first or
    a later one) and plays it with Enter or Space, until the result is shown. After a move the
    focus rests on the new state's first control, so choosing the first one needs no Tab."""
    seats, options = KEYBOARD_GAMES[game]
    created = shared_server.create(game, seats, **options)
    page = Page(context, WIDTHS["desktop"])
    page.goto(shared_server.base + created["seats"][0]["url"])
    rng = random.Random(int(os.environ.get("SPIELWERK_KEYBOARD_SEED", "19")))
    moves = tabs = skipped = 0
    while moves < MAX_MOVES:  # a game that never ends fails here instead of hanging
        page.wait_ready()
        if page.over:
            break
        controls = page.page.locator("[data-action-id]:not([disabled])").count()
        skip = rng.randrange(controls)
        skipped += skip
        version = page.version()
        passed = 0
        for _ in range(400):
            if focused_control(page.page):
                if passed == skip:
                    break
                passed += 1
            page.page.keyboard.press("Tab")
            tabs += 1
        else:
            raise AssertionError("Tab never reached a legal action's control")
        page.page.keyboard.press(rng.choice(["Enter", " "]))
        page.page.wait_for_function(
            f"""() => Number(document.body.dataset.version) > {version} &&
                !document.body.classList.contains("waiting")""",
            timeout=60_000,
        )
        assert page.toast() is None, f"the server refused a key press: {page.toast()}"
        moves += 1
    assert page.over, f"the game did not end within {MAX_MOVES} moves"
    assert page.page.locator("#result").is_visible()
    assert page.page.locator("#status").inner_text() == "Game over."
    assert moves >= 5 and skipped > 0 and tabs >= skipped  # one Tab at least per control passed
    assert page.not_reloaded()
    assert page.errors == []
