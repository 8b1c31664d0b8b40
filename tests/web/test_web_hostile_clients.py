"""One hostile client against a real `spielwerk serve` (issue 35): it must not lock players out,
take the server down, or pass for the page's own words.

The attacker and the players come from different loopback addresses (127.0.0.2 and up are
loopback too), so the per-address limits are those a public server applies. Every server here
runs with its default limits (`per_address_limits=True`), the way `spielwerk serve` starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import subprocess
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_client import Player
from web_parts import Server
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus
from websockets.protocol import State

from spielwerk.web.loadtest import SERVE_COMMAND, free_port
from spielwerk.web.tables import SPECTATOR_IDLE_CODE

ATTACKER = "127.0.0.2"


def limited_server(tmp_path: Path, *extra: str) -> Server:
    return Server(
        f"sqlite:///{tmp_path / 'spielwerk.db'}",
        log_path=tmp_path / "serve.log",
        per_address_limits=True,
        extra_args=list(extra),
    ).start()


async def open_from(
    server: Server, address: str, count: int
) -> list[tuple[asyncio.StreamReader, asyncio.StreamWriter]]:
    """`count` TCP connections to the server from `address` (each left as it is)."""
    opened = []
    for _ in range(count):
        with contextlib.suppress(OSError):
            opened.append(
                await asyncio.open_connection("127.0.0.1", server.port, local_addr=(address, 0))
            )
    return opened


async def closed_by_server(reader: asyncio.StreamReader, timeout: float) -> bytes:
    """What the server sent before it closed the connection (fails if it stays open). A
    server that closes a connection with unread data in it resets it: closed all the same."""
    received = b""
    async with asyncio.timeout(timeout):
        with contextlib.suppress(ConnectionError):
            while chunk := await reader.read(65536):
                received += chunk
    return received


def spectator(server: Server, table_id: str) -> Player:
    return Player(server.ws_base, table_id)


@contextlib.asynccontextmanager
async def watching(server: Server, table_id: str, address: str) -> AsyncIterator[Player]:
    player = spectator(server, table_id)
    try:
        yield player
    finally:
        await player.close()


def two_players(server: Server) -> dict[str, Any]:
    """A Tintenherz table of two people; the creator holds seat 1, the invitee seat 2."""
    return server.create("inkheart_dice", ["human", "human"])


async def join_from(player: Player, address: str) -> int | None:
    """Join from `address`; None if welcomed, else the close code of the refusal."""
    player.ws = await connect(player.url, open_timeout=60, local_addr=(address, 0))
    player._reader = asyncio.create_task(player._read())
    hello: dict[str, Any] = {"type": "hello"}
    if player.token is not None:
        hello["token"] = player.token
    await player.send(hello)
    await player.wait(
        lambda: player.state is not None or player.closed, 60, "the first state or a refusal"
    )
    return None if player.state is not None else player.close_code


# ---------------------------------------------------------------------- 1: spectators
def test_spectators_never_keep_a_player_from_their_seat(tmp_path: Path) -> None:
    """Issue 35, item 1: 64 spectators on a table (from eight addresses) used to close the
    table to its own players (4429 "this table has too many connections"). Spectators are
    capped per table; the seat holders connect whatever their number."""
    server = limited_server(tmp_path)
    try:
        created = two_players(server)
        creator, invitee = (s["token"] for s in created["seats"])

        async def scenario() -> None:
            crowd = [spectator(server, created["id"]) for _ in range(64)]
            try:
                answers = [
                    await join_from(p, f"127.0.0.{10 + i // 8}") for i, p in enumerate(crowd)
                ]
                admitted = answers.count(None)
                assert admitted == 32, answers  # the table's spectator limit
                assert set(answers) == {None, 4429}
                for token in (creator, invitee):
                    async with Player(server.ws_base, created["id"], token) as player:
                        assert player.state is not None and player.state["seat"] is not None
            finally:
                for p in crowd:
                    await p.close()

        asyncio.run(scenario())
    finally:
        server.stop()


def test_one_address_watches_a_few_tables_at_most(tmp_path: Path) -> None:
    """Issue 35, item 1: one address holds at most 8 spectator connections on the server;
    another address still watches, and a seat holder from the first address still plays."""
    server = limited_server(tmp_path)
    try:
        tables = [two_players(server) for _ in range(3)]

        async def scenario() -> None:
            crowd = [spectator(server, tables[i % 3]["id"]) for i in range(10)]
            try:
                answers = [await join_from(p, ATTACKER) for p in crowd]
                assert answers.count(None) == 8 and answers[8:] == [4429, 4429], answers
                other = spectator(server, tables[0]["id"])
                assert await join_from(other, "127.0.0.3") is None
                await other.close()
                seat = Player(server.ws_base, tables[1]["id"], tables[1]["seats"][0]["token"])
                assert await join_from(seat, ATTACKER) is None
                await seat.close()
            finally:
                for p in crowd:
                    await p.close()

        asyncio.run(scenario())
    finally:
        server.stop()


def test_spectators_of_a_table_where_nothing_happens_are_let_go(tmp_path: Path) -> None:
    """Issue 35, item 1: pings kept idle spectators forever. After `--spectator-idle`
    minutes without a move a spectator is closed (4410: the page says why and offers to
    watch again); the players stay."""
    server = limited_server(tmp_path, "--spectator-idle", "0.02")  # 1.2 s
    try:
        created = two_players(server)

        async def scenario() -> None:
            async with (
                watching(server, created["id"], "127.0.0.3") as watcher,
                Player(server.ws_base, created["id"], created["seats"][0]["token"]) as seat,
            ):
                assert await join_from(watcher, "127.0.0.3") is None
                await watcher.send({"type": "ping"})  # pinging does not keep it
                await watcher.wait(lambda: watcher.closed, 120, "the idle spectator's close")
                assert watcher.close_code == SPECTATOR_IDLE_CODE
                await seat.send({"type": "ping"})
                await seat.wait(lambda: seat.pongs > 0, 60, "the seat's pong")
                assert not seat.closed

        asyncio.run(scenario())
    finally:
        server.stop()


def test_thousands_of_idle_websockets_from_one_address_lock_nobody_out(tmp_path: Path) -> None:
    """Issue 35, items 1 and 2: 4,096 websockets from one address made every player get "the
    server has too many connections". One address now opens 32 connections at most (the
    rest are answered 429 at once) and watches with 8; while it holds them, another
    address's lobby, a new table and a move are answered."""
    server = limited_server(tmp_path)
    try:
        created = two_players(server)

        async def idle_websocket(held: list[Any]) -> bool:
            try:
                ws = await connect(
                    f"{server.ws_base}/ws/tables/{created['id']}",
                    open_timeout=120,
                    local_addr=(ATTACKER, 0),
                )
            except (InvalidStatus, OSError):
                return False
            held.append(ws)
            await ws.send(json.dumps({"type": "hello"}))
            return True

        async def scenario() -> None:
            held: list[Any] = []
            try:
                for _ in range(22):  # 4,400 in batches
                    await asyncio.gather(*(idle_websocket(held) for _ in range(200)))
                open_at_once = sum(1 for ws in held if ws.state is State.OPEN)
                assert 8 <= open_at_once <= 32, open_at_once
                async with httpx.AsyncClient(base_url=server.base, timeout=60) as client:
                    assert (await client.get("/api/tables")).status_code == 200
                    body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2}
                    assert (await client.post("/api/tables", json=body)).status_code == 201
                seat = created["seats"][0]["token"]
                async with Player(server.ws_base, created["id"], seat) as player:
                    assert player.state is not None
                    if player.my_turn:
                        answer = await player.act(player.state["legal"][0]["action"])
                        assert answer["type"] == "state", answer
            finally:
                for ws in held:
                    await ws.close()

        asyncio.run(scenario())
    finally:
        server.stop()


