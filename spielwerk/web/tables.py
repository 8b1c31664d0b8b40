"""Tables in play: creating them, rebuilding them by replay, applying actions, running bots.

`TableHub` is the only place that changes a table. Each table has a lock; an action is checked
on a copy of the state, the chance events it triggers (refills, rolls) are drawn on the server,
and all of it is stored in one transaction *before* the copy replaces the live state and the
connections are told. So a crash at any moment loses nothing that anybody has seen, and a
refused action changes nothing anywhere.

What each connection receives is built by `state_message` from `view(seat)`, the seat's legal
actions and the log as `describe(action, seat)`: nothing else about the state leaves here.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import hmac
import logging
import random
import secrets
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

import spielwerk
from spielwerk.agents import AgentSpecError
from spielwerk.core.actions import Action
from spielwerk.core.game import Game
from spielwerk.core.i18n import DEFAULT_LANG, LANGUAGES, Lang
from spielwerk.core.narration import Event, game_narration, worded, worded_explanation
from spielwerk.core.state import CHANCE, TERMINAL, State
from spielwerk.core.undo import last_step_by, may_undo
from spielwerk.web.bots import (
    MAX_MCTS_SECONDS,
    BotPool,
    BotRequest,
    bot_request,
    check_bot_spec,
)
from spielwerk.web.catalog import renderer_url, web_games
from spielwerk.web.errors import ClientError, TableNotFound
from spielwerk.web.limits import Admission
from spielwerk.web.logs import quoted
from spielwerk.web.options import TableOptions
from spielwerk.web.protocol import CreateTable, display_name
from spielwerk.web.storage import (
    SeatRow,
    StepConflict,
    Storage,
    StorageError,
    StoredAction,
    TableRow,
    hash_token,
)

log = logging.getLogger("spielwerk.web")

T = TypeVar("T")

MOVED_ON = "the table changed elsewhere; reload the page"
TROUBLE = "the server could not save — retrying"
"""What every page at a table shows while the server's own moves (bots, chance) wait for the
database."""
BOT_TROUBLE = "a bot could not decide — retrying"
"""What every page at a table shows while a bot's worker fails (it is asked again: a bot's
move is never made up)."""
NOT_SAVED = "the database did not answer; nothing changed, try again"


SPECTATOR_IDLE = "nothing happened at this table for a long time: reload the page to watch on"
SPECTATOR_IDLE_CODE = 4410
"""The close code of a spectator let go at a table where nothing happened for long."""


class DatabaseDown(ClientError):
    """The database did not answer a read; nothing changed."""


class TooManyTables(ClientError):
    """This client runs as many tables of bots only as it may."""


STALE = "this action was chosen in an earlier state of the table: look again and choose"
NOT_INVITED = (
    "this invitation does not open a seat (any more): it was used, or it is not this table's"
)


@dataclass(frozen=True, slots=True)
class NewTable:
    """What the creator of a table gets, once: the token of the seat they play (if any) and
    an invitation for every other human seat. Nobody gets another seat's token."""

    id: str
    seat: int | None
    token: str | None
    invitations: dict[int, str]


MAX_REMATCH_HOPS = 64
"""Rematches an invitation is followed through to the table it moved to."""
MAX_CREATORS = 100_000
"""Tables whose creator the hub remembers (for fair bot turns), the newest."""


class Backoff:
    """Waits between retries: doubling from `first` up to `most` seconds."""

    def __init__(self, first: float = 0.5, most: float = 10.0) -> None:
        self.first, self.most = first, most
        self._next = first

    def next(self) -> float:
        wait = self._next
        self._next = min(self._next * 2, self.most)
        return wait

    def reset(self) -> None:
        self._next = self.first


@dataclass(frozen=True, slots=True)
class LogLine:
    actor: int
    texts: Mapping[Lang, tuple[str, ...]]
    """The action's text in each language as each viewer may see it: [spectator, seat 0,
    seat 1, ...]."""
    events: tuple[tuple[Event, ...], ...] = ()
    """What the action made happen, as each viewer noticed it (the game's narration from that
    viewer's views before and after it), in the same order of viewers."""


@dataclass(eq=False)
class Connection:
    """One websocket's place at a table. The hub only sets `wake`; the websocket's sender
    task builds and sends the newest state when it wakes (so a slow client skips views it
    could not keep up with, never log lines)."""

    seat: int | None
    lang: Lang = DEFAULT_LANG
    """The language of the page (its hello): the game's texts are sent in it."""
    log_sent: int = 0
    wake: asyncio.Event = field(default_factory=asyncio.Event)
    devices: int = 1
    """Connections holding this seat, this one included (set by the hub)."""
    address: str = ""
    """The client's address (spectators are counted per address)."""
    closing: tuple[int, str] | None = None
    """Set by the hub to end this connection: (close code, reason); the sender closes it."""


