"""The bots a player chooses from, in the browser (Debian's Chromium via Playwright), in German
and in English: the lobby offers the same four levels in every game (Easy, Medium, Hard,
Strongest), each the seat its game's ladder puts in that place (spielwerk/agents/ratings.toml),
with one plain line for players and the technical spec only in a tooltip; a bot at the table is
named by seat and level ("Ben (Hard bot)") in the seat panels, the log, the result, the lobby's
table list (each game's own levels), the replay viewer and the invitation page."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_web_browser import Page, play_to_the_end
from web_parts import Server

import spielwerk
from spielwerk.agents.strengths import LOWER_LEVELS, RATINGS

LOCALES = {"en": "en-GB", "de": "de-DE"}
WORDS = {
    "en": ("Easy", "Medium", "Hard", "Strongest"),
    "de": ("Leicht", "Mittel", "Schwer", "Am stärksten"),
}
AT_THE_TABLE = {
    "en": ("Easy bot", "Medium bot", "Hard bot", "Strongest bot"),
    "de": ("leichter Bot", "mittlerer Bot", "schwerer Bot", "stärkster Bot"),
}
NAMES = ("Anna", "Ben", "Clara", "David")
SPEC_TEXT = re.compile(r"\b(?:mcts|heuristic|net)\b|\bbest\b|\bbot:|\d+ it\b")
"""A seat spec shown as text: it belongs in a tooltip only."""


def open_table(server: Server, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    """A table as another person creates it (`extra`: claim, name), invitations left open."""
    body = {
        "game": game,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        **extra,
    }
    answer = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def ladder_order(game: str) -> list[str]:
    """The game's four level specs, weakest first: the three lower ones as ratings.toml rates
    them, then `best` (a ladder may leave it level with the one below, never above it with
    the intervals apart: tests/agents/test_strengths.py)."""
    lower = sorted(LOWER_LEVELS[game], key=lambda spec: RATINGS[game][spec].mu)
    return [*lower, "best"]


@pytest.fixture(scope="module", params=sorted(LOCALES))
def lang_page(request: pytest.FixtureRequest, browser: Any) -> Iterator[tuple[str, Any]]:
    context = browser.new_context(locale=LOCALES[request.param])
    try:
        yield request.param, context
    finally:
        context.close()


def test_the_lobby_offers_four_levels_in_every_game_in_the_ladder_s_order(
    shared_server: Server, lang_page: tuple[str, Any]
) -> None:
    lang, context = lang_page
    page = Page(context)
    page.goto(shared_server.base + "/")
    page.page.locator("#game option").first.wait_for(state="attached")
    for game in spielwerk.list_games():
        page.page.select_option("#game", game)
        max_players = spielwerk.load(game).max_players
        page.page.select_option("#players", str(min(2, max_players)))
        seat = page.page.locator("#seat-1")
        options = seat.locator("option")
        values = options.evaluate_all("(os) => os.map((o) => o.value)")
        texts = options.evaluate_all("(os) => os.map((o) => o.textContent)")
        titles = options.evaluate_all("(os) => os.map((o) => o.title)")
        assert values == ["human"] + [f"bot:{spec}" for spec in ladder_order(game)], game
        assert texts[1:] == [f"Bot: {word}" for word in WORDS[lang]], (game, texts)
        for spec, title in zip(ladder_order(game), titles[1:], strict=True):
            assert title.startswith(spec), (game, spec, title)  # the spec, in the tooltip
        # Each choice has one plain line for players under it, the spec in its tooltip only.
        about = page.page.locator("#seat-1-about")
        for value in values[1:]:
            seat.select_option(value)
            line = about.inner_text()
            assert line.endswith(".") and len(line.split()) >= 5, (game, line)
            assert value.removeprefix("bot:") in (about.get_attribute("title") or "")
        seats_text = page.page.inner_text("#seats")
        assert not SPEC_TEXT.search(seats_text), (game, seats_text)
    assert page.errors == []


def test_a_table_names_its_bots_by_seat_and_level_with_the_spec_in_a_tooltip(
    shared_server: Server, lang_page: tuple[str, Any]
) -> None:
    """Tintenherz with a person and three bots (easy, hard, strongest): seat panels, the log,
    the result, the replay viewer and the lobby's list say "Ben (Easy bot)" and the like."""
    lang, context = lang_page
    order = ladder_order("inkheart_dice")
    picked = [0, 2, 3]  # easy, hard, strongest
    created = shared_server.create(
        "inkheart_dice", ["human", *(order[i] for i in picked)], max_turns=8
    )
    labels = [
        f"{NAMES[seat]} ({AT_THE_TABLE[lang][level]})"
        for seat, level in zip((1, 2, 3), picked, strict=True)
    ]
    page = Page(context)
    page.goto(shared_server.base + created["seats"][0]["url"])
    page.wait_ready()
    board = page.page.inner_text("#board")
    for label in labels:
        assert label in board, (label, board)
    # A bot's panel heading says what it is technically, as a tooltip only.
    heading = page.page.locator("#board .seat[data-seat='3'] h3")
    assert (heading.get_attribute("title") or "").startswith("best"), heading.get_attribute("title")
    assert page.page.locator("#board .seat[data-seat='0'] h3").get_attribute("title") is None
    play_to_the_end([page], random.Random(5))
    # The log tells what each bot did under its name; the result names them too.
    log = "\n".join(page.log_lines())
    for label in labels:
        assert label in log, (label, log)
    result = page.page.locator("#result")
    for label in labels:
        assert label in result.inner_text()
    tooltip = result.locator(".seat-chip", has_text=labels[2]).get_attribute("title") or ""
    assert tooltip.startswith("best"), tooltip  # the spec, for the curious, in the tooltip
    body = page.page.inner_text("body")
    assert not SPEC_TEXT.search(body), SPEC_TEXT.findall(body)
    assert page.errors == []

    # The replay viewer names them the same way.
    replay = Page(context)
    replay.goto(f"{shared_server.base}/table/{created['id']}/replay")
    replay.page.wait_for_function("() => document.body.dataset.step !== undefined")
    viewer = replay.page.inner_text("body")
    for label in labels:
        assert label in viewer
    assert not SPEC_TEXT.search(viewer), SPEC_TEXT.findall(viewer)

    # The lobby's list uses Tintenherz's own levels (not another game's) for this table.
    lobby = Page(context)
    lobby.goto(shared_server.base + "/")
    row = lobby.page.locator(f"tr[data-table='{created['id']}']")
    row.wait_for()
    listed = row.inner_text()
    for label in labels:
        assert label in listed, (label, listed)
    assert not SPEC_TEXT.search(listed)
    assert replay.errors == [] and lobby.errors == []


