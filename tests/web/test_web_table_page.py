"""The table page's connection states and turn notice, in Chromium (Playwright).

A bad link or an unknown table ends in a clear, final message (no endless "Connecting…"); a
lost connection disables the board and counts down to the next attempt, and the page comes back
by itself once the server is up again; a player whose tab is in the background sees "Your turn"
in the title and a different favicon.
"""

from __future__ import annotations

import re
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


def travel_control(page: Any) -> Any:
    """A Tainted Grail location the first character may travel to, on the board."""
    ids = travel_ids()
    board = page.locator("#board [data-action-id]")
    return next(
        board.nth(i)
        for i in range(board.count())
        if int(board.nth(i).get_attribute("data-action-id")) in ids
    )


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
    travel_control(page).click()
    page.wait_for_selector("#undo.offered:not([disabled])")
    assert page.evaluate(VERSION) == start + 1
    page.click("#undo")
    page.wait_for_selector("#notice:not([hidden])")
    assert page.inner_text("#notice") == "You took back your move."
    # Taking back is a new version (versions only grow), with the board as at the start.
    page.wait_for_function(f"() => Number(document.body.dataset.version) === {start + 2}")
    assert page.locator("#log li:not(.notice)").count() == lines
    assert page.locator("#undo.offered").count() == 0

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


LOCALES = {"en": "en-GB", "de": "de-DE"}
WIDTHS = {"desktop": {"width": 1366, "height": 900}, "phone": {"width": 390, "height": 844}}
PLACES = """() => {
  const top = (s) => document.querySelector(s).getBoundingClientRect().top + window.scrollY;
  return { board: top("#board"), status: top("#status"),
           actions: top("#actions") - top("#actions-panel") };
}"""
"""Where the board and the status line begin on the page, and the actions in their panel:
none of them moves when "take back" comes or goes or a message shows."""


def unmoved(before: dict[str, float], after: dict[str, float]) -> bool:
    """Every place the same, to a pixel's rounding."""
    return all(abs(before[key] - after[key]) < 0.5 for key in before)


def words(lang: str, key: str, **params: Any) -> str:
    from spielwerk.web.i18n import translate

    return translate(lang, key, **params)


@pytest.mark.parametrize("width", sorted(WIDTHS))
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_take_back_is_offered_only_where_the_rule_allows_it_and_nothing_moves(
    shared_server: Server, browser: Any, lang: str, width: str
) -> None:
    """Witches: a card led from the hand showed the others a hidden card, so "take back" is
    not offered (before, it was, and always refused). Tainted Grail: a journey on the open
    map is offered back; taken back, the page says so in its language. Neither the button
    coming and going nor the notice moves the board, the actions or the status line."""
    with page_in_new_context(browser, locale=LOCALES[lang], viewport=WIDTHS[width]) as page:
        witches = shared_server.create("witches", ["human", "human", "human"])
        page.goto(shared_server.base + witches["seats"][0]["url"])
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        leader = shared_server.summary(witches["id"])["to_move"][0]
        page.goto(shared_server.base + witches["seats"][leader]["url"])
        page.wait_for_function(READY)
        start = page.evaluate(VERSION)
        page.locator("#board [data-action-id]").first.click()
        page.wait_for_function(f"() => Number(document.body.dataset.version) > {start}")
        assert page.locator("#undo.offered").count() == 0
        assert not page.locator("#undo").is_visible()

        grail = shared_server.create("tainted_grail", ["human", "human"])
        page.goto(shared_server.base + grail["seats"][0]["url"])
        page.wait_for_function(READY)
        start = page.evaluate(VERSION)
        before = page.evaluate(PLACES)
        travel_control(page).click()
        page.wait_for_selector("#undo.offered:not([disabled])")
        assert page.inner_text("#undo") == words(lang, "table.take_back")
        assert unmoved(before, page.evaluate(PLACES))
        page.click("#undo")
        page.wait_for_selector("#notice:not([hidden])")
        assert page.inner_text("#notice") == words(lang, "table.you_took_back")
        page.wait_for_function(f"() => Number(document.body.dataset.version) === {start + 2}")
        assert page.locator("#undo.offered").count() == 0
        assert unmoved(before, page.evaluate(PLACES))
        assert page.errors == []


FREEZE = re.compile(r"/ws/tables/")


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_a_refusal_is_worded_in_the_pages_language_and_moves_nothing(
    shared_server: Server, browser: Any, lang: str
) -> None:
    """Two tabs of the first seat; the second one's updates are held back (as on a slow
    line), so after the first tab's move it still offers the old choices. Its click is
    refused by the server, and the page says why in its own language (the server names the
    refusal by a code), over the page: nothing on it moves."""
    created = shared_server.create("tainted_grail", ["human", "human"])
    url = shared_server.base + created["seats"][0]["url"]
    with page_in_new_context(browser, locale=LOCALES[lang], viewport=WIDTHS["phone"]) as late:
        held = {"states": False}

        def relay(socket: Any) -> None:
            server = socket.connect_to_server()
            socket.on_message(server.send)
            server.on_message(
                lambda message: (
                    None
                    if held["states"] and '"type":"state"' in str(message)
                    else socket.send(message)
                )
            )

        late.route_web_socket(FREEZE, relay)
        late.goto(url)
        late.wait_for_function(READY)
        first = late.context.new_page()
        first.goto(url)
        first.wait_for_function(READY)
        held["states"] = True
        start = first.evaluate(VERSION)
        travel_control(first).click()
        first.wait_for_function(f"() => Number(document.body.dataset.version) > {start}")
        before = late.evaluate(PLACES)
        travel_control(late).click()
        late.wait_for_selector("#toast:not([hidden])")
        assert late.inner_text("#toast") == words(lang, "error.not_your_turn")
        assert unmoved(before, late.evaluate(PLACES))
        assert late.errors == []


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
