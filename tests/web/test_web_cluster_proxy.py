"""The multi-process site as `make cluster` starts it (issue 39): nginx from Debian's package in
front of two `spielwerk serve` processes on a throwaway PostgreSQL. Clients only know the proxy's
address; a process killed with SIGKILL loses nothing and its clients carry on through the other;
the per-address limits hold for the whole site.
"""

from __future__ import annotations

import asyncio
import json
import random
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from test_web_cluster import bot_moves
from web_client import Player
from web_parts import missing, stored_record
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.protocol import State

import spielwerk
from spielwerk.web.loadtest import run_load
from spielwerk.web.local_cluster import LocalCluster, MissingPart, ServeProcess
from spielwerk.web.storage import Storage

NO_LIMITS = ["--connections-per-address", "0", "--spectators-per-address", "0"]


def started(cluster: LocalCluster) -> LocalCluster:
    try:
        return cluster.start()
    except MissingPart as error:
        missing(str(error))
        raise


@pytest.fixture
def site() -> Iterator[LocalCluster]:
    cluster = started(
        LocalCluster(2, serve_args=[*NO_LIMITS, "--tables-per-minute", "0", "--bot-delay", "0.05"])
    )
    try:
        yield cluster
    finally:
        cluster.stop()


def create(base: str, game: str, seats: list[str]) -> dict[str, Any]:
    body = {
        "game": game,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "claim": 0,
    }
    answer = httpx.post(f"{base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def play_through_failures(base: str, table_id: str, token: str, seed: int) -> int:
    """A person's page through the proxy: random moves until the end; when its connection
    drops (its process was killed) it connects again, as the page does. How many times."""
    rng = random.Random(seed)
    ws_base = base.replace("http://", "ws://")
    reconnects = 0
    while True:
        player = Player(ws_base, table_id, token)
        try:
            await player.join(timeout=120)
            while True:
                state = await player.until(lambda s: s["over"] or bool(s["legal"]), 300)
                if state["over"]:
                    await player.close()
                    return reconnects
                answer = await player.act(rng.choice(state["legal"])["action"], timeout=120)
                assert answer["type"] == "state" or "earlier state" in answer["message"], answer
        except (AssertionError, OSError, InvalidStatus) as error:
            if isinstance(error, AssertionError) and not player.closed:
                raise
            reconnects += 1  # the process went away under the page: come back through the proxy
            if reconnects > 20:
                raise
        finally:
            await player.close()


def test_a_killed_process_loses_nothing_and_its_players_carry_on(site: LocalCluster) -> None:
    """Tables of a person and bots, played through the proxy. Once every table has moved,
    one process is killed with SIGKILL: the pages on it reconnect through the proxy to the
    other, every game ends, the stored logs replay with every step once, and no bot move was
    made by both processes."""
    games = ["witches", "isolde", "tainted_grail"]
    seats = {"tainted_grail": ["human", "heuristic"]}
    tables = [create(site.url, g, seats.get(g, ["human", "heuristic", "random"])) for g in games]

    async def scenario() -> list[int]:
        playing = [
            asyncio.create_task(play_through_failures(site.url, t["id"], t["seats"][0]["token"], i))
            for i, t in enumerate(tables)
        ]

        async def steps(table_id: str) -> int:
            async with httpx.AsyncClient(timeout=60) as client:
                answer = await client.get(f"{site.url}/api/tables/{table_id}")
                return int(answer.json()["steps"])

        async def connections(server: ServeProcess) -> int:
            async with httpx.AsyncClient(timeout=60) as client:
                answer = await client.get(f"{server.base}/healthz")
                return int(answer.json()["connections"])

        while not all([await steps(t["id"]) > 10 for t in tables]):
            await asyncio.sleep(0.2)  # polling the site as a lobby page would
        # The proxy sends each table's pages to one process (by the table): kill one with some.
        held = [await connections(server) for server in site.servers]
        victim = site.servers[held.index(max(held))]
        await asyncio.get_running_loop().run_in_executor(None, victim.kill)
        return list(await asyncio.gather(*playing))

    reconnects = asyncio.run(scenario())
    storage = Storage(site.db_url or "")
    try:
        for table in tables:
            record = stored_record(storage, table["id"])
            assert spielwerk.replay(record).is_terminal()
            row = storage.load_table(table["id"])
            assert row is not None and row.revision == row.steps == len(record["actions"])
    finally:
        storage.close()
    logs = [s.log_path.read_text(errors="replace") for s in site.servers]
    moves = [move for log in logs for move in bot_moves(log)]
    assert [m for m, n in Counter(moves).items() if n > 1] == []
    # The killed process held pages: they came back through the proxy.
    assert sum(reconnects) >= 1, reconnects


def test_per_address_limits_hold_for_the_whole_site() -> None:
    """New tables a minute, counted in the database: three from one address, whichever
    process serves them (through the proxy or straight), then 429 everywhere; another
    address is not counted with it. Open websockets of one address: the proxy's bound for
    the site (here 10), the rest refused with 429."""
    cluster = started(
        LocalCluster(
            2,
            serve_args=[*NO_LIMITS, "--tables-per-minute", "3"],
            connections_per_address=10,
        )
    )
    try:
        bases = [cluster.servers[0].base, cluster.servers[1].base, cluster.url]
        codes = []
        for base in bases + bases:
            body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2}
            codes.append(httpx.post(f"{base}/api/tables", json=body, timeout=60).status_code)
        assert codes == [201, 201, 201, 429, 429, 429], codes
        table_id = httpx.get(f"{cluster.url}/api/tables", timeout=60).json()[0]["id"]

        async def watchers() -> tuple[int, int]:
            held, refused = [], 0
            for _ in range(14):
                try:
                    ws = await connect(
                        f"{cluster.url.replace('http', 'ws')}/ws/tables/{table_id}",
                        open_timeout=60,
                        local_addr=("127.0.0.2", 0),
                    )
                except InvalidStatus as error:
                    assert error.response.status_code == 429
                    refused += 1
                    continue
                await ws.send(json.dumps({"type": "hello"}))
                await ws.recv()
                held.append(ws)
            open_now = sum(1 for ws in held if ws.state is State.OPEN)
            for ws in held:
                await ws.close()
            return open_now, refused

        open_now, refused = asyncio.run(watchers())
        assert open_now == 10 and refused == 4, (open_now, refused)
    finally:
        cluster.stop()


