"""The table's chat at a real server (issue 36, item 1): the players talk, spectators where the
creator allows it; lines are stored with the table, bounded, and never part of what a seat's
view or a bot's input holds.
"""

from __future__ import annotations

import asyncio
import json
import pickle
import random
from pathlib import Path
from typing import Any

import httpx
from web_client import Player
from web_parts import Server

from spielwerk.web.bots import BotPool, BotRequest
from spielwerk.web.protocol import Chat, CreateTable, SeatRequest
from spielwerk.web.storage import ChatRow, Storage
from spielwerk.web.tables import CHAT_LINES, TableHub, state_message

MARKER = "Zebrafink-7Q"
"""A word no game ever shows: if it turns up in a view, the chat leaked into it."""


def create(server: Server, seats: list[str], **extra: Any) -> dict[str, Any]:
    body = {
        "game": "inkheart_dice",
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "claim": 0,
        "name": "Ada",
        **extra,
    }
    answer = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 201, answer.text
    return server.claim_all(answer.json())


def test_players_talk_and_spectators_read(shared_server: Server) -> None:
    """Ada writes a line and a quick phrase; Bea and a spectator get both, in order, with the
    seat that wrote them; markup stays text. A spectator may not write (the creator did not
    allow it). A page that joins later gets the lines already written."""
    created = create(shared_server, ["human", "human"])
    ada_token, bea_token = (s["token"] for s in created["seats"])

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, created["id"], ada_token) as ada,
            Player(shared_server.ws_base, created["id"], bea_token) as bea,
            Player(shared_server.ws_base, created["id"]) as watcher,
        ):
            assert ada.welcome is not None and ada.welcome["chat"] is True
            assert watcher.welcome is not None and watcher.welcome["chat"] is False
            said = await ada.request({"type": "chat", "text": "  Hallo <b>Bea</b>  & co "})
            assert said["type"] == "ok", said
            await ada.request({"type": "chat", "phrase": "good_luck"})
            for reader in (bea, watcher, ada):
                await reader.wait(lambda r=reader: len(r.chat) == 2, 60, "both lines")
                first, second = reader.chat
                assert (first["seat"], first["kind"], first["text"]) == (
                    0,
                    "text",
                    "Hallo <b>Bea</b> & co",
                )
                assert (second["seat"], second["kind"], second["key"]) == (0, "phrase", "good_luck")
                assert first["i"] < second["i"]
            refused = await watcher.expect_error({"type": "chat", "text": "hi"})
            assert refused == "spectators cannot write in this table's chat"
        async with Player(shared_server.ws_base, created["id"], bea_token) as later:
            await later.wait(lambda: len(later.chat) == 2, 60, "the lines written before")

    asyncio.run(scenario())


def test_spectators_write_where_the_creator_allows_it(shared_server: Server) -> None:
    created = create(shared_server, ["human", "human"], spectator_chat=True)

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, created["id"]) as watcher,
            Player(shared_server.ws_base, created["id"], created["seats"][0]["token"]) as ada,
        ):
            assert watcher.welcome is not None and watcher.welcome["chat"] is True
            assert (await watcher.request({"type": "chat", "phrase": "hello"}))["type"] == "ok"
            await ada.wait(lambda: len(ada.chat) == 1, 60, "the spectator's line")
            assert ada.chat[0]["seat"] is None and ada.chat[0]["key"] == "hello"

    asyncio.run(scenario())


def test_chat_lines_are_bounded_and_a_refusal_stores_nothing(shared_server: Server) -> None:
    """Too long, nothing visible, marks stacked on a letter, an unknown phrase, too fast:
    each refused with its reason, and no line reaches the others."""
    created = create(shared_server, ["human", "human"])
    ada_token, bea_token = (s["token"] for s in created["seats"])

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, created["id"], ada_token) as ada,
            Player(shared_server.ws_base, created["id"], bea_token) as bea,
        ):
            for message, reason in (
                ({"type": "chat", "text": "x" * 201}, "a chat line has at most 200 characters"),
                ({"type": "chat", "text": "\u3164\u3164"}, "show nothing"),
                ({"type": "chat", "text": "Z" + "\u0301" * 9}, "marks on a letter"),
                ({"type": "chat", "phrase": "insult"}, "malformed message"),
                ({"type": "chat", "text": "a", "phrase": "hello"}, "either a text or a phrase"),
            ):
                text = await ada.expect_error(message)
                assert reason in text, (message, text)
            for n in range(CHAT_LINES):
                assert (await ada.request({"type": "chat", "text": f"line {n}"}))["type"] == "ok"
            too_fast = await ada.expect_error({"type": "chat", "text": "one more"})
            assert too_fast.startswith("you write fast"), too_fast
            await bea.wait(lambda: len(bea.chat) == CHAT_LINES, 60, "the accepted lines")
            assert [line["text"] for line in bea.chat] == [f"line {n}" for n in range(CHAT_LINES)]

    asyncio.run(scenario())