@dataclass(eq=False)
class LiveTable:
    row: TableRow
    game: Game
    state: State
    log: list[LogLine]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    connections: set[Connection] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    broken: str | None = None
    trouble: str | None = None
    """Set while the server's own next move could not be saved (TROUBLE)."""
    last_used: float = field(default_factory=time.monotonic)
    """When somebody last asked for it, acted or left (for evicting idle tables)."""
    last_change: float = field(default_factory=time.monotonic)
    """When its state last changed (a step, a step taken back): spectators of a table where
    nothing happens for long are let go."""
    views: list[dict[str, Any]] | None = None
    """Every viewer's view of the present state (spectator first), for the narration of the
    next step; built when first needed."""
    notice: dict[str, Any] | None = None
    """Something that happened without a step, for every page until the next step: a seat
    took back its move ({"kind": "undo", "seat": n})."""
    decision_since: dict[int, int] = field(default_factory=dict)
    """For every seat to move: the version at which its present decision began. An action
    chosen in an older version is stale (another tab of the seat acted, or the turn came
    round again)."""
    revision: int = 0
    """The table's version: one more for every stored step and every step taken back, so it
    only ever grows (after an undo and another move the table is never at a version a
    client saw before; `storage.py` keeps it with the table)."""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return self.revision

    def seat_for_token(self, token: str) -> int | None:
        digest = hash_token(token)
        found = None
        for seat in self.row.seats:
            # compare every seat (constant time per seat), so timing tells nothing
            if seat.token_hash is not None and secrets.compare_digest(digest, seat.token_hash):
                found = seat.seat
        return found

    def names(self) -> list[str | None]:
        return [seat.name for seat in self.row.seats]

    def server_turn(self) -> bool:
        """True if the server is to move: a chance event, or a bot's decision."""
        return server_moves(self.row, self.state)

    def bot_turns(self) -> list[tuple[int, str]]:
        """(seat, spec) of every bot that has a decision to make now."""
        to_move = self.state.to_move
        seats = sorted(to_move) if isinstance(to_move, frozenset) else [to_move]
        turns = []
        for seat in seats:
            if seat >= 0:
                row = self.row.seats[seat]
                if row.kind == "bot" and row.bot:
                    turns.append((seat, row.bot))
        return turns


def deciders(state: State) -> list[int]:
    to_move = state.to_move
    if isinstance(to_move, frozenset):
        return sorted(to_move)
    return [to_move] if to_move >= 0 else []


def note_decisions(
    since: dict[int, int], before: Sequence[int], actor: int, state: State, version: int
) -> None:
    """After a step by `actor` that made the table's version `version` (the seats `before`
    were to move): a seat to move now begins a new decision if it was not to move before,
    or it just acted itself."""
    now = deciders(state)
    for seat in now:
        if seat not in before or seat == actor:
            since[seat] = version
    for seat in [s for s in since if s not in now]:
        del since[seat]


def server_moves(row: TableRow, state: State) -> bool:
    """True if the server makes the next move of this table: chance, or a bot's."""
    if state.to_move == CHANCE:
        return True
    return any(row.seats[seat].kind == "bot" for seat in deciders(state))


def viewer_texts(state: State, action: Action) -> dict[Lang, tuple[str, ...]]:
    """The action's text in every language as every viewer may see it."""
    viewers: list[int | None] = [None, *range(state.num_players)]
    return {lang: tuple(state.describe(action, v, lang) for v in viewers) for lang in LANGUAGES}


def all_views(state: State) -> list[dict[str, Any]]:
    """The view of every viewer: [spectator, seat 0, seat 1, ...]."""
    return [state.view(v) for v in [None, *range(state.num_players)]]


def narrated_step(
    state: State, views: list[dict[str, Any]], action: Action, actor: int
) -> tuple[LogLine, list[dict[str, Any]]]:
    """Apply `action` to `state` (whose views are `views`): its log line with every viewer's
    text and events, and the views after it."""
    texts = viewer_texts(state, action)
    state.apply(action, player=actor)
    after = all_views(state)
    narrate = game_narration(state.game.name).events
    events = tuple(tuple(narrate(b, a)) for b, a in zip(views, after, strict=True))
    return LogLine(actor, texts, events), after


def derived_seed(secret: str, *parts: object) -> int:
    text = ":".join([secret, *map(str, parts)])
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:6], "big")


