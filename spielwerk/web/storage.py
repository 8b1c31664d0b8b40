"""The server's storage: tables, seats and the action log, through SQLAlchemy.

The action log is the source of truth: a table's state is rebuilt by replaying its actions, so
nothing else about a game is stored. Seat tokens are stored only as SHA-256 hashes. Every call
is synchronous and short; the server runs them in a thread so the event loop never waits.

`(table_id, idx)` is the primary key of an action, so two writers can never both append the
same step: the second one fails and changes nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    and_,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.engine import make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError, SQLAlchemyError

DEFAULT_DB_URL = "sqlite:///spielwerk.db"
"""A SQLite file in the working directory: the embedded default."""
CHANGES = "spielwerk_changes"
"""The PostgreSQL channel on which every write names the table it changed (`Change`), in the
same transaction: the other server processes on the database hear of it once it commits."""

metadata = MetaData()

tables_table = Table(
    "sw_tables",
    metadata,
    Column("id", String(32), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("options", JSON, nullable=False),
    Column("players", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("chance_secret", String(64), nullable=False),
    Column("created_at", Float, nullable=False, index=True),
    Column("finished", Boolean, nullable=False, default=False),
    Column("steps", Integer, nullable=False, default=0),
    # Who is to move after the stored steps (a JSON list of seats), and whether the server
    # must make the next move (a bot's or chance's): a restart resumes exactly those tables.
    # Added after the first release: NULL in older rows.
    Column("to_move", Text, nullable=True),
    Column("server_moves", Boolean, nullable=True, index=True),
    # The table of the rematch ("Play again"), once somebody asked for one.
    Column("rematch", String(32), nullable=True),
    # When the last step was stored (the lobby calls a table idle that long "abandoned").
    # Added after the first release: NULL in older rows and in tables without a step.
    Column("last_step_at", Float, nullable=True),
    # How many changes the table has had: every stored step and every step taken back adds
    # one, so it only ever grows (a version a client saw is never reached again after an
    # undo). Added after the first release: NULL in older rows means `steps`.
    Column("revision", BigInteger, nullable=True),
    # How the table is run, chosen at its creation (`TableSettings`: who may chat, the move
    # clock). Added after the first release: NULL in older rows means the defaults.
    Column("settings", JSON, nullable=True),
)

seats_table = Table(
    "sw_seats",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(16), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("token_hash", String(64), nullable=True),
    # A human seat is claimed through an invitation (its hash here until it is used) by the
    # first person to open it, who gets a fresh token and gives the seat its display name.
    # Added after the first release: NULL in older rows.
    Column("invite_hash", String(64), nullable=True, index=True),
    Column("name", String(64), nullable=True),
    # The bot that plays a human seat while its person is away (the others handed it over);
    # NULL while the person plays. Added after the first release.
    Column("sit_in", String(32), nullable=True),
)

presence_table = Table(
    "sw_presence",
    metadata,
    # How many connections each server process holds for a seat: a person is at the table if
    # any living process holds one. `since`: when this process's count last went to or from
    # zero (wall clock), so that "gone for how long" holds across processes.
    Column("table_id", String(32), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("process", String(32), primary_key=True),
    Column("connections", Integer, nullable=False),
    Column("since", Float, nullable=False),
)

processes_table = Table(
    "sw_processes",
    metadata,
    # The server processes sharing the database, each seen every second or so: one unseen
    # for long has died, and its connections are gone with it.
    Column("id", String(32), primary_key=True),
    Column("seen_at", Float, nullable=False),
)

events_table = Table(
    "sw_events",
    metadata,
    Column("id", Integer, primary_key=True, autoincrement=True),
    # What one client address did when (a table opened, a record opened), for the limits per
    # address that hold for every server process on the database. `key` is a hash of the
    # address; rows older than the window are deleted as new ones come.
    Column("kind", String(16), nullable=False),
    Column("key", String(64), nullable=False),
    Column("at", Float, nullable=False),
    Index("sw_events_by_key", "kind", "key", "at"),
)

chat_table = Table(
    "sw_chat",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    # Who wrote it: a seat, None for a spectator or for the table itself (`kind` "system").
    Column("seat", Integer, nullable=True),
    Column("kind", String(16), nullable=False),
    # A line is free text, a quick phrase (a key every reader sees in their own language),
    # or a system notice (a key and its parameters: who left, who came back).
    Column("text", Text, nullable=True),
    Column("phrase", String(32), nullable=True),
    Column("params", JSON, nullable=True),
    Column("step", Integer, nullable=False),
    Column("at", Float, nullable=False),
)

actions_table = Table(
    "sw_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("actor", Integer, nullable=False),
    Column("action", Text, nullable=False),
)


@dataclass(frozen=True, slots=True)
class Change:
    """What a committed write changed, as the other server processes hear of it: `kind` is
    "steps", "undo" (by `seat`), "chat", "seats" or "rematch"; `revision` the table's after."""

    kind: str
    table_id: str
    revision: int = -1
    seat: int = -1
    origin: str = "-"
    """The server process that wrote it (`Storage.origin`; "-": not said)."""

    def payload(self) -> str:
        return f"{self.kind} {self.table_id} {self.revision} {self.seat} {self.origin}"

    @classmethod
    def parse(cls, payload: str) -> Change | None:
        """The change a payload names (four parts from a process of an earlier version,
        which does not say its origin); None if it is not one."""
        parts = payload.split(" ")
        if len(parts) not in (4, 5) or not all(p.lstrip("-").isdigit() for p in parts[2:4]):
            return None
        origin = parts[4] if len(parts) == 5 else "-"
        return cls(parts[0], parts[1], int(parts[2]), int(parts[3]), origin)


