"""What the game review and the hints keep with a table, in the server's database (the
`Storage`'s SQLAlchemy metadata, so `Storage` creates these tables with its own).

- `sw_reviews`: a finished table's review for one seat (the review's JSON, `spielwerk-review/1`),
  stored once it is complete: it is computed once per table and seat.
- `sw_hint_rules`: whether the table's creator allowed hints (when every person agrees).
- `sw_hint_agreements`: the human seats that agreed to hints at their table.
- `sw_hints`: every hint given: the table, the seat, the step it was asked at (the number of
  actions then) and the moves it named.

Every call is synchronous and short; the server runs them in its database thread.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    Column,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    insert,
    select,
)
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from spielwerk.web.storage import Storage, StorageError, metadata

reviews_table = Table(
    "sw_reviews",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("review", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)

hint_rules_table = Table(
    "sw_hint_rules",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("enabled", Boolean, nullable=False),
)

hint_agreements_table = Table(
    "sw_hint_agreements",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
)

hints_table = Table(
    "sw_hints",
    metadata,
    Column("table_id", String(32), ForeignKey("sw_tables.id"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("step", Integer, primary_key=True),
    Column("moves", Text, nullable=False),
    Column("created_at", Float, nullable=False),
)


@dataclass(frozen=True, slots=True)
class HintRow:
    seat: int
    step: int
    """The number of actions at the table when the hint was asked for."""
    moves: list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class HintRules:
    enabled: bool
    """The creator allowed hints at this table (if every person agrees)."""
    agreed: frozenset[int]
    """The seats whose players agreed."""


class ReviewStore:
    """Reviews and hints of the tables in `storage`'s database."""

    def __init__(self, storage: Storage) -> None:
        self.engine = storage.engine

    @contextmanager
    def _failing(self, what: str) -> Iterator[None]:
        try:
            yield
        except SQLAlchemyError as error:
            raise StorageError(f"could not {what}") from error

    # ------------------------------------------------------------------ reviews
    def load_review(self, table_id: str, seat: int) -> dict[str, Any] | None:
        with self._failing("load a review"), self.engine.connect() as conn:
            row = conn.execute(
                select(reviews_table.c.review).where(
                    reviews_table.c.table_id == table_id, reviews_table.c.seat == seat
                )
            ).first()
        return None if row is None else dict(json.loads(row.review))

    def save_review(self, table_id: str, seat: int, review: dict[str, Any]) -> None:
        """Store a complete review (a second one for the same seat is ignored: the first
        stays, it is the same review)."""
        try:
            with self._failing("store a review"), self.engine.begin() as conn:
                conn.execute(
                    insert(reviews_table).values(
                        table_id=table_id,
                        seat=seat,
                        review=json.dumps(review, separators=(",", ":")),
                        created_at=time.time(),
                    )
                )
        except StorageError as error:
            if not isinstance(error.__cause__, IntegrityError):
                raise

    # ------------------------------------------------------------------ hints
    def set_hint_rules(self, table_id: str, enabled: bool, agreed: list[int]) -> None:
        """A new table's rule: hints allowed or not; the seats agreeing from the start."""
        with self._failing("store the hint rule"), self.engine.begin() as conn:
            conn.execute(insert(hint_rules_table).values(table_id=table_id, enabled=enabled))
            for seat in agreed:
                conn.execute(insert(hint_agreements_table).values(table_id=table_id, seat=seat))

    def hint_rules(self, table_id: str) -> HintRules:
        with self._failing("load the hint rule"), self.engine.connect() as conn:
            enabled = conn.execute(
                select(hint_rules_table.c.enabled).where(hint_rules_table.c.table_id == table_id)
            ).scalar()
            agreed = conn.execute(
                select(hint_agreements_table.c.seat).where(
                    hint_agreements_table.c.table_id == table_id
                )
            ).scalars()
            return HintRules(bool(enabled), frozenset(int(seat) for seat in agreed))

    def agree(self, table_id: str, seat: int) -> None:
        """The seat's player agrees to hints at this table (once; again changes nothing)."""
        try:
            with self._failing("store an agreement"), self.engine.begin() as conn:
                conn.execute(insert(hint_agreements_table).values(table_id=table_id, seat=seat))
        except StorageError as error:
            if not isinstance(error.__cause__, IntegrityError):
                raise

    def hint(self, table_id: str, seat: int, step: int) -> HintRow | None:
        with self._failing("load a hint"), self.engine.connect() as conn:
            row = conn.execute(
                select(hints_table).where(
                    hints_table.c.table_id == table_id,
                    hints_table.c.seat == seat,
                    hints_table.c.step == step,
                )
            ).first()
        return None if row is None else HintRow(row.seat, row.step, json.loads(row.moves))

    def save_hint(self, table_id: str, hint: HintRow) -> None:
        try:
            with self._failing("store a hint"), self.engine.begin() as conn:
                conn.execute(
                    insert(hints_table).values(
                        table_id=table_id,
                        seat=hint.seat,
                        step=hint.step,
                        moves=json.dumps(hint.moves, separators=(",", ":")),
                        created_at=time.time(),
                    )
                )
        except StorageError as error:
            if not isinstance(error.__cause__, IntegrityError):
                raise

    def hints(self, table_id: str) -> list[HintRow]:
        """Every hint given at the table, in the order of the game."""
        with self._failing("load hints"), self.engine.connect() as conn:
            rows = conn.execute(
                select(hints_table)
                .where(hints_table.c.table_id == table_id)
                .order_by(hints_table.c.step, hints_table.c.seat)
            ).all()
        return [HintRow(row.seat, row.step, json.loads(row.moves)) for row in rows]