class TableHub:
    def __init__(
        self,
        storage: Storage,
        bots: BotPool,
        bot_delay: float = 0.0,
        admission: Admission | None = None,
        options: TableOptions | None = None,
        evict_after: float = 60.0,
        max_idle_tables: int = 256,
        max_bot_seconds: float = MAX_MCTS_SECONDS,
        bot_tables_per_client: int = 2,
    ) -> None:
        self.storage = storage
        self.options = options or TableOptions()
        self.bots = bots
        self.bot_delay = bot_delay
        self.admission = admission or Admission()
        self.connections = 0
        self.spectators = 0
        self._spectators_of: dict[str, int] = {}
        """Spectator connections per client address."""
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._db = ThreadPoolExecutor(
            max_workers=1 if storage.is_sqlite else 4, thread_name_prefix="spielwerk-db"
        )
        self._closed = False
        self.loaded = 0
        """Tables rebuilt from the database since the start (replays)."""
        self.resuming = False
        self.evict_after = evict_after
        """Seconds an idle table (nobody connected, no bot to move) stays in memory."""
        self.max_idle_tables = max_idle_tables
        """Idle tables kept at most; beyond that the least recently used go at once."""
        self._sweeper: asyncio.Task[None] | None = None
        self.max_bot_seconds = max_bot_seconds
        """No bot thinks longer than this per move."""
        self.bot_tables_per_client = bot_tables_per_client
        """Unfinished tables of bots only one client may run at once (0: no limit)."""
        self._creators: dict[str, str] = {}
        """Table id -> the client that created it (a keyed hash of its address), newest last:
        bot decisions queue per creator."""
        self._creating: dict[str, int] = {}
        self._creator_secret = secrets.token_bytes(16)

    async def _in_db(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self._db, fn, *args)

    @staticmethod
    async def _in_thread(fn: Callable[..., T], *args: Any) -> T:
        """Work that reads files or replays games, off the event loop."""
        return await asyncio.get_running_loop().run_in_executor(None, fn, *args)

    def start_sweeping(self) -> None:
        """Evict idle tables from now on, every few seconds (the event loop is running)."""
        if self._sweeper is None:
            self._sweeper = asyncio.create_task(self._sweep_forever(), name="evict-idle-tables")

    async def _sweep_forever(self) -> None:
        interval = min(max(self.evict_after / 2, 0.2), 10.0)
        while not self._closed:
            await asyncio.sleep(interval)
            self.sweep()

    def sweep(self) -> int:
        """Let go of spectators of tables where nothing happened for a long time, and forget
        the tables idle for `evict_after` seconds; how many tables went."""
        now = time.monotonic()
        idle_for = self.admission.spectator_idle
        if idle_for > 0:
            for table in self.tables.values():
                if now - table.last_change >= idle_for:
                    for connection in table.connections:
                        if connection.seat is None and connection.closing is None:
                            connection.closing = (SPECTATOR_IDLE_CODE, SPECTATOR_IDLE)
                            connection.wake.set()
        stale = [
            t
            for t in self.tables.values()
            if self._idle(t) and now - t.last_used >= self.evict_after
        ]
        for table in stale:
            self._evict(table)
        return len(stale)

    def _idle(self, table: LiveTable) -> bool:
        """Nobody connected, no bot moving, nobody acting on it right now."""
        return (
            not table.connections
            and (table.driver is None or table.driver.done())
            and not table.lock.locked()
        )

    def _touch(self, table: LiveTable) -> None:
        """The table was used now; if too many tables are idle, the least recently used go."""
        table.last_used = time.monotonic()
        idle = [t for t in self.tables.values() if self._idle(t)]
        if len(idle) > self.max_idle_tables:
            idle.sort(key=lambda t: t.last_used)
            for old in idle[: len(idle) - self.max_idle_tables]:
                self._evict(old)

    async def close(self) -> None:
        self._closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in list(self.tables.values()):
            if table.driver is not None:
                table.driver.cancel()
        self.bots.close()
        self._db.shutdown(wait=True)

    # ------------------------------------------------------------------ creating
    def client_key(self, address: str) -> str:
        """Who created a table, without keeping the address: a hash keyed with a secret of
        this server process."""
        digest = hmac.new(self._creator_secret, address.encode(), hashlib.sha256)
        return digest.hexdigest()[:24]

    def _bot_only_tables(self, creator: str) -> int:
        """Unfinished tables of bots only that `creator` runs now (or is creating)."""
        running = sum(
            1
            for table in self.tables.values()
            if self._creators.get(table.id) == creator
            and not table.broken
            and not table.state.is_terminal()
            and all(seat.kind == "bot" for seat in table.row.seats)
        )
        return running + self._creating.get(creator, 0)

    async def create(self, request: CreateTable, client: str = "local") -> NewTable:
        """A new table for the client at address `client`: its id, the token of the seat the
        creator plays (`request.claim`) and an invitation for every other human seat."""
        creator = self.client_key(client)
        bot_only = all(seat.kind == "bot" for seat in request.seats)
        limit = self.bot_tables_per_client
        if bot_only and limit and self._bot_only_tables(creator) >= limit:
            raise TooManyTables(
                f"this address runs {limit} tables of bots only already (at most {limit} at "
                "a time): wait for one to finish"
            )
        if bot_only:
            self._creating[creator] = self._creating.get(creator, 0) + 1
        try:
            return await self._create(request, creator)
        finally:
            if bot_only:
                self._creating[creator] -= 1
                if not self._creating[creator]:
                    del self._creating[creator]

    async def _create(self, request: CreateTable, creator: str) -> NewTable:
        if request.game not in web_games():
            raise ClientError(f"unknown game {request.game!r}")
        game, options = await self._in_thread(self.options.build, request.game, request.options)
        players = len(request.seats)
        seed = secrets.randbelow(2**31)
        try:
            fresh = game.new_state(players, seed=seed)  # checks the player count and options
        except spielwerk.OptionError as error:
            raise ClientError(str(error)) from None
        seats: list[SeatRow] = []
        token: str | None = None
        invitations: dict[int, str] = {}
        claim = request.claim
        if claim is not None and (claim >= players or request.seats[claim].kind != "human"):
            raise ClientError(f"seat {claim} is not a human seat of this table: it cannot be yours")
        for index, seat in enumerate(request.seats):
            if seat.kind == "human":
                if seat.bot is not None:
                    raise ClientError(f"seat {index} is human: it takes no bot")
                if index == claim:
                    token = secrets.token_urlsafe(24)
                    name = self._name(request.name, index)
                    seats.append(SeatRow(index, "human", None, hash_token(token), None, name))
                else:
                    invitations[index] = secrets.token_urlsafe(24)
                    invite_hash = hash_token(invitations[index])
                    seats.append(SeatRow(index, "human", None, None, invite_hash, None))
            else:
                try:
                    spec = check_bot_spec(seat.bot or "", game.name, self.max_bot_seconds)
                except (AgentSpecError, ValueError) as error:
                    raise ClientError(f"seat {index}: {error}") from None
                seats.append(SeatRow(index, "bot", spec, None))
        table_id = await self._store_table(game, options, seed, fresh, seats, creator)
        return NewTable(table_id, claim, token, invitations)

    async def _store_table(
        self,
        game: Game,
        options: dict[str, Any],
        seed: int,
        fresh: State,
        seats: list[SeatRow],
        creator: str,
    ) -> str:
        """Store a new table (its first state `fresh`), deal its cards and start any bot."""
        table_id = secrets.token_urlsafe(9)
        try:
            await self._in_db(
                self.storage.create_table,
                table_id,
                game.name,
                options,
                fresh.num_players,
                seed,
                secrets.token_hex(16),
                seats,
                deciders(fresh),
                fresh.to_move == CHANCE or any(seats[p].kind == "bot" for p in deciders(fresh)),
            )
        except StorageError as error:
            log.error("creating a table: %s", error.__cause__ or error)
            raise ClientError("the database did not answer; no table was created") from None
        self._creators[table_id] = creator
        if len(self._creators) > MAX_CREATORS:
            del self._creators[next(iter(self._creators))]
        await self.get(table_id)  # deals the cards and starts any bot
        return table_id

    async def rematch(self, table: LiveTable, seat: int) -> str:
        """The id of the finished table's rematch ("Play again"), started by the first seat
        to ask: the same game, options and seats (a bot keeps its strength, a person keeps
        their name and seat link, which opens the same seat there), a new deal."""
        async with table.lock:
            if not table.state.is_terminal():
                raise ClientError("the game is not over yet: a rematch starts after its end")
            if table.row.rematch is not None:
                return table.row.rematch
            seed = secrets.randbelow(2**31)
            fresh = table.game.new_state(table.row.players, seed=seed)
            creator = self._creators.get(table.id, self.client_key(f"seat-{seat}"))
            new_id = await self._store_table(
                table.game, table.row.options, seed, fresh, list(table.row.seats), creator
            )
            try:
                named = await self._in_db(self.storage.set_rematch, table.id, new_id)
            except StorageError as error:
                log.error("table %s: %s", table.id, error.__cause__ or error)
                raise ClientError(NOT_SAVED) from None
            table.row = dataclasses.replace(table.row, rematch=named or new_id)
            for connection in table.connections:
                connection.wake.set()
            await self._refresh_seats(table)  # its unused invitations moved to the rematch
            return table.row.rematch or new_id

    @staticmethod
    def _name(text: str | None, seat: int) -> str:
        try:
            return display_name(text, seat)
        except ValueError as error:
            raise ClientError(str(error)) from None

    # ------------------------------------------------------------------ seats
    async def claim(self, table_id: str, invitation: str, name: str | None) -> tuple[str, int, str]:
        """The first person to bring a seat's invitation claims the seat under `name`: the
        table (the newest rematch of `table_id`, where an unused invitation moved), the seat
        and its fresh token (which nobody else ever sees). ClientError if the invitation
        opens no seat there (it was used, or is not this table's)."""
        if len(table_id) > 32:
            raise TableNotFound("no such table")
        token = secrets.token_urlsafe(24)
        invite_hash = hash_token(invitation)
        seat = None
        try:
            row = await self._in_db(self.storage.load_table, table_id)
            if row is None:
                raise TableNotFound(f"no table {table_id!r}")
            for _ in range(MAX_REMATCH_HOPS):
                if row.rematch is None or any(s.invite_hash == invite_hash for s in row.seats):
                    break
                newer = await self._in_db(self.storage.load_table, row.rematch)
                if newer is None:
                    break
                row = newer
            seat_row = next((s for s in row.seats if s.invite_hash == invite_hash), None)
            if seat_row is not None:
                chosen = self._name(name, seat_row.seat)
                seat = await self._in_db(
                    self.storage.claim_seat, row.id, invite_hash, hash_token(token), chosen
                )
        except StorageError as error:
            log.error("table %s: %s", quoted(table_id), error.__cause__ or error)
            raise DatabaseDown("the database did not answer; try again") from None
        if seat is None:
            raise ClientError(NOT_INVITED)
        table = self.tables.get(row.id)
        if table is not None:
            await self._refresh_seats(table)
        return row.id, seat, token

    async def _refresh_seats(self, table: LiveTable) -> None:
        """Read the seats again (claimed here or by another server process); wake everybody
        at the table, whose pages show the names."""
        try:
            seats = await self._in_db(self.storage.load_seats, table.id)
        except StorageError as error:
            log.error("table %s: %s", table.id, error.__cause__ or error)
            return
        if seats and seats != table.row.seats:
            table.row = dataclasses.replace(table.row, seats=seats)
            for connection in table.connections:
                connection.wake.set()

    async def seat_of(self, table: LiveTable, token: str) -> int | None:
        """The seat this token holds at the table, looking at the database again if the copy
        in memory does not know it (the seat may have been claimed since)."""
        seat = table.seat_for_token(token)
        if seat is None and any(s.invite_hash is not None for s in table.row.seats):
            await self._refresh_seats(table)
            seat = table.seat_for_token(token)
        return seat

    # ------------------------------------------------------------------ loading
    async def get(self, table_id: str) -> LiveTable:
        """The live table, rebuilt from the database by replay if it is not in memory."""
        table = self.tables.get(table_id)
        if table is not None:
            return table
        lock = self._loading.setdefault(table_id, asyncio.Lock())
        try:
            async with lock:
                table = self.tables.get(table_id)
                if table is None:
                    table = await self._load(table_id)
                    self.tables[table_id] = table
        finally:
            self._loading.pop(table_id, None)
        if not table.broken:
            async with table.lock:
                try:
                    await self._advance(table, [])  # chance events pending since the last write
                except StepConflict as error:
                    self._moved_on(table, error)
                    raise ClientError(MOVED_ON) from None
                except StorageError as error:  # the bot driver tries again
                    log.error("table %s: %s", table.id, error.__cause__ or error)
                    self._troubled(table)
            self._kick(table)
        self._touch(table)
        return table

    async def _load(self, table_id: str) -> LiveTable:
        if len(table_id) > 32:
            raise TableNotFound("no such table")
        try:
            row = await self._in_db(self.storage.load_table, table_id)
            if row is None:
                raise TableNotFound(f"no table {table_id!r}")
            actions = await self._in_db(self.storage.load_actions, table_id)
        except StorageError as error:
            log.error("table %s: %s", quoted(table_id), error.__cause__ or error)
            raise DatabaseDown("the database did not answer; try again") from None
        table = await self._in_thread(self._rebuild, row, actions)
        self.loaded += 1
        return table

    def _rebuild(self, row: TableRow, actions: Sequence[Any]) -> LiveTable:
        """The table rebuilt from its stored row and actions (in a worker thread)."""
        try:
            game, _ = self.options.build(row.game, row.options)
        except Exception as error:
            raise ClientError(f"table {row.id} cannot be rebuilt: {error}") from None
        return _replay_table(row, game, actions)

    async def resume_bots(self) -> int:
        """After a (re)start: load the unfinished tables where the server is to move (a bot,
        chance), so they go on without waiting for a visitor; tables waiting for a person stay
        in the database until somebody opens them. A database that does not answer is asked
        again with back-off. Returns how many tables were resumed."""
        self.resuming = True
        backoff = Backoff()
        try:
            while True:
                try:
                    table_ids = await self._in_db(self.storage.tables_to_resume)
                    break
                except StorageError as error:
                    wait = backoff.next()
                    log.error("resuming tables: %s; retrying in %.1f s", error.__cause__, wait)
                    await asyncio.sleep(wait)
            pending = deque(table_ids)
            while pending and not self._closed:
                table_id = pending.popleft()
                try:
                    await self.get(table_id)  # replays, then starts the bots
                except DatabaseDown:
                    pending.append(table_id)
                    await asyncio.sleep(backoff.next())
                    continue
                except ClientError as error:
                    log.error("resuming table %s: %s", table_id, error)
                    continue
                backoff.reset()
            return len(table_ids)
        finally:
            self.resuming = False

    # ------------------------------------------------------------------ acting
    async def act(
        self, table: LiveTable, seat: int, payload: dict[str, Any], version: int | None = None
    ) -> int:
        """Seat `seat` plays `payload` (an action's JSON form), chosen in the state of
        `version`; the table's version once it is stored. Raises ClientError (with the
        reason) and changes nothing if it is not legal for that seat now, or if the seat's
        decision has moved on since `version` (None: the caller does not say)."""
        async with table.lock:
            if table.broken:
                raise ClientError(table.broken)
            state = table.state
            if state.is_terminal():
                raise ClientError("the game is over")
            if seat not in deciders(state):
                raise ClientError(f"it is not your turn (seat {seat}); wait for the others")
            if version is not None and not (
                table.decision_since.get(seat, 0) <= version <= table.version
            ):
                raise ClientError(
                    f"{STALE} (it was chosen at version {version}, now {table.version})"
                )
            try:
                action = state.game.action_from_json(payload)
                state.clone().apply(action, player=seat)
            except spielwerk.IllegalAction as error:
                raise ClientError(f"illegal action: {error}") from None
            with self._written_or_refused(table):
                await self._advance(table, [(seat, action)])
            version = table.version
        self._kick(table)
        self._touch(table)
        return version

    @contextmanager
    def _written_or_refused(self, table: LiveTable) -> Iterator[None]:
        """A person's write: if the database refuses it, the person is told and nothing
        changed (another server stored a step first: this copy is forgotten)."""
        try:
            yield
        except StepConflict as error:
            self._moved_on(table, error)
            raise ClientError(MOVED_ON) from None
        except StorageError as error:
            log.error("table %s: %s", table.id, error.__cause__ or error)
            raise ClientError(NOT_SAVED) from None

    async def undo(self, table: LiveTable, seat: int, version: int) -> int:
        """Seat `seat` takes back its last action, seen in the state of `version` (Board Game
        Arena's rule, `spielwerk.core.undo`: nobody else has acted since and the action showed
        nobody anything hidden). The table's version after it; ClientError with the reason,
        changing nothing, if it may not."""
        async with table.lock:
            if table.broken:
                raise ClientError(table.broken)
            if version != table.version:
                raise ClientError(
                    f"{STALE} (it was chosen at version {version}, now {table.version})"
                )
            rng = random.Random(derived_seed(table.row.chance_secret, "undo", table.version))
            reason = await self._in_thread(may_undo, table.state, seat, rng)
            if reason is not None:
                raise ClientError(f"cannot take back: {reason}")
            actions = table.game.actions
            kept = [
                StoredAction(index, actor, actions[action_id].to_json())
                for index, (actor, action_id) in enumerate(table.state.history[:-1])
            ]
            earlier = await self._in_thread(_replay_table, table.row, table.game, kept)
            with self._written_or_refused(table):
                await self._in_db(
                    self.storage.take_back_step,
                    table.id,
                    len(table.state.history),
                    deciders(earlier.state),
                    server_moves(table.row, earlier.state),
                    table.revision,
                )
            revision = table.revision + 1
            # The seat that took its move back decides anew; a seat that was deciding all
            # along (a simultaneous pick) keeps the decision it began.
            table.decision_since = {
                s: table.decision_since[s] if s != seat and s in table.decision_since else revision
                for s in deciders(earlier.state)
            }
            table.state, table.log, table.views = earlier.state, earlier.log, earlier.views
            table.revision = revision
            table.last_change = time.monotonic()
            table.notice = {"kind": "undo", "seat": seat}
            for connection in table.connections:
                connection.log_sent = min(connection.log_sent, len(table.log))
                connection.wake.set()
            version = table.version
        self._touch(table)
        return version

    async def _advance(self, table: LiveTable, moves: Sequence[tuple[int, Action]]) -> None:
        """Apply `moves` and every chance event that follows on a copy, store them, then make
        the copy live and wake the connections. The caller holds the table's lock. Raises
        StepConflict or StorageError, changing nothing, if the write fails."""
        work = table.state.clone()
        steps: list[tuple[int, dict[str, Any]]] = []
        lines: list[LogLine] = []
        secret = table.row.chance_secret
        pending = list(moves)
        since = dict(table.decision_since)
        views = table.views if table.views is not None else all_views(work)
        revision = table.revision
        while True:
            if pending:
                actor, action = pending.pop(0)
            elif work.to_move == CHANCE:
                rng = random.Random(derived_seed(secret, "chance", len(work.history)))
                actor, action = CHANCE, work.sample_chance(rng)
            else:
                break
            before = deciders(work)
            line, views = narrated_step(work, views, action, actor)
            lines.append(line)
            revision += 1
            note_decisions(since, before, actor, work, revision)
            steps.append((actor, action.to_json()))
        if not steps:
            return
        await self._in_db(
            self.storage.append_actions,
            table.id,
            len(table.state.history),
            steps,
            work.to_move == TERMINAL,
            deciders(work),
            server_moves(table.row, work),
            table.revision,
        )
        table.state = work
        table.revision = revision
        table.last_change = time.monotonic()
        table.views = views
        table.log.extend(lines)
        table.decision_since = since
        table.trouble = None
        table.notice = None
        for connection in table.connections:
            connection.wake.set()

    def _moved_on(self, table: LiveTable, error: Exception) -> None:
        """Another server process stored steps of this table: the database is the truth, so
        forget this copy and rebuild from it at the next access."""
        log.error("table %s: %s", table.id, error)
        self._evict(table, force=True)

    def _troubled(self, table: LiveTable, trouble: str = TROUBLE) -> None:
        if table.trouble != trouble:
            table.trouble = trouble
            for connection in table.connections:
                connection.wake.set()

    # ------------------------------------------------------------------ bots
    def _kick(self, table: LiveTable) -> None:
        if self._closed or table.broken or not table.server_turn():
            return
        if table.driver is None or table.driver.done():
            table.driver = asyncio.create_task(self._drive(table), name=f"bots-{table.id}")

    async def _drive(self, table: LiveTable) -> None:
        """Make the server's moves (chance events, bots' decisions) until a person (or nobody)
        is to move. A write the database refuses is tried again with back-off while every page
        at the table shows TROUBLE; a bot's decision is kept meanwhile, not asked again. A
        decision is bound to the version it was made for: if the table moved on meanwhile (a
        person acted or took a move back) it is dropped and made again for the new version.
        A bot whose worker fails is asked again (BOT_TROUBLE), never replaced by a random
        move. Any other error is logged and retried too: the driver never stops on its own."""
        backoff = Backoff()
        decided: tuple[int, int, int] | None = None
        """(version, seat, action id) of a bot's decision not stored yet."""
        try:
            while not self._closed and not table.broken:
                try:
                    async with table.lock:
                        if table.state.to_move == CHANCE:
                            await self._advance(table, [])
                            backoff.reset()
                            continue
                        turns = table.bot_turns()
                        if not turns:
                            return
                        seat, spec = turns[0]
                        version = table.version
                        bot_seed = derived_seed(table.row.chance_secret, "bot", version, seat)
                        request = bot_request(
                            table.id, table.state, seat, spec, bot_seed, self.max_bot_seconds
                        )
                    if decided is None or decided[:2] != (version, seat):
                        decided = None
                        if self.bot_delay > 0:
                            await asyncio.sleep(self.bot_delay)
                            if table.version != version:
                                continue  # a person acted or took back meanwhile
                        chosen = await self._ask_bot(table, request)
                        if chosen is None:
                            self._troubled(table, BOT_TROUBLE)
                            await asyncio.sleep(backoff.next())
                            continue
                        decided = (version, seat, chosen)
                    async with table.lock:
                        if table.version != version or table.broken:
                            decided = None
                            continue  # made for a state the table has left: decide again
                        chosen = decided[2]
                        if chosen not in table.state.legal_ids(seat):
                            # A bot's bug: logged, and the bot asked again after a wait.
                            log.error("table %s: bot %s chose %r", table.id, spec, chosen)
                            decided = None
                            self._troubled(table, BOT_TROUBLE)
                            await asyncio.sleep(backoff.next())
                            continue
                        await self._advance(table, [(seat, table.game.actions[chosen])])
                        decided = None
                        backoff.reset()
                except StepConflict as error:
                    self._moved_on(table, error)
                    return
                except StorageError as error:
                    wait = backoff.next()
                    log.error(
                        "table %s: %s; retrying in %.1f s", table.id, error.__cause__ or error, wait
                    )
                    self._troubled(table)
                    await asyncio.sleep(wait)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    wait = backoff.next()
                    log.exception(
                        "table %s: the server's move failed; retrying in %.1f s", table.id, wait
                    )
                    await asyncio.sleep(wait)
        finally:
            self._touch(table)  # idle from now on if nobody is connected

    async def _ask_bot(self, table: LiveTable, request: BotRequest) -> int | None:
        """The bot's action id, or None if its worker failed (it is asked again later)."""
        try:
            return await self.bots.choose(request, self._creators.get(table.id, table.id))
        except Exception:
            log.exception("table %s: bot %s failed; asking again", table.id, request.spec)
            return None

    # ------------------------------------------------------------------ connections
    def join(
        self, table: LiveTable, seat: int | None, lang: Lang = DEFAULT_LANG, address: str = ""
    ) -> Connection:
        """A new connection at the table. A seat holder is always let in (up to
        `devices_per_seat` devices at once): spectators never take a seat's place. Spectators
        are capped per table, per client address and on the whole server."""
        limits = self.admission
        if seat is not None:
            devices = sum(1 for c in table.connections if c.seat == seat)
            if limits.devices_per_seat and devices >= limits.devices_per_seat:
                raise ClientError(
                    f"your seat is open on {devices} devices already: close one of them"
                )
        else:
            watching = sum(1 for c in table.connections if c.seat is None)
            if limits.spectators_per_table and watching >= limits.spectators_per_table:
                raise ClientError("this table has as many spectators as it takes; try later")
            if (
                limits.spectators_per_address
                and self._spectators_of.get(address, 0) >= limits.spectators_per_address
            ):
                raise ClientError(
                    f"you watch {limits.spectators_per_address} tables already: close one"
                )
            if limits.max_spectators and self.spectators >= limits.max_spectators:
                raise ClientError("the server has as many spectators as it takes; try later")
        if self.tables.get(table.id) is not table:
            # Forgotten while this connection was opening: live again, unless it was
            # forgotten because the database moved on (or a fresh copy took its place).
            if table.broken == MOVED_ON or table.id in self.tables:
                raise ClientError(MOVED_ON)
            self.tables[table.id] = table
        connection = Connection(seat, lang, address=address)
        table.connections.add(connection)
        self.connections += 1
        if seat is None:
            self.spectators += 1
            self._spectators_of[address] = self._spectators_of.get(address, 0) + 1
        self._count_devices(table, seat)
        connection.wake.set()
        return connection

    @staticmethod
    def _count_devices(table: LiveTable, seat: int | None) -> None:
        """Tell the connections of a seat how many devices hold it now."""
        if seat is None:
            return
        same = [c for c in table.connections if c.seat == seat]
        for connection in same:
            if connection.devices != len(same):
                connection.devices = len(same)
                connection.wake.set()

    def leave(self, table: LiveTable, connection: Connection) -> None:
        if connection in table.connections:
            table.connections.discard(connection)
            self.connections -= 1
            if connection.seat is None:
                self.spectators -= 1
                left = self._spectators_of.get(connection.address, 1) - 1
                if left:
                    self._spectators_of[connection.address] = left
                else:
                    self._spectators_of.pop(connection.address, None)
            self._count_devices(table, connection.seat)
        self._touch(table)

    def _evict(self, table: LiveTable, force: bool = False) -> None:
        """Forget an idle table (it is rebuilt from the database when next needed)."""
        if self.tables.get(table.id) is table and (force or not table.connections):
            del self.tables[table.id]
            if force:
                table.broken = MOVED_ON
                for connection in table.connections:
                    connection.wake.set()

    async def summary(self, table_id: str) -> dict[str, Any]:
        """What anybody may know about a table, from memory if it is live, else from its row
        in the database: no replay (a flood of requests for many tables loads none)."""
        table = self.tables.get(table_id)
        if table is not None:
            return live_summary(table)
        if len(table_id) > 32:
            raise TableNotFound("no such table")
        try:
            row = await self._in_db(self.storage.load_table, table_id)
        except StorageError as error:
            log.error("table %s: %s", quoted(table_id), error.__cause__ or error)
            raise DatabaseDown("the database did not answer; try again") from None
        if row is None:
            raise TableNotFound(f"no table {table_id!r}")
        return table_summary(row)

    # ------------------------------------------------------------------ lobby
    async def list_tables(
        self, limit: int = 100, include: Sequence[str] = ()
    ) -> list[dict[str, Any]]:
        """The newest `limit` tables and those `include` names (a browser's own), summed up."""
        rows = await self._in_db(self.storage.list_tables, limit, include)
        listed = []
        for row in rows:
            live = self.tables.get(row.id)
            entry = live_summary(live) if live is not None else table_summary(row)
            entry["last_step_at"] = row.last_step_at  # the live copy's row is from its loading
            listed.append(entry)
        return listed


