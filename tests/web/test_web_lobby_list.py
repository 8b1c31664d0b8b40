"""The lobby's table list: age, game, seats and state per table; the tables this browser plays
at first; finished tables under "Recent games" with their replay; tables nobody moved at for
`--abandon-after` hours listed as abandoned (and nothing deleted).

The browser test reads the list as a person would (Chromium, the page's text); the abandoned
state is checked through the API on a real server whose database says the table was last
moved at long ago (the server is stopped while the times are set back, as a day passing)."""

from __future__ import annotations

import re
import subprocess
import time
from typing import Any

import httpx
from sqlalchemy import update
from web_parts import SERVE_COMMAND, Server, wait_until

from spielwerk.web.storage import Storage, tables_table

HOUR = 3600.0
AGE = re.compile(r"just now|\d+ min ago")
"""A table made during the test (no exact minute: a slow machine may take one)."""


def listing(server: Server, include: str | None = None) -> dict[str, dict[str, Any]]:
    params = {"include": include} if include is not None else None
    answer = httpx.get(f"{server.base}/api/tables", params=params, timeout=30)
    assert answer.status_code == 200, answer.text
    return {t["id"]: t for t in answer.json()}


def create(server: Server, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
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


def finished(server: Server, table_id: str) -> bool:
    return bool(listing(server, table_id)[table_id]["finished"])


def test_own_tables_first_names_as_text_and_finished_games_with_their_replay(
    server: Server, context: Any
) -> None:
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.base + "/")
    # This browser's table, made in the lobby's form (the oldest of the three).
    page.select_option("#game", "inkheart_dice")
    page.select_option("#players", "2")
    page.select_option("#seat-0", "human")
    page.select_option("#seat-1", "bot:heuristic")
    page.fill("#player-name", "Ada")
    page.click("#create")
    link = page.locator("#created a.play-link")
    link.wait_for()
    own_id = (link.get_attribute("href") or "").split("/table/")[1].split("#")[0]
    # Somebody else's, newer: Eve took the first seat, the second is still open.
    eve = create(server, "witches", ["human", "human", "random"], claim=0, name="Eve &amp; Co")
    # A game of bots only, played to its end.
    bots = create(server, "inkheart_dice", ["random", "random"])
    wait_until(lambda: finished(server, bots["id"]), 120, "the bots' game to finish")

    page.goto(server.base + "/")  # localStorage keeps the seat taken above
    page.locator(f"#recent-games tr[data-table='{bots['id']}']").wait_for()
    # Your own table first, in its own section, although the other one is newer.
    rows = page.locator("#tables tr[data-table]")
    assert rows.first.get_attribute("data-table") == own_id
    text = page.inner_text("#tables")
    assert text.index("Your tables") < text.index("Other tables") < text.index("Eve &amp; Co")
    games = {g["name"]: g for g in httpx.get(f"{server.base}/api/games", timeout=30).json()}
    # A bot's seat is named by the level its spec has in its own game (Tintenherz here).
    named = {b["spec"]: b["seats"] for b in games["inkheart_dice"]["bots"]}
    own = page.locator(f"#my-tables tr[data-table='{own_id}']").inner_text()
    assert games["inkheart_dice"]["title"] in own
    assert "Seat 1: Ada (you)" in own and f"Seat 2: {named['heuristic'][1]}" in own
    assert "Play seat 1" in own and AGE.search(own)
    assert re.search(r"playing, step \d+", own)
    # Eve's table: her name as she typed it (markup stays text), the open seat, the state.
    other = page.locator(f"#open-tables tr[data-table='{eve['id']}']").inner_text()
    assert "Seat 1: Eve &amp; Co" in other  # an entity stays text
    assert games["witches"]["title"] in other
    assert "Seat 2: open" in other and "Seat 3: Clara (random bot)" in other
    assert "waiting for players" in other and "Play seat" not in other
    assert page.locator("#tables b, #recent b").count() == 0
    # The finished game is under "Recent games" only, with a replay that opens at its end.
    assert page.locator(f"#tables tr[data-table='{bots['id']}']").count() == 0
    done = page.locator(f"#recent-games tr[data-table='{bots['id']}']")
    assert "finished" in done.inner_text() and AGE.search(done.inner_text())
    assert page.inner_text("#recent-panel").startswith("Recent games")
    body = page.inner_text("body")
    assert re.findall(r"\b(?:null|undefined|NaN)\b", body) == []
    # At a phone's width each table is a card: nothing sticks out sideways.
    page.set_viewport_size({"width": 390, "height": 844})
    assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth + 1")
    steps = listing(server)[bots["id"]]["steps"]
    done.locator("a.replay-link").click()
    page.wait_for_url(f"**/table/{bots['id']}/replay**")
    page.wait_for_function(f"() => document.body.dataset.step === '{steps}'")
    assert page.inner_text("#step-label") == f"Step {steps} of {steps}"
    assert errors == []


