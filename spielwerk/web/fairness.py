"""A fair queue for the bot workers: whoever was served least recently goes first.

Bot decisions are grouped by the client that created their table. When a worker is free it
takes the next decision of the group served least recently (a group never served goes first),
so a client with many tables of slow bots gets no more than a client with one table: a table
waits for at most one decision of every other group that has a decision waiting, and never
for the rest of their queues. At most `slots` decisions run at once (the number of worker
processes): nothing waits inside the process pool, where the order would be first come, first
served.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

MAX_REMEMBERED = 10_000
"""Groups whose last turn is remembered at most (the longest unserved are forgotten first)."""


class FairQueue:
    def __init__(self, slots: int) -> None:
        if slots < 1:
            raise ValueError(f"a fair queue needs at least one slot, not {slots}")
        self.slots = slots
        self.running = 0
        self._waiting: dict[str, deque[asyncio.Future[None]]] = {}
        self._last_turn: dict[str, int] = {}
        self._turns = 0
        self.served: list[str] = []
        """The groups in the order they were served (the last 1000), for tests and insight."""

    @asynccontextmanager
    async def turn(self, group: str) -> AsyncIterator[None]:
        """Wait for this group's turn, hold a slot while the body runs."""
        await self._acquire(group)
        try:
            yield
        finally:
            self._release()

    @property
    def waiting(self) -> int:
        return sum(len(queue) for queue in self._waiting.values())

    async def _acquire(self, group: str) -> None:
        if self.running < self.slots and not self._waiting:
            self._grant(group)
            return
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(group, deque()).append(future)
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():
                self._release()  # the slot was ours already: pass it on
            else:
                queue = self._waiting.get(group)
                if queue is not None and future in queue:
                    queue.remove(future)
                    if not queue:
                        del self._waiting[group]
            raise

    def _grant(self, group: str) -> None:
        self.running += 1
        self._turns += 1
        self._last_turn[group] = self._turns
        self.served.append(group)
        del self.served[:-1000]
        if len(self._last_turn) > MAX_REMEMBERED:
            for old in sorted(self._last_turn, key=self._last_turn.__getitem__)[
                : MAX_REMEMBERED // 2
            ]:
                if old not in self._waiting:
                    del self._last_turn[old]

    def _release(self) -> None:
        self.running -= 1
        while self.running < self.slots and self._waiting:
            # min() keeps the first of equals: among groups never served, the first to ask.
            group = min(self._waiting, key=lambda g: self._last_turn.get(g, 0))
            queue = self._waiting[group]
            future = queue.popleft()
            if not queue:
                del self._waiting[group]
            if future.cancelled():
                continue
            self._grant(group)
            future.set_result(None)