# ---------------------------------------------------------------------- 2: slow clients
def test_slow_headers_are_cut_off_and_everybody_else_is_served(tmp_path: Path) -> None:
    """Issue 35, item 2 (slowloris): 4,400 sockets each sending a header line now and then
    made every request answer 503. A header must now arrive within `--header-timeout` (408
    and closed); one address gets 32 connections; another address is answered all along."""
    server = limited_server(tmp_path, "--header-timeout", "2")
    try:

        async def scenario() -> None:
            held = await open_from(server, ATTACKER, 4400)
            for _, writer in held:
                with contextlib.suppress(OSError):
                    writer.write(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            try:
                async with httpx.AsyncClient(base_url=server.base, timeout=60) as client:
                    for path in ("/", "/api/tables", "/healthz"):
                        assert (await client.get(path)).status_code == 200, path
                # The admitted slow ones: one more line each, then cut off with 408.
                admitted = [(r, w) for r, w in held if not r.at_eof()]
                for _, writer in admitted:
                    with contextlib.suppress(OSError):
                        writer.write(b"X-Slow: 1\r\n")
                answers = await asyncio.gather(
                    *(closed_by_server(r, 120) for r, _ in admitted), return_exceptions=True
                )
                timed_out = [a for a in answers if isinstance(a, bytes) and b" 408 " in a]
                assert len(timed_out) >= 1 and all(isinstance(a, bytes) for a in answers), answers
            finally:
                for _, writer in held:
                    writer.close()

        asyncio.run(scenario())
    finally:
        server.stop()


def server_memory_kb(server: Server) -> int:
    assert server.process is not None
    status = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines() if line.startswith("VmRSS")))


