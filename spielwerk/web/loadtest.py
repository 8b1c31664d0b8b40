"""A load test on loopback: many tables, one websocket per human seat, every seat playing random
legal moves as fast as the server answers, each move's round trip measured.

    python -m spielwerk.web.loadtest --tables 50 --seats 4 --game witches

starts `spielwerk serve` on a free port with a fresh SQLite file and no limit on new tables (or
uses `--url` of a running server, which must allow `--tables` new tables a minute from this
address: `spielwerk serve --tables-per-minute 0 --connections-per-address 0`), creates the
tables, connects every seat and plays every game to the end. A move's round trip runs from
sending it to receiving the state that holds it (after the server has checked it, stored it and
the chance events it set off, and built every seat's view). The report counts the moves, the
moves left unanswered and the errors (both must be 0) and gives the round trip's percentiles.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


@dataclass
class LoadReport:
    game: str
    tables: int
    clients: int
    think: float = 0.0
    """Mean seconds a seat waits before each move."""
    moves: int = 0
    unanswered: int = 0
    errors: list[str] = field(default_factory=list)
    games_finished: int = 0
    seconds: float = 0.0
    round_trips: list[float] = field(default_factory=list)
    """Seconds per move, in the order the answers arrived."""
    fan_outs: list[float] = field(default_factory=list)
    """Seconds from sending a move until every other seat of the table had a state holding
    it (with several processes: across them)."""
    processes: int = 1
    table_ids: list[str] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.round_trips)
        if not ordered:
            return float("nan")
        index = min(len(ordered) - 1, max(0, round(p / 100 * len(ordered) + 0.5) - 1))
        return ordered[index]

    def summary(self) -> dict[str, Any]:
        data = asdict(self)
        del data["round_trips"], data["table_ids"], data["fan_outs"]
        data["errors"] = len(self.errors)
        fan = sorted(self.fan_outs)

        def fan_ms(p: float) -> float:
            if not fan:
                return float("nan")
            return round(1000 * fan[min(len(fan) - 1, int(p / 100 * len(fan)))], 1)

        data.update(
            p50_ms=round(1000 * self.percentile(50), 1),
            p95_ms=round(1000 * self.percentile(95), 1),
            p99_ms=round(1000 * self.percentile(99), 1),
            fan_out_p50_ms=fan_ms(50),
            fan_out_p99_ms=fan_ms(99),
            max_ms=round(1000 * max(self.round_trips, default=float("nan")), 1),
            mean_ms=round(1000 * statistics.fmean(self.round_trips or [float("nan")]), 1),
            moves_per_second=round(self.moves / self.seconds, 1) if self.seconds else None,
        )
        return data


class _Seat:
    """One player's websocket: plays a random legal action whenever it may, one at a time."""

    def __init__(
        self,
        report: LoadReport,
        url: str,
        token: str,
        rng: random.Random,
        think: float,
        table: _TableTimes | None = None,
    ) -> None:
        self.report = report
        self.table = table or _TableTimes()
        self.think = think
        self.url = url
        self.token = token
        self.rng = rng
        self.state: dict[str, Any] | None = None
        self.ref = 0
        self.sent_at: float | None = None
        self.awaited: int | None = None

    async def play(self) -> None:
        async with connect(self.url, max_size=2**22, open_timeout=60) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.token}))
            try:
                async for text in ws:
                    self._receive(json.loads(text))
                    if self.state is not None and self.state["over"] and self.sent_at is None:
                        break
                    await self._maybe_act(ws)
            except ConnectionClosed as closed:
                self.report.errors.append(f"connection closed: {closed}")
        if self.sent_at is not None:
            self.report.unanswered += 1

    def _receive(self, message: dict[str, Any]) -> None:
        kind = message["type"]
        if kind == "state":
            self.state = message
            self.table.arrived(self, message["version"])
            if self.awaited is not None and message["version"] >= self.awaited:
                self._answered()
        elif kind == "ok" and message.get("ref") == self.ref:
            if self.state is not None and self.state["version"] >= message["version"]:
                self._answered()
            else:
                self.awaited = message["version"]
        elif kind == "error":
            self.report.errors.append(str(message.get("message")))
            self.sent_at = None

    def _answered(self) -> None:
        assert self.sent_at is not None
        self.report.round_trips.append(time.perf_counter() - self.sent_at)
        if self.state is not None:
            self.table.moved(self, self.state["version"], self.sent_at)
        self.sent_at = None
        self.awaited = None

    async def _maybe_act(self, ws: Any) -> None:
        state = self.state
        if self.sent_at is not None or state is None or state["over"] or not state["legal"]:
            return
        entry = self.rng.choice(state["legal"])
        if self.think > 0:  # a person reads the table first (uniform, 0.5 to 1.5 x think)
            await asyncio.sleep(self.think * self.rng.uniform(0.5, 1.5))
        self.ref += 1
        self.report.moves += 1
        self.sent_at = time.perf_counter()
        act = {"type": "act", "action": entry["action"], "version": state["version"]}
        await ws.send(json.dumps({**act, "ref": self.ref}))


