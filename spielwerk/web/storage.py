"""The server's storage: tables, seats and the action log, through SQLAlchemy.

The action log is the source of truth: a table's state is rebuilt by replaying its actions, so
nothing else about a game is stored. Seat tokens are stored only as SHA-256 hashes. Every call
is synchronous and short; the server runs them in a thread so the event loop never waits.

`(table_id, idx)` is the primary key of an action, so two writers can never both append the
same step: the second one fails and changes nothing.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    ForeignKey,
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
)

actions_table = Table(
    "sw_actions",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("actor", Integer, nullable=False),
    Column("action", Text, nullable=False),
)


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

    def close(self) -> None:
        self.engine.dispose()

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
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(actions_table), rows)
                done = conn.execute(
                    update(tables_table)
                    .where(tables_table.c.id == table_id)
                    .where(tables_table.c.steps == first_index)
                    .where(_revision() == before)
                    .values(
                        steps=first_index + len(steps),
                        revision=before + len(steps),
                        finished=finished,
                        to_move=_json_or_none(to_move),
                        server_moves=server_moves,
                        last_step_at=time.time(),
                    )
                )
                if done.rowcount != 1:
                    raise StepConflict(f"table {table_id} moved on before step {first_index}")
        except IntegrityError as error:  # the primary key: these steps are stored already
            if self._stored_already(table_id, first_index, rows, before + len(steps)):
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
    ) -> None:
        """Remove the newest stored step (an undo) of a table that has `steps` steps and is
        at `revision` (None: its step count), with who is to move then. The revision grows
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
            return int(seat) if done.rowcount == 1 else None

    # ------------------------------------------------------------------ reads
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

    def load_actions(self, table_id: str) -> list[StoredAction]:
        with self._failing_as_storage_error("load actions"), self.engine.connect() as conn:
            rows = conn.execute(
                select(actions_table.c.idx, actions_table.c.actor, actions_table.c.action)
                .where(actions_table.c.table_id == table_id)
                .order_by(actions_table.c.idx)
            ).all()
        return [StoredAction(r.idx, r.actor, json.loads(r.action)) for r in rows]

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

    def tables_to_resume(self) -> list[str]:
        """Ids of the unfinished tables where the server is to move (a bot or chance), oldest
        first: the ones a restarted server resumes by itself. Rows from before `server_moves`
        was stored count if they seat a bot (they are looked at once, and then know)."""
        with self._failing_as_storage_error("list tables"), self.engine.connect() as conn:
            rows = conn.execute(
                select(tables_table.c.id)
                .where(
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
    )


def _seat_row(s: Any) -> SeatRow:
    return SeatRow(s.seat, s.kind, s.bot, s.token_hash, s.invite_hash, s.name)


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