def test_unfinished_record_uploads_neither_fill_memory_nor_stay(tmp_path: Path) -> None:
    """Issue 35, item 2: 200 unfinished 2 MiB bodies to /api/replays grew the server by
    ~2 MB each. Bodies are read one upload at a time, within `--body-timeout` (then 408):
    the server's memory hardly grows and every connection ends."""
    server = limited_server(tmp_path, "--body-timeout", "3")
    try:
        before = server_memory_kb(server)

        async def upload_almost(address: str) -> tuple[asyncio.StreamReader, Any] | None:
            try:
                reader, writer = await asyncio.open_connection(
                    "127.0.0.1", server.port, local_addr=(address, 0)
                )
            except OSError:
                return None
            size = 2 * 1024 * 1024
            writer.write(
                b"POST /api/replays HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % size
            )
            writer.write(b"[" + b" " * (size - 4096))  # all but the last 4 KiB, then nothing
            return reader, writer

        async def scenario() -> int:
            started = await asyncio.gather(
                *(upload_almost(f"127.0.0.{20 + i % 10}") for i in range(200))
            )
            held = [s for s in started if s is not None]
            grown = 0
            try:
                answers = await asyncio.gather(
                    *(closed_by_server(r, 300) for r, _ in held), return_exceptions=True
                )
                assert all(isinstance(a, bytes) for a in answers), answers
                grown = server_memory_kb(server) - before
            finally:
                for _, writer in held:
                    writer.close()
            return grown

        grown = asyncio.run(scenario())
        assert grown < 60_000, f"the server grew by {grown} kB"
        assert httpx.get(f"{server.base}/healthz", timeout=60).status_code == 200
    finally:
        server.stop()


# ---------------------------------------------------------------------- 4, 5: limits
async def pass_to_the_end(player: Player) -> dict[str, Any]:
    """Tainted Grail: pass whenever it is this seat's turn (the days end soon); the end."""
    while not (state := await player.until(lambda s: s["over"] or bool(s["legal"]), 300))["over"]:
        entry = next(
            (e for e in state["legal"] if e["action"]["type"] == "pass"), state["legal"][0]
        )
        await player.act(entry["action"])
    return state


