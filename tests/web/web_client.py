"""A websocket player for the tests: joins a table with a token (or as a spectator), keeps every
raw message it received, and plays when asked.

One reader task per connection receives everything as it arrives (so `raw` is exactly what the
server sent, in order); the test side waits on conditions over what has arrived.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed


class Refused(AssertionError):
    """The server answered with an error where the test expected none."""


class Player:
    def __init__(self, ws_base: str, table_id: str, token: str | None = None) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.token = token
        self.ws: ClientConnection | None = None
        self.raw: list[str] = []
        """Every message received, exactly as it arrived."""
        self.messages: list[dict[str, Any]] = []
        self.state: dict[str, Any] | None = None
        """The newest state message."""
        self.log: list[str] = []
        self.errors: list[str] = []
        self.welcome: dict[str, Any] | None = None
        self.close_code: int | None = None
        self.closed = False
        self._refs = 0
        self._changed = asyncio.Condition()
        self._reader: asyncio.Task[None] | None = None

    async def __aenter__(self) -> Player:
        await self.join()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ connection
    async def connect(self) -> None:
        self.ws = await connect(self.url, max_size=2**22, open_timeout=30)
        self._reader = asyncio.create_task(self._read())

    async def join(self, timeout: float = 60) -> dict[str, Any]:
        """Connect, say hello, and wait for the welcome and the first state."""
        await self.connect()
        hello: dict[str, Any] = {"type": "hello"}
        if self.token is not None:
            hello["token"] = self.token
        await self.send(hello)
        await self.wait(lambda: self.state is not None, timeout, "the first state")
        assert self.welcome is not None
        return self.welcome

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self._reader is not None:
            await self._reader

    async def _read(self) -> None:
        assert self.ws is not None
        try:
            async for text in self.ws:
                assert isinstance(text, str), "the server sends text messages only"
                self.raw.append(text)
                message: dict[str, Any] = json.loads(text)
                self.messages.append(message)
                if message["type"] == "welcome":
                    self.welcome = message
                    self.log = []
                elif message["type"] == "state":
                    if message["log_from"] < len(self.log):  # only a move taken back shortens it
                        assert (message.get("notice") or {}).get("kind") == "undo", message
                        del self.log[message["log_from"] :]
                    assert message["log_from"] == len(self.log), "log lines arrive in order, once"
                    self.log.extend(line["text"] for line in message["log"])
                    self.state = message
                elif message["type"] == "error":
                    self.errors.append(message["message"])
                async with self._changed:
                    self._changed.notify_all()
        except ConnectionClosed:
            pass
        finally:
            self.closed = True
            self.close_code = self.ws.close_code
            async with self._changed:
                self._changed.notify_all()

    # ------------------------------------------------------------------ waiting
    async def wait(self, condition: Callable[[], bool], timeout: float, what: str) -> None:
        """Until `condition()` holds over what has arrived; fails on timeout or close."""

        async def waiting() -> None:
            async with self._changed:
                while not condition():
                    if self.closed:
                        raise AssertionError(
                            f"connection closed ({self.close_code}) waiting for {what}; "
                            f"errors: {self.errors}"
                        )
                    await self._changed.wait()

        try:
            await asyncio.wait_for(waiting(), timeout)
        except TimeoutError:
            raise AssertionError(f"no {what} within {timeout} s; errors: {self.errors}") from None

    async def until(
        self, predicate: Callable[[dict[str, Any]], bool], timeout: float = 120
    ) -> dict[str, Any]:
        """The newest state once `predicate(state)` holds; a refusal fails the wait."""
        errors = len(self.errors)

        def done() -> bool:
            if len(self.errors) > errors:
                raise Refused(f"the server refused: {self.errors[errors:]}")
            return self.state is not None and predicate(self.state)

        await self.wait(done, timeout, "state that satisfies the test")
        assert self.state is not None
        return self.state

    # ------------------------------------------------------------------ sending
    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    @property
    def version(self) -> int:
        return int(self.state["version"]) if self.state else -1

    def answer_to(self, ref: int) -> dict[str, Any] | None:
        """The "ok" or "error" that answers the action sent with `ref`, if it has arrived."""
        return next(
            (
                m
                for m in reversed(self.messages)
                if m["type"] in ("ok", "error") and m.get("ref") == ref
            ),
            None,
        )

    async def act(
        self, action: dict[str, Any], timeout: float = 60, version: int | None = None
    ) -> dict[str, Any]:
        """Send an action chosen in the newest state (or in `version`); the answer: the error,
        or the state that holds the action."""
        self._refs += 1
        ref = self._refs
        chosen_in = self.version if version is None else version
        await self.send({"type": "act", "action": action, "version": chosen_in, "ref": ref})
        await self.wait(lambda: self.answer_to(ref) is not None, timeout, "answer")
        answer = self.answer_to(ref)
        assert answer is not None
        if answer["type"] == "error":
            return answer
        await self.wait(lambda: self.version >= answer["version"], timeout, "state after ok")
        assert self.state is not None
        return self.state

    async def expect_error(self, message: dict[str, Any] | str, timeout: float = 30) -> str:
        """Send something that must be refused; return the error text. Nothing may change:
        a ping answered after the error proves no state followed it."""
        version, errors, pongs = self.version, len(self.errors), self.pongs
        await self.send(message)
        await self.wait(lambda: len(self.errors) > errors, timeout, "error")
        if not self.closed:
            await self.send({"type": "ping"})
            await self.wait(lambda: self.pongs > pongs, timeout, "pong")
        assert self.version == version, "a refused message changed the table"
        return self.errors[errors]

    async def request(self, message: dict[str, Any], timeout: float = 60) -> dict[str, Any]:
        """Send `message` with a fresh "ref"; the answer that echoes it (any type)."""
        self._refs += 1
        ref = self._refs + 10_000
        await self.send({**message, "ref": ref})

        def answer() -> dict[str, Any] | None:
            return next((m for m in self.messages if m.get("ref") == ref), None)

        await self.wait(lambda: answer() is not None, timeout, f"answer to {message['type']}")
        found = answer()
        assert found is not None
        return found

    @property
    def chat(self) -> list[dict[str, Any]]:
        """Every chat line received, in the order it arrived."""
        return [line for m in self.messages if m["type"] == "chat" for line in m["lines"]]

    @property
    def pongs(self) -> int:
        return sum(1 for m in self.messages if m["type"] == "pong")

    @property
    def my_turn(self) -> bool:
        state = self.state
        return bool(state and state["legal"] and not state["over"])

    async def play_random(self, rng: random.Random) -> dict[str, Any]:
        """Play a random legal action; the state that answers it."""
        assert self.state is not None
        entry = rng.choice(self.state["legal"])
        answer = await self.act(entry["action"])
        if answer["type"] == "error":
            raise Refused(f"the server refused a legal action {entry}: {answer['message']}")
        return answer


async def play_to_the_end(player: Player, rng: random.Random, timeout: float = 600) -> None:
    """Play random legal actions whenever it is this seat's turn, until the game is over."""
    deadline = time.monotonic() + timeout
    while True:
        state = await player.until(
            lambda s: s["over"] or bool(s["legal"]), max(1.0, deadline - time.monotonic())
        )
        if state["over"]:
            return
        await player.play_random(rng)
