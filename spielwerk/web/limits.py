"""How many tables one client address may open: a sliding one-minute window per address.

Creating a table writes to the database and may start bots, so a script hammering
`POST /api/tables` would fill both; the limit answers 429 instead and changes nothing.
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable

DEFAULT_TABLES_PER_MINUTE = 30
WINDOW_SECONDS = 60.0
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
