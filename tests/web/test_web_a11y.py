"""Accessibility of the pages in a real browser (Debian's Chromium via Playwright).

axe-core (the npm package tests/web/package-lock.json pins, installed by `make install`) checks
the lobby, every game's table page while playing and once the result is shown, and the replay
viewer, at desktop (1366 px) and phone (390 px) width: no serious or critical violation (WCAG
2.1 A/AA and axe's best practices: names of controls, contrast, keyboard access to scrolling
regions, nesting of controls). A whole game is then played with the keyboard alone: Tab to a
highlighted piece or button, Enter or Space to play it.
"""

from __future__ import annotations

import os
import random
from pathlib import Path
from typing import Any

import pytest
from test_web_browser import GAME_TABLES, Page
from web_parts import Server, missing

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


@pytest.mark.parametrize("width", sorted(WIDTHS))
def test_the_lobby_has_no_serious_accessibility_violation(
    shared_server: Server, context: Any, axe_source: str, width: str
) -> None:
    """The lobby, empty and after a table was created from its form (the links box shown)."""
    page = Page(context, WIDTHS[width])
    page.goto(shared_server.base + "/")
    page.page.wait_for_function(
        """() => document.querySelector("#game option") !== null &&
             document.querySelector("#seat-0") !== null"""
    )
    assert violations(page.page, axe_source) == []
    page.page.select_option("#game", "inkheart_dice")
    page.page.select_option("#seat-1", "human")
    page.page.click("#create")
    page.page.locator("#created a.play-link").first.wait_for()
    assert violations(page.page, axe_source) == []
    assert page.errors == []


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("game", sorted(GAME_TABLES))
def test_every_table_page_has_no_serious_accessibility_violation(
    shared_server: Server, context: Any, axe_source: str, game: str, width: str
) -> None:
    """Each game's table page at the start, a few moves in, with the result, and its replay."""
    seats, options = GAME_TABLES[game]
    created = shared_server.create(game, seats, **options)
    page = Page(context, WIDTHS[width])
    page.goto(shared_server.base + created["seats"][0]["url"])
    page.wait_ready()
    found = {"start": violations(page.page, axe_source)}
    rng = random.Random(7)
    for _ in range(5):
        if page.over:
            break
        page.wait_ready()
        if not page.over:
            page.click_random_control(rng)
    found["five moves in"] = violations(page.page, axe_source)
    while not page.over:
        page.wait_ready()
        if not page.over:
            page.click_random_control(rng)
    page.page.locator("#result").wait_for()
    found["result"] = violations(page.page, axe_source)
    page.page.click("#replay")
    page.page.wait_for_function("() => document.body.dataset.step !== undefined")
    found["replay"] = violations(page.page, axe_source)
    assert found == {"start": [], "five moves in": [], "result": [], "replay": []}, "\n".join(
        f"{when}: {line}" for when, lines in found.items() for line in lines
    )
    assert page.errors == []


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
    a later one) and plays it with Enter or Space, until the result is shown."""
    seats, options = KEYBOARD_GAMES[game]
    created = shared_server.create(game, seats, **options)
    page = Page(context, WIDTHS["desktop"])
    page.goto(shared_server.base + created["seats"][0]["url"])
    rng = random.Random(int(os.environ.get("SPIELWERK_KEYBOARD_SEED", "19")))
    moves = tabs = 0
    while moves < MAX_MOVES:  # a game that never ends fails here instead of hanging
        page.wait_ready()
        if page.over:
            break
        controls = page.page.locator("[data-action-id]:not([disabled])").count()
        skip = rng.randrange(controls)
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
    assert moves >= 5 and tabs >= moves
    assert page.not_reloaded()
    assert page.errors == []
