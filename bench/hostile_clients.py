"""What players feel while one hostile address attacks `spielwerk serve` (issue 35).

    .venv/bin/python bench/hostile_clients.py [--attack idle-websockets slow-headers uploads]

Starts `spielwerk serve` with its default limits on a fresh SQLite file, then for each attack
(and once without one) measures, from another loopback address, the round trip of a lobby
request (`GET /api/tables`) and of a move at the player's own table (sent until the state that
holds it arrives), 5 of each a second for `--seconds`:

- idle-websockets: 127.0.0.2 keeps 4,000 websockets open (or tries to: the ones refused or
  closed are opened again), each a spectator that says hello and then only answers pings;
- slow-headers: 127.0.0.2 keeps 4,000 sockets sending a request header one line every 5 s
  (slowloris), reopening the ones the server cuts off;
- uploads: four addresses each open a long record in the replay viewer again and again.

Prints p50/p95/p99 in milliseconds and how many requests failed, as a Markdown table.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

import spielwerk
from spielwerk.core.state import CHANCE
from spielwerk.web.loadtest import SERVE_COMMAND, free_port

ATTACKER = "127.0.0.2"
PLAYER = "127.0.0.1"


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))] if ordered else float("nan")


def long_record() -> bytes:
    """A whole Tintenblut game of four (the longest records here), as JSON."""
    state = spielwerk.load("inkspell").new_state(4, seed=5)
    rng = random.Random(5)
    while not state.is_terminal():
        to_move = state.to_move
        if to_move == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        seat = min(to_move) if isinstance(to_move, frozenset) else to_move
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return json.dumps(state.to_record()).encode()


class Attack:
    """One hostile address (127.0.0.2; the uploads: four more), attacking until stopped."""

    def __init__(self, base: str, ws_base: str, port: int, table_id: str) -> None:
        self.base, self.ws_base, self.port, self.table_id = base, ws_base, port, table_id
        self.stop = asyncio.Event()

    async def idle_websockets(self) -> None:
        async def one() -> None:
            while not self.stop.is_set():
                try:
                    async with connect(
                        f"{self.ws_base}/ws/tables/{self.table_id}",
                        open_timeout=60,
                        local_addr=(ATTACKER, 0),
                    ) as ws:
                        await ws.send(json.dumps({"type": "hello"}))
                        async for _ in ws:
                            if self.stop.is_set():
                                break
                except Exception:
                    await asyncio.sleep(1.0)  # refused: try again soon

        await asyncio.gather(*(one() for _ in range(4000)))

    async def slow_headers(self) -> None:
        async def one() -> None:
            while not self.stop.is_set():
                try:
                    reader, writer = await asyncio.open_connection(
                        "127.0.0.1", self.port, local_addr=(ATTACKER, 0)
                    )
                    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
                    while not self.stop.is_set() and not reader.at_eof():
                        await asyncio.sleep(5.0)
                        writer.write(b"X-Slow: 1\r\n")
                        await writer.drain()
                    writer.close()
                except Exception:
                    await asyncio.sleep(1.0)

        await asyncio.gather(*(one() for _ in range(4000)))

    async def uploads(self) -> None:
        record = long_record()

        async def one(address: str) -> None:
            transport = httpx.AsyncHTTPTransport(local_address=address)
            async with httpx.AsyncClient(transport=transport, timeout=120) as client:
                while not self.stop.is_set():
                    with contextlib.suppress(httpx.HTTPError):
                        answer = await client.post(
                            f"{self.base}/api/replays",
                            content=record,
                            headers={"content-type": "application/json"},
                        )
                        if answer.status_code == 429:
                            await asyncio.sleep(float(answer.headers.get("retry-after", "1")))

        await asyncio.gather(*(one(f"127.0.0.{3 + i}") for i in range(4)))


async def measure_lobby(base: str, seconds: float) -> tuple[list[float], int]:
    times, failed = [], 0
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            started = time.perf_counter()
            try:
                ok = (await client.get("/api/tables")).status_code == 200
            except httpx.HTTPError:
                ok = False
            times.append(time.perf_counter() - started)
            failed += not ok
            await asyncio.sleep(0.2)
    return times, failed


async def measure_moves(base: str, ws_base: str, seconds: float) -> tuple[list[float], int]:
    """Two seats of a Tintenherz table take turns; a finished game is followed by a new one."""
    times: list[float] = []
    failed = 0
    end = time.monotonic() + seconds
    rng = random.Random(1)
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        while time.monotonic() < end:
            body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2, "claim": 0}
            created = (await client.post("/api/tables", json=body)).json()
            tokens = [created["seats"][0]["token"]]
            claim = {"invitation": created["seats"][1]["invitation"]}
            tokens.append(
                (await client.post(f"/api/tables/{created['id']}/claim", json=claim)).json()[
                    "token"
                ]
            )
            url = f"{ws_base}/ws/tables/{created['id']}"
            async with connect(url) as a, connect(url) as b:
                sockets = [a, b]
                states: list[dict[str, Any]] = [{}, {}]
                for ws, token in zip(sockets, tokens, strict=True):
                    await ws.send(json.dumps({"type": "hello", "token": token}))
                while time.monotonic() < end:
                    for i, ws in enumerate(sockets):  # take in what has arrived
                        with contextlib.suppress(TimeoutError):
                            while True:
                                message = json.loads(await asyncio.wait_for(ws.recv(), 0.001))
                                if message["type"] == "state":
                                    states[i] = message
                    mover = next((i for i in (0, 1) if states[i].get("legal")), None)
                    if any(s.get("over") for s in states):
                        break
                    if mover is None:
                        await asyncio.sleep(0.01)
                        continue
                    state = states[mover]
                    action = rng.choice(state["legal"])["action"]
                    started = time.perf_counter()
                    act = {"type": "act", "action": action, "version": state["version"], "ref": 1}
                    await sockets[mover].send(json.dumps(act))
                    while True:
                        message = json.loads(await asyncio.wait_for(sockets[mover].recv(), 60))
                        if message["type"] == "error":
                            failed += 1
                            break
                        if message["type"] == "state" and message["version"] > state["version"]:
                            states[mover] = message
                            times.append(time.perf_counter() - started)
                            break
                    await asyncio.sleep(0.2)
    return times, failed


async def attack_forever(attack_name: str, port: int, table_id: str) -> None:
    """In the attacker's own process (so its thousands of sockets do not slow the
    measuring client down): attack until killed."""
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    attack = Attack(base, ws_base, port, table_id)
    method: Callable[[], Awaitable[None]] = getattr(attack, attack_name.replace("-", "_"))
    await method()


async def run(attack_name: str | None, server: dict[str, Any], seconds: float) -> dict[str, Any]:
    base, ws_base, port = server["base"], server["ws_base"], server["port"]
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:
        body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2}
        target = (await client.post("/api/tables", json=body)).json()["id"]
    attacker: subprocess.Popen[bytes] | None = None
    if attack_name is not None:
        command = [sys.executable, __file__, "--attacker", attack_name, str(port), target]
        attacker = subprocess.Popen(command)
        await asyncio.sleep(20)  # the attack builds up (4,000 sockets take a while)
    try:
        (lobby, lobby_failed), (moves, moves_failed) = await asyncio.gather(
            measure_lobby(base, seconds), measure_moves(base, ws_base, seconds)
        )
    finally:
        if attacker is not None:
            attacker.kill()
            attacker.wait(30)
    return {
        "attack": attack_name or "none",
        "lobby": lobby,
        "lobby_failed": lobby_failed,
        "moves": moves,
        "moves_failed": moves_failed,
    }


def start_server(directory: Path) -> tuple[subprocess.Popen[bytes], dict[str, Any]]:
    port = free_port()
    command = [*SERVE_COMMAND, "--port", str(port), "--db", f"sqlite:///{directory / 'b.db'}"]
    log = (directory / "serve.log").open("wb")
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 300
    while True:
        with contextlib.suppress(httpx.HTTPError):
            if httpx.get(f"{base}/healthz", timeout=5).status_code == 200:
                break
        if time.monotonic() > deadline or process.poll() is not None:
            process.kill()
            raise SystemExit(f"the server did not come up: {directory / 'serve.log'}")
        time.sleep(0.1)
    return process, {"base": base, "ws_base": f"ws://127.0.0.1:{port}", "port": port}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--attack",
        nargs="*",
        default=["idle-websockets", "slow-headers", "uploads"],
        choices=["idle-websockets", "slow-headers", "uploads"],
    )
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument(
        "--attacker", nargs=3, metavar=("ATTACK", "PORT", "TABLE"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.attacker:
        kind, port, table_id = args.attacker
        asyncio.run(attack_forever(kind, int(port), table_id))
        return
    rows = []
    for attack in [None, *args.attack]:
        with tempfile.TemporaryDirectory() as scratch:
            process, server = start_server(Path(scratch))
            try:
                rows.append(asyncio.run(run(attack, server, args.seconds)))
            finally:
                process.terminate()
                process.wait(30)
    print("| attack | lobby p50 / p95 / p99 ms (n, failed) | move p50 / p95 / p99 ms (n, failed) |")
    print("|---|---|---|")
    for row in rows:
        cells = []
        for kind in ("lobby", "moves"):
            values = [1000 * v for v in row[kind]]
            p = [percentile(values, q) for q in (50, 95, 99)]
            cells.append(
                f"{p[0]:.0f} / {p[1]:.0f} / {p[2]:.0f} ({len(values)}, {row[kind + '_failed']})"
            )
        print(f"| {row['attack']} | {cells[0]} | {cells[1]} |")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
