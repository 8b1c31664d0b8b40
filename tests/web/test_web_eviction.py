"""Tables in memory (issue 15, item 4): a table nobody is connected to and no bot moves on is
forgotten after `--evict-after` seconds, at once beyond `--max-idle-tables`, and rebuilt from the
database when somebody needs it again. A flood of new tables and of requests for them leaves
the server holding no more than the bound."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
from web_client import Player
from web_parts import Server, wait_until

BOUND = 5


def live(server: Server) -> int:
    return int(server.health()["live_tables"])


def test_a_flood_of_tables_and_requests_stays_within_the_bound(tmp_path: Path) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'a.db'}",
        evict_after=2,
        extra_args=["--max-idle-tables", str(BOUND)],
    ).start()
    try:
        created: list[dict[str, Any]] = []
        most = 0
        with httpx.Client(base_url=server.base, timeout=60) as client:
            for _ in range(40):
                table = server.create("inkheart_dice", ["human", "human"])
                created.append(table)
                for one in random.Random(len(created)).sample(created, min(5, len(created))):
                    assert client.get(f"/api/tables/{one['id']}").status_code == 200
                    assert client.get(f"/api/tables/{one['id']}/record").status_code == 409
                most = max(most, live(server))
            # Finished tables are rebuilt for their record (the result needs the replay).
            finished = [server.create("witches", ["random", "random"]) for _ in range(BOUND + 3)]
            for table in finished:
                wait_until(
                    lambda t=table: client.get(f"/api/tables/{t['id']}").json()["finished"],
                    120,
                    "the bots never finished",
                )
            for _ in range(2):
                for table in finished:
                    assert client.get(f"/api/tables/{table['id']}/record").status_code == 200
                    most = max(most, live(server))
        assert most <= BOUND
        # Idle for the bounded time: nothing stays in memory.
        wait_until(lambda: live(server) == 0, 60, "idle tables stayed in memory")

        # On demand: a player comes back to a table, which is rebuilt where it was left.
        first = created[0]
        steps = httpx.get(f"{server.base}/api/tables/{first['id']}", timeout=60).json()["steps"]

        async def come_back() -> None:
            async with Player(server.ws_base, first["id"], first["seats"][0]["token"]) as player:
                assert player.state is not None and player.state["version"] == steps
                assert live(server) == 1
                await player.play_random(random.Random(1))

        asyncio.run(come_back())
        assert server.health()["tables_loaded"] >= len(created)
        wait_until(lambda: live(server) == 0, 60, "the table stayed after its player left")
    finally:
        server.stop()
