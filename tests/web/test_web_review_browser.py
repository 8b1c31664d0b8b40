"""The Review panel of the replay viewer and the Hint button of the table page in a real
browser (Debian's Chromium via Playwright), in English and German, each checked by axe-core:
no serious or critical violation.

Review: a finished table's replay seen by a seat offers the review of that seat; it runs on
the server (its progress shown), then the panel draws the chart of winning chances, lists the
marked moves, marks them on the game log too, and a click on a mark goes to the position and
shows every move as the search judged it. Hint: at a table of one person against bots the
player's Hint button names the three best moves of its own decision; spectators have no such
button; the result and the replay mark the moves played after a hint.
"""

from __future__ import annotations

import random
import re
from typing import Any

import httpx
import pytest
from test_web_a11y import (
    LANGS,
    WIDTHS,
    axe_source,
    findings,
    lang_contexts,
    violations_at_both_widths,
)
from test_web_browser import Page
from web_parts import Server, wait_until

__all__ = ["axe_source", "lang_contexts"]  # fixtures shared with the accessibility tests

GAME = "inkheart_dice"
WORDS = {
    "en": {"review": "Review", "start": "Review the moves of", "hint": "Hint", "best": "best"},
    "de": {"review": "Analyse", "start": "Züge von", "hint": "Tipp", "best": "bester"},
}


def finished_table(server: Server) -> str:
    """A finished Tintenherz table of bots, its second seat playing at random."""
    table_id = str(server.create(GAME, ["heuristic", "random", "heuristic"])["id"])
    wait_until(lambda: bool(server.summary(table_id)["finished"]), 180, "the bots' game")
    return table_id


def review_of(server: Server, table_id: str, seat: int) -> dict[str, Any]:
    path = f"{server.base}/api/tables/{table_id}/review/{seat}"
    assert httpx.post(path, json={}, timeout=60).status_code == 200
    wait_until(lambda: httpx.get(path, timeout=60).json()["state"] == "done", 600, "a review")
    review: dict[str, Any] = httpx.get(path, timeout=60).json()["review"]
    return review


@pytest.fixture(scope="module")
def reviewed_table(shared_server: Server) -> tuple[str, int]:
    """A finished table and a seat whose review (made through the API) has marked moves; its
    third seat is left for the browser to review. A player who is lost early makes no move
    worse than another, so a few games may be needed."""
    for _attempt in range(6):
        table_id = finished_table(shared_server)
        for seat in (1, 0):
            if any(d["mark"] for d in review_of(shared_server, table_id, seat)["decisions"]):
                return table_id, seat
    raise AssertionError("six games with a random player and no move marked")


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_review_panel_draws_the_chart_marks_and_alternatives(
    shared_server: Server,
    reviewed_table: tuple[str, int],
    lang_contexts: dict[str, Any],
    axe_source: str,
    lang: str,
) -> None:
    words = WORDS[lang]
    table_id, seat = reviewed_table
    page = Page(lang_contexts[lang], WIDTHS["desktop"])
    try:
        page.goto(f"{shared_server.base}/table/{table_id}/replay#seat=2")
        page.page.wait_for_function("() => document.body.dataset.step !== undefined")
        panel = page.page.locator("#review")
        assert panel.locator("h2").inner_text() == words["review"]
        found: dict[str, dict[str, list[str]]] = {}
        page.page.wait_for_selector("#review[data-seat='2']:not([data-state='loading'])")
        start = panel.locator("#review-start")
        if panel.get_attribute("data-state") == "none":  # the first language starts it
            # (the second finds it stored)
            assert words["start"] in start.inner_text()
            found["offered"] = violations_at_both_widths(page.page, axe_source)
            start.click()
            page.page.wait_for_selector("#review-progress, #review-chart")
        page.page.wait_for_selector("#review-chart", timeout=600_000)
        chart = page.page.locator("#review-chart")
        assert chart.get_attribute("role") == "img" and chart.get_attribute("aria-label")
        # The seat whose review has marks.
        page.page.select_option("#viewer", str(seat))
        page.page.wait_for_selector(f"#review[data-seat='{seat}'][data-state='done']")
        marks = panel.locator(".review-mark")
        assert marks.count() >= 1, "a random player's game has marked moves"
        # The marks are on the game log too, at the end of the replay every line is shown.
        page.page.click("#last")
        page.page.wait_for_function("() => document.querySelector('#log .log-mark') !== null")
        found["reviewed"] = violations_at_both_widths(page.page, axe_source)
        first = marks.first
        step = int(first.get_attribute("data-step") or "-1")
        first.click()
        page.page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
        assert re.search(rf"#step={step}&seat={seat}$", page.page.url)
        moves = page.page.locator("#review-moves tbody tr")
        assert moves.count() >= 2
        assert page.page.locator("#review-moves tr.played").count() == 1
        assert words["best"] in page.page.locator("#review-moves tbody").inner_text()
        assert "%" in page.page.locator("#review-moves tbody").inner_text()
        found["alternatives"] = violations_at_both_widths(page.page, axe_source)
        assert findings(found) == [], "\n".join(findings(found))
        # Seen by the spectator, the panel asks for a seat.
        page.page.select_option("#viewer", "")
        page.page.wait_for_selector("#review[data-seat='']")
        assert page.page.locator("#review-chart, #review-start").count() == 0
        assert page.errors == []
    finally:
        page.page.close()


@pytest.mark.parametrize("lang", sorted(LANGS))
def test_the_hint_button_names_the_best_moves_and_the_hinted_move_is_marked(
    shared_server: Server, lang_contexts: dict[str, Any], axe_source: str, lang: str
) -> None:
    words = WORDS[lang]
    created = shared_server.create(GAME, ["human", "heuristic", "heuristic"])
    table_id = created["id"]
    player = Page(lang_contexts[lang], WIDTHS["desktop"])
    watcher = Page(lang_contexts[lang], WIDTHS["desktop"])
    try:
        player.goto(shared_server.base + created["seats"][0]["url"])
        watcher.goto(f"{shared_server.base}/table/{table_id}")
        player.wait_ready()
        button = player.page.locator("#hint")
        button.wait_for()
        assert button.inner_text() == words["hint"] and button.is_enabled()
        button.click()
        player.page.wait_for_selector("#hint-moves li")
        listed = player.page.locator("#hint-moves li")
        assert 1 <= listed.count() <= 3
        assert all("%" in listed.nth(i).inner_text() for i in range(listed.count()))
        found = {"hint": violations_at_both_widths(player.page, axe_source)}
        watcher.page.wait_for_function("() => document.body.dataset.version !== undefined")
        assert watcher.page.locator("#hints").is_hidden()
        assert watcher.page.locator("#hint").count() == 0
        # The player plays on to the end; the result names the moves played after a hint.
        rng = random.Random(5)
        while not player.over:
            player.wait_ready()
            if not player.over:
                player.click_random_control(rng)
        player.page.locator("#hints-used").wait_for()
        found["result"] = violations_at_both_widths(player.page, axe_source)
        player.page.click("#replay")
        player.page.wait_for_function("() => document.querySelector('#log .hinted') !== null")
        assert player.page.locator("#hints-used").count() == 1
        assert findings(found) == [], "\n".join(findings(found))
        record = httpx.get(f"{shared_server.base}/api/tables/{table_id}/record", timeout=60).json()
        assert [h["seat"] for h in record["hints"]] == [0]
        assert player.errors == [] and watcher.errors == []
    finally:
        player.page.close()
        watcher.page.close()