def test_a_rematch_counts_against_the_new_tables_limit(tmp_path: Path) -> None:
    """Issue 35, item 4: "Play again" made 200 tables in 11.6 s from one address while
    `POST /api/tables` was limited. A rematch is a new table: within the address's limit
    (here one a minute, used up by the first table) it is refused, saying when to try."""
    server = limited_server(tmp_path, "--tables-per-minute", "1")
    try:
        created = server.create("tainted_grail", ["human", "heuristic"])

        async def scenario() -> None:
            async with Player(server.ws_base, created["id"], created["seats"][0]["token"]) as ada:
                await pass_to_the_end(ada)
                answer = await ada.request({"type": "rematch"})
                assert answer["type"] == "error", answer
                assert answer["message"].startswith("too many new tables from this address")
                assert ada.state is not None and ada.state["rematch"] is None

        asyncio.run(scenario())
        body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2}
        answer = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
        assert answer.status_code == 429  # the limit is one for both ways
    finally:
        server.stop()


def test_records_opened_in_the_viewer_have_a_limit_per_address(tmp_path: Path) -> None:
    """Issue 35, item 5: uploads had no limit. Six a minute per address (the seventh: 429
    with Retry-After); another address still opens one."""
    server = limited_server(tmp_path)
    try:
        import spielwerk

        state = spielwerk.load("inkheart_dice").new_state(2, seed=3)
        import random

        rng = random.Random(3)
        while not state.is_terminal():
            state.apply(
                state.sample_chance(rng)
                if state.to_move < 0
                else rng.choice(state.legal_actions(state.to_move)),
                player=state.to_move,
            )
        record = json.dumps(state.to_record())
        headers = {"content-type": "application/json"}
        codes = [
            httpx.post(f"{server.base}/api/replays", content=record, headers=headers, timeout=60)
            for _ in range(7)
        ]
        assert [c.status_code for c in codes] == [201] * 6 + [429], [c.text for c in codes]
        assert int(codes[-1].headers["retry-after"]) > 0
        with httpx.Client(transport=httpx.HTTPTransport(local_address="127.0.0.3")) as other:
            answer = other.post(
                f"{server.base}/api/replays", content=record, headers=headers, timeout=60
            )
            assert answer.status_code == 201, answer.text
    finally:
        server.stop()


