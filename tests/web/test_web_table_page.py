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
from web_parts import Server, page_in_new_context

OFFLINE = "() => document.body.classList.contains('offline')"
READY = """() => !document.body.classList.contains('offline') &&
  document.querySelector('#board [data-action-id]') !== null"""


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    with page_in_new_context(browser) as opened:
        yield opened


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


VERSION = "() => Number(document.body.dataset.version || -1)"


def travel_ids() -> set[int]:
    import spielwerk

    game = spielwerk.load("tainted_grail")
    return {a.id for a in game.actions.actions if a.type == "travel"}


def test_a_move_is_taken_back_in_the_browser_and_the_other_seat_is_told(
    server: Server, page: Any
) -> None:
    """Board Game Arena's undo: the first character travels (open map, no die), the player
    clicks "Take back my last move", the table is as before and both seats read who took
    back their move; the move's log line is gone."""
    created = server.create("tainted_grail", ["human", "human"])
    page.goto(server.base + created["seats"][0]["url"])
    page.wait_for_function(READY)
    start = page.evaluate(VERSION)
    lines = page.locator("#log li").count()
    ids = travel_ids()
    board = page.locator("#board [data-action-id]")
    target = next(
        board.nth(i)
        for i in range(board.count())
        if int(board.nth(i).get_attribute("data-action-id")) in ids
    )
    target.click()
    page.wait_for_selector("#undo")
    assert page.evaluate(VERSION) == start + 1
    page.click("#undo")
    page.wait_for_selector("#notice:not([hidden])")
    assert page.inner_text("#notice") == "You took back your move."
    # Taking back is a new version (versions only grow), with the board as at the start.
    page.wait_for_function(f"() => Number(document.body.dataset.version) === {start + 2}")
    assert page.locator("#log li:not(.notice)").count() == lines
    assert page.locator("#undo").count() == 0

    other = page.context.browser.new_context()
    try:
        bea = other.new_page()
        bea.goto(server.base + created["seats"][1]["url"])
        bea.wait_for_selector("#notice:not([hidden])")
        assert bea.inner_text("#notice") == "Player 0 took back their move."
        assert bea.evaluate(VERSION) == start + 2
    finally:
        other.close()
    assert page.errors == []


def test_a_card_led_from_the_hand_cannot_be_taken_back_in_the_browser(
    server: Server, page: Any
) -> None:
    """Witches: the led card was hidden in the hand; the undo is refused with the reason."""
    created = server.create("witches", ["human", "human", "human"])
    page.goto(server.base + created["seats"][0]["url"])
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    summary = server.summary(created["id"])
    leader = summary["to_move"][0]
    if leader != 0:
        page.goto(server.base + created["seats"][leader]["url"])
    page.wait_for_function(READY)
    start = page.evaluate(VERSION)
    page.locator("#board [data-action-id]").first.click()
    page.wait_for_selector("#undo")
    page.click("#undo")
    page.wait_for_selector("#toast:not([hidden])")
    assert page.inner_text("#toast") == (
        "cannot take back: your move showed hidden information to the others: "
        "it cannot be taken back"
    )
    assert page.evaluate(VERSION) == start + 1
    assert server.steps(created["id"]) == start + 1
    assert page.errors == []


def test_play_again_opens_a_rematch_with_the_same_seats(server: Server, page: Any) -> None:
    """After the end, "Play again" starts a new deal at a new table with the same seats: the
    page moves there on the same seat link, and the old table points every visitor to it."""
    created = server.create("tainted_grail", ["human", "heuristic"])
    url = server.base + created["seats"][0]["url"]
    page.goto(url)
    for _ in range(400):
        page.wait_for_function(
            "() => document.body.dataset.over === 'true' || (!document.body.classList"
            ".contains('waiting') && document.querySelector('[data-action-id]') !== null)",
            timeout=120_000,
        )
        if page.evaluate("() => document.body.dataset.over === 'true'"):
            break
        version = page.evaluate(VERSION)
        passes = page.locator("#actions button[data-action-id]", has_text="Pass")
        (passes if passes.count() else page.locator("[data-action-id]")).first.click()
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {version}")
    else:
        raise AssertionError("the game did not end")
    page.click("#rematch")
    page.wait_for_url(lambda u: created["id"] not in u)
    new_id = page.url.split("/table/")[1].split("#")[0]
    assert page.url.endswith(created["seats"][0]["url"].split("#")[1])  # the same seat link
    page.wait_for_function("() => document.body.dataset.over === 'false'")
    assert page.inner_text("#seat-label") == "Seat 1"
    summary = server.summary(new_id)
    assert [(s["kind"], s["bot"]) for s in summary["seats"]] == [
        ("human", None),
        ("bot", "heuristic"),
    ]
    page.goto(f"{server.base}/table/{created['id']}")
    page.wait_for_selector("#join-rematch")
    assert page.get_attribute("#join-rematch", "href") == f"/table/{new_id}"
    assert page.errors == []


@pytest.mark.parametrize("reduced", [False, True])
def test_what_a_move_changed_slides_in_unless_motion_is_reduced(
    server: Server, browser: Any, reduced: bool
) -> None:
    """A card led to the trick arrives with a short slide and glow; under
    `prefers-reduced-motion` the same piece is only outlined, nothing moves."""
    created = server.create("witches", ["human", "random", "random"])
    context = browser.new_context(reduced_motion="reduce" if reduced else "no-preference")
    try:
        page = context.new_page()
        page.goto(server.base + created["seats"][0]["url"])
        page.wait_for_function(READY.replace("#board [data-action-id]", "[data-action-id]"))
        if page.locator("#board [data-action-id]").count():
            page.locator("#board [data-action-id]").first.click()
        flashed = """(wanted) => [...document.querySelectorAll('.flash')].some((e) => {
            const names = getComputedStyle(e).animationName;
            return wanted === 'none' ? names === 'none' : names.includes(wanted);
        })"""
        page.wait_for_function(flashed, arg="none" if reduced else "arrive", timeout=60_000)
    finally:
        context.close()