def test_the_load_test_drives_the_site_through_the_proxy_and_across_processes(
    site: LocalCluster,
) -> None:
    """`python -m spielwerk.web.loadtest --processes 2 --spread` in small: 8 Witches tables of 3
    people, the seats of each table spread over both processes. Every game ends, every move
    is answered, the only refusals are moves chosen before another seat's move arrived, the
    database holds exactly the moves answered, and the fan-out across processes is measured."""
    assert site.proxy is not None
    report = asyncio.run(
        run_load(
            site.url,
            tables=8,
            seats=3,
            game="witches",
            seed=4,
            seat_urls=[server.base for server in site.servers],
        )
    )
    assert report.games_finished == 8 and report.unanswered == 0
    assert all("earlier state" in error for error in report.errors), report.errors[:3]
    storage = Storage(site.db_url or "")
    stored = sum(
        1 for table in report.table_ids for a in storage.load_actions(table) if a.actor >= 0
    )
    storage.close()
    # Every move sent was refused (counted in errors) or answered and stored, once.
    assert report.moves == len(report.round_trips) + len(report.errors)
    assert len(report.round_trips) == stored
    # The fan-out of a move: until every other seat had it (a game's last moves may end
    # before a closing seat saw them).
    assert stored - 8 <= len(report.fan_outs) <= stored
    summary = report.summary()
    assert summary["fan_out_p99_ms"] >= summary["fan_out_p50_ms"] > 0


def test_the_pages_of_a_table_meet_in_one_process(site: LocalCluster) -> None:
    """Through the proxy, both seats of a table are served by the same process (the proxy
    chooses it by the table), so their moves need no other process to catch up."""
    created = create(site.url, "tainted_grail", ["human", "human"])
    invitation = created["seats"][1]["invitation"]
    claimed = httpx.post(
        f"{site.url}/api/tables/{created['id']}/claim", json={"invitation": invitation}, timeout=60
    )
    assert claimed.status_code == 200, claimed.text
    tokens = [created["seats"][0]["token"], claimed.json()["token"]]
    ws_base = site.url.replace("http://", "ws://")

    async def scenario() -> list[int]:
        players = [Player(ws_base, created["id"], token) for token in tokens]
        for player in players:
            await player.join()
        async with httpx.AsyncClient(timeout=60) as client:
            held = [
                int((await client.get(f"{server.base}/healthz")).json()["connections"])
                for server in site.servers
            ]
        for player in players:
            await player.close()
        return held

    assert sorted(asyncio.run(scenario())) == [0, 2]
