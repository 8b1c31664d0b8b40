"""Several `spielwerk serve` processes on one PostgreSQL (issue 39): any process serves any
table. Seats of one table connected to different processes see every move, chat line and undo
in order, exactly once; a process killed with SIGKILL hands its tables' bots to another, which
finishes the games with no step lost or doubled and no bot decision made twice.
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from pathlib import Path
from typing import Any

import psycopg
import pytest
from web_client import Player
from web_parts import PostgresServer, Server, stored_record, wait_until

import spielwerk
from spielwerk.web.catalog import web_games
from spielwerk.web.storage import Storage

PLAYERS = {"witches": 3, "inkheart_dice": 2, "isolde": 3, "inkspell": 2, "tainted_grail": 2}


@pytest.fixture(scope="module")
def two_processes(postgres: PostgresServer, tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Two processes on one database, shared by the tests that kill neither (each plays its
    own tables)."""
    url, logs = postgres.create_database(), tmp_path_factory.mktemp("two")
    servers = [Server(url, log_path=logs / f"serve-{i}.log").start() for i in range(2)]
    try:
        yield servers
    finally:
        for server in servers:
            server.stop()


async def play_on(player: Player, rng: random.Random) -> None:
    """Random legal moves whenever this seat may act; a chat line now and then."""
    said = 0
    while True:
        state = await player.until(lambda s: s["over"] or bool(s["legal"]), 600)
        if state["over"]:
            return
        if said < 2 and rng.random() < 0.05:
            said += 1
            await player.request({"type": "chat", "text": f"seat {state['seat']} line {said}"})
        answer = await player.act(rng.choice(state["legal"])["action"])
        if answer["type"] == "error":  # chosen while another seat's move was on its way
            assert "earlier state" in answer["message"], answer


@pytest.mark.parametrize("game", sorted(web_games()))
def test_seats_on_two_processes_play_a_whole_game(two_processes: list[Server], game: str) -> None:
    """The seats of one table alternate between the two processes; every seat plays random
    moves to the end. Each page gets every log line once and in order (the client checks it
    as they arrive), every chat line once, and versions that only grow; all pages end with
    the same number of log lines as steps stored, and the stored log replays."""
    first, second = two_processes
    created = first.create(game, ["human"] * PLAYERS[game])
    seats = created["seats"]

    async def scenario() -> list[Player]:
        players = [
            Player((first if i % 2 == 0 else second).ws_base, created["id"], s["token"])
            for i, s in enumerate(seats)
        ]
        for player in players:
            await player.join()
        versions: dict[int, list[int]] = {i: [] for i in range(len(players))}

        def watch(i: int, player: Player) -> None:
            if player.state is not None:
                versions[i].append(player.state["version"])

        rngs = [random.Random(11 + i) for i in range(len(players))]
        await asyncio.gather(*(play_on(p, r) for p, r in zip(players, rngs, strict=True)))
        steps = len(players[0].log)
        for i, player in enumerate(players):
            await player.wait(lambda p=player: len(p.log) == steps, 60, "every line")
            watch(i, player)
            seen = [m["version"] for m in player.messages if m["type"] == "state"]
            assert seen == sorted(seen), f"seat {i}: versions went back: {seen}"
            chat = [line["i"] for line in player.chat]
            assert len(chat) == len(set(chat)) and chat == sorted(chat), chat
        chats = {len(p.chat) for p in players}
        assert len(chats) == 1, chats
        for player in players:
            await player.close()
        return players

    players = asyncio.run(scenario())
    storage = Storage(first.db_url)
    try:
        record = stored_record(storage, created["id"])
    finally:
        storage.close()
    final = spielwerk.replay(record)
    assert final.is_terminal()
    assert len(record["actions"]) == len(players[0].log)


def bot_moves(log: str) -> list[tuple[str, int]]:
    """(table, version) of every bot move a server log says it made."""
    return [
        (m.group(1), int(m.group(2)))
        for m in re.finditer(r"table (\S+): bot \S+ \(seat \d+\) moved at version (\d+)", log)
    ]


