"""Bots on the server (issue 15, item 5): they think in worker processes, a quick bot never
waits behind a search, the search workers serve the clients in turn (one client's many tables
get no more than another client's one), no bot thinks past the server's cap, and one address
runs only so many tables of bots alone. Every test here observes the order of events, never
how long anything took."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_client import Player
from web_parts import Server, wait_until

import spielwerk
from spielwerk.agents import MCTSAgent, make_agent
from spielwerk.agents.kernel_mcts import KernelMCTSAgent
from spielwerk.agents.kernel_network import KernelNetworkAgent
from spielwerk.agents.network import FittingNetworkAgent, NetworkAgent
from spielwerk.core.conformance import play_on
from spielwerk.web.bots import BotPool, bot_request, capped
from spielwerk.web.fairness import FairQueue

ATTACKER, VICTIM, OTHER = "10.66.0.1", "10.7.0.1", "10.7.0.2"


def create(server: Server, address: str, game: str, seats: list[str]) -> httpx.Response:
    body = {
        "game": game,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
    }
    headers = {"X-Forwarded-For": address}
    return httpx.post(f"{server.base}/api/tables", json=body, headers=headers, timeout=60)


def claimed(server: Server, answer: httpx.Response) -> dict[str, Any]:
    """The creation answer with a token for every human seat (as its players would hold)."""
    assert answer.status_code == 201, answer.text
    return server.claim_all(answer.json())


# ---------------------------------------------------------------------- the fair queue
def test_the_queue_serves_the_least_recently_served_client_first() -> None:
    """One slot; client A asks for ten decisions at once, B for one a little later: B is
    served after A's first, not after A's tenth; two new clients are served in the order they
    asked; a cancelled wait gives its turn on."""

    async def scenario() -> list[str]:
        queue = FairQueue(1)
        gate = asyncio.Event()
        order: list[str] = []

        async def decide(group: str, label: str) -> None:
            async with queue.turn(group):
                order.append(label)
                await gate.wait()

        tasks = [asyncio.create_task(decide("A", f"A{i}")) for i in range(10)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(decide("B", "B0")))
        cancelled = asyncio.create_task(decide("D", "D0"))
        tasks.append(asyncio.create_task(decide("C", "C0")))
        await asyncio.sleep(0)
        cancelled.cancel()
        for _ in range(40):
            gate.set()
            await asyncio.sleep(0)
            gate.clear()
        gate.set()
        await asyncio.gather(*tasks)
        assert queue.running == 0 and queue.waiting == 0
        return order

    order = asyncio.run(scenario())
    assert order[:4] == ["A0", "B0", "C0", "A1"]
    assert order[4:] == [f"A{i}" for i in range(2, 10)]


def test_a_quick_bot_never_waits_behind_a_search() -> None:
    """The search lane is held by a search that does not end; a random bot's decision still
    comes from its own worker process."""

    async def scenario() -> int:
        pool = BotPool(1)
        endless = asyncio.Event()

        async def stuck(request: Any) -> int:
            await endless.wait()
            return 0

        pool.search._run = stuck  # type: ignore[method-assign]
        state = spielwerk.load("witches").new_state(3, seed=5)
        for _ in play_on(state, until=lambda s: s.to_move != spielwerk.CHANCE):
            state.apply(state.sample_chance(random.Random(1)), player=spielwerk.CHANCE)
        seat = state.to_move
        assert isinstance(seat, int)
        searching = asyncio.create_task(
            pool.choose(bot_request("a", state, seat, "mcts:50", 1), "client-a")
        )
        await asyncio.sleep(0)
        assert pool.search.queue.running == 1
        chosen = await pool.choose(bot_request("b", state, seat, "random", 2), "client-b")
        assert not searching.done()
        endless.set()
        await searching
        pool.close()
        assert chosen in state.legal_ids(seat)
        return chosen

    asyncio.run(scenario())


@pytest.mark.parametrize("game", ["witches", "inkspell"])  # the compiled search, the Python one
@pytest.mark.parametrize("kind", ["mcts", "best"])
def test_an_iteration_budget_is_capped_in_time(game: str, kind: str) -> None:
    """The server's cap reaches the search that plays, also where `best` is the network's
    search and where it plays as the search the network replaced (another player count)."""
    loaded = spielwerk.load(game)
    for players in (loaded.min_players, loaded.max_players):

        def search(spec: str, players: int = players) -> Any:
            agent = capped(make_agent(spec, game, 1), 0.5)
            if isinstance(agent, FittingNetworkAgent):
                agent = agent.chosen(loaded, players)
            return agent.search if isinstance(agent, NetworkAgent) else agent

        agent = search(f"{kind}:20000")
        assert isinstance(agent, MCTSAgent | KernelMCTSAgent | KernelNetworkAgent)
        assert agent.iterations == 20000 and agent.seconds == 0.5
        agent = search(f"{kind}:3s")
        assert agent.seconds == 0.5
        agent = search(f"{kind}:0.2s")
        assert agent.seconds == 0.2


# ---------------------------------------------------------------------- through the server
@pytest.fixture
def proxied_server(tmp_path: Path) -> Any:
    """One search worker, bots thinking at most 1 s, clients told apart by X-Forwarded-For."""
    server = Server(
        f"sqlite:///{tmp_path / 'spielwerk.db'}",
        bot_workers=1,
        log_path=tmp_path / "serve.log",
        extra_args=[
            "--trusted-proxy",
            "127.0.0.1",
            "--max-bot-seconds",
            "1",
        ],
    ).start()
    try:
        yield server
    finally:
        server.stop()


def test_many_bot_tables_of_one_client_do_not_starve_anothers_bot(proxied_server: Server) -> None:
    """Six tables of searching bots from one address keep the only search worker busy. Each
    time the bot of another client's table is to move, it moves before that first client's
    tables have made more than a few moves (first come, first served would let all six go
    first)."""
    server = proxied_server
    attackers = [
        create(server, ATTACKER, "inkheart_dice", ["mcts:1s", "mcts:1s"]).json()["id"]
        for _ in range(6)
    ]
    victim = claimed(server, create(server, VICTIM, "inkheart_dice", ["human", "mcts:50"]))

    def bot_moves(player: Player) -> int:
        return sum(1 for line in player.log if line.startswith("seat 2 "))  # seat 1 from 0

    async def scenario() -> list[int]:
        events: list[str] = []
        watchers = [Player(server.ws_base, table_id) for table_id in attackers]
        for watcher in watchers:
            await watcher.join()
        player = Player(server.ws_base, victim["id"], victim["seats"][0]["token"])
        await player.join()
        rng = random.Random(3)
        counted = [0] * len(watchers)

        def note_attacker_moves() -> None:
            for index, watcher in enumerate(watchers):
                moves = sum(
                    1
                    for m in watcher.messages
                    if m["type"] == "state"
                    for line in m["log"]
                    if line["actor"] is not None
                )
                events.extend(["attacker"] * (moves - counted[index]))
                counted[index] = moves

        waits: list[int] = []
        for _ in range(3):
            # The person plays until it is the bot's turn ...
            while True:
                state = await player.until(
                    lambda s: s["over"] or bool(s["legal"]) or s["to_move"] == [1]
                )
                if state["over"] or state["to_move"] == [1]:
                    break
                await player.play_random(rng)
            if state["over"]:
                break
            note_attacker_moves()
            start = len(events)
            before = bot_moves(player)
            # ... and the bot moves: count the attackers' moves that arrived meanwhile.
            await player.until(lambda s, before=before: bot_moves(player) > before)
            note_attacker_moves()
            waits.append(len(events) - start)
        # The attacker's tables wanted the worker all along: none of them has finished.
        assert all(w.state is not None and not w.state["over"] for w in watchers)
        for watcher in [*watchers, player]:
            await watcher.close()
        return waits

    waits = asyncio.run(scenario())
    assert len(waits) >= 2
    assert max(waits) <= 3, waits


def test_one_address_runs_only_so_many_tables_of_bots_alone(tmp_path: Path) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'spielwerk.db'}",
        bot_delay=0.3,
        bot_tables_per_address=2,
        extra_args=["--trusted-proxy", "127.0.0.1", "--max-bot-seconds", "1"],
    ).start()
    try:
        first = create(server, ATTACKER, "witches", ["random", "random"])
        second = create(server, ATTACKER, "witches", ["random", "random"])
        assert first.status_code == second.status_code == 201
        third = create(server, ATTACKER, "witches", ["random", "random"])
        assert third.status_code == 429
        assert "tables of bots only already (at most 2 at a time)" in third.json()["message"]
        # Another address, and a table with a person in it, are not held back.
        assert create(server, OTHER, "witches", ["random", "random"]).status_code == 201
        assert create(server, ATTACKER, "witches", ["human", "random"]).status_code == 201
        # Once one of the two has finished, the address may start another.
        url = f"{server.base}/api/tables/{first.json()['id']}"
        wait_until(lambda: httpx.get(url, timeout=60).json()["finished"], 300, "not finished")
        wait_until(
            lambda: create(server, ATTACKER, "witches", ["random", "random"]).status_code == 201,
            300,
            "the address could not start another table after one finished",
        )
        # The cap on thinking time: a slower spec is refused, and the lobby does not offer it.
        slow = create(server, OTHER, "witches", ["human", "mcts:2s"])
        assert slow.status_code == 400
        assert "at most 1 s a move on this server" in slow.json()["message"]
        levels = httpx.get(f"{server.base}/api/games/witches", timeout=60).json()["bots"]
        assert "mcts:2s" not in [level["spec"] for level in levels]
        assert "mcts:300" in [level["spec"] for level in levels]
    finally:
        server.stop()
