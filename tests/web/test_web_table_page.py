"""The table page's connection states and turn notice, in Chromium (Playwright).

A bad link or an unknown table ends in a clear, final message (no endless "Connecting…"); a
lost connection disables the board and counts down to the next attempt, and the page comes back
by itself once the server is up again; a player whose tab is in the background sees "Your turn"
in the title and a different favicon.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from web_parts import Server

OFFLINE = "() => document.body.classList.contains('offline')"
READY = """() => !document.body.classList.contains('offline') &&
  document.querySelector('#board [data-action-id]') !== null"""


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    context = browser.new_context()
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.errors = errors
    try:
        yield opened
    finally:
        context.close()


def test_a_forged_link_and_an_unknown_table_say_so_for_good(server: Server, page: Any) -> None:
    created = server.create("witches", ["human", "human", "random"])
    page.goto(f"{server.base}/table/{created['id']}#token=forged-token")
    page.wait_for_selector("#status.fatal")
    status = page.inner_text("#status")
    assert "does not open a seat at this table" in status and "Watch the table" in status
    assert page.inner_text("#conn") == "closed"
    page.goto(f"{server.base}/table/nosuchtable")
    page.wait_for_selector("#status.fatal")
    assert "There is no such table" in page.inner_text("#status")
    assert "Connecting" not in page.inner_text("body")
    assert page.errors == []


def test_a_lost_connection_disables_the_board_until_the_server_is_back(
    server: Server, page: Any
) -> None:
    created = server.create("inkheart_dice", ["human", "human"])
    page.goto(server.base + created["seats"][0]["url"])
    page.wait_for_function(READY)
    assert page.inner_text("#status") == "Your turn."
    server.kill()
    page.wait_for_function(OFFLINE)
    page.wait_for_function(
        "() => /Reconnecting in \\d+ s/.test(document.querySelector('#status').textContent)"
    )
    assert "Your turn" not in page.inner_text("#status")
    assert page.evaluate("() => document.querySelector('#board').inert") is True
    version = page.evaluate("() => document.body.dataset.version")
    # a click on the disabled board does nothing (nothing is sent, nothing is waiting)
    page.locator("#board [data-action-id]").first.dispatch_event("click")
    assert page.evaluate("() => document.body.classList.contains('waiting')") is False
    server.start()
    page.wait_for_function(READY, timeout=60_000)
    assert page.inner_text("#status") == "Your turn."
    assert page.evaluate("() => document.body.dataset.version") == version
    assert page.errors == []


def test_a_background_tab_is_told_it_is_its_turn(server: Server, page: Any) -> None:
    created = server.create("inkheart_dice", ["human", "human"])
    page.goto(server.base + created["seats"][0]["url"])
    page.wait_for_function(READY)
    title = page.title()
    assert not title.startswith("●")
    hide = """(hidden) => {
        Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
        document.dispatchEvent(new Event('visibilitychange'));
    }"""
    page.evaluate(hide, True)
    page.wait_for_function("() => document.title.startsWith('● Your turn')")
    icon = page.get_attribute("link[rel=icon]", "href")
    assert icon == "/static/favicon-turn.svg"
    page.evaluate(hide, False)
    page.wait_for_function("() => !document.title.startsWith('●')")
    assert page.get_attribute("link[rel=icon]", "href") == "/static/favicon.svg"
    # The offer of notifications is a button (the permission is asked for on a click).
    assert page.locator("#notify").count() == 1
    assert page.errors == []
