"""The chat and who-is-here panels in a real browser (issue 36, items 1 and 10): two people in
two browsers, one reading German and one English, talk at a table; quick phrases arrive in each
reader's language; muting hides a seat's lines; a spectator reads along; the replay shows the
chat as it stood at each step; a friend who left is shown gone and can be handed to a bot.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
from test_web_a11y import AXE, violations_at_both_widths
from web_client import Player
from web_parts import Server, page_in_new_context

T = TypeVar("T")
PHONE = {"width": 390, "height": 844}


def run_beside(coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a websocket client's coroutine in a thread of its own (Playwright's sync API keeps
    an event loop running in this one)."""
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def table_of_two(server: Server) -> dict[str, Any]:
    body = {
        "game": "tainted_grail",
        "seats": [{"kind": "human"}] * 2,
        "claim": 0,
        "name": "Ada",
    }
    created = httpx.post(f"{server.base}/api/tables", json=body, timeout=60).json()
    invitation = created["seats"][1]["invitation"]
    claimed = server.claim(created["id"], invitation, "Bea").json()
    created["seats"][1]["url"] = claimed["url"]
    created["seats"][1]["token"] = claimed["token"]
    return created


async def pass_to_the_end(player: Player) -> None:
    """Tainted Grail: pass whenever this seat may act, until the game is over."""
    while not (state := await player.until(lambda s: s["over"] or bool(s["legal"]), 300))["over"]:
        entry = next(
            (e for e in state["legal"] if e["action"]["type"] == "pass"), state["legal"][0]
        )
        await player.act(entry["action"])


def lines(page: Any) -> list[str]:
    return [text.strip() for text in page.locator("#chat-lines li").all_inner_texts()]


def test_two_people_talk_each_in_their_language(shared_server: Server, browser: Any) -> None:
    created = table_of_two(shared_server)
    base = shared_server.base
    with (
        page_in_new_context(browser, locale="de-DE") as ada,
        page_in_new_context(browser, locale="en-GB") as bea,
        page_in_new_context(browser, locale="en-GB") as watcher,
    ):
        ada.goto(base + created["seats"][0]["url"])
        bea.goto(base + created["seats"][1]["url"])
        watcher.goto(base + f"/table/{created['id']}")
        for page in (ada, bea, watcher):
            page.wait_for_function("() => document.body.dataset.version !== undefined")
        assert ada.locator("#chat-panel h2").inner_text() == "Chat"
        ada.fill("#chat-text", "Hallo <b>Bea</b>!")
        ada.press("#chat-text", "Enter")
        bea.locator("#chat-lines li", has_text="Hallo").wait_for()
        assert lines(bea) == ["Ada: Hallo <b>Bea</b>!"]  # markup stays text
        assert bea.locator("#chat-lines b").count() == 0
        bea.click("#chat-phrases [data-phrase='good_game']")
        ada.locator("#chat-lines li", has_text="Schönes Spiel!").wait_for()
        bea.locator("#chat-lines li", has_text="Good game!").wait_for()
        watcher.locator("#chat-lines li", has_text="Good game!").wait_for()
        assert watcher.locator("#chat-form").is_hidden()  # spectators read, here they do not write
        assert "Zuschauer" not in watcher.inner_text("#chat-panel")
        # Ada mutes Bea: Bea's lines leave Ada's page only.
        ada.click("#chat-mutes [data-mute='1']")
        ada.wait_for_function(
            "() => !document.querySelector('#chat-lines').innerText.includes('Schönes')"
        )
        assert len(lines(ada)) == 1 and lines(ada)[0].endswith("Hallo <b>Bea</b>!")
        assert any("Good game!" in x for x in lines(bea))
        ada.click("#chat-mutes [data-mute='1']")  # and hears her again
        ada.locator("#chat-lines li", has_text="Schönes Spiel!").wait_for()
        # At a phone's width the chat fits the page.
        ada.set_viewport_size(PHONE)
        assert ada.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
        if AXE.exists():
            found = violations_at_both_widths(ada, AXE.read_text())
            assert found == {"phone": [], "desktop": []}, found
        assert ada.errors == [] and bea.errors == [] and watcher.errors == []


def test_a_friend_who_left_is_shown_gone_and_a_bot_can_sit_in(tmp_path: Path, browser: Any) -> None:
    """Bea closes her tab: Ada's page shows her gone, with a countdown, then the button to let
    a bot play for her; Ada presses it and the chat tells the table (in German on her page)."""
    server = Server(
        f"sqlite:///{tmp_path / 'spielwerk.db'}",
        log_path=tmp_path / "serve.log",
        extra_args=["--hand-over-after", "2"],
    ).start()
    try:
        created = table_of_two(server)

        async def visit() -> None:
            async with Player(server.ws_base, created["id"], created["seats"][1]["token"]):
                pass  # Bea was here once, then closed her tab

        with page_in_new_context(browser, locale="de-DE") as ada:
            ada.goto(server.base + created["seats"][0]["url"])
            ada.wait_for_function("() => document.body.dataset.version !== undefined")
            run_beside(visit())
            gone = ada.locator("#presence li[data-seat='1']")
            gone.locator("text=weg").wait_for()
            button = ada.locator("#presence button.hand-over[data-seat='1']")
            button.wait_for(timeout=60_000)
            assert button.inner_text() == "Einen Bot für Bea spielen lassen"
            button.click()
            ada.locator("#chat-lines li.chat-system", has_text="Bot weiterspielen").wait_for()
            ada.locator("#presence li[data-seat='1']", has_text="ein Bot spielt").wait_for()
            assert ada.errors == []
    finally:
        server.stop()


@pytest.mark.parametrize("locale", ["de-DE", "en-GB"])
def test_the_replay_shows_the_chat_as_it_stood(
    shared_server: Server, browser: Any, locale: str
) -> None:
    """A line written at the start and one at the end: stepping back to the start of the
    replay shows only the first."""
    created = table_of_two(shared_server)
    tokens = [s["token"] for s in created["seats"]]

    async def play() -> None:
        async with (
            Player(shared_server.ws_base, created["id"], tokens[0]) as ada,
            Player(shared_server.ws_base, created["id"], tokens[1]) as bea,
        ):
            await ada.request({"type": "chat", "phrase": "good_luck"})
            await asyncio.gather(pass_to_the_end(ada), pass_to_the_end(bea))
            await bea.request({"type": "chat", "phrase": "good_game"})
            await ada.wait(lambda: len(ada.chat) == 2, 60, "both lines")

    run_beside(play())
    with page_in_new_context(browser, locale=locale) as page:
        page.goto(shared_server.base + f"/table/{created['id']}/replay")
        page.wait_for_function("() => document.body.dataset.step !== undefined")
        good_game = "Schönes Spiel!" if locale == "de-DE" else "Good game!"
        page.locator("#chat-lines li", has_text=good_game).wait_for()
        assert len(lines(page)) == 2
        page.click("#first")
        page.wait_for_function("() => document.body.dataset.step === '0'")
        assert len(lines(page)) == 1 and good_game not in lines(page)[0]
        assert page.errors == []
