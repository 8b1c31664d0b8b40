"""Every refused request says why and changes nothing: wrong or missing tokens, acting for
another seat, out of turn, illegal and malformed actions, oversized messages and bodies."""

from __future__ import annotations

import asyncio
import json
import sqlite3
from typing import Any

import httpx
import pytest
from web_client import Player
from web_parts import Server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


def tintenherz_table(server: Server) -> tuple[str, list[str]]:
    created: Any = server.create("inkheart_dice", ["human", "human"])
    return created["id"], [created["seats"][0]["token"], created["seats"][1]["token"]]


async def _close_code(url: str, first: str) -> tuple[list[dict[str, Any]], int | None]:
    """Send one message on a fresh connection; the messages received and the close code."""
    received: list[dict[str, Any]] = []
    async with connect(url) as ws:
        await ws.send(first)
        try:
            while True:
                received.append(json.loads(await asyncio.wait_for(ws.recv(), 10)))
        except ConnectionClosed as closed:
            return received, closed.rcvd.code if closed.rcvd else None
    return received, None


def test_wrong_missing_and_foreign_tokens_are_refused(shared_server: Server) -> None:
    table_id, tokens = tintenherz_table(shared_server)
    other_id, other_tokens = tintenherz_table(shared_server)
    url = f"{shared_server.ws_base}/ws/tables/{table_id}"
    before = shared_server.steps(table_id)

    async def scenario() -> None:
        for token in ("not-a-token", other_tokens[0], tokens[0] + "x"):
            received, code = await _close_code(url, json.dumps({"type": "hello", "token": token}))
            assert code == 4403
            assert received == [
                {
                    "type": "error",
                    "message": "this seat token does not belong to this table",
                    "code": "refused",  # the page words it by the close code
                }
            ]
        # Acting before saying hello: refused, connection closed.
        act = {"type": "act", "action": {"type": "end_turn"}, "version": 0}
        received, code = await _close_code(url, json.dumps(act))
        assert code == 4400 and received[0]["type"] == "error"
        assert "hello" in received[0]["message"]
        # An unknown table.
        missing = f"{shared_server.ws_base}/ws/tables/nosuchtable"
        received, code = await _close_code(missing, json.dumps({"type": "hello"}))
        assert code == 4404 and "no table" in received[0]["message"]

    asyncio.run(scenario())
    assert shared_server.steps(table_id) == before
    assert shared_server.steps(other_id) == 5  # four cards turned up, first roll


def test_seat_cannot_act_for_another_seat_or_out_of_turn(shared_server: Server) -> None:
    table_id, tokens = tintenherz_table(shared_server)

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, table_id, tokens[0]) as first,
            Player(shared_server.ws_base, table_id, tokens[1]) as second,
            Player(shared_server.ws_base, table_id) as spectator,
        ):
            assert first.state and second.state
            version = first.state["version"]
            assert first.state["to_move"] == [0] and first.state["legal"]
            assert second.state["legal"] == []
            legal = first.state["legal"][0]["action"]

            def act(action: dict[str, Any], **more: Any) -> dict[str, Any]:
                return {"type": "act", "action": action, "version": version, **more}

            text = await second.expect_error(act(legal))
            assert text == "it is not your turn (seat 1); wait for the others"
            text = await second.expect_error(act(legal, seat=0))
            assert text == "your token is for seat 1: you cannot act for seat 0"
            text = await first.expect_error(act(legal, seat=1))
            assert text == "your token is for seat 0: you cannot act for seat 1"
            text = await spectator.expect_error(act(legal))
            assert text == "spectators cannot act: open a seat link to play"

            # Illegal for the seat to move: an action of the game that is not legal now, one
            # that the game does not have, and nonsense.
            text = await first.expect_error(act({"type": "steal", "card": "Farid"}))
            assert text.startswith("illegal action: steal card=Farid is not legal for player 0")
            text = await first.expect_error(act({"type": "fly"}))
            assert text.startswith("illegal action: no such action in this game")
            text = await first.expect_error(act({"type": "take", "card": 7}))
            assert text.startswith("illegal action")

            # Nothing changed anywhere: the seat to move still plays its first legal action.
            answer = await first.act(legal)
            assert answer["type"] == "state" and answer["version"] > version

    asyncio.run(scenario())


@pytest.mark.parametrize(
    ("message", "reason"),
    [
        ("not json", "malformed message"),
        ("[1, 2]", "malformed message"),
        ('{"type": "teleport"}', "malformed message"),
        ('{"type": "act"}', "malformed message: act.action: Field required"),
        ('{"type": "act", "action": "take", "version": 5}', "malformed message: act.action"),
        ('{"type": "act", "action": {"type": "end_turn"}}', "act.version: Field required"),
        ('{"type": "act", "action": {"type": "end_turn"}, "version": -1}', "act.version"),
        ('{"type": "act", "action": {"type": "end_turn"}, "extra": 1}', "malformed message"),
        ('{"type": "act", "action": {"type": "end_turn"}, "seat": -1}', "malformed message"),
        ('{"type": "hello", "token": "again"}', "already joined"),
        ('{"type": "act", "action": {"type": "x", "k": "' + "y" * 300 + '"}}', "malformed"),
        ('{"type": "act", "action": {"type": "x", "p": "' + "y" * 5000 + '"}}', "larger than 4096"),
    ],
)
def test_malformed_messages_are_refused_with_a_reason(
    shared_server: Server, message: str, reason: str
) -> None:
    table_id, tokens = tintenherz_table(shared_server)

    async def scenario() -> None:
        async with Player(shared_server.ws_base, table_id, tokens[0]) as player:
            text = await player.expect_error(message)  # answered by a pong after it
            assert reason in text
            assert not player.closed  # still connected, still served

    before = shared_server.steps(table_id)
    asyncio.run(scenario())
    assert shared_server.steps(table_id) == before