class StorageError(Exception):
    """The database did not store a write; nothing of it was stored."""


class StepConflict(StorageError):
    """Another writer stored these steps of the table first (the database is the truth)."""


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    return token_hash is not None and hmac.compare_digest(hash_token(token), token_hash)


def normalise_url(url: str) -> str:
    """An SQLAlchemy URL from what a user types: `postgresql://...` uses psycopg 3, a bare
    path is a SQLite file."""
    if "://" not in url:
        return f"sqlite:///{url}"
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


@dataclass(frozen=True, slots=True)
class SeatRow:
    seat: int
    kind: str
    """"human" or "bot"."""
    bot: str | None
    token_hash: str | None
    """The hash of the seat's token once it is claimed (None: open, or a bot)."""
    invite_hash: str | None = None
    """The hash of the invitation that still claims this seat (None once used)."""
    name: str | None = None
    """The display name its player chose (None: not claimed yet, or a bot)."""
    sit_in: str | None = None
    """The bot playing this human seat while its person is away (None: the person plays)."""


@dataclass(frozen=True, slots=True)
class TableRow:
    id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    chance_secret: str
    created_at: float
    finished: bool
    steps: int
    to_move: list[int] | None
    """Who is to move after the stored steps (None in rows from older versions)."""
    seats: tuple[SeatRow, ...]
    rematch: str | None = None
    """The id of this table's rematch, once one was started."""
    last_step_at: float | None = None
    """When the last step was stored (None: no step yet, or a row from an older version)."""
    revision: int = 0
    """The table's changes so far (steps stored plus steps taken back): only ever grows."""
    settings: dict[str, Any] = field(default_factory=dict)
    """How the table is run (`tables.TableSettings` as a dict; empty: the defaults)."""


@dataclass(frozen=True, slots=True)
class ChatRow:
    idx: int
    seat: int | None
    kind: str
    """"text", "phrase" or "system"."""
    text: str | None
    phrase: str | None
    params: dict[str, Any] | None
    step: int
    """The game's steps when it was written (the replay shows it there)."""
    at: float


@dataclass(frozen=True, slots=True)
class StoredAction:
    idx: int
    actor: int
    action: dict[str, Any]


