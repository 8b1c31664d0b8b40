"""A websocket player for the tests: joins a table with a token (or as a spectator), keeps
every raw message it received, and plays when asked."""

from __future__ import annotations

import asyncio
import json
import random
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect


class Player:
    def __init__(self, ws_base: str, table_id: str, token: str | None = None) -> None:
        self.url = f"{ws_base}/ws/tables/{table_id}"
        self.token = token
        self.ws: ClientConnection | None = None
        self.raw: list[str] = []
        """Every message received, exactly as it arrived."""
        self.state: dict[str, Any] | None = None
        self.log: list[str] = []
        self.errors: list[str] = []
        self.welcome: dict[str, Any] | None = None

    async def __aenter__(self) -> Player:
        await self.join()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def join(self) -> dict[str, Any]:
        self.ws = await connect(self.url, max_size=2**22, open_timeout=20)
        hello: dict[str, Any] = {"type": "hello"}
        if self.token is not None:
            hello["token"] = self.token
        await self.ws.send(json.dumps(hello))
        self.welcome = await self.receive()
        assert self.welcome["type"] == "welcome", self.welcome
        self.log = []
        await self.next_state()
        return self.welcome

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()

    async def receive(self, timeout: float = 60) -> dict[str, Any]:
        assert self.ws is not None
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] == "state":
            assert message["log_from"] == len(self.log), "log lines must arrive in order, once"
            self.log.extend(line["text"] for line in message["log"])
            self.state = message
        elif message["type"] == "error":
            self.errors.append(message["message"])
        return message

    async def next_state(self, timeout: float = 60) -> dict[str, Any]:
        while True:
            message = await self.receive(timeout)
            if message["type"] == "state":
                return message

    async def until(self, predicate: Any, timeout: float = 120) -> dict[str, Any]:
        """Read states until `predicate(state)` holds."""
        deadline = time.monotonic() + timeout
        while self.state is None or not predicate(self.state):
            if self.errors:
                raise AssertionError(f"the server refused: {self.errors}")
            await self.next_state(max(0.1, deadline - time.monotonic()))
        return self.state

    async def send(self, message: dict[str, Any] | str) -> None:
        assert self.ws is not None
        await self.ws.send(message if isinstance(message, str) else json.dumps(message))

    async def act(self, action: dict[str, Any]) -> dict[str, Any]:
        """Send an action and return the answer: the next state or an error."""
        await self.send({"type": "act", "action": action})
        while True:
            message = await self.receive()
            if message["type"] in ("state", "error"):
                return message

    async def expect_error(self, message: dict[str, Any] | str) -> str:
        """Send something that must be refused; return the error text."""
        await self.send(message)
        while True:
            answer = await self.receive()
            if answer["type"] == "error":
                return str(answer["message"])
            assert answer["type"] != "state" or answer["log"] == [], "a refusal changed the table"

    @property
    def my_turn(self) -> bool:
        state = self.state
        return bool(state and state["legal"] and not state["over"])

    async def play_random(self, rng: random.Random) -> dict[str, Any]:
        assert self.state is not None
        entry = rng.choice(self.state["legal"])
        version = self.state["version"]
        await self.send({"type": "act", "action": entry["action"]})
        answer = await self.until(lambda s: s["version"] > version)
        assert not self.errors, self.errors
        return answer