def test_huge_frames_close_the_connection(shared_server: Server) -> None:
    table_id, tokens = tintenherz_table(shared_server)

    async def scenario() -> int | None:
        async with Player(shared_server.ws_base, table_id, tokens[0]) as player:
            await player.send("x" * 100_000)
            await player.wait(lambda: player.closed, 30, "the close")
            return player.close_code

    assert asyncio.run(scenario()) == 1009  # "message too big", before the app reads it
    assert shared_server.steps(table_id) == 5


def test_binary_messages_and_floods_are_refused(shared_server: Server) -> None:
    table_id, tokens = tintenherz_table(shared_server)

    async def scenario() -> None:
        async with Player(shared_server.ws_base, table_id, tokens[0]) as player:
            assert player.ws is not None
            errors = len(player.errors)
            await player.ws.send(b'{"type": "ping"}')
            await player.wait(lambda: len(player.errors) > errors, 30, "error")
            assert player.errors[-1] == "send JSON text messages, not binary ones"
            # A client that sends far more than a person could is disconnected.
            for _ in range(200):
                await player.send({"type": "ping"})
            await player.wait(lambda: player.closed, 30, "the close")
            assert player.close_code == 4429 and player.errors[-1] == "too many messages"

    asyncio.run(scenario())
    assert shared_server.steps(table_id) == 5


def test_http_requests_are_validated_and_bounded(shared_server: Server) -> None:
    base = shared_server.base
    json_type = {"Content-Type": "application/json"}
    post = lambda body: httpx.post(  # noqa: E731
        f"{base}/api/tables", content=body, headers=json_type, timeout=10
    )
    big = post(b'{"game": "witches", "pad": "' + b"x" * 20_000 + b'"}')
    assert big.status_code == 413
    assert big.json() == {
        "type": "error",
        "message": "request body larger than 16384 bytes",
        "code": "refused",
    }

    def refused(body: dict[str, Any], status: int, text: str) -> None:
        answer = httpx.post(f"{base}/api/tables", json=body, timeout=60)
        assert answer.status_code == status, answer.text
        assert answer.json()["type"] == "error" and text in answer.json()["message"]

    human = {"kind": "human"}
    refused({"game": "chess", "seats": [human, human]}, 400, "unknown game 'chess'")
    refused({"game": "witches", "seats": [human]}, 400, "takes 2 to 6 players, not 1")
    refused({"game": "witches", "seats": [human] * 13}, 422, "seats")
    refused(
        {"game": "witches", "options": {"wheel": "sideways"}, "seats": [human] * 2},
        400,
        "option 'wheel' must be one of descending, ascending",
    )
    refused(
        {"game": "witches", "options": {"start_player": 3}, "seats": [human] * 2},
        400,
        "start_player 3 does not exist with 2 players",
    )
    refused(
        {"game": "witches", "seats": [human, {"kind": "bot", "bot": "genius"}]},
        400,
        "seat 1: unknown seat 'genius'",
    )
    refused(
        {"game": "witches", "seats": [human, {"kind": "bot", "bot": "mcts:9999999"}]},
        400,
        "at most 20000 iterations",
    )
    refused(
        {"game": "witches", "seats": [human, {"kind": "bot", "bot": "best:600s"}]},
        400,
        "at most 5 s a move on this server",
    )
    refused({"game": "witches", "seats": [human, {"kind": "robot"}]}, 422, "seats.1.kind")
    refused({"game": "witches", "seats": [human, human], "x": 1}, 422, "x")
    assert post(b"{not json").status_code == 422
    assert httpx.get(f"{base}/api/tables/nosuchtable", timeout=60).status_code == 404

    page = httpx.get(f"{base}/", timeout=60)
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"


def test_tokens_are_stored_only_as_hashes(server: Server) -> None:
    created: Any = server.create("witches", ["human", "human", "heuristic"])
    tokens = [seat["token"] for seat in created["seats"] if seat["token"]]
    assert len(tokens) == 2
    listing = httpx.get(f"{server.base}/api/tables", timeout=60).text
    table = httpx.get(f"{server.base}/api/tables/{created['id']}", timeout=60).text
    for token in tokens:
        assert token not in listing and token not in table
    path = server.db_url.removeprefix("sqlite:///")
    server.stop()  # flush the WAL into the file
    with sqlite3.connect(path) as db:
        dump = "\n".join(db.iterdump())
    for token in tokens:
        assert token not in dump


def test_one_address_may_open_only_so_many_tables_a_minute(sqlite_url: str) -> None:
    """A script hammering table creation gets 429 with Retry-After, and no table is stored."""
    server = Server(sqlite_url, tables_per_minute=3).start()
    try:
        for _ in range(3):
            server.create("witches", ["human", "random"])
        listed = len(httpx.get(f"{server.base}/api/tables", timeout=30).json())
        body = {"game": "witches", "seats": [{"kind": "human"}, {"kind": "human"}]}
        refused = httpx.post(f"{server.base}/api/tables", json=body, timeout=30)
        assert refused.status_code == 429
        assert "at most 3 a minute" in refused.json()["message"]
        assert 0 < int(refused.headers["retry-after"]) <= 60
        assert len(httpx.get(f"{server.base}/api/tables", timeout=30).json()) == listed == 3
    finally:
        server.stop()