def test_a_killed_process_hands_its_bots_to_another(
    postgres: PostgresServer, postgres_url: str, tmp_path: Path
) -> None:
    """Tables of bots only are started on the first process, which is killed with SIGKILL
    in the middle of their games. The second finishes every game: the stored logs replay to
    the end, every step once (the versions count the steps), and no bot move was made by
    both processes."""
    first = Server(postgres_url, log_path=tmp_path / "a.log", bot_delay=0.05).start()
    second = Server(postgres_url, log_path=tmp_path / "b.log", bot_delay=0.05).start()
    try:
        games = ["witches", "inkheart_dice", "isolde", "inkspell", "tainted_grail"]
        tables = [first.create(g, ["heuristic"] * PLAYERS[g])["id"] for g in games]
        # Mid-game: every table has moved (on the first process, which drives them).
        wait_until(lambda: all(first.steps(t) > 8 for t in tables), 300, "the games to start")
        first.kill()
        wait_until(
            lambda: all(second.summary(t)["finished"] for t in tables), 600, "the games to end"
        )
        storage = Storage(postgres_url)
        try:
            for table_id in tables:
                record = stored_record(storage, table_id)
                assert spielwerk.replay(record).is_terminal()
                row = storage.load_table(table_id)
                assert row is not None and row.revision == len(record["actions"]) == row.steps
        finally:
            storage.close()
        moves = bot_moves(first.log()) + bot_moves(second.log())
        twice = [move for move, count in Counter(moves).items() if count > 1]
        assert twice == [], twice
        assert bot_moves(second.log()), "the second process made no move: nothing was adopted"
    finally:
        second.stop()
        first.stop()


def test_an_undo_on_one_process_is_seen_and_guarded_on_the_other(
    two_processes: list[Server],
) -> None:
    """Tainted Grail: Ada (first process) travels to the orchard, Bea (second) is asked to
    join, in that version. Ada takes it back and travels to the well. Bea's page hears of the
    undo (its notice and a shorter log) and of the new trip; her answer chosen for the orchard
    is refused on her process, one chosen now is taken."""
    first, second = two_processes
    created = first.create("tainted_grail", ["human", "human"])
    ada_token, bea_token = (s["token"] for s in created["seats"])

    def trip(state: dict[str, Any], place: str) -> dict[str, Any]:
        return next(
            e["action"]
            for e in state["legal"]
            if e["action"]["type"] == "travel" and e["action"]["to"] == place
        )

    async def scenario() -> None:
        async with (
            Player(first.ws_base, created["id"], ada_token) as ada,
            Player(second.ws_base, created["id"], bea_token) as bea,
        ):
            start = await ada.until(lambda s: s["to_move"] == [0])
            await ada.act(trip(start, "orchard"))
            asked = await bea.until(lambda s: s["to_move"] == [1])
            join = next(e["action"] for e in asked["legal"] if e["action"]["type"] == "join")
            lines = len(bea.log)
            moved = ada.state
            assert moved is not None
            answer = await ada.request({"type": "undo", "version": moved["version"]})
            assert answer["type"] == "ok", answer
            told = await bea.until(lambda s: s["notice"] is not None)
            assert told["notice"] == {"kind": "undo", "seat": 0} and len(bea.log) == lines - 1
            back = await ada.until(lambda s: s["version"] == answer["version"])
            await ada.act(trip(back, "well"))
            again = await bea.until(
                lambda s: s["to_move"] == [1] and s["version"] > back["version"]
            )
            text = await bea.expect_error(
                {"type": "act", "action": join, "version": asked["version"], "ref": 77}
            )
            assert "earlier state" in text, text
            taken = await bea.act(join, version=again["version"])
            assert taken["type"] == "state", taken
            await ada.until(lambda s: s["version"] >= taken["version"])

    asyncio.run(scenario())


