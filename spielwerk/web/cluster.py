"""Several server processes on one PostgreSQL: what they tell each other and who moves for whom.

Any process serves any table. Every write names the table it changed on a PostgreSQL channel in
its own transaction (`storage.CHANGES`, LISTEN/NOTIFY), so each process hears of another's
steps, undos, chat lines and seat changes once they are committed, in commit order, and brings
its copy of the table up to date (`TableHub.catch_up`). The moves the server makes itself
(bots, chance) are made by one process at a time: the one holding the table's advisory lock
(`pg_try_advisory_lock`, session-level, on a connection of its own). A process that dies loses
its connection and with it its locks; every process looks for tables whose server is to move
and nobody drives (`TableHub.adopt_orphans`, every `ADOPT_EVERY` seconds) and takes them over.
Nothing here is a broker of its own: PostgreSQL's notification and locks are the whole of it.

With SQLite there is one process: `SingleProcess` owns every table and hears nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import logging
from collections.abc import Callable

import psycopg
from sqlalchemy.engine import make_url

from spielwerk.web.storage import CHANGES, Change

log = logging.getLogger("spielwerk.web")

ADOPT_EVERY = 1.0
"""Seconds between two looks for tables nobody drives (a process died): the bound on how long
a dead process's bots stay still, plus the time to rebuild the table."""
PROCESS_GONE_AFTER = 5.0
"""Seconds after which a process that stopped noting itself alive counts as gone (and the
people it held connections for as gone with it)."""
RECONNECT_FIRST, RECONNECT_MOST = 0.5, 5.0


def lock_key(table_id: str) -> int:
    """The table's advisory lock: 64 bits of a hash of its id, as PostgreSQL's signed bigint."""
    return int.from_bytes(
        hashlib.sha256(f"spielwerk:{table_id}".encode()).digest()[:8], "big", signed=True
    )


class SingleProcess:
    """One server process (SQLite, or PostgreSQL without neighbours): it owns every table."""

    shared = False

    async def start(self, on_change: Callable[[Change], None], on_lost: Callable[[], None]) -> None:
        return None

    async def own(self, table_id: str) -> bool:
        return True

    async def release(self, table_id: str) -> None:
        return None

    def owns(self, table_id: str) -> bool:
        return True

    async def check(self) -> None:
        return None

    async def close(self) -> None:
        return None


class Cluster:
    """This process's part in a cluster of server processes on one PostgreSQL database."""

    shared = True

    def __init__(self, url: str) -> None:
        self.conninfo = (
            make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)
        )
        self._owned: set[str] = set()
        self._locker: psycopg.AsyncConnection[tuple[object, ...]] | None = None
        self._locking = asyncio.Lock()
        self._listener: asyncio.Task[None] | None = None
        self._on_lost: Callable[[], None] = lambda: None
        self._closed = False

    async def start(self, on_change: Callable[[Change], None], on_lost: Callable[[], None]) -> None:
        """Listen for other processes' changes (`on_change` for each, in commit order);
        `on_lost` is called when this process lost its locks (its connection broke): it
        must stop moving for every table until it owns it again."""
        self._on_lost = on_lost
        self._listener = asyncio.create_task(self._listen(on_change), name="cluster-listen")

    async def _listen(self, on_change: Callable[[Change], None]) -> None:
        wait = RECONNECT_FIRST
        while not self._closed:
            try:
                async with await psycopg.AsyncConnection.connect(
                    self.conninfo, autocommit=True
                ) as conn:
                    await conn.execute(f"LISTEN {CHANGES}")
                    wait = RECONNECT_FIRST
                    # Heard nothing while away: every table may have changed.
                    on_change(Change("resync", "*"))
                    async for notice in conn.notifies():
                        change = Change.parse(notice.payload)
                        if change is not None:
                            on_change(change)
            except asyncio.CancelledError:
                raise
            except Exception as error:  # the database went away: listen again when it is back
                if self._closed:
                    return
                log.error("cluster: listening failed (%s); retrying in %.1f s", error, wait)
                await asyncio.sleep(wait)
                wait = min(wait * 2, RECONNECT_MOST)

    async def _connection(self) -> psycopg.AsyncConnection[tuple[object, ...]]:
        if self._locker is None or self._locker.closed:
            if self._owned:  # the old connection (and with it every lock) is gone
                self._lost()
            self._locker = await psycopg.AsyncConnection.connect(self.conninfo, autocommit=True)
        return self._locker

    def _lost(self) -> None:
        self._owned.clear()
        self._on_lost()

    async def own(self, table_id: str) -> bool:
        """True if this process makes the table's server moves now (it held, or took, the
        table's lock); False if another process does. A database that does not answer: False
        (the look for orphans tries again)."""
        if table_id in self._owned:
            return True
        async with self._locking:
            try:
                conn = await self._connection()
                cursor = await conn.execute(
                    "SELECT pg_try_advisory_lock(%s)", (lock_key(table_id),)
                )
                row = await cursor.fetchone()
            except psycopg.Error as error:
                log.error("cluster: could not take table %s (%s)", table_id, error)
                await self._drop_connection()
                return False
        if row is not None and row[0]:
            self._owned.add(table_id)
            return True
        return False

    async def release(self, table_id: str) -> None:
        """Let another process make the table's server moves from now on."""
        if table_id not in self._owned:
            return
        self._owned.discard(table_id)
        async with self._locking:
            try:
                conn = await self._connection()
                await conn.execute("SELECT pg_advisory_unlock(%s)", (lock_key(table_id),))
            except psycopg.Error as error:
                log.error("cluster: could not let table %s go (%s)", table_id, error)
                await self._drop_connection()

    def owns(self, table_id: str) -> bool:
        return table_id in self._owned

    async def check(self) -> None:
        """Find out now if the lock connection broke (its locks went with it)."""
        if not self._owned:
            return
        async with self._locking:
            try:
                await (await self._connection()).execute("SELECT 1")
            except psycopg.Error as error:
                log.error("cluster: the lock connection broke (%s)", error)
                await self._drop_connection()

    async def _drop_connection(self) -> None:
        if self._locker is not None:
            with contextlib.suppress(Exception):
                await self._locker.close()
        self._locker = None
        if self._owned:
            self._lost()

    async def close(self) -> None:
        self._closed = True
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(BaseException):
                await self._listener
        if self._locker is not None:
            with contextlib.suppress(Exception):
                await self._locker.close()


def cluster_for(url: str, is_sqlite: bool) -> SingleProcess | Cluster:
    return SingleProcess() if is_sqlite else Cluster(url)