def table_summary(row: TableRow) -> dict[str, Any]:
    """What anybody may know about a table: no tokens, no seed."""
    return {
        "id": row.id,
        "game": row.game,
        "options": row.options,
        "players": row.players,
        "seats": [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "claimed": s.kind == "human" and s.token_hash is not None,
            }
            for s in row.seats
        ],
        "created_at": row.created_at,
        "last_step_at": row.last_step_at,
        "finished": row.finished,
        "steps": row.steps,
        "to_move": row.to_move,
    }


def live_summary(table: LiveTable) -> dict[str, Any]:
    """The summary of a table in memory (its newest state)."""
    entry = table_summary(table.row)
    entry["steps"] = len(table.state.history)
    entry["finished"] = table.state.is_terminal()
    entry["to_move"] = deciders(table.state)
    return entry


def _replay_table(row: TableRow, game: Game, actions: Sequence[Any]) -> LiveTable:
    """Rebuild a table from its stored actions, with every viewer's log text."""
    try:
        state = game.new_state(row.players, seed=row.seed)
    except Exception as error:
        raise ClientError(f"table {row.id} cannot be rebuilt: {error}") from None
    lines: list[LogLine] = []
    table = LiveTable(row=row, game=game, state=state, log=lines, revision=row.revision)
    views = all_views(state)
    for stored in actions:
        try:
            action = game.action_from_json(stored.action)
            line, views = narrated_step(state, views, action, stored.actor)
        except Exception as error:
            table.broken = f"this table's record stops replaying at step {stored.idx}: {error}"
            log.error("table %s: %s", row.id, table.broken)
            break
        lines.append(line)
    table.views = views
    # Whoever is to move decides from the version the table is at now: an action a client
    # chose before the table was rebuilt is looked at again (when the revisions in between
    # were undos, nothing else tells which decisions they began).
    table.decision_since = dict.fromkeys(deciders(state), table.revision)
    return table


