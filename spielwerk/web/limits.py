"""How many tables (or opened records) one client address may open: a sliding one-minute
window per address.

Creating a table writes to the database and may start bots, so a script hammering
`POST /api/tables` would fill both; the limit answers 429 instead and changes nothing. Opening a
record replays it (Python work beside the tables), so `POST /api/replays` has a limit of its
own.
"""

from __future__ import annotations

import hashlib
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

DEFAULT_TABLES_PER_MINUTE = 30
DEFAULT_UPLOADS_PER_MINUTE = 6
"""Record files one address may open in the replay viewer a minute."""
UPLOADS_AT_ONCE = 1
"""Record files the server replays at once (the rest wait their turn, bodies unread)."""
UPLOAD_QUEUE_SECONDS = 10.0
"""The longest an opened record waits for its turn; then: try again later (503)."""
WINDOW_SECONDS = 60.0
DEFAULT_CONNECTIONS_PER_ADDRESS = 32
"""Open connections (HTTP and websocket) one client address may hold (`transport.py`)."""
DEFAULT_HEADER_TIMEOUT = 10.0
"""Seconds a request's header may take to arrive."""
DEFAULT_BODY_TIMEOUT = 30.0
"""Seconds a request's body may take to arrive after its header."""
MAX_ADDRESSES = 10_000
"""Addresses remembered at once; beyond that the idle ones are forgotten first."""


class CreationLimit:
    def __init__(self, per_minute: int, clock: Callable[[], float] = time.monotonic) -> None:
        """`per_minute` 0 means no limit."""
        if per_minute < 0:
            raise ValueError(f"the limit must not be negative, not {per_minute}")
        self.per_minute = per_minute
        self.clock = clock
        self._times: dict[str, deque[float]] = {}

    def wait_seconds(self, address: str) -> float:
        """0 if `address` may create a table now (and count it), else the seconds until it may."""
        if self.per_minute == 0:
            return 0.0
        now = self.clock()
        times = self._times.get(address)
        if times is None:
            if len(self._times) >= MAX_ADDRESSES:
                self._forget_idle(now)
            times = self._times[address] = deque()
        while times and times[0] <= now - WINDOW_SECONDS:
            times.popleft()
        if len(times) >= self.per_minute:
            return times[0] + WINDOW_SECONDS - now
        times.append(now)
        return 0.0

    def _forget_idle(self, now: float) -> None:
        for address in [a for a, t in self._times.items() if t[-1] <= now - WINDOW_SECONDS]:
            del self._times[address]
        # Still full: every address is busy; forget the longest idle half.
        if len(self._times) >= MAX_ADDRESSES:
            by_last = sorted(self._times, key=lambda a: self._times[a][-1])
            for address in by_last[: len(by_last) // 2]:
                del self._times[address]


class TurnCounter(Protocol):
    """Where a limit shared by several server processes counts (`storage.Storage`)."""

    def take_turn(
        self, kind: str, key: str, per_window: int, window: float, now: float
    ) -> float: ...


class SharedLimit:
    """`CreationLimit` counted in the database: it holds for the whole site, however many
    server processes share the database. Addresses are kept as hashes, a minute long."""

    def __init__(
        self,
        kind: str,
        per_minute: int,
        counter: TurnCounter,
        clock: Callable[[], float] = time.time,
    ) -> None:
        if per_minute < 0:
            raise ValueError(f"the limit must not be negative, not {per_minute}")
        self.kind, self.per_minute, self.counter, self.clock = kind, per_minute, counter, clock

    def wait_seconds(self, address: str) -> float:
        """As `CreationLimit.wait_seconds` (a database call: run it off the event loop)."""
        if self.per_minute == 0:
            return 0.0
        key = hashlib.sha256(address.encode()).hexdigest()[:32]
        return self.counter.take_turn(self.kind, key, self.per_minute, WINDOW_SECONDS, self.clock())


@dataclass(frozen=True)
class Admission:
    """Who may hold a websocket at a table. Seat holders are never counted against the
    spectators' limits, so no number of spectators keeps a player from their seat."""

    devices_per_seat: int = 8
    """Connections one seat may hold at once (its player's tabs and devices; 0: no limit)."""
    spectators_per_table: int = 32
    """Spectators at one table at once (0: no limit)."""
    spectators_per_address: int = 8
    """Spectator connections one client address may hold on the server (0: no limit)."""
    max_spectators: int = 2048
    """Spectators on the whole server (0: no limit)."""
    spectator_idle: float = 1800.0
    """Seconds without a change at a table after which its spectators are let go (0: never)."""
