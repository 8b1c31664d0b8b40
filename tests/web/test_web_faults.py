"""The database fails under a game (issue 15, item 2): PostgreSQL stopped and started again, a
SQLite file system that fills up and gets space again. The bots keep trying with back-off, every
page at the table is told "the server could not save — retrying", and once the database is
back the game goes on by itself, nothing lost and nothing stored twice."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from web_client import Player
from web_parts import PostgresServer, Server, fill_up, small_filesystem, stored_record

import spielwerk
from spielwerk.web.i18n import translate
from spielwerk.web.storage import Storage

TROUBLE = "the server could not save — retrying"
BOTS = ["random", "random", "heuristic", "random"]


@pytest.fixture
def own_postgres() -> Iterator[PostgresServer]:
    """A PostgreSQL cluster of this test's own: the test stops and starts it."""
    cluster = PostgresServer()
    try:
        yield cluster.start()
    finally:
        cluster.stop()


def stored_state(db_url: str, table_id: str) -> spielwerk.State:
    storage = Storage(db_url)
    try:
        return spielwerk.replay(stored_record(storage, table_id))
    finally:
        storage.close()


def watch_through_a_fault(
    server: Server, table_id: str, break_it: Callable[[], Any], mend_it: Callable[[], Any]
) -> dict[str, Any]:
    """A spectator watches the bots; the database breaks after a few moves and is mended once
    the spectator has been told. Returns what it saw."""

    async def scenario() -> dict[str, Any]:
        async with Player(server.ws_base, table_id) as spectator:
            await spectator.until(lambda s: s["version"] > 6)
            assert spectator.state is not None and spectator.state["trouble"] is None
            break_it()
            troubled = await spectator.until(lambda s: s["trouble"] is not None, 300)
            assert troubled["trouble"] == TROUBLE and not troubled["over"]
            mend_it()
            final = await spectator.until(lambda s: s["over"], 600)
            versions = [m["version"] for m in spectator.messages if m["type"] == "state"]
            return {"troubled": troubled, "final": final, "versions": versions}

    return asyncio.run(scenario())


def check_game(db_url: str, table_id: str, seen: dict[str, Any], server: Server) -> None:
    final = seen["final"]
    assert final["trouble"] is None  # the banner went away
    assert seen["versions"] == sorted(seen["versions"])
    stored = stored_state(db_url, table_id)  # every stored step replays, none twice
    assert stored.is_terminal() and len(stored.history) == final["version"]
    log = server.log()
    assert "retrying" in log
    assert "the bot driver stopped" not in log


def test_bots_go_on_when_postgresql_is_stopped_and_started(
    own_postgres: PostgresServer, tmp_path: Path
) -> None:
    db_url = own_postgres.create_database()
    server = Server(db_url, bot_delay=0.2, log_path=tmp_path / "serve.log").start()
    try:
        table_id = server.create("witches", BOTS)["id"]
        seen = watch_through_a_fault(server, table_id, own_postgres.halt, own_postgres.resume)
        check_game(db_url, table_id, seen, server)
    finally:
        server.stop()


def test_bots_go_on_when_the_sqlite_disk_was_full(tmp_path: Path, browser: Any) -> None:
    """A 4 MB tmpfs holds the database; a file filling it makes every write fail with ENOSPC
    (SQLite's "database or disk is full") until it is removed. A browser page watching the
    table shows the banner while it lasts, and the end of the game after."""
    with small_filesystem(tmp_path / "disk") as disk:
        db_url = f"sqlite:///{disk / 'spielwerk.db'}"
        server = Server(db_url, bot_delay=0.2, log_path=tmp_path / "serve.log").start()
        page = browser.new_page()
        try:
            table_id = server.create("witches", BOTS)["id"]
            page.goto(f"{server.base}/table/{table_id}")
            page.wait_for_function("() => Number(document.body.dataset.version) > 6")
            assert page.locator("#trouble").is_hidden()
            filler = fill_up(disk)
            page.wait_for_selector("#trouble", state="visible", timeout=300_000)
            # the page's own words for the server's flag (an English page here)
            assert page.locator("#trouble").inner_text() == translate("en", "table.trouble")
            assert page.evaluate("() => document.body.dataset.over") == "false"
            filler.unlink()
            page.wait_for_function("() => document.body.dataset.over === 'true'", timeout=600_000)
            assert page.locator("#trouble").is_hidden()
            version = int(page.evaluate("() => document.body.dataset.version"))
            seen = {"final": {"trouble": None, "version": version}, "versions": [version]}
            check_game(db_url, table_id, seen, server)
        finally:
            page.close()
            server.stop()