def state_message(table: LiveTable, connection: Connection) -> dict[str, Any]:
    """The newest state as `connection`'s seat may see it, with the log lines it has not had."""
    state = table.state
    seat, lang = connection.seat, connection.lang
    column = 0 if seat is None else seat + 1
    legal = (
        []
        if seat is None or table.broken
        else [
            {"id": a.id, "action": a.to_json(), "text": state.label(a, seat, lang)}
            for a in state.legal_actions(seat)
        ]
    )
    start = connection.log_sent
    narration = game_narration(state.game.name)
    new_lines = [
        {
            "i": start + offset,
            "actor": None if line.actor == CHANCE else line.actor,
            "text": line.texts[lang][column],
            "events": [worded(narration, lang, ev) for ev in line.events[column]]
            if line.events
            else [],
        }
        for offset, line in enumerate(table.log[start:])
    ]
    connection.log_sent = len(table.log)
    over = state.is_terminal()
    return {
        "type": "state",
        "version": table.version,
        "seat": seat,
        "to_move": deciders(state),
        "over": over,
        "result": state.result() if over else None,
        "explanation": explanation(state, seat, lang) if over else None,
        "view": state.view(seat),
        "legal": legal,
        "log_from": start,
        "log": new_lines,
        "broken": table.broken,
        "trouble": table.trouble,
        "names": table.names(),
        "devices": None if seat is None else connection.devices,
        "notice": table.notice,
        "may_undo": seat is not None and not over and last_step_by(state, seat),
        "rematch": table.row.rematch,
    }


def explanation(state: State, seat: int | None, lang: Lang = DEFAULT_LANG) -> dict[str, Any] | None:
    """The breakdown of a finished game's result, from the seat's own final view, every event
    in it worded in `lang`."""
    narration = game_narration(state.game.name)
    if narration.explain is None:
        return None
    return worded_explanation(narration, lang, narration.explain(state.view(seat)))


def welcome_message(table: LiveTable, seat: int | None) -> dict[str, Any]:
    game = table.game
    return {
        "type": "welcome",
        "seat": seat,
        "table": {
            **table_summary(table.row),
            "title": game.title,
            "rules_url": f"/rules/{game.name}",
            "renderer": renderer_url(game.name),
        },
    }
