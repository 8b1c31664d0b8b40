"""A server killed with SIGKILL mid-game loses nothing: after a restart on the same database the
players reconnect with their links and find the table where they left it, bots included."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from webtest import Server
from wsclient import Player

import spielwerk
from spielwerk.web.storage import Storage


async def _turns(players: list[Player], rng: random.Random, count: int) -> None:
    """Let the humans play `count` actions between them (bots move on their own)."""
    for _ in range(count):
        movers = [p for p in players if p.my_turn]
        while not movers:
            await asyncio.wait(
                [asyncio.create_task(p.next_state(60)) for p in players],
                return_when=asyncio.FIRST_COMPLETED,
            )
            await asyncio.sleep(0.05)
            movers = [p for p in players if p.my_turn]
            if any(p.state and p.state["over"] for p in players):
                return
        await movers[0].play_random(rng)


async def _drain(player: Player) -> None:
    """Read whatever has already arrived, so `state` is the newest."""
    while True:
        try:
            await player.next_state(0.3)
        except TimeoutError:
            return


def _stored(server: Server, table_id: str) -> spielwerk.State:
    storage = Storage(server.db_url)
    row = storage.load_table(table_id)
    assert row is not None
    record = {
        "format": "spielwerk-record/1",
        "game": row.game,
        "options": row.options,
        "players": row.players,
        "seed": row.seed,
        "actions": [
            {"actor": "chance" if a.actor < 0 else a.actor, "action": a.action}
            for a in storage.load_actions(table_id)
        ],
    }
    storage.close()
    return spielwerk.replay(record)


def test_kill_9_mid_game_then_reconnect_and_finish(sqlite_url: str) -> None:
    server = Server(sqlite_url, bot_delay=0.3).start()
    rng = random.Random(7)
    created: Any = server.create("inkheart_dice", ["human", "heuristic", "human"], max_turns=24)
    table_id = created["id"]
    tokens = [created["seats"][0]["token"], created["seats"][2]["token"]]
    seen: dict[str, Any] = {}

    async def before_the_crash() -> None:
        players = [Player(server.ws_base, table_id, t) for t in tokens]
        for player in players:
            await player.join()
        await _turns(players, rng, 6)
        # Wait until the bot (seat 1) is to move, then kill the server while it thinks.
        await players[0].until(lambda s: s["to_move"] == [1] or s["over"])
        server.kill()
        seen["version"] = players[0].state["version"] if players[0].state else 0
        seen["log"] = list(players[0].log)

    try:
        asyncio.run(before_the_crash())
        stored = _stored(server, table_id)
        assert len(stored.history) >= seen["version"]  # nothing anybody saw is lost

        server.start()  # same port, same database

        async def after_the_restart() -> dict[str, Any]:
            players = [Player(server.ws_base, table_id, t) for t in tokens]
            for player in players:
                await player.join()
            first = players[0]
            assert first.state is not None
            assert first.log[: len(seen["log"])] == seen["log"]
            assert first.state["version"] >= seen["version"]
            # The bot moves on by itself, and the game goes on to its end.
            await _turns(players, rng, 10_000)
            for player in players:
                await player.until(lambda s: s["over"])
                await player.close()
            assert first.state is not None
            return first.state

        final = asyncio.run(after_the_restart())
        assert final["over"] and final["result"]["winners"]
        replayed = _stored(server, table_id)
        assert replayed.is_terminal()
        assert final["view"] == replayed.view(0)
    finally:
        server.stop()
