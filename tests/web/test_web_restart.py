"""A server killed with SIGKILL mid-game loses nothing: after a restart on the same database the
players reconnect with their links and find the table where they left it, bots included. Run on
SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

from web_client import Player
from web_parts import Server, alive, stored_record, wait_until

import spielwerk
from spielwerk.web.storage import Storage


def stored_state(db_url: str, table_id: str) -> spielwerk.State:
    """The table as the database holds it, replayed (every action re-checked)."""
    storage = Storage(db_url)
    record = stored_record(storage, table_id)
    storage.close()
    return spielwerk.replay(record)


async def play_until(players: list[Player], rng: random.Random, stop: Any) -> None:
    """The humans play random legal actions (the bot moves by itself) until `stop(state)`
    holds for the first player's newest state."""
    first = players[0]
    seats = {player: int(player.welcome["seat"]) for player in players if player.welcome}
    while True:
        state = await first.until(
            lambda s: stop(s) or any(seat in s["to_move"] for seat in seats.values())
        )
        if stop(state):
            return
        mover = next(p for p, seat in seats.items() if seat in state["to_move"])
        await mover.until(lambda s, version=state["version"]: s["version"] >= version)
        answer = await mover.play_random(rng)
        await first.until(lambda s, version=answer["version"]: s["version"] >= version)


def test_kill_9_mid_game_then_reconnect_and_finish(db_url: str, tmp_path: Path) -> None:
    server = Server(db_url, bot_delay=0.5, log_path=tmp_path / "serve.log").start()
    rng = random.Random(7)
    created = server.create("inkheart_dice", ["human", "heuristic", "human"], max_turns=18)
    table_id = created["id"]
    tokens = [created["seats"][0]["token"], created["seats"][2]["token"]]
    seen: dict[str, Any] = {}

    async def before_the_crash() -> None:
        players = [Player(server.ws_base, table_id, t) for t in tokens]
        for player in players:
            await player.join()

        # Play until the bot (seat 1) is to move in its second turn (turn 5 of three seats),
        # then kill the server while the bot waits to move: its decision is not stored yet,
        # everything before it is.
        def bot_to_move_again(state: dict[str, Any]) -> bool:
            return state["over"] or (state["to_move"] == [1] and state["view"]["turn"] >= 5)

        await play_until(players, rng, bot_to_move_again)
        seen["workers"] = server.descendants()
        server.kill()
        first = players[0]
        assert first.state is not None and not first.state["over"]
        seen["version"] = first.state["version"]
        seen["log"] = list(first.log)
        seen["view"] = first.state["view"]
        for player in players:
            await player.close()

    try:
        asyncio.run(before_the_crash())
        # The bot workers of the killed server do not outlive it.
        assert seen["workers"], "the bot had worker processes"
        wait_until(
            lambda: not any(alive(pid) for pid in seen["workers"]), 60, "workers still running"
        )
        stored = stored_state(db_url, table_id)
        # Nothing anybody saw is lost: the database holds every step the players were shown.
        assert len(stored.history) >= seen["version"]
        server.start()  # same port, same database

        async def after_the_restart() -> dict[str, Any]:
            players = [Player(server.ws_base, table_id, t) for t in tokens]
            for player in players:
                await player.join()
            first = players[0]
            assert first.state is not None
            # Where they left it: the same log from the start, the same table if nothing moved.
            assert first.log[: len(seen["log"])] == seen["log"]
            assert first.state["version"] >= seen["version"]
            if first.state["version"] == seen["version"]:
                assert first.state["view"] == seen["view"]
            # The bot moves on by itself, and the game goes on to its end.
            await play_until(players, rng, lambda s: s["over"])
            for player in players:
                await player.until(lambda s: s["over"])
                await player.close()
            assert first.state is not None
            return first.state

        final = asyncio.run(after_the_restart())
        assert final["over"] and final["result"]["winners"] is not None
        replayed = stored_state(db_url, table_id)
        assert replayed.is_terminal()
        assert final["view"] == replayed.view(0)
        assert final["version"] == len(replayed.history)
    finally:
        server.stop()


def test_bots_of_an_unvisited_table_go_on_after_a_restart(db_url: str, tmp_path: Path) -> None:
    """A table of bots only, its server killed mid-game: the restarted server resumes it by
    itself and plays it to the end, although nobody opens the table."""
    server = Server(db_url, bot_delay=0.05, log_path=tmp_path / "serve.log").start()
    try:
        created = server.create("witches", ["random", "random", "heuristic"])
        table_id = created["id"]
        wait_until(lambda: server.steps(table_id) > 20, 60, "the bots did not start")
        server.kill()
        stored = stored_state(db_url, table_id)
        before = len(stored.history)
        assert not stored.is_terminal()
        server.start()  # nobody connects from here on
        wait_until(lambda: stored_state(db_url, table_id).is_terminal(), 120, "not finished")
        assert len(stored_state(db_url, table_id).history) > before
    finally:
        server.stop()


def test_a_restart_rebuilds_only_the_tables_where_the_server_is_to_move(
    db_url: str, tmp_path: Path
) -> None:
    """Tables left waiting for a person cost a restart nothing: only the tables where a bot
    (or chance) is to move are rebuilt and played on; the others are rebuilt when somebody
    opens them (issue 15, item 6)."""
    server = Server(db_url, bot_delay=0.5, log_path=tmp_path / "serve.log").start()
    try:
        waiting = [server.create("inkheart_dice", ["human", "heuristic"]) for _ in range(8)]
        moving = server.create("witches", ["random", "random", "random"])
        wait_until(lambda: server.steps(moving["id"]) > 3, 120, "the bots did not start")
        server.kill()
        assert not stored_state(db_url, moving["id"]).is_terminal()
        server.start()
        wait_until(lambda: not server.health()["resuming"], 120, "the restart never resumed")
        assert server.health()["tables_loaded"] == 1  # the bots' table, no other
        resumed_at = server.steps(moving["id"])
        wait_until(  # played on (to the end: test_bots_of_an_unvisited_table_go_on_after_a_restart)
            lambda: server.steps(moving["id"]) > resumed_at + 3, 300, "the bots did not go on"
        )
        assert server.health()["tables_loaded"] == 1

        # A waiting table is rebuilt when its player comes back, where it was left.
        first = waiting[0]
        before = server.steps(first["id"])

        async def come_back() -> dict[str, Any]:
            async with Player(server.ws_base, first["id"], first["seats"][0]["token"]) as player:
                assert player.state is not None
                return player.state

        state = asyncio.run(come_back())
        assert state["version"] == before and state["to_move"] == [0]
        assert server.health()["tables_loaded"] == 2
    finally:
        server.stop()
