"""Bots play on the server, in worker processes: a bot searching for seconds at one table holds
up neither the other tables nor their quick bots, and it moves once its budget is spent."""

from __future__ import annotations

import asyncio
import random

from web_client import Player
from web_parts import Server, wait_until


def test_a_searching_bot_does_not_hold_up_other_tables(server: Server) -> None:
    # Table A: an MCTS bot with 10 seconds a move (the most the server allows) is first to
    # decide, and starts thinking now.
    searching = server.create("inkheart_dice", ["mcts:10s", "human"])
    before = server.steps(searching["id"])
    # Table B: a person against a random bot (the quick lane) plays on meanwhile.
    quick = server.create("witches", ["human", "random"])

    async def play_table_b() -> int:
        async with Player(server.ws_base, quick["id"], quick["seats"][0]["token"]) as player:
            rng = random.Random(2)
            for _ in range(6):
                await player.until(lambda s: bool(s["legal"]))
                await player.play_random(rng)
            # Each of those moves was answered, and the random bot moved in between: the
            # log holds moves of seat 1.
            assert any(line.startswith("seat 1 ") for line in player.log)
            return player.version

    version_b = asyncio.run(play_table_b())
    assert version_b > 6
    # All that happened while the bot at table A was still thinking about its first move.
    assert server.steps(searching["id"]) == before
    # And it does move, once its budget is spent.
    wait_until(lambda: server.steps(searching["id"]) > before, 120, "the MCTS bot never moved")
