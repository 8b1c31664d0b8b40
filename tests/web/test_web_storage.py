"""The server's storage on SQLite and on PostgreSQL (a throwaway server): every test here runs on
both. The action log is the source of truth: what is stored replays to the table, a step is
stored once or not at all, and a server holding a stale copy is refused and catches up."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from web_parts import stored_record

import spielwerk
from spielwerk.core.conformance import DEFAULT_MAX_STEPS
from spielwerk.web.bots import BotPool
from spielwerk.web.errors import ClientError, TableNotFound
from spielwerk.web.protocol import CreateTable, SeatRequest
from spielwerk.web.storage import (
    SeatRow,
    StepConflict,
    Storage,
    StorageError,
    hash_token,
    normalise_url,
    token_matches,
)
from spielwerk.web.tables import TableHub, deciders

SEATS = (SeatRow(0, "human", None, hash_token("secret-0")), SeatRow(1, "bot", "random", None))


@pytest.fixture
def storage(db_url: str) -> Any:
    opened = Storage(db_url)
    try:
        yield opened
    finally:
        opened.close()


def test_a_table_is_stored_with_its_seats_and_only_token_hashes(storage: Storage) -> None:
    storage.create_table("t1", "witches", {"wheel": "ascending"}, 2, 42, "chance-secret", SEATS)
    row = storage.load_table("t1")
    assert row is not None
    assert (row.game, row.options, row.players, row.seed) == (
        "witches",
        {"wheel": "ascending"},
        2,
        42,
    )
    assert (row.finished, row.steps) == (False, 0)
    assert [(s.seat, s.kind, s.bot) for s in row.seats] == [
        (0, "human", None),
        (1, "bot", "random"),
    ]
    assert row.seats[0].token_hash != "secret-0"
    assert token_matches("secret-0", row.seats[0].token_hash)
    assert not token_matches("secret-1", row.seats[0].token_hash)
    assert not token_matches("secret-0", row.seats[1].token_hash)
    assert storage.load_table("nope") is None
    assert storage.load_actions("nope") == []


def test_actions_are_stored_in_order_and_a_step_only_once(storage: Storage) -> None:
    storage.create_table("t1", "witches", {}, 2, 1, "s", SEATS)
    storage.append_actions("t1", 0, [(-1, {"type": "draw", "card": "red-1"})], finished=False)
    storage.append_actions(
        "t1", 1, [(0, {"type": "play", "card": "red-2"}), (1, {"type": "keep_trump"})], False
    )
    stored = storage.load_actions("t1")
    assert [(a.idx, a.actor, a.action["type"]) for a in stored] == [
        (0, -1, "draw"),
        (1, 0, "play"),
        (2, 1, "keep_trump"),
    ]
    # A second writer storing step 2 again (it had not seen the first) is refused, whole.
    with pytest.raises(StepConflict):
        storage.append_actions("t1", 2, [(0, {"type": "x"}), (1, {"type": "y"})], True)
    # So is a writer that skips ahead of the stored steps.
    with pytest.raises(StepConflict):
        storage.append_actions("t1", 5, [(0, {"type": "x"})], True)
    assert len(storage.load_actions("t1")) == 3
    row = storage.load_table("t1")
    assert row is not None and (row.steps, row.finished) == (3, False)
    storage.append_actions("t1", 3, [(0, {"type": "last"})], finished=True)
    row = storage.load_table("t1")
    assert row is not None and (row.steps, row.finished) == (4, True)


def test_the_lobby_lists_the_newest_tables_first(storage: Storage) -> None:
    for index in range(5):
        storage.create_table(f"t{index}", "witches", {}, 2, index, "s", SEATS)
    listed = storage.list_tables(limit=3)
    assert [row.id for row in listed] == ["t4", "t3", "t2"]
    assert all(len(row.seats) == 2 for row in listed)
    assert storage.count_tables() == 5


def test_urls_people_type_are_understood() -> None:
    assert normalise_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("postgres://u@h/db") == "postgresql+psycopg://u@h/db"
    assert normalise_url("games.db") == "sqlite:///games.db"
    assert normalise_url("sqlite:////tmp/x.db") == "sqlite:////tmp/x.db"
    with pytest.raises(ValueError, match="not a database URL"):
        Storage("nosuchdatabase://somewhere/db")


def test_an_unreachable_database_is_a_clear_error() -> None:
    with pytest.raises(Exception, match=r"connect|refused|Connection"):
        Storage("postgresql://nobody@127.0.0.1:1/none")


# ---------------------------------------------------------------------- the hub on the storage
def _hub(db_url: str) -> TableHub:
    return TableHub(Storage(db_url), BotPool(1))


def _request(game: str, seats: int, claim: int | None = None, **options: Any) -> CreateTable:
    return CreateTable(
        game=game,
        options=options,
        seats=[SeatRequest(kind="human") for _ in range(seats)],
        claim=claim,
    )


async def _play_random(hub: TableHub, table_id: str, rng: random.Random) -> None:
    """Every seat plays random legal actions through the hub to the end of the game."""
    for _ in range(DEFAULT_MAX_STEPS):
        table = await hub.get(table_id)
        if table.state.is_terminal():
            return
        seat = rng.choice(deciders(table.state))
        action = rng.choice(table.state.legal_actions(seat))
        await hub.act(table, seat, action.to_json())
    raise AssertionError(f"table {table_id}: the game did not end within {DEFAULT_MAX_STEPS} steps")


def test_a_whole_game_replays_from_the_database(db_url: str) -> None:
    async def scenario() -> None:
        hub = _hub(db_url)
        new = await hub.create(_request("isolde", 3, claim=0))
        table_id = new.id
        assert new.token is not None and sorted(new.invitations) == [1, 2]
        claimed_at, seat, token = await hub.claim(table_id, new.invitations[1], "Bea")
        assert (claimed_at, seat) == (table_id, 1)
        await _play_random(hub, table_id, random.Random(3))
        live = await hub.get(table_id)
        played, played_log = live.state, [(line.actor, line.texts) for line in live.log]
        await hub.close()
        # A fresh server (nothing in memory) rebuilds the same table from the database alone.
        fresh = _hub(db_url)
        table = await fresh.get(table_id)
        assert table.state.history == played.history
        assert table.state.result() == played.result()
        # The log every viewer is shown, rebuilt by replay, is the one built during play.
        assert [(line.actor, line.texts) for line in table.log] == played_log
        row = fresh.storage.load_table(table_id)
        assert row is not None and row.finished and row.steps == len(played.history)
        assert table.seat_for_token(token) == 1 and table.seat_for_token("x") is None
        assert table.seat_for_token(new.token) == 0
        assert table.seat_for_token(new.invitations[2]) is None  # an invitation is no token
        assert table.names() == ["Seat 1", "Bea", None]
        await fresh.close()

    asyncio.run(scenario())


def test_two_servers_on_one_database_never_both_store_a_step(db_url: str) -> None:
    """Server B holds a copy from before server A stored a move. B's move, chosen in that
    older version, is refused and stores nothing; B's copy has caught up with A's move (the
    same table in memory, not thrown away)."""

    async def scenario() -> None:
        first, second = _hub(db_url), _hub(db_url)
        table_id = (await first.create(_request("inkheart_dice", 2))).id
        table_a = await first.get(table_id)
        table_b = await second.get(table_id)
        assert table_a.state.history == table_b.state.history
        seat = deciders(table_a.state)[0]
        moves = table_a.state.legal_actions(seat)
        seen = table_b.version
        await first.act(table_a, seat, moves[0].to_json(), seen)
        stored = len(first.storage.load_actions(table_id))
        with pytest.raises(ClientError, match=r"earlier state|not your turn|illegal"):
            await second.act(table_b, seat, moves[-1].to_json(), seen)
        assert len(second.storage.load_actions(table_id)) == stored
        assert await second.get(table_id) is table_b and table_b.broken is None
        assert table_b.state.history == table_a.state.history
        assert table_b.version == table_a.version
        await first.close()
        await second.close()

    asyncio.run(scenario())


def test_unknown_and_unreadable_tables(db_url: str) -> None:
    async def scenario() -> None:
        hub = _hub(db_url)
        with pytest.raises(TableNotFound):
            await hub.get("no-such-table")
        with pytest.raises(TableNotFound):
            await hub.get("x" * 200)
        # A stored log that does not replay (edited by hand) marks the table broken: it is shown,
        # never played on.
        table_id = (await hub.create(_request("witches", 2))).id
        await hub.close()
        storage = Storage(db_url)
        steps = len(storage.load_actions(table_id))
        storage.append_actions(table_id, steps, [(0, {"type": "keep_trump"})], False)
        storage.close()
        fresh = _hub(db_url)
        table = await fresh.get(table_id)
        assert table.broken is not None and f"step {steps}" in table.broken
        with pytest.raises(ClientError, match="stops replaying"):
            await fresh.act(table, 0, {"type": "keep_trump"})
        await fresh.close()

    asyncio.run(scenario())


def test_a_database_that_goes_away_refuses_moves_and_changes_nothing(tmp_path: Any) -> None:
    """SQLite file made read-only under the server: the move is refused with a reason, the table
    in memory stays as it was, and the next move after the database is back is stored."""

    async def scenario() -> None:
        path = tmp_path / "spielwerk.db"
        hub = _hub(f"sqlite:///{path}")
        table_id = (await hub.create(_request("inkheart_dice", 2))).id
        table = await hub.get(table_id)
        before = list(table.state.history)
        seat = deciders(table.state)[0]
        move = table.state.legal_actions(seat)[0].to_json()
        original = hub.storage.append_actions

        def failing(*args: Any) -> None:
            raise StorageError("disk gone")

        hub.storage.append_actions = failing  # type: ignore[method-assign]
        with pytest.raises(ClientError, match="database did not answer"):
            await hub.act(table, seat, move)
        assert table.state.history == before and table.broken is None
        hub.storage.append_actions = original  # type: ignore[method-assign]
        await hub.act(table, seat, move)
        assert len(hub.storage.load_actions(table_id)) == len(table.state.history) > len(before)
        await hub.close()

    asyncio.run(scenario())


def test_replay_checks_every_stored_action(db_url: str) -> None:
    """The stored log is a valid spielwerk record: spielwerk.replay re-checks it."""

    async def scenario() -> None:
        hub = _hub(db_url)
        table_id = (await hub.create(_request("witches", 3))).id
        await _play_random(hub, table_id, random.Random(5))
        assert spielwerk.replay(stored_record(hub.storage, table_id)).is_terminal()
        await hub.close()

    asyncio.run(scenario())
