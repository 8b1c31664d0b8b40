"""The replay viewer's seat picker and status line in Chromium, in German and in English: the
picker names every seat as at the table and switches the view; a seat named in the address
(`#step=N&seat=S`) is the one chosen and drawn; where luck moves next (a card, a die), the
status tells what comes, never "waiting"."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from web_parts import Server, page_in_new_context, wait_until

from spielwerk.web.i18n import translate

LOCALES = {"en": "en-GB", "de": "de-DE"}
PICKER = """() => ({
  options: [...document.querySelectorAll("#viewer option")].map((o) => o.textContent),
  value: document.querySelector("#viewer").value,
  shown: document.querySelector("#viewer").selectedOptions[0]?.textContent ?? "" })"""


@pytest.fixture(scope="module")
def finished(shared_server: Server) -> dict[str, Any]:
    """A Witches game of four bots, played to its end."""
    created = shared_server.create("witches", ["heuristic", "random", "random", "random"])
    wait_until(
        lambda: shared_server.summary(created["id"])["finished"], 300, "the bots' game to end"
    )
    return created


def chance_step(server: Server, table_id: str) -> int:
    """A step after which nobody decides: luck moves next (a card is drawn)."""
    base = f"{server.base}/api/tables/{table_id}/replay"
    steps = httpx.get(base, timeout=30).json()["steps"]
    for step in range(5, steps):
        answer = httpx.get(f"{base}/{step}", timeout=30).json()
        if not answer["to_move"] and not answer["over"]:
            return step
    raise AssertionError("no step where luck moves next")


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_seat_picker_names_every_seat_and_shows_its_view(
    shared_server: Server, browser: Any, finished: dict[str, Any], lang: str
) -> None:
    replay = f"{shared_server.base}/table/{finished['id']}/replay"
    with page_in_new_context(browser, locale=LOCALES[lang]) as page:
        page.goto(replay + "#step=12")
        page.wait_for_function("() => document.body.dataset.step === '12'")
        picker = page.evaluate(PICKER)
        assert picker["options"][0] == translate(lang, "replay.spectator")
        assert len(picker["options"]) == 5
        for p, option in enumerate(picker["options"][1:]):
            assert option.startswith(translate(lang, "seat.n", n=p + 1)), option
        assert not any("[object" in option for option in picker["options"])
        assert page.locator("#board [data-zone=hand]").count() == 0, "a spectator sees no hand"
        page.select_option("#viewer", "2")
        page.wait_for_function("() => location.hash.includes('seat=2')")
        page.wait_for_function("() => document.querySelector('#board [data-zone=hand]') !== null")
        assert page.evaluate(PICKER)["shown"] == picker["options"][3]

        # a seat chosen by the address: picked and drawn as that seat
        page.goto("about:blank")
        page.goto(replay + "#step=12&seat=1")
        page.wait_for_function("() => document.body.dataset.step === '12'")
        chosen = page.evaluate(PICKER)
        assert (chosen["value"], chosen["shown"]) == ("1", picker["options"][2])
        assert page.locator("#board [data-zone=hand] svg.card").count() > 0

        # where luck moves next, the status says what comes
        step = chance_step(shared_server, finished["id"])
        page.goto("about:blank")
        page.goto(f"{replay}#step={step}")
        page.wait_for_function(f"() => document.body.dataset.step === '{step}'")
        status = page.inner_text("#status")
        prefix = translate(lang, "replay.next", text="")
        assert status.startswith(prefix) and len(status) > len(prefix) + 3, status
        assert "Waiting" not in status and "Warte" not in status
        assert page.errors == []