@dataclass
class _TableTimes:
    """When each seat of one table first had each version, and when moves were sent: the
    fan-out (a move's time until every other seat has it) is worked out at the end."""

    seats: list[_Seat] = field(default_factory=list)
    first_seen: dict[int, list[tuple[int, float]]] = field(default_factory=dict)
    sent: list[tuple[int, int, float]] = field(default_factory=list)
    """(mover's index, the version its move made, when it was sent)."""

    def arrived(self, seat: _Seat, version: int) -> None:
        seen = self.first_seen.setdefault(self.seats.index(seat), [])
        if not seen or seen[-1][0] < version:
            seen.append((version, time.perf_counter()))

    def moved(self, seat: _Seat, version: int, sent_at: float) -> None:
        self.sent.append((self.seats.index(seat), version, sent_at))

    def fan_outs(self) -> list[float]:
        delays = []
        for mover, version, sent_at in self.sent:
            latest = 0.0
            for index, seen in self.first_seen.items():
                if index == mover:
                    continue
                arrival = next((t for v, t in seen if v >= version), None)
                if arrival is None:
                    break
                latest = max(latest, arrival - sent_at)
            else:
                delays.append(latest)
        return delays


SERVE_COMMAND = (sys.executable, "-c", "from spielwerk.cli.main import main; main()", "serve")
"""`spielwerk serve` run by this interpreter (whatever the console script's state)."""


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    """POST JSON; the answer. A refusal ends the run with the server's reason."""
    request = urllib.request.Request(
        url, json.dumps(body).encode(), {"content-type": "application/json"}, method="POST"
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            created: dict[str, Any] = json.loads(answer.read())
            return created
    except urllib.error.HTTPError as error:
        reason = json.loads(error.read() or b"{}").get("message", error.reason)
        raise RuntimeError(f"the server refused {url} ({error.code}): {reason}") from None


def _create_and_claim(base_url: str, body: dict[str, Any]) -> tuple[str, list[str]]:
    """A table whose human seats are all taken through their invitations, as the players
    would; its id and the seats' tokens."""
    table = _post(f"{base_url}/api/tables", body)
    tokens = []
    for seat in table["seats"]:
        if seat["invitation"]:
            claim = {"invitation": seat["invitation"], "name": f"Load {seat['seat']}"}
            tokens.append(_post(f"{base_url}/api/tables/{table['id']}/claim", claim)["token"])
    return table["id"], tokens


async def run_load(
    base_url: str,
    tables: int = 50,
    seats: int = 4,
    game: str = "witches",
    options: dict[str, Any] | None = None,
    seed: int = 0,
    think: float = 0.0,
    seat_urls: list[str] | None = None,
) -> LoadReport:
    """Create `tables` tables of `seats` human seats on the server at `base_url` and play them
    all to the end at once, one websocket per seat, each seat waiting about `think` seconds
    before a move (0: as fast as the answers come). `seat_urls`: the seats of each table
    connect to these in turn (several processes: every table's seats spread over them)."""
    report = LoadReport(game=game, tables=tables, clients=tables * seats, think=think)
    body = {"game": game, "options": options or {}, "seats": [{"kind": "human"}] * seats}
    created = [await asyncio.to_thread(_create_and_claim, base_url, body) for _ in range(tables)]
    report.table_ids = [table_id for table_id, _ in created]
    ws_bases = ["ws" + url.removeprefix("http") for url in (seat_urls or [base_url])]
    rng = random.Random(seed)
    players = []
    timings = []
    for table_id, tokens in created:
        times = _TableTimes()
        timings.append(times)
        for index, token in enumerate(tokens):
            ws_base = ws_bases[index % len(ws_bases)]  # the seats of a table spread out
            seat = _Seat(
                report,
                f"{ws_base}/ws/tables/{table_id}",
                token,
                random.Random(rng.randrange(2**32)),
                think,
                times,
            )
            times.seats.append(seat)
            players.append(seat)
    started = time.perf_counter()
    await asyncio.gather(*(player.play() for player in players))
    report.seconds = time.perf_counter() - started
    report.fan_outs = [delay for times in timings for delay in times.fan_outs()]
    report.games_finished = sum(1 for p in players if p.state and p.state["over"]) // seats
    return report


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def _wait_up(base_url: str, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the server exited at start-up")
        try:
            with urllib.request.urlopen(f"{base_url}/healthz", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError("the server did not come up")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4, help="human seats per table")
    parser.add_argument("--game", default="witches")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--think", type=float, default=0.0, help="mean seconds a seat waits before a move"
    )
    parser.add_argument("--url", help="a running server (default: start one on SQLite)")
    parser.add_argument("--db", help="database URL for the server started here")
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="start the multi-process site (PostgreSQL, N servers, nginx) and drive it "
        "through the proxy",
    )
    parser.add_argument(
        "--spread",
        action="store_true",
        help="with --processes: connect each table's seats to the processes in turn "
        "(past the proxy), so every move crosses processes",
    )
    args = parser.parse_args(argv)
    process = None
    base_url = args.url
    seat_urls: list[str] | None = None
    cluster = None
    with tempfile.TemporaryDirectory() as scratch:
        if args.processes:
            from spielwerk.web.local_cluster import LocalCluster

            serve = ["--tables-per-minute", "0", "--connections-per-address", "0"]
            serve += ["--bot-workers", "1"]
            cluster = LocalCluster(
                args.processes,
                serve_args=serve,
                connections_per_address=60_000,
                requests_per_second=100_000,
                request_burst=100_000,
            ).start()
            base_url = cluster.url
            if args.spread:
                seat_urls = [server.base for server in cluster.servers]
        elif base_url is None:
            port = free_port()
            base_url = f"http://127.0.0.1:{port}"
            db = args.db or f"sqlite:///{Path(scratch) / 'load.db'}"
            command = [*SERVE_COMMAND, "--port", str(port), "--db", db, "--bot-workers", "1"]
            # Every table and every seat's connection comes from this one address.
            command += ["--tables-per-minute", "0", "--connections-per-address", "0"]
            process = subprocess.Popen(
                command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
            )
            _wait_up(base_url, process)
        try:
            report = asyncio.run(
                run_load(
                    base_url,
                    args.tables,
                    args.seats,
                    args.game,
                    seed=args.seed,
                    think=args.think,
                    seat_urls=seat_urls,
                )
            )
            report.processes = max(1, args.processes)
        except RuntimeError as error:  # a refused table: say why, without a traceback
            sys.exit(f"loadtest: {error}")
        finally:
            if process is not None:
                process.terminate()
                process.wait(30)
            if cluster is not None:
                cluster.stop()
    print(json.dumps(report.summary(), indent=2))
    if report.errors or report.unanswered:
        sys.exit(1)


if __name__ == "__main__":
    main()