def test_the_lobby_list_names_bots_by_their_own_game_s_levels(
    shared_server: Server, lang_page: tuple[str, Any]
) -> None:
    """One spec, two games: `heuristic` is a different level in Witches and in Tintenherz, and
    each table's seat says the level of its own game."""
    lang, context = lang_page
    levels = {game: ladder_order(game) for game in ("witches", "inkheart_dice")}
    tables = {
        game: open_table(shared_server, game, ["human", "human", "heuristic"])["id"]
        for game in levels
    }
    page = Page(context)
    page.goto(shared_server.base + "/")
    for game, table_id in tables.items():
        row = page.page.locator(f"tr[data-table='{table_id}']")
        row.wait_for()
        level = AT_THE_TABLE[lang][levels[game].index("heuristic")]
        assert f"Clara ({level})" in row.inner_text(), (game, row.inner_text())
    assert page.errors == []


def test_the_invitation_page_names_the_bots_at_the_table(
    shared_server: Server, lang_page: tuple[str, Any]
) -> None:
    lang, context = lang_page
    order = ladder_order("witches")
    created = open_table(
        shared_server, "witches", ["human", "human", order[1]], claim=0, name="Ada"
    )
    invitation = next(s["url"] for s in created["seats"] if s.get("invitation"))
    page = Page(context)
    page.goto(shared_server.base + invitation)
    seats = page.page.locator("#claim-seats li")
    seats.nth(2).wait_for()
    listed = page.page.inner_text("#claim-seats")
    assert "Ada" in listed and f"Clara ({AT_THE_TABLE[lang][1]})" in listed, listed
    assert (seats.nth(2).get_attribute("title") or "").startswith(order[1])
    assert not SPEC_TEXT.search(listed)
    assert page.errors == []
