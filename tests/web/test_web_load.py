"""A bounded load test on loopback: 200 websocket clients over 50 Witches tables, every seat a
client playing random legal moves as fast as the server answers, every game to the end. Every
move must be answered and nothing may fail; afterwards the server holds no connection and no
table in memory (nothing leaks). The round-trip figures (docs/web.md) come from the same code:
`python -m spielwerk.web.loadtest --tables 50 --seats 4`."""

from __future__ import annotations

import asyncio

import pytest
from web_parts import Server, wait_until

from spielwerk.web.loadtest import run_load
from spielwerk.web.storage import Storage

pytestmark = pytest.mark.load


def test_200_clients_over_50_tables_every_move_answered(
    server: Server, record_property: pytest.RecordProperty
) -> None:
    report = asyncio.run(run_load(server.base, tables=50, seats=4, game="witches", seed=1))
    summary = report.summary()
    record_property("load", summary)
    print("load test:", summary)
    assert report.clients == 200 and report.tables == 50
    assert report.errors == []
    assert report.unanswered == 0
    assert report.games_finished == 50
    # Every move sent was answered with the state holding it (one round trip per move), and
    # the database holds exactly the moves the clients sent: nothing lost, nothing doubled.
    storage = Storage(server.db_url)
    stored = sum(
        1 for table in report.table_ids for a in storage.load_actions(table) if a.actor >= 0
    )
    storage.close()
    assert report.moves == len(report.round_trips) == stored
    assert report.moves >= 50 * 60  # a four-player game of Witches has 68 or 69 decisions
    # Everybody has left: the server lets go of every connection and every table.
    wait_until(
        lambda: (server.health()["live_tables"], server.health()["connections"]) == (0, 0),
        60,
        f"the server still holds tables or connections: {server.health()}",
    )