class Storage:
    """Tables, seats and actions in one SQL database (SQLite or PostgreSQL)."""

    def __init__(self, url: str = DEFAULT_DB_URL, verify: bool = False) -> None:
        """Open (and create) the database at `url`. `verify`: check a SQLite file's pages
        first (`PRAGMA quick_check`) and raise ValueError if it is damaged, as a server does
        at start-up rather than fail on every later read."""
        self.url = normalise_url(url)
        self.origin = "-"
        """The server process this storage writes for, named in every change it announces
        (so that process can tell its own changes from the others')."""
        try:
            parsed = make_url(self.url)
        except ArgumentError as error:
            raise ValueError(f"not a database URL: {url!r} ({error})") from None
        self.is_sqlite = parsed.get_backend_name() == "sqlite"
        kwargs: dict[str, Any] = {"future": True}
        if self.is_sqlite:
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        else:
            kwargs["pool_pre_ping"] = True
        try:
            self.engine: Engine = create_engine(self.url, **kwargs)
        except ArgumentError as error:  # e.g. an unknown database kind
            raise ValueError(f"not a database URL: {url!r} ({error})") from None
        if self.is_sqlite:
            event.listen(self.engine, "connect", _sqlite_pragmas)
            if verify:
                self._check_sqlite_file()
        metadata.create_all(self.engine)
        _add_missing_columns(self.engine)
        mark = "?" if self.engine.dialect.paramstyle == "qmark" else "%s"
        self._append_sql = (
            f"INSERT INTO sw_actions (table_id, idx, actor, action) VALUES ({mark}, {mark}, "
            f"{mark}, {mark})"
        )
        self._advance_sql = (
            f"UPDATE sw_tables SET steps = {mark}, revision = {mark}, finished = {mark}, "
            f"to_move = {mark}, server_moves = {mark}, last_step_at = {mark} "
            f"WHERE id = {mark} AND steps = {mark} AND COALESCE(revision, steps) = {mark}"
        )
        self._notify_sql = f"SELECT pg_notify({mark}, {mark})"

    def close(self) -> None:
        self.engine.dispose()

    def _announce(self, conn: Any, change: Change) -> None:
        """Tell the other server processes (PostgreSQL only) once this transaction commits."""
        if not self.is_sqlite:
            stamped = dataclasses.replace(change, origin=self.origin)
            conn.execute(select(func.pg_notify(CHANGES, stamped.payload())))

    def _check_sqlite_file(self) -> None:
        """ValueError if SQLite finds damaged pages in the file (a file that is no database
        at all fails on opening already)."""
        try:
            with self.engine.connect() as conn:
                rows = conn.execute(text("PRAGMA quick_check")).all()
            problems = [str(row[0]) for row in rows]
        except DatabaseError as error:  # too damaged to check at all
            problems = [str(error.orig).splitlines()[0]]
        if problems != ["ok"]:
            where = self.engine.url.database or "the SQLite file"
            shown = "; ".join(problems[:3]) + ("; ..." if len(problems) > 3 else "")
            self.engine.dispose()
            raise ValueError(
                f"the database file {where} is damaged (SQLite's quick_check: {shown}): "
                "restore it from a backup, or move it away to start with an empty one"
            )

    @contextmanager
    def _failing_as_storage_error(self, what: str) -> Iterator[None]:
        try:
            yield
        except SQLAlchemyError as error:
            raise StorageError(f"could not {what}") from error

    # ------------------------------------------------------------------ writes
    def create_table(
        self,
        table_id: str,
        game: str,
        options: dict[str, Any],
        players: int,
        seed: int,
        chance_secret: str,
        seats: Sequence[SeatRow],
        to_move: Sequence[int] | None = None,
        server_moves: bool | None = None,
        settings: dict[str, Any] | None = None,
    ) -> None:
        with self._failing_as_storage_error("create a table"), self.engine.begin() as conn:
            conn.execute(
                insert(tables_table).values(
                    id=table_id,
                    game=game,
                    options=options,
                    players=players,
                    seed=seed,
                    chance_secret=chance_secret,
                    created_at=time.time(),
                    finished=False,
                    steps=0,
                    revision=0,
                    to_move=_json_or_none(to_move),
                    server_moves=server_moves,
                    settings=settings or {},
                )
            )
            conn.execute(
                insert(seats_table),
                [
                    {
                        "table_id": table_id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "bot": s.bot,
                        "token_hash": s.token_hash,
                        "invite_hash": s.invite_hash,
                        "name": s.name,
                        "sit_in": s.sit_in,
                    }
                    for s in seats
                ],
            )

    def append_actions(
        self,
        table_id: str,
        first_index: int,
        steps: Sequence[tuple[int, dict[str, Any]]],
        finished: bool,
        to_move: Sequence[int] | None = None,
        server_moves: bool | None = None,
        revision: int | None = None,
    ) -> None:
        """Store `steps` (actor, action JSON) as actions `first_index`, `first_index + 1`, ...
        in one transaction, with who is to move after them, on a table at `revision` (None:
        one that never had a step taken back, whose revision is its step count); the
        revision grows by one a step. Raises StepConflict, storing nothing, if any index is
        taken by other steps or the table's revision is another, and StorageError, storing
        nothing, if the database fails. Storing the same steps again is a success that
        changes nothing: a write whose answer was lost (the database went away after it
        committed) can be retried."""
        if not steps:
            return
        before = first_index if revision is None else revision
        rows = [
            {
                "table_id": table_id,
                "idx": first_index + offset,
                "actor": actor,
                "action": json.dumps(action, sort_keys=True),
            }
            for offset, (actor, action) in enumerate(steps)
        ]
        after = before + len(steps)
        # Every move of every table passes here: the statements go to the driver as they
        # are (SQLAlchemy's building and compiling them cost several times the write).
        try:
            with self.engine.begin() as conn:
                conn.exec_driver_sql(self._append_sql, [tuple(r.values()) for r in rows])
                done = conn.exec_driver_sql(
                    self._advance_sql,
                    (
                        first_index + len(steps),
                        after,
                        finished,
                        _json_or_none(to_move),
                        server_moves,
                        time.time(),
                        table_id,
                        first_index,
                        before,
                    ),
                )
                if done.rowcount != 1:
                    raise StepConflict(f"table {table_id} moved on before step {first_index}")
                if not self.is_sqlite:
                    stamped = Change("steps", table_id, after, origin=self.origin)
                    conn.exec_driver_sql(self._notify_sql, (CHANGES, stamped.payload()))
        except IntegrityError as error:  # the primary key: these steps are stored already
            if self._stored_already(table_id, first_index, rows, after):
                return
            raise StepConflict(f"step {first_index} of {table_id} is taken") from error
        except SQLAlchemyError as error:
            raise StorageError(f"could not store step {first_index} of {table_id}") from error

    def _stored_already(
        self, table_id: str, first_index: int, rows: list[dict[str, Any]], revision: int
    ) -> bool:
        """True if exactly these steps are the last ones stored (by an earlier try), and
        nothing changed since (the table is at the `revision` they led to)."""
        last = first_index + len(rows)
        with self._failing_as_storage_error("check stored steps"), self.engine.connect() as conn:
            found = conn.execute(
                select(tables_table.c.steps, _revision()).where(tables_table.c.id == table_id)
            ).first()
            stored = conn.execute(
                select(actions_table.c.idx, actions_table.c.actor, actions_table.c.action)
                .where(actions_table.c.table_id == table_id)
                .where(actions_table.c.idx >= first_index)
                .order_by(actions_table.c.idx)
            ).all()
        wanted = [(r["idx"], r["actor"], r["action"]) for r in rows]
        stored_rows = [(r.idx, r.actor, r.action) for r in stored]
        return found is not None and tuple(found) == (last, revision) and stored_rows == wanted

    def take_back_step(
        self,
        table_id: str,
        steps: int,
        to_move: Sequence[int] | None = None,
        server_moves: bool | None = None,
        revision: int | None = None,
        seat: int = -1,
    ) -> None:
        """Remove the newest stored step (an undo by `seat`) of a table that has `steps` steps
        and is at `revision` (None: its step count), with who is to move then. The revision grows
        by one: taking a step back is a change, never a return to an earlier version. Raises
        StepConflict, changing nothing, if the table has moved on."""
        before = steps if revision is None else revision
        try:
            with self.engine.begin() as conn:
                done = conn.execute(
                    update(tables_table)
                    .where(tables_table.c.id == table_id)
                    .where(tables_table.c.steps == steps)
                    .where(_revision() == before)
                    .values(
                        steps=steps - 1,
                        revision=before + 1,
                        finished=False,
                        to_move=_json_or_none(to_move),
                        server_moves=server_moves,
                        last_step_at=time.time(),  # taking a move back is a move too
                    )
                )
                if done.rowcount != 1:
                    raise StepConflict(f"table {table_id} moved on before step {steps - 1}")
                conn.execute(
                    delete(actions_table).where(
                        actions_table.c.table_id == table_id, actions_table.c.idx == steps - 1
                    )
                )
                self._announce(conn, Change("undo", table_id, before + 1, seat))
        except SQLAlchemyError as error:
            raise StorageError(f"could not take back step {steps - 1} of {table_id}") from error

    def set_rematch(self, table_id: str, rematch_id: str) -> str | None:
        """Name `rematch_id` this table's rematch unless one is named already: the rematch
        the table has now (of two asking at once, the first wins), None if no such table.
        The invitations of seats nobody claimed move to the rematch (which was created with
        them): an invitation opens a seat at one table only, never at both."""
        with self._failing_as_storage_error("start a rematch"), self.engine.begin() as conn:
            named = conn.execute(
                update(tables_table)
                .where(tables_table.c.id == table_id, tables_table.c.rematch.is_(None))
                .values(rematch=rematch_id)
            )
            if named.rowcount == 1:
                conn.execute(
                    update(seats_table)
                    .where(seats_table.c.table_id == table_id)
                    .values(invite_hash=None)
                )
                self._announce(conn, Change("rematch", table_id))
            found = conn.execute(
                select(tables_table.c.rematch).where(tables_table.c.id == table_id)
            ).scalar_one_or_none()
        return None if found is None else str(found)

    def claim_seat(self, table_id: str, invite_hash: str, token_hash: str, name: str) -> int | None:
        """Claim the seat whose invitation has this hash: it gets the token's hash and the
        name, and the invitation stops working, all in one statement, so of two people
        opening the same invitation at once exactly one gets the seat. The seat, or None if
        no seat of this table has that invitation (any more)."""
        with self._failing_as_storage_error("claim a seat"), self.engine.begin() as conn:
            seat = conn.execute(
                select(seats_table.c.seat).where(
                    seats_table.c.table_id == table_id, seats_table.c.invite_hash == invite_hash
                )
            ).scalar_one_or_none()
            if seat is None:
                return None
            done = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.invite_hash == invite_hash,
                )
                .values(invite_hash=None, token_hash=token_hash, name=name)
            )
            if done.rowcount != 1:
                return None
            self._announce(conn, Change("seats", table_id))
            return int(seat)

    def set_sit_in(
        self,
        table_id: str,
        seat: int,
        bot: str | None,
        server_moves: bool | None = None,
    ) -> bool:
        """A bot sits in for a human seat (`bot`), or the person is back (None), with whether
        the server is to move now. False, changing nothing, if the seat is not a human one
        of this table or already so."""
        with self._failing_as_storage_error("hand a seat over"), self.engine.begin() as conn:
            done = conn.execute(
                update(seats_table)
                .where(
                    seats_table.c.table_id == table_id,
                    seats_table.c.seat == seat,
                    seats_table.c.kind == "human",
                    seats_table.c.sit_in.is_(None) if bot else seats_table.c.sit_in.is_not(None),
                )
                .values(sit_in=bot)
            )
            if done.rowcount != 1:
                return False
            if server_moves is not None:
                conn.execute(
                    update(tables_table)
                    .where(tables_table.c.id == table_id)
                    .values(server_moves=server_moves)
                )
            self._announce(conn, Change("seats", table_id))
            return True

    def add_chat(self, table_id: str, line: ChatRow) -> int:
        """Store a chat line as the table's next; its index. Two writers at once (two server
        processes): the loser takes the next free index."""
        for _ in range(8):
            try:
                with self.engine.begin() as conn:
                    last = conn.execute(
                        select(func.max(chat_table.c.idx)).where(chat_table.c.table_id == table_id)
                    ).scalar_one_or_none()
                    idx = 0 if last is None else int(last) + 1
                    conn.execute(
                        insert(chat_table).values(
                            table_id=table_id,
                            idx=idx,
                            seat=line.seat,
                            kind=line.kind,
                            text=line.text,
                            phrase=line.phrase,
                            params=line.params,
                            step=line.step,
                            at=line.at,
                        )
                    )
                    self._announce(conn, Change("chat", table_id, idx))
                return idx
            except IntegrityError:
                continue
            except SQLAlchemyError as error:
                raise StorageError(f"could not store a chat line of {table_id}") from error
        raise StorageError(f"could not store a chat line of {table_id}: too many writers")

    def set_presence(
        self, table_id: str, seat: int, process: str, connections: int, since: float
    ) -> None:
        """This process holds `connections` connections of the seat now (changed at `since`)."""
        with self._failing_as_storage_error("note who is here"), self.engine.begin() as conn:
            conn.execute(
                delete(presence_table).where(
                    presence_table.c.table_id == table_id,
                    presence_table.c.seat == seat,
                    presence_table.c.process == process,
                )
            )
            conn.execute(
                insert(presence_table).values(
                    table_id=table_id,
                    seat=seat,
                    process=process,
                    connections=connections,
                    since=since,
                )
            )
            self._announce(conn, Change("presence", table_id))

    def load_presence(self, table_id: str) -> dict[int, tuple[int, float]]:
        """Seat -> (connections held by every process, when the last change was): only the
        seats some process has noted."""
        with self._failing_as_storage_error("read who is here"), self.engine.connect() as conn:
            rows = conn.execute(
                select(
                    presence_table.c.seat,
                    func.sum(presence_table.c.connections),
                    func.max(presence_table.c.since),
                )
                .where(presence_table.c.table_id == table_id)
                .group_by(presence_table.c.seat)
            ).all()
        return {int(seat): (int(count or 0), float(since)) for seat, count, since in rows}

    def heartbeat(self, process: str, now: float, dead_before: float) -> list[str]:
        """This process is alive at `now`; processes not seen since `dead_before` are not,
        and their connections are counted gone since they were last seen. The tables whose
        presence that changed (announced to every process)."""
        with self._failing_as_storage_error("note this process"), self.engine.begin() as conn:
            conn.execute(delete(processes_table).where(processes_table.c.id == process))
            conn.execute(insert(processes_table).values(id=process, seen_at=now))
            dead = conn.execute(
                select(processes_table.c.id, processes_table.c.seen_at).where(
                    processes_table.c.seen_at < dead_before
                )
            ).all()
            changed: set[str] = set()
            for gone, seen_at in dead:
                tables = conn.execute(
                    select(presence_table.c.table_id).where(
                        presence_table.c.process == gone, presence_table.c.connections > 0
                    )
                ).scalars()
                changed.update(tables)
                conn.execute(
                    update(presence_table)
                    .where(presence_table.c.process == gone, presence_table.c.connections > 0)
                    .values(connections=0, since=seen_at)
                )
                conn.execute(delete(processes_table).where(processes_table.c.id == gone))
            # A process killed before it first noted itself alive: its counts are as old as
            # their last change.
            unnoted = and_(
                presence_table.c.connections > 0,
                presence_table.c.since < dead_before,
                presence_table.c.process.not_in(select(processes_table.c.id)),
            )
            changed.update(conn.execute(select(presence_table.c.table_id).where(unnoted)).scalars())
            conn.execute(update(presence_table).where(unnoted).values(connections=0))
            for table_id in sorted(changed):
                self._announce(conn, Change("presence", table_id))
        return sorted(changed)

    def take_turn(self, kind: str, key: str, per_window: int, window: float, now: float) -> float:
        """0 if `key` may do `kind` now (and it is counted), else the seconds until it may:
        at most `per_window` in any `window` seconds, counted in the database so the limit
        holds for every server process on it (a transaction-scoped advisory lock on
        PostgreSQL keeps two processes from both taking the last turn)."""
        with self._failing_as_storage_error("count a client's turn"), self.engine.begin() as conn:
            if not self.is_sqlite:
                digest = hashlib.sha256(f"{kind}:{key}".encode()).digest()[:8]
                conn.execute(
                    select(func.pg_advisory_xact_lock(int.from_bytes(digest, "big", signed=True)))
                )
            mine = (events_table.c.kind == kind) & (events_table.c.key == key)
            conn.execute(delete(events_table).where(mine, events_table.c.at <= now - window))
            times = (
                conn.execute(select(events_table.c.at).where(mine).order_by(events_table.c.at))
                .scalars()
                .all()
            )
            if len(times) >= per_window:
                return float(times[0]) + window - now
            conn.execute(insert(events_table).values(kind=kind, key=key, at=now))
            return 0.0

    # ------------------------------------------------------------------ reads
    def load_chat(self, table_id: str, last: int | None = None) -> list[ChatRow]:
        """The table's chat lines in order (only the newest `last` of them if given)."""
        with self._failing_as_storage_error("load chat"), self.engine.connect() as conn:
            query = select(chat_table).where(chat_table.c.table_id == table_id)
            if last is not None:
                query = query.order_by(chat_table.c.idx.desc()).limit(last)
            rows = conn.execute(query).all()
        lines = [
            ChatRow(
                r.idx,
                r.seat,
                r.kind,
                r.text,
                r.phrase,
                dict(r.params) if r.params is not None else None,
                r.step,
                r.at,
            )
            for r in rows
        ]
        return sorted(lines, key=lambda line: line.idx)

    def load_seats(self, table_id: str) -> tuple[SeatRow, ...]:
        with self._failing_as_storage_error("load seats"), self.engine.connect() as conn:
            seats = conn.execute(
                select(seats_table)
                .where(seats_table.c.table_id == table_id)
                .order_by(seats_table.c.seat)
            ).all()
        return tuple(_seat_row(s) for s in seats)

    def load_table(self, table_id: str) -> TableRow | None:
        with self._failing_as_storage_error("load a table"), self.engine.connect() as conn:
            row = conn.execute(select(tables_table).where(tables_table.c.id == table_id)).first()
            if row is None:
                return None
            seats = conn.execute(
                select(seats_table)
                .where(seats_table.c.table_id == table_id)
                .order_by(seats_table.c.seat)
            ).all()
        return _table_row(row._mapping, seats)

    def load_actions(self, table_id: str, first: int = 0) -> list[StoredAction]:
        """The table's stored actions from index `first` on."""
        with self._failing_as_storage_error("load actions"), self.engine.connect() as conn:
            return _actions(conn, table_id, first)

    def load_table_and_actions(
        self, table_id: str, first: int = 0
    ) -> tuple[TableRow | None, list[StoredAction]]:
        """The table's row and its actions from index `first` on, as of one moment (one
        snapshot: the row's revision counts exactly these steps, whoever writes meanwhile)."""
        with self._failing_as_storage_error("load a table"), self.engine.connect() as conn:
            if not self.is_sqlite:  # SQLite: one process, nothing writes between the reads
                conn = conn.execution_options(isolation_level="REPEATABLE READ")
            with conn.begin():
                mine = tables_table.c.id == table_id
                row = conn.execute(select(tables_table).where(mine)).first()
                if row is None:
                    return None, []
                seats = conn.execute(
                    select(seats_table)
                    .where(seats_table.c.table_id == table_id)
                    .order_by(seats_table.c.seat)
                ).all()
                return _table_row(row._mapping, seats), _actions(conn, table_id, first)

    def list_tables(self, limit: int = 100, include: Sequence[str] = ()) -> list[TableRow]:
        """The newest tables first, with their seats, and the tables `include` names (those
        that exist) however old they are."""
        with self._failing_as_storage_error("list tables"), self.engine.connect() as conn:
            rows = list(
                conn.execute(
                    select(tables_table).order_by(tables_table.c.created_at.desc()).limit(limit)
                ).all()
            )
            extra = set(include) - {r.id for r in rows}
            if extra:
                rows += conn.execute(
                    select(tables_table)
                    .where(tables_table.c.id.in_(sorted(extra)))
                    .order_by(tables_table.c.created_at.desc())
                ).all()
            ids = [r.id for r in rows]
            seats: dict[str, list[Any]] = {i: [] for i in ids}
            if ids:
                for seat in conn.execute(
                    select(seats_table)
                    .where(seats_table.c.table_id.in_(ids))
                    .order_by(seats_table.c.seat)
                ).all():
                    seats[seat.table_id].append(seat)
        return [_table_row(r._mapping, seats[r.id]) for r in rows]

    def tables_to_resume(self, stalled_before: float | None = None) -> list[str]:
        """Ids of the unfinished tables where the server is to move (a bot or chance), oldest
        first: the ones a restarted server resumes by itself (with `stalled_before`: only
        those without a step since then, which nobody may be moving for). Rows from before
        `server_moves` was stored count if they seat a bot (looked at once, they know)."""
        stalled = (
            tables_table.c.id.is_not(None)
            if stalled_before is None
            else or_(
                tables_table.c.last_step_at.is_(None),
                tables_table.c.last_step_at < stalled_before,
            )
        )
        with self._failing_as_storage_error("list tables"), self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table.c.id)
                .where(
                    stalled,
                    tables_table.c.finished.is_(False),
                    or_(
                        tables_table.c.server_moves.is_(True),
                        and_(
                            tables_table.c.server_moves.is_(None),
                            tables_table.c.id.in_(
                                select(seats_table.c.table_id).where(seats_table.c.kind == "bot")
                            ),
                        ),
                    ),
                )
                .order_by(tables_table.c.created_at)
            ).all()
        return [r.id for r in rows]

    def count_tables(self) -> int:
        with self._failing_as_storage_error("count tables"), self.engine.connect() as conn:
            return int(conn.execute(select(func.count()).select_from(tables_table)).scalar_one())