def test_who_is_here_counts_every_process(postgres_url: str, tmp_path: Path) -> None:
    """Ada plays through the first process, Bea through the second. Ada's page sees Bea
    here, and may not hand Bea's seat to a bot; Bea's process is killed: Ada's sees her gone
    (once the dead process counts as gone), and after the wait the seat goes to a bot."""
    servers = [
        Server(
            postgres_url,
            log_path=tmp_path / f"serve-{i}.log",
            extra_args=["--hand-over-after", "2"],
        ).start()
        for i in range(2)
    ]
    try:
        first, second = servers
        created = first.create("tainted_grail", ["human", "human"])
        ada_token, bea_token = (s["token"] for s in created["seats"])

        async def scenario() -> None:
            async with Player(first.ws_base, created["id"], ada_token) as ada:
                bea = Player(second.ws_base, created["id"], bea_token)
                await bea.join()
                await ada.until(lambda s: s["seats_now"][1]["here"], 60)
                text = await ada.expect_error({"type": "hand_over", "seat": 1})
                assert text == "seat 2 is here: nothing to hand over", text
                await asyncio.get_running_loop().run_in_executor(None, second.kill)
                await ada.until(lambda s: not s["seats_now"][1]["here"], 60)
                while True:
                    answer = await ada.request({"type": "hand_over", "seat": 1})
                    if answer["type"] == "ok":
                        break
                    wait = re.search(r"in (\d+) s$", answer["message"])
                    assert wait is not None, answer
                    await asyncio.sleep(int(wait.group(1)))
                await ada.until(lambda s: s["seats_now"][1]["sit_in"], 60)
                await bea.close()

        asyncio.run(scenario())
    finally:
        for server in servers:
            server.stop()


def test_a_move_made_while_another_process_reads_the_table_reaches_it(
    two_processes: list[Server],
) -> None:
    """Tainted Grail: Ada plays through the first process; Bea opens the table through the
    second, which reads it from the database. While that read waits (the test holds a lock
    on the chat the read ends with), Ada travels to the orchard and Bea is asked to join.
    The second process heard of Ada's move before its copy of the table was ready: once it
    is, Bea's page shows the move and her question (no stalled table)."""
    first, second = two_processes
    postgres_url = first.db_url  # the database both processes use
    created = first.create("tainted_grail", ["human", "human"])
    ada_token, bea_token = (s["token"] for s in created["seats"])

    def chat_read_waiting(conn: psycopg.Connection[Any]) -> bool:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' "
            "AND query ILIKE '%sw_chat%'"
        ).fetchone()
        return row is not None and row[0] > 0

    async def scenario() -> None:
        async with Player(first.ws_base, created["id"], ada_token) as ada:
            start = await ada.until(lambda s: s["to_move"] == [0])
            orchard = next(
                e["action"]
                for e in start["legal"]
                if e["action"]["type"] == "travel" and e["action"]["to"] == "orchard"
            )
            with (
                psycopg.connect(postgres_url) as locker,
                psycopg.connect(postgres_url, autocommit=True) as watcher,
            ):
                locker.execute("LOCK TABLE sw_chat IN ACCESS EXCLUSIVE MODE")
                bea = Player(second.ws_base, created["id"], bea_token)
                joining = asyncio.create_task(bea.join())
                loop = asyncio.get_running_loop()
                await loop.run_in_executor(
                    None,
                    wait_until,
                    lambda: chat_read_waiting(watcher),
                    60,
                    "the second process reading the table",
                )
                moved = await ada.act(orchard)
                assert moved["to_move"] == [1], moved
                # The second process's loop hears the notification of Ada's move before it
                # answers a request sent after that move was stored.
                await loop.run_in_executor(None, second.health)
                locker.commit()
            await joining
            asked = await bea.until(lambda s: s["version"] == moved["version"], 60)
            assert any(e["action"]["type"] == "join" for e in asked["legal"]), asked
            await bea.close()

    asyncio.run(scenario())