def set_times(url: str, table_id: str, **times: float | None) -> None:
    """Move a table's stored times (created_at, last_step_at), as if it happened then."""
    storage = Storage(url)
    try:
        with storage.engine.begin() as conn:
            conn.execute(update(tables_table).where(tables_table.c.id == table_id).values(**times))
    finally:
        storage.close()


def test_a_table_idle_for_abandon_after_hours_is_abandoned_not_deleted(sqlite_url: str) -> None:
    server = Server(sqlite_url).start()
    try:
        idle = server.create("witches", ["human", "human"])  # nobody moves after the deal
        moved_long_ago = server.create("witches", ["human", "random"])
        long_game = server.create("witches", ["human", "random"])
        waiting = create(server, "witches", ["human", "human"], claim=0, name="Bo")
        listed = listing(server)
        assert {listed[t["id"]]["state"] for t in (idle, moved_long_ago, long_game)} == {"playing"}
        assert listed[waiting["id"]]["state"] == "waiting"
        # the deal is the first steps: their time is stored
        assert listed[idle["id"]]["steps"] > 0
        assert listed[idle["id"]]["last_step_at"] >= listed[idle["id"]]["created_at"]
    finally:
        server.stop()

    now = time.time()
    set_times(sqlite_url, idle["id"], created_at=now - 25 * HOUR, last_step_at=now - 25 * HOUR)
    # a row from before steps had a time: its age counts
    set_times(sqlite_url, waiting["id"], created_at=now - 25 * HOUR, last_step_at=None)
    set_times(
        sqlite_url, moved_long_ago["id"], created_at=now - 30 * HOUR, last_step_at=now - 25 * HOUR
    )
    # Old, but moved an hour ago: still being played.
    set_times(sqlite_url, long_game["id"], created_at=now - 30 * HOUR, last_step_at=now - HOUR)

    server = Server(sqlite_url).start()  # the default: 24 hours
    try:
        listed = listing(server)
        assert listed[idle["id"]]["state"] == "abandoned"
        assert listed[waiting["id"]]["state"] == "abandoned"
        assert listed[moved_long_ago["id"]]["state"] == "abandoned"
        assert listed[moved_long_ago["id"]]["idle"] >= 25 * HOUR
        assert listed[long_game["id"]]["state"] == "playing"
        assert listed[long_game["id"]]["age"] >= 30 * HOUR
        # Nothing deleted: the abandoned table still opens with every step it had.
        summary = httpx.get(f"{server.base}/api/tables/{moved_long_ago['id']}", timeout=30)
        assert summary.status_code == 200
        assert summary.json()["steps"] == listed[moved_long_ago["id"]]["steps"]
    finally:
        server.stop()

    server = Server(sqlite_url, extra_args=["--abandon-after", "48"]).start()
    try:
        listed = listing(server)
        assert listed[idle["id"]]["state"] == "playing"
        assert listed[waiting["id"]]["state"] == "waiting"
    finally:
        server.stop()


def test_a_browsers_own_tables_are_listed_however_old(sqlite_url: str) -> None:
    """The list holds the newest tables; `include` adds a browser's own older ones."""
    server = Server(sqlite_url).start()
    storage = Storage(sqlite_url)
    try:
        old = server.create("witches", ["human", "random"])
        newer = server.create("witches", ["human", "random"])
        assert [t.id for t in storage.list_tables(1)] == [newer["id"]]
        both = storage.list_tables(1, include=[old["id"], "no-such-table"])
        assert [t.id for t in both] == [newer["id"], old["id"]]
        # through the API; malformed ids are left out, not an error
        assert old["id"] in listing(server, f"{old['id']},../x,{'y' * 40}")
    finally:
        storage.close()
        server.stop()


def test_serve_refuses_a_negative_abandon_after(sqlite_url: str) -> None:
    done = subprocess.run(
        [*SERVE_COMMAND, "--db", sqlite_url, "--abandon-after", "-1"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2
    assert "--abandon-after must be a number of hours, 0 or more" in done.stderr