def _actions(conn: Any, table_id: str, first: int) -> list[StoredAction]:
    rows = conn.execute(
        select(actions_table.c.idx, actions_table.c.actor, actions_table.c.action)
        .where(actions_table.c.table_id == table_id, actions_table.c.idx >= first)
        .order_by(actions_table.c.idx)
    ).all()
    return [StoredAction(r.idx, r.actor, json.loads(r.action)) for r in rows]


def _revision() -> Any:
    """The table's revision (rows from before revisions were stored: their step count)."""
    return func.coalesce(tables_table.c.revision, tables_table.c.steps)


def _table_row(row: Any, seats: Sequence[Any]) -> TableRow:
    return TableRow(
        id=row["id"],
        game=row["game"],
        options=dict(row["options"]),
        players=int(row["players"]),
        seed=int(row["seed"]),
        chance_secret=row["chance_secret"],
        created_at=float(row["created_at"]),
        finished=bool(row["finished"]),
        steps=int(row["steps"]),
        to_move=json.loads(row["to_move"]) if row["to_move"] is not None else None,
        seats=tuple(_seat_row(s) for s in seats),
        rematch=row["rematch"],
        last_step_at=float(row["last_step_at"]) if row["last_step_at"] is not None else None,
        revision=int(row["revision"] if row["revision"] is not None else row["steps"]),
        settings=dict(row["settings"] or {}),
    )


def _seat_row(s: Any) -> SeatRow:
    return SeatRow(s.seat, s.kind, s.bot, s.token_hash, s.invite_hash, s.name, s.sit_in)


def _json_or_none(value: Sequence[int] | None) -> str | None:
    return None if value is None else json.dumps(list(value))


def _add_missing_columns(engine: Engine) -> None:
    """Columns added by later versions go into an existing database (all nullable, so old
    rows stay valid). Two servers starting at once may both try: the loser finds them."""
    inspector = inspect(engine)
    for table in metadata.sorted_tables:
        present = {column["name"] for column in inspector.get_columns(table.name)}
        for column in table.columns:
            if column.name in present:
                continue
            kind = column.type.compile(engine.dialect)
            try:
                with engine.begin() as conn:
                    conn.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} {kind}"))
            except SQLAlchemyError:
                names = {c["name"] for c in inspect(engine).get_columns(table.name)}
                if column.name not in names:
                    raise


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never wait for the writer; synchronous=NORMAL keeps every committed step
    # through a crash of the server process (kill -9), which is what a game server needs.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()