# ---------------------------------------------------------------------- 6: names
@pytest.mark.parametrize(
    "name",
    [
        "\u115f",  # Hangul choseong filler: a "letter" that shows nothing
        "\u3164\u3164",  # Hangul filler
        "\u2800\u2800",  # braille blank
        "Ada\u3164",  # passes for "Ada"
        "Z" + "\u0301" * 31,  # marks stacked over the names around it
        "Ada (you)",
        "Seat 1",
        "Platz 2",
        "bot Beginner (heuristic)",
        "Hard bot",
        "\uff22\uff2f\uff34",  # BOT in full-width letters
        "Zuschauer",
    ],
)
def test_names_that_show_nothing_or_pass_for_the_page_are_refused(
    shared_server: Server, name: str
) -> None:
    """Issue 35, item 6: invisible names, names buried in combining marks, and names made of
    the page's own words ("(you)", "Seat 1", "bot ...") are refused with a reason, both when
    creating a table and when taking a seat; nothing is created or claimed."""
    body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2, "claim": 0, "name": name}
    answer = httpx.post(f"{shared_server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 400 and "name" in answer.json()["message"], answer.text
    created = httpx.post(
        f"{shared_server.base}/api/tables",
        json={**body, "name": "Ada"},
        timeout=60,
    ).json()
    invitation = created["seats"][1]["invitation"]
    refused = shared_server.claim(created["id"], invitation, name)
    assert refused.status_code == 403 and "name" in refused.json()["message"], refused.text
    taken = shared_server.claim(created["id"], invitation, "Bea")  # the invitation still works
    assert taken.status_code == 200, taken.text


@pytest.mark.parametrize("name", ["Jörg", "Nguyễn Thị", "李白", "Zoë-Marie", "Ōta 2", "O'Brien"])
def test_names_in_every_script_are_welcome(shared_server: Server, name: str) -> None:
    body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2, "claim": 0, "name": name}
    answer = httpx.post(f"{shared_server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 201, answer.text
    assert shared_server.summary(answer.json()["id"])["seats"][0]["name"] == name


# ---------------------------------------------------------------------- 7: a damaged file
def test_a_damaged_sqlite_file_stops_the_server_with_a_clear_message(tmp_path: Path) -> None:
    """Issue 35, item 7: a file whose pages after the first 8 KiB were overwritten started a
    server that answered /healthz "ok" and 503 for every table, retrying forever. The start
    now checks the file and stops, saying what is wrong and what to do."""
    db = tmp_path / "spielwerk.db"
    server = Server(f"sqlite:///{db}", log_path=tmp_path / "serve.log").start()
    for _ in range(30):
        server.create("witches", ["human", "random", "random"])
    server.stop()
    data = bytearray(db.read_bytes())
    assert len(data) > 16384, len(data)
    data[8192:] = bytes((i * 131 + 7) % 256 for i in range(len(data) - 8192))
    db.write_bytes(bytes(data))
    started = subprocess.run(
        [*SERVE_COMMAND, "--port", str(free_port()), "--db", f"sqlite:///{db}"],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert started.returncode != 0
    assert "damaged" in started.stderr and "backup" in started.stderr, started.stderr
    assert "Traceback" not in started.stderr


# ---------------------------------------------------------------------- 8: host names
def test_only_the_configured_host_names_are_answered(tmp_path: Path) -> None:
    """Issue 35, item 8: the origin check compared Origin with Host only, so a page on
    evil.com that resolves to this server (DNS rebinding) created tables. Requests for a
    host name the server was not told are refused (421, and websockets closed), by default
    all but the listening address and localhost; `--allowed-host` names more."""
    server = limited_server(tmp_path, "--allowed-host", "games.example.org")
    try:
        body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2, "claim": 0}
        evil = {"Host": "evil.com", "Origin": "http://evil.com"}
        for path in ("/", "/api/tables", "/healthz"):
            answer = httpx.get(f"{server.base}{path}", headers=evil, timeout=60)
            assert answer.status_code == 421, (path, answer.text)
        answer = httpx.post(f"{server.base}/api/tables", json=body, headers=evil, timeout=60)
        assert answer.status_code == 421, answer.text
        assert httpx.get(f"{server.base}/api/tables", timeout=60).json() == []  # none created
        for host in (f"localhost:{server.port}", "games.example.org", "127.0.0.1"):
            origin = {"Host": host, "Origin": f"http://{host}"}
            answer = httpx.post(f"{server.base}/api/tables", json=body, headers=origin, timeout=60)
            assert answer.status_code == 201, (host, answer.text)
        created = answer.json()

        async def websocket(host: str) -> int | None:
            try:
                async with connect(  # a page of `host` that resolves to this server
                    f"ws://{host}:{server.port}/ws/tables/{created['id']}",
                    host="127.0.0.1",
                    port=server.port,
                    origin=f"http://{host}:{server.port}",  # type: ignore[arg-type]
                    open_timeout=60,
                ) as ws:
                    await ws.send(json.dumps({"type": "hello"}))
                    json.loads(await ws.recv())
                    return None
            except InvalidStatus as error:
                return error.response.status_code

        assert asyncio.run(websocket("evil.com")) == 403
        assert asyncio.run(websocket("games.example.org")) is None
    finally:
        server.stop()