def test_chat_is_stored_with_the_table_and_outlives_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'spielwerk.db'}"
    server = Server(db, log_path=tmp_path / "serve.log").start()
    created = create(server, ["human", "human"])
    token = created["seats"][0]["token"]

    async def write() -> None:
        async with Player(server.ws_base, created["id"], token) as ada:
            await ada.request({"type": "chat", "text": "bis gleich"})

    async def read(again: Server) -> list[dict[str, Any]]:
        async with Player(again.ws_base, created["id"], token) as ada:
            await ada.wait(lambda: len(ada.chat) == 1, 60, "the stored line")
            return ada.chat

    try:
        asyncio.run(write())
    finally:
        server.stop()
    again = Server(db, log_path=tmp_path / "serve2.log").start()
    try:
        lines = asyncio.run(read(again))
        assert lines[0]["text"] == "bis gleich" and lines[0]["seat"] == 0
    finally:
        again.stop()


class RecordingPool(BotPool):
    """The real bot pool, keeping every request a bot was sent (as the worker receives it)."""

    def __init__(self) -> None:
        super().__init__(1)
        self.sent: list[bytes] = []

    async def choose(self, request: BotRequest, group: str = "") -> int:
        self.sent.append(pickle.dumps(request))
        return await super().choose(request, group)


def test_chat_is_never_in_a_view_or_a_bot_input(tmp_path: Path) -> None:
    """A whole Tintenherz game of a person and a heuristic bot, the person chatting a line
    with a marker word at every turn: no state the person's page gets, and nothing the bot's
    worker is sent, holds the marker; the chat lines do."""

    async def scenario() -> None:
        pool = RecordingPool()
        hub = TableHub(Storage(f"sqlite:///{tmp_path / 'hub.db'}"), pool)
        try:
            request = CreateTable(
                game="inkheart_dice",
                seats=[SeatRequest(kind="human"), SeatRequest(kind="bot", bot="heuristic")],
                claim=0,
            )
            new = await hub.create(request)
            table = await hub.get(new.id)
            me = hub.join(table, 0)
            rng = random.Random(5)
            lines = 0
            states: list[str] = []
            while not table.state.is_terminal():
                if table.state.to_move != 0:  # the bot's (or chance's) move: wait for it
                    await asyncio.wait_for(me.wake.wait(), 120)
                    me.wake.clear()
                    continue
                if lines < 40:
                    me.chat_times.clear()  # this test is not about the rate
                    await hub.chat(table, me, Chat(type="chat", text=f"{MARKER} {lines}"))
                    lines += 1
                states.append(json.dumps(state_message(table, me)))
                legal = table.state.legal_actions(0)
                await hub.act(table, 0, rng.choice(legal).to_json(), table.version)
            states.append(json.dumps(state_message(table, me)))
            assert lines > 0 and len(table.chat) == lines
            assert all(MARKER in (line.text or "") for line in table.chat)
            assert pool.sent, "the bot was never asked"
            assert not any(MARKER in text for text in states)
            assert not any(MARKER.encode() in sent for sent in pool.sent)
            hub.leave(table, me)
        finally:
            await hub.close()

    asyncio.run(scenario())


def test_a_line_another_process_wrote_first_reaches_every_page_before_this_ones(
    shared_server: Server,
) -> None:
    """Two server processes share a table: the other one stores a line (index 0) just before
    this one stores Ada's (index 1), and this one has not heard of it yet (here: the other
    writer is the test, straight into the database, which tells nobody). Ada and Bea still get
    both lines, the earlier first, each once; before, this process sent only its own line and
    the other's, arriving later with a lower index, reached nobody."""
    created = create(shared_server, ["human", "human"])
    ada_token, bea_token = (s["token"] for s in created["seats"])
    storage = Storage(shared_server.db_url)
    try:

        async def scenario() -> None:
            async with (
                Player(shared_server.ws_base, created["id"], ada_token) as ada,
                Player(shared_server.ws_base, created["id"], bea_token) as bea,
            ):
                other = ChatRow(-1, 1, "text", "von nebenan", None, None, 0, 0.0)
                assert storage.add_chat(created["id"], other) == 0
                said = await ada.request({"type": "chat", "text": "hier"})
                assert said["type"] == "ok", said
                for reader in (ada, bea):
                    await reader.wait(lambda r=reader: len(r.chat) >= 2, 60, "both lines")
                    assert [(line["i"], line["text"]) for line in reader.chat] == [
                        (0, "von nebenan"),
                        (1, "hier"),
                    ]

        asyncio.run(scenario())
    finally:
        storage.close()
