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
import math
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
from spielwerk.core.undo import REFUSALS, last_step_by, undo_refusal
from spielwerk.web.bots import (
    MAX_MCTS_SECONDS,
    BotPool,
    BotRequest,
    bot_request,
    check_bot_spec,
    sit_in_bot,
)
from spielwerk.web.catalog import renderer_url, web_games
from spielwerk.web.cluster import ADOPT_EVERY, PROCESS_GONE_AFTER, Cluster, SingleProcess
from spielwerk.web.errors import ClientError, TableNotFound
from spielwerk.web.limits import Admission
from spielwerk.web.logs import quoted
from spielwerk.web.options import TableOptions
from spielwerk.web.protocol import Chat, CreateTable, chat_text, display_name
from spielwerk.web.storage import (
    Change,
    ChatRow,
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
MAX_WRITE_TRIES = 5
"""A person's action is looked at again this often when other processes keep writing first."""
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

    code = "db_down"


class TableMovedOn(ClientError):
    """Another server process changed the table first; this copy must catch up."""

    code = "moved_on"


class TooManyTables(ClientError):
    """This client runs as many tables of bots only as it may."""

    code = "too_many_tables"


STALE = "this action was chosen in an earlier state of the table: look again and choose"
NOT_INVITED = (
    "this invitation does not open a seat (any more): it was used, or it is not this table's"
)


@dataclass(frozen=True)
class TableSettings:
    """How a table is run, chosen by its creator and stored with it."""

    spectator_chat: bool = False
    """Spectators may write in the chat too (the players always may)."""
    move_clock: int = 0
    """Seconds a person has for a move (0: no clock); then a bot makes that move."""

    @classmethod
    def of(cls, stored: Mapping[str, Any]) -> TableSettings:
        return cls(
            spectator_chat=bool(stored.get("spectator_chat", False)),
            move_clock=int(stored.get("move_clock", 0)),
        )

    def stored(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


CHAT_KEPT = 200
"""Chat lines a table keeps in memory and sends to a page that joins."""
CHAT_LINES = 5
CHAT_WINDOW = 10.0
"""A connection writes at most CHAT_LINES chat lines in CHAT_WINDOW seconds."""
HAND_OVER_AFTER = 90.0
"""Seconds a person must have been gone before the others may let a bot play for them."""


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
    dirty: bool = True
    """The table changed since the last state this connection was sent."""
    chat_seen: int = -1
    """The index of the last chat line sent to this connection."""
    chat_times: deque[float] = field(default_factory=deque)
    """When this connection's last chat lines were written (its rate)."""

    def notify(self) -> None:
        """The state changed: the sender builds and sends the newest."""
        self.dirty = True
        self.wake.set()


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
    chat: list[ChatRow] = field(default_factory=list)
    """The newest chat lines (at most CHAT_KEPT), oldest first."""
    away_since: dict[int, float] = field(default_factory=dict)
    """For every human seat with no connection: since when (monotonic)."""
    clock_from: dict[int, tuple[int, float]] = field(default_factory=dict)
    """For every person to move at a table with a move clock: (the version their decision
    began at, when on this server's clock)."""
    timed_out: set[tuple[int, int]] = field(default_factory=set)
    """(seat, version its decision began) of people whose clock ran out: a bot makes that
    move for them."""
    clock: asyncio.TimerHandle | None = None
    catching_up: asyncio.Task[None] | None = None
    """Bringing this copy up to the database (another process wrote): one at a time."""
    catch_up_again: bool = False
    chat_heard: bool = False
    """Another process wrote in the chat since this copy last read it."""
    pending_notice: dict[str, Any] | None = None
    """An undo another process made, shown once this copy has caught up with it."""
    undo_offered: bool = False
    """Whether the person whose action is the newest step may take it back (`undo_offered`,
    decided once per step off the event loop): the page offers "take back" only then."""

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def settings(self) -> TableSettings:
        return TableSettings.of(self.row.settings)

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
        """True if the server is to move: a chance event, or a bot's decision (a person's
        whose clock ran out included)."""
        return self.state.to_move == CHANCE or bool(self.bot_turns())

    def bot_turns(self) -> list[tuple[int, str]]:
        """(seat, spec) of every bot that has a decision to make now: the bots' own seats,
        bots sitting in for absent people, and a bot making the move of a person whose
        clock ran out."""
        turns = []
        for seat in deciders(self.state):
            spec = seat_bot(self.row.seats[seat])
            if spec is None and (seat, self.decision_since.get(seat, -1)) in self.timed_out:
                spec = sit_in_bot(self.game.name)
            if spec is not None:
                turns.append((seat, spec))
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


def seat_bot(seat: SeatRow) -> str | None:
    """The bot that plays this seat now: a bot's own, or one sitting in for its person."""
    if seat.kind == "bot":
        return seat.bot
    return seat.sit_in


def _with_sit_in(row: TableRow, seat: int, bot: str | None) -> TableRow:
    seats = list(row.seats)
    seats[seat] = dataclasses.replace(seats[seat], sit_in=bot)
    return dataclasses.replace(row, seats=tuple(seats))


def server_moves(row: TableRow, state: State) -> bool:
    """True if the server makes the next move of this table: chance, or a bot's (a bot
    seat's, or one sitting in for an absent person)."""
    if state.to_move == CHANCE:
        return True
    return any(seat_bot(row.seats[seat]) is not None for seat in deciders(state))


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


def undo_rng(row: TableRow, steps: int) -> random.Random:
    """The draws of the undo rule's check in a state of `steps` steps: the same for the offer
    and the answer."""
    return random.Random(derived_seed(row.chance_secret, "undo", steps))


def undo_offered(row: TableRow, state: State, before: State | None = None) -> bool:
    """Whether the person whose action is the newest step may take it back now: the undo
    rule (`spielwerk.core.undo`) with the draws `TableHub.undo` makes, so that the offer and
    the answer agree. False at once when the newest step is a bot's or chance's. `before`:
    the state before the newest step, if the caller has it."""
    if state.is_terminal() or not state.history:
        return False
    actor = state.history[-1][0]
    if actor < 0 or row.seats[actor].kind != "human":
        return False
    return undo_refusal(state, actor, undo_rng(row, len(state.history)), before) is None


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
        hand_over_after: float = HAND_OVER_AFTER,
        cluster: SingleProcess | Cluster | None = None,
    ) -> None:
        self.storage = storage
        self.options = options or TableOptions()
        self.bots = bots
        self.bot_delay = bot_delay
        self.admission = admission or Admission()
        self.hand_over_after = hand_over_after
        self.cluster = cluster or SingleProcess()
        """Who moves for which table when several processes share the database."""
        self.process_id = secrets.token_hex(8)
        """This process among those sharing the database (who is here, per process)."""
        storage.origin = self.process_id
        """Seconds a person must be gone before the others may let a bot play for them."""
        self.connections = 0
        self.spectators = 0
        self._spectators_of: dict[str, int] = {}
        """Spectator connections per client address."""
        self.tables: dict[str, LiveTable] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._heard_while_loading: set[str] = set()
        """Tables another process changed while this one read them from the database."""
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
                            connection.notify()
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
        settings = TableSettings(request.spectator_chat, request.move_clock)
        table_id = await self._store_table(game, options, seed, fresh, seats, creator, settings)
        return NewTable(table_id, claim, token, invitations)

    async def _store_table(
        self,
        game: Game,
        options: dict[str, Any],
        seed: int,
        fresh: State,
        seats: list[SeatRow],
        creator: str,
        settings: TableSettings,
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
                settings.stored(),
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
                raise ClientError(
                    "the game is not over yet: a rematch starts after its end", "not_over"
                )
            if table.row.rematch is not None:
                return table.row.rematch
            seed = secrets.randbelow(2**31)
            fresh = table.game.new_state(table.row.players, seed=seed)
            creator = self._creators.get(table.id, self.client_key(f"seat-{seat}"))
            # The same people in the same seats: a bot that sat in for one leaves with the game.
            seats = [dataclasses.replace(seat, sit_in=None) for seat in table.row.seats]
            new_id = await self._store_table(
                table.game, table.row.options, seed, fresh, seats, creator, table.settings
            )
            try:
                named = await self._in_db(self.storage.set_rematch, table.id, new_id)
            except StorageError as error:
                log.error("table %s: %s", table.id, error.__cause__ or error)
                raise ClientError(NOT_SAVED, "not_saved") from None
            table.row = dataclasses.replace(table.row, rematch=named or new_id)
            for connection in table.connections:
                connection.notify()
            await self._refresh_seats(table)  # its unused invitations moved to the rematch
            return table.row.rematch or new_id

    @staticmethod
    def _name(text: str | None, seat: int) -> str:
        try:
            return display_name(text, seat)
        except ValueError as error:
            raise ClientError(str(error), "bad_name") from None

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
            raise ClientError(NOT_INVITED, "not_invited")
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
                connection.notify()

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
                    self._heard_while_loading.discard(table_id)
                    try:
                        table = await self._load(table_id)
                    finally:
                        missed = table_id in self._heard_while_loading
                        self._heard_while_loading.discard(table_id)
                    self.tables[table_id] = table
                    if missed:  # another process wrote while this one read: maybe before
                        table.chat_heard = True
                        self._catch_up_soon(table)
                    if self.cluster.shared:  # people may be here through other processes
                        await self._refreshed_presence(table)
        finally:
            self._loading.pop(table_id, None)
        if not table.broken:
            async with table.lock:
                try:
                    await self._advance(table, [])  # chance events pending since the last write
                except StepConflict:  # another process stored them (or others) first
                    await self._catch_up_locked(table)
                except StorageError as error:  # the bot driver tries again
                    log.error("table %s: %s", table.id, error.__cause__ or error)
                    self._troubled(table)
                self._restart_clock(table)
            self._kick(table)
        self._touch(table)
        return table

    async def _load(self, table_id: str) -> LiveTable:
        if len(table_id) > 32:
            raise TableNotFound("no such table")
        try:
            row, actions = await self._in_db(self.storage.load_table_and_actions, table_id)
            if row is None:
                raise TableNotFound(f"no table {table_id!r}")
            chat = await self._in_db(self.storage.load_chat, table_id, CHAT_KEPT)
        except StorageError as error:
            log.error("table %s: %s", quoted(table_id), error.__cause__ or error)
            raise DatabaseDown("the database did not answer; try again") from None
        table = await self._in_thread(self._rebuild, row, actions)
        table.chat = chat
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
        decision has moved on since `version` (None: the caller does not say). If another
        server process stored a step first, this copy catches up and the action is looked at
        again there (another seat's pick at the same time leaves it standing)."""
        async with table.lock:
            for _attempt in range(MAX_WRITE_TRIES):
                action = self._checked_action(table, seat, payload, version)
                try:
                    with self._written_or_refused(table):
                        await self._advance(table, [(seat, action)])
                    break
                except TableMovedOn:
                    await self._catch_up_locked(table)
            else:
                raise ClientError(MOVED_ON, "moved_on")
            version = table.version
        self._kick(table)
        self._touch(table)
        return version

    @staticmethod
    def _checked_action(
        table: LiveTable, seat: int, payload: dict[str, Any], version: int | None
    ) -> Action:
        """The action `seat` may play now, chosen at `version`; ClientError if not."""
        if table.broken:
            raise ClientError(table.broken, "broken")
        state = table.state
        if state.is_terminal():
            raise ClientError("the game is over", "game_over")
        if seat not in deciders(state):
            raise ClientError(
                f"it is not your turn (seat {seat}); wait for the others", "not_your_turn"
            )
        if version is not None and not (
            table.decision_since.get(seat, 0) <= version <= table.version
        ):
            raise ClientError(
                f"{STALE} (it was chosen at version {version}, now {table.version})", "stale"
            )
        try:
            action = state.game.action_from_json(payload)
            state.clone().apply(action, player=seat)
        except spielwerk.IllegalAction as error:
            raise ClientError(f"illegal action: {error}", "illegal") from None
        return action

    @contextmanager
    def _written_or_refused(self, table: LiveTable) -> Iterator[None]:
        """A person's write: if the database refuses it, the person is told and nothing
        changed; TableMovedOn if another server process stored a change first (the caller
        catches up and looks again)."""
        try:
            yield
        except StepConflict as error:
            log.info("table %s: %s; catching up", table.id, error)
            raise TableMovedOn(MOVED_ON) from None
        except StorageError as error:
            log.error("table %s: %s", table.id, error.__cause__ or error)
            raise ClientError(NOT_SAVED, "not_saved") from None

    @contextmanager
    def _caught_up_if_moved_on(self, table: LiveTable) -> Iterator[None]:
        """A write that only makes sense in the version it was asked in: if another process
        changed the table first, the person is told to look again (this copy catches up)."""
        try:
            with self._written_or_refused(table):
                yield
        except TableMovedOn:
            self._catch_up_soon(table)
            raise ClientError(f"{STALE} (the table changed meanwhile)", "stale") from None

    async def undo(self, table: LiveTable, seat: int, version: int) -> int:
        """Seat `seat` takes back its last action, seen in the state of `version` (Board Game
        Arena's rule, `spielwerk.core.undo`: nobody else has acted since and the action showed
        nobody anything hidden). The table's version after it; ClientError with the reason,
        changing nothing, if it may not."""
        async with table.lock:
            if table.broken:
                raise ClientError(table.broken, "broken")
            if version != table.version:
                raise ClientError(
                    f"{STALE} (it was chosen at version {version}, now {table.version})", "stale"
                )
            # the draws of the offer (`undo_offered`): the same state gets the same answer
            rng = undo_rng(table.row, len(table.state.history))
            refusal = await self._in_thread(undo_refusal, table.state, seat, rng)
            if refusal is not None:
                raise ClientError(f"cannot take back: {REFUSALS[refusal]}", f"undo_{refusal}")
            actions = table.game.actions
            kept = [
                StoredAction(index, actor, actions[action_id].to_json())
                for index, (actor, action_id) in enumerate(table.state.history[:-1])
            ]
            earlier = await self._in_thread(_replay_table, table.row, table.game, kept)
            with self._caught_up_if_moved_on(table):
                await self._in_db(
                    self.storage.take_back_step,
                    table.id,
                    len(table.state.history),
                    deciders(earlier.state),
                    server_moves(table.row, earlier.state),
                    table.revision,
                    seat,
                )
            revision = table.revision + 1
            # The seat that took its move back decides anew; a seat that was deciding all
            # along (a simultaneous pick) keeps the decision it began.
            table.decision_since = {
                s: table.decision_since[s] if s != seat and s in table.decision_since else revision
                for s in deciders(earlier.state)
            }
            table.state, table.log, table.views = earlier.state, earlier.log, earlier.views
            table.undo_offered = earlier.undo_offered
            table.revision = revision
            table.last_change = time.monotonic()
            self._restart_clock(table)
            table.notice = {"kind": "undo", "seat": seat}
            for connection in table.connections:
                connection.log_sent = min(connection.log_sent, len(table.log))
                connection.notify()
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
        last_actor = steps[-1][0]
        table.undo_offered = (
            last_actor >= 0
            and table.row.seats[last_actor].kind == "human"
            # the state before the one step stored is this copy's: no replay of the log
            and await self._in_thread(
                undo_offered, table.row, work, table.state if len(steps) == 1 else None
            )
        )
        table.state = work
        table.revision = revision
        table.last_change = time.monotonic()
        table.views = views
        table.log.extend(lines)
        table.decision_since = since
        table.trouble = None
        table.notice = None
        self._restart_clock(table)
        for connection in table.connections:
            connection.notify()

    # ------------------------------------------------------------------ other processes
    def on_change(self, change: Change) -> None:
        """A server process committed `change`: a live copy of that table catches up (each
        table one catch-up at a time, in order); "resync": all of them. This process's own
        changes are in its copy already, except who is here (every process's count)."""
        if change.kind == "resync":
            self._heard_while_loading.update(self._loading)
            for table in list(self.tables.values()):
                table.chat_heard = True
                self._catch_up_soon(table)
            return
        live = self.tables.get(change.table_id)
        if live is None:
            # Not in memory here: it is read from the database when it is needed. A copy
            # being read now may have been read before this change: it catches up once ready.
            if change.table_id in self._loading and change.kind != "presence":
                self._heard_while_loading.add(change.table_id)
            return
        if change.kind == "presence":  # this process's own too: who is here sums them all
            asyncio.get_running_loop().create_task(self._refreshed_presence(live))
            return
        if change.origin == self.process_id:
            return  # written through this copy, which holds it already
        if self._idle(live):
            # Nobody here watches it or moves for it (it was created or last played here):
            # forgotten rather than caught up, it is read afresh when it is needed again.
            self._evict(live)
            return
        if change.kind == "chat":
            live.chat_heard = True
        if change.kind == "undo" and change.revision > live.revision:
            live.pending_notice = {"kind": "undo", "seat": change.seat}
        self._catch_up_soon(live)

    async def _refreshed_presence(self, table: LiveTable) -> None:
        try:
            await self._refresh_presence(table)
        except StorageError as error:
            log.error("table %s: reading who is here: %s", table.id, error.__cause__ or error)

    def _catch_up_soon(self, table: LiveTable) -> None:
        if table.catching_up is not None and not table.catching_up.done():
            table.catch_up_again = True
            return
        table.catching_up = asyncio.get_running_loop().create_task(
            self._catch_up_until_still(table), name=f"catch-up-{table.id}"
        )

    async def _catch_up_until_still(self, table: LiveTable) -> None:
        while True:
            table.catch_up_again = False
            try:
                await self.catch_up(table)
            except StorageError as error:
                log.error("table %s: catching up: %s", table.id, error.__cause__ or error)
            except Exception:
                log.exception("table %s: catching up failed", table.id)
            if not table.catch_up_again:
                return

    async def catch_up(self, table: LiveTable) -> None:
        """Bring this copy up to the database: another process stored steps, took one back,
        wrote in the chat or changed a seat. Every page here is told, once."""
        async with table.lock:
            await self._catch_up_locked(table)
        self._kick(table)

    async def _catch_up_locked(self, table: LiveTable) -> None:
        # The usual change is a step another process stored: only the steps from this
        # copy's last one on are read (that one to see that it still stands), in one
        # snapshot with the row, whose revision then counts exactly the steps read.
        local = len(table.state.history)
        first = max(0, local - 1)
        row, actions = await self._in_db(self.storage.load_table_and_actions, table.id, first)
        if row is None or table.broken:
            return
        changed = False
        if row.revision != table.revision:
            if self._extends(table, row, actions, first):
                new_steps = actions[local - first :]
                rebuilt = await self._in_thread(self._caught_up_copy, table, row, new_steps)
            else:  # a step was taken back meanwhile: the whole log, replayed
                row, actions = await self._in_db(self.storage.load_table_and_actions, table.id)
                if row is None:
                    return
                rebuilt = await self._in_thread(_replay_table, row, table.game, actions)
            self._take_over(table, rebuilt, row.revision)
            changed = True
        if row.seats != table.row.seats or row.rematch != table.row.rematch:
            table.row = dataclasses.replace(table.row, seats=row.seats, rematch=row.rematch)
            changed = True
        if table.chat_heard:
            table.chat_heard = False
            _merge_chat(table, await self._in_db(self.storage.load_chat, table.id, CHAT_KEPT))
        if changed:
            self._restart_clock(table)
            self._notify_all(table)

    @staticmethod
    def _extends(
        table: LiveTable, row: TableRow, actions: Sequence[StoredAction], first: int
    ) -> bool:
        """Whether the stored log is this copy's with steps added and none taken back since
        (every revision since is a step): `actions` are the stored ones from `first` on."""
        local = table.state.history
        added = row.steps - len(local)
        if added < 0 or row.revision - table.revision != added:
            return False
        if len(actions) != row.steps - first:
            return False
        action_from_json = table.game.action_from_json
        return all(
            (stored.actor, action_from_json(stored.action).id) == local[stored.idx]
            for stored in actions[: len(local) - first]
        )

    @staticmethod
    def _caught_up_copy(
        table: LiveTable, row: TableRow, new_steps: Sequence[StoredAction]
    ) -> LiveTable:
        """(In a worker thread.) The table with the steps another process stored after this
        copy's applied to a clone (`_extends` said nothing else changed)."""
        game = table.game
        copy = LiveTable(row=row, game=game, state=table.state.clone(), log=list(table.log))
        copy.views = table.views if table.views is not None else all_views(copy.state)
        copy.decision_since = dict(table.decision_since)
        revision = table.revision
        for stored in new_steps:
            before = deciders(copy.state)
            line, copy.views = narrated_step(
                copy.state, copy.views, game.action_from_json(stored.action), stored.actor
            )
            copy.log.append(line)
            revision += 1
            note_decisions(copy.decision_since, before, stored.actor, copy.state, revision)
        copy.undo_offered = undo_offered(row, copy.state)
        return copy

    @staticmethod
    def _take_over(table: LiveTable, copy: LiveTable, revision: int) -> None:
        """Make the caught-up copy's game this table's (the connections stay): a page whose
        log ran past the common part gets it again from there."""
        common = 0
        for mine, theirs in zip(table.log, copy.log, strict=False):
            if mine is not theirs and mine.texts != theirs.texts:
                break
            common += 1
        table.state, table.log, table.views = copy.state, copy.log, copy.views
        table.decision_since = copy.decision_since
        table.undo_offered = copy.undo_offered
        table.revision = revision
        table.last_change = time.monotonic()
        table.trouble = None
        table.notice = table.pending_notice
        table.pending_notice = None
        for connection in table.connections:
            connection.log_sent = min(connection.log_sent, common)

    def on_ownership_lost(self) -> None:
        """This process's hold on the tables it moved for is gone (its lock connection
        broke: the database went away): stop every driver, and show the tables' pages that
        the server's moves wait; the look for orphans takes them up again (whichever process
        gets them), and the next stored step clears the banner."""
        for table in self.tables.values():
            if table.driver is not None and not table.driver.done():
                table.driver.cancel()
                self._troubled(table)

    async def adopt_orphans_forever(self) -> None:
        """Every ADOPT_EVERY seconds: take over the tables where the server is to move and
        nobody moves (their process died, or let go as another asked)."""
        while not self._closed:
            await asyncio.sleep(ADOPT_EVERY)
            try:
                await self.adopt_orphans()
            except StorageError as error:
                log.error(
                    "adopting tables: %s; retrying in %.1f s", error.__cause__ or error, ADOPT_EVERY
                )
            except Exception:
                log.exception("adopting tables failed")

    async def adopt_orphans(self) -> int:
        """Note this process alive (its connections gone with it if it dies), then take over
        the stalled tables where the server is to move; how many."""
        await self.cluster.check()
        now = time.time()
        await self._in_db(self.storage.heartbeat, self.process_id, now, now - PROCESS_GONE_AFTER)
        stalled = await self._in_db(self.storage.tables_to_resume, time.time() - ADOPT_EVERY)
        adopted = 0
        for table_id in stalled:
            live = self.tables.get(table_id)
            if live is not None and live.driver is not None and not live.driver.done():
                continue
            if not await self.cluster.own(table_id):
                continue  # another process drives it
            try:
                table = await self.get(table_id)
                if live is not None:
                    await self.catch_up(table)
            except ClientError as error:
                log.error("adopting table %s: %s", table_id, error)
                await self.cluster.release(table_id)
                continue
            self._kick(table)
            if table.driver is None or table.driver.done():
                await self.cluster.release(table_id)  # nothing to move after all
            else:
                adopted += 1
                log.info("table %s: adopted (its server moves were stalled)", table_id)
        return adopted

    def _troubled(self, table: LiveTable, trouble: str = TROUBLE) -> None:
        if table.trouble != trouble:
            table.trouble = trouble
            for connection in table.connections:
                connection.notify()

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
        if not await self.cluster.own(table.id):
            return  # another server process moves for this table
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
                        if (
                            table.version != version
                            or table.broken
                            or (seat, spec) not in table.bot_turns()  # the person is back
                        ):
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
                        log.info(
                            "table %s: bot %s (seat %d) moved at version %d",
                            table.id,
                            spec,
                            seat,
                            version,
                        )
                        decided = None
                        backoff.reset()
                except StepConflict as error:  # another process stored a step first
                    log.info("table %s: %s; catching up", table.id, error)
                    decided = None
                    await self.catch_up(table)
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
            if not self._closed:
                await self.cluster.release(table.id)
            self._touch(table)  # idle from now on if nobody is connected

    async def _ask_bot(self, table: LiveTable, request: BotRequest) -> int | None:
        """The bot's action id, or None if its worker failed (it is asked again later)."""
        try:
            return await self.bots.choose(request, self._creators.get(table.id, table.id))
        except Exception:
            log.exception("table %s: bot %s failed; asking again", table.id, request.spec)
            return None

    # ------------------------------------------------------------------ chat
    async def chat(self, table: LiveTable, connection: Connection, message: Chat) -> None:
        """A chat line from `connection`: stored, then sent to every page at the table (never
        to a bot, never in a state). ClientError, storing nothing, if this connection may not
        write (a spectator where the creator did not allow it), writes too fast, or the line
        shows nothing."""
        seat = connection.seat
        if seat is None and not table.settings.spectator_chat:
            raise ClientError("spectators cannot write in this table's chat", "chat_spectator")
        now = time.monotonic()
        times = connection.chat_times
        while times and now - times[0] >= CHAT_WINDOW:
            times.popleft()
        if len(times) >= CHAT_LINES:
            raise ClientError(
                f"you write fast: at most {CHAT_LINES} lines in {CHAT_WINDOW:g} s; wait a moment",
                "chat_too_fast",
            )
        step = len(table.state.history)
        if message.text is not None:
            try:
                text = chat_text(message.text)
            except ValueError as error:
                raise ClientError(str(error), "chat_text") from None
            line = ChatRow(-1, seat, "text", text, None, None, step, time.time())
        else:
            line = ChatRow(-1, seat, "phrase", None, message.phrase, None, step, time.time())
        times.append(now)
        try:
            await self._add_chat(table, line)
        except StorageError as error:
            log.error("table %s: %s", table.id, error.__cause__ or error)
            raise ClientError(NOT_SAVED, "not_saved") from None

    async def _add_chat(self, table: LiveTable, line: ChatRow) -> None:
        idx = await self._in_db(self.storage.add_chat, table.id, line)
        if idx > 0 and not any(kept.idx == idx - 1 for kept in table.chat):
            # Another process wrote the line before it and this one has not heard yet: read
            # them back, so that no page gets this line before the earlier one.
            _merge_chat(table, await self._in_db(self.storage.load_chat, table.id, CHAT_KEPT))
        _merge_chat(table, [dataclasses.replace(line, idx=idx)])

    async def _tell(self, table: LiveTable, key: str, **params: Any) -> None:
        """A line of the table itself in its chat (who left, who is back), worded by each
        page in its language. A database that does not answer loses the line, nothing else."""
        line = ChatRow(-1, None, "system", None, key, params, len(table.state.history), time.time())
        try:
            await self._add_chat(table, line)
        except StorageError as error:
            log.error("table %s: %s", table.id, error.__cause__ or error)

    # ------------------------------------------------------------------ absent players
    async def hand_over(self, table: LiveTable, by: int, seat: int) -> None:
        """Seat `by` lets a bot play `seat`, whose person has been gone for HAND_OVER_AFTER
        seconds (Board Game Arena's rule for a player who left); the seat is theirs again
        the moment they come back. ClientError with the reason, changing nothing, if not."""
        if self.cluster.shared:  # they may be here through another process
            try:
                await self._refresh_presence(table)
            except StorageError as error:
                log.error("table %s: %s", table.id, error.__cause__ or error)
                raise ClientError(NOT_SAVED) from None
        async with table.lock:
            if table.broken:
                raise ClientError(table.broken, "broken")
            if table.state.is_terminal():
                raise ClientError("the game is over", "game_over")
            seats = table.row.seats
            if not 0 <= seat < len(seats) or seats[seat].kind != "human" or seat == by:
                raise ClientError(f"seat {seat + 1} is not another person's seat", "not_a_person")
            if seats[seat].sit_in is not None:
                return  # somebody handed it over already
            away = table.away_since.get(seat)
            if away is None:
                raise ClientError(f"seat {seat + 1} is here: nothing to hand over", "seat_here")
            wait = self.hand_over_after - (time.monotonic() - away)
            if wait > 0:
                raise ClientError(
                    f"give them a moment: their seat can go to a bot in {math.ceil(wait)} s",
                    "hand_over_wait",
                )
            bot = sit_in_bot(table.game.name)
            row = _with_sit_in(table.row, seat, bot)
            with self._caught_up_if_moved_on(table):
                await self._in_db(
                    self.storage.set_sit_in, table.id, seat, bot, server_moves(row, table.state)
                )
            table.row = row
            self._restart_clock(table)
            self._notify_all(table)
        await self._tell(table, "sit_in", seat=seat, by=by)
        self._kick(table)

    async def _come_back(self, table: LiveTable, seat: int) -> None:
        """The person of `seat` is back: the bot that sat in for them stands up."""
        async with table.lock:
            if table.row.seats[seat].sit_in is None:
                return
            row = _with_sit_in(table.row, seat, None)
            try:
                await self._in_db(
                    self.storage.set_sit_in, table.id, seat, None, server_moves(row, table.state)
                )
            except StorageError as error:  # the bot plays on; their next visit tries again
                log.error("table %s: %s", table.id, error.__cause__ or error)
                return
            table.row = row
            self._restart_clock(table)
            self._notify_all(table)
        await self._tell(table, "back", seat=seat)

    def _restart_clock(self, table: LiveTable) -> None:
        """After a change: the move clock of every person to move (a decision that goes on
        keeps its start), and a timer for the first to run out."""
        if table.clock is not None:
            table.clock.cancel()
            table.clock = None
        limit = table.settings.move_clock
        if not limit or table.broken or table.state.is_terminal() or self._closed:
            table.clock_from.clear()
            return
        now = time.monotonic()
        since = table.decision_since
        people = [s for s in deciders(table.state) if seat_bot(table.row.seats[s]) is None]
        table.timed_out = {(s, v) for s, v in table.timed_out if since.get(s) == v}
        started = {}
        for seat in people:
            kept = table.clock_from.get(seat)
            version = since.get(seat, -1)
            started[seat] = kept if kept is not None and kept[0] == version else (version, now)
        table.clock_from = started
        running = [
            begun + limit
            for s, (version, begun) in started.items()
            if (s, version) not in table.timed_out
        ]
        if running:
            delay = max(0.0, min(running) - now)
            table.clock = asyncio.get_running_loop().call_later(delay, self._clock_ran_out, table)

    def _clock_ran_out(self, table: LiveTable) -> None:
        table.clock = None
        limit = table.settings.move_clock
        now = time.monotonic()
        late = [
            (s, version)
            for s, (version, begun) in table.clock_from.items()
            if now - begun >= limit and (s, version) not in table.timed_out
        ]
        for seat, version in late:
            table.timed_out.add((seat, version))
            asyncio.get_running_loop().create_task(self._tell(table, "timed_out", seat=seat))
        self._restart_clock(table)
        self._notify_all(table)
        self._kick(table)

    @staticmethod
    def _notify_all(table: LiveTable) -> None:
        for connection in table.connections:
            connection.notify()

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
                    f"your seat is open on {devices} devices already: close one of them",
                    "too_many_devices",
                )
        else:
            watching = sum(1 for c in table.connections if c.seat is None)
            if limits.spectators_per_table and watching >= limits.spectators_per_table:
                raise ClientError(
                    "this table has as many spectators as it takes; try later", "full_of_spectators"
                )
            if (
                limits.spectators_per_address
                and self._spectators_of.get(address, 0) >= limits.spectators_per_address
            ):
                raise ClientError(
                    f"you watch {limits.spectators_per_address} tables already: close one",
                    "watching_enough",
                )
            if limits.max_spectators and self.spectators >= limits.max_spectators:
                raise ClientError(
                    "the server has as many spectators as it takes; try later", "full_of_spectators"
                )
        if self.tables.get(table.id) is not table:
            # Forgotten while this connection was opening: live again, unless it was
            # forgotten because the database moved on (or a fresh copy took its place).
            if table.broken == MOVED_ON or table.id in self.tables:
                raise ClientError(MOVED_ON, "moved_on")
            self.tables[table.id] = table
            if self.cluster.shared:  # another process may have changed it meanwhile
                table.chat_heard = True
                self._catch_up_soon(table)
        connection = Connection(seat, lang, address=address)
        table.connections.add(connection)
        self.connections += 1
        if seat is None:
            self.spectators += 1
            self._spectators_of[address] = self._spectators_of.get(address, 0) + 1
        else:
            self._share_presence(table, seat)
            if table.away_since.pop(seat, None) is not None:
                self._notify_all(table)  # everybody sees them back
                if table.row.seats[seat].sit_in is not None:
                    asyncio.get_running_loop().create_task(self._come_back(table, seat))
        self._count_devices(table, seat)
        connection.notify()
        return connection

    def _share_presence(self, table: LiveTable, seat: int) -> None:
        """With other processes on the database: note how many connections this one holds
        for the seat (each process then reads who is here from all of them)."""
        if not self.cluster.shared:
            return
        count = sum(1 for c in table.connections if c.seat == seat)
        asyncio.get_running_loop().create_task(self._write_presence(table.id, seat, count))

    async def _write_presence(self, table_id: str, seat: int, count: int) -> None:
        try:
            await self._in_db(
                self.storage.set_presence, table_id, seat, self.process_id, count, time.time()
            )
        except StorageError as error:  # the next change (or the heartbeat) notes it
            log.error("table %s: %s", table_id, error.__cause__ or error)

    async def _refresh_presence(self, table: LiveTable) -> None:
        """Who is at the table, from every process's count: away since the last of them
        let go (on this process's clock); a person back with a bot sitting in plays again."""
        counts = await self._in_db(self.storage.load_presence, table.id)
        offset = time.monotonic() - time.time()
        away = dict(table.away_since)
        for seat in (s.seat for s in table.row.seats if s.kind == "human"):
            if seat in counts and counts[seat][0] > 0:
                away.pop(seat, None)
            elif seat in counts:
                away[seat] = counts[seat][1] + offset
            else:
                away.setdefault(seat, time.monotonic())
        back = [s for s in table.away_since if s not in away]
        if away != table.away_since:
            table.away_since = away
            self._notify_all(table)
        for seat in back:
            if table.row.seats[seat].sit_in is not None:
                await self._come_back(table, seat)

    @staticmethod
    def _count_devices(table: LiveTable, seat: int | None) -> None:
        """Tell the connections of a seat how many devices hold it now."""
        if seat is None:
            return
        same = [c for c in table.connections if c.seat == seat]
        for connection in same:
            if connection.devices != len(same):
                connection.devices = len(same)
                connection.notify()

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
            else:
                self._share_presence(table, connection.seat)
                here = any(c.seat == connection.seat for c in table.connections)
                if not here and not self.cluster.shared:  # shared: the database decides
                    table.away_since[connection.seat] = time.monotonic()
                    self._notify_all(table)  # everybody sees them gone
            self._count_devices(table, connection.seat)
        self._touch(table)

    def _evict(self, table: LiveTable, force: bool = False) -> None:
        """Forget an idle table (it is rebuilt from the database when next needed)."""
        if self.tables.get(table.id) is table and (force or not table.connections):
            del self.tables[table.id]
            if table.clock is not None:  # its move clock starts again when it is rebuilt
                table.clock.cancel()
                table.clock = None
            if force:
                table.broken = MOVED_ON
                for connection in table.connections:
                    connection.notify()

    async def summary(self, table_id: str) -> dict[str, Any]:
        """What anybody may know about a table, from memory if it is live, else from its row
        in the database: no replay (a flood of requests for many tables loads none)."""
        table = self.tables.get(table_id)
        if table is not None:
            return live_summary(table)
        return table_summary(await self.stored_row(table_id))

    async def stored_row(self, table_id: str) -> TableRow:
        """The table's row as the database holds it now (its seats as claimed there);
        TableNotFound or DatabaseDown if it cannot be had."""
        if len(table_id) > 32:
            raise TableNotFound("no such table")
        try:
            row = await self._in_db(self.storage.load_table, table_id)
        except StorageError as error:
            log.error("table %s: %s", quoted(table_id), error.__cause__ or error)
            raise DatabaseDown("the database did not answer; try again") from None
        if row is None:
            raise TableNotFound(f"no table {table_id!r}")
        return row

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
        "settings": TableSettings.of(row.settings).stored(),
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
    now = time.monotonic()
    table.away_since = {seat.seat: now for seat in row.seats if seat.kind == "human"}
    # Whoever is to move decides from the version the table is at now: an action a client
    # chose before the table was rebuilt is looked at again (when the revisions in between
    # were undos, nothing else tells which decisions they began).
    table.decision_since = dict.fromkeys(deciders(state), table.revision)
    table.undo_offered = table.broken is None and undo_offered(row, state)
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
        # The views of the newest step are kept with the table (the narration compared them).
        "view": state.view(seat) if table.views is None else table.views[column],
        "legal": legal,
        "log_from": start,
        "log": new_lines,
        "broken": table.broken,
        "trouble": table.trouble,
        "names": table.names(),
        "devices": None if seat is None else connection.devices,
        "notice": table.notice,
        "may_undo": seat is not None and table.undo_offered and last_step_by(state, seat),
        "rematch": table.row.rematch,
        "seats_now": seats_now(table),
        "clock": clock_now(table),
    }


def seats_now(table: LiveTable) -> list[dict[str, Any]]:
    """Who is at the table now, seat by seat: a person here or gone (and for how many
    seconds), and whether a bot plays for them meanwhile. Bots are always here."""
    now = time.monotonic()
    answer: list[dict[str, Any]] = []
    for seat in table.row.seats:
        if seat.kind == "bot":
            answer.append({"here": True, "away": None, "sit_in": False})
            continue
        since = table.away_since.get(seat.seat)
        away = None if since is None else round(now - since, 1)
        answer.append({"here": since is None, "away": away, "sit_in": seat.sit_in is not None})
    return answer


def clock_now(table: LiveTable) -> dict[str, Any] | None:
    """The move clock: its seconds, and how many each person to move has left."""
    limit = table.settings.move_clock
    if not limit:
        return None
    now = time.monotonic()
    left = {
        str(seat): max(0.0, round(begun + limit - now, 1))
        for seat, (_, begun) in table.clock_from.items()
    }
    return {"seconds": limit, "left": left}


def _merge_chat(table: LiveTable, lines: list[ChatRow]) -> None:
    """Add the stored chat `lines` this copy does not hold yet, in the order they were stored,
    and wake the pages. A line may arrive twice, written here and read back by a catch-up
    before its writer added it, and out of order, another process's earlier line read after
    this one's later: each is kept once, by its index."""
    held = {line.idx for line in table.chat}
    fresh = [line for line in lines if line.idx not in held]
    if not fresh:
        return
    table.chat.extend(fresh)
    table.chat.sort(key=lambda kept: kept.idx)
    del table.chat[:-CHAT_KEPT]
    for connection in table.connections:
        connection.wake.set()


def chat_message(table: LiveTable, connection: Connection) -> dict[str, Any] | None:
    """The chat lines `connection` has not had yet (None if there are none)."""
    new = [line for line in table.chat if line.idx > connection.chat_seen]
    if not new:
        return None
    connection.chat_seen = new[-1].idx
    return {"type": "chat", "lines": [chat_line(line) for line in new]}


def chat_line(line: ChatRow) -> dict[str, Any]:
    """A chat line as a page gets it: who (a seat, None: a spectator or the table itself),
    and its text, quick phrase or system key with its parameters."""
    entry: dict[str, Any] = {"i": line.idx, "seat": line.seat, "kind": line.kind}
    entry["step"], entry["at"] = line.step, line.at
    if line.kind == "text":
        entry["text"] = line.text
    else:
        entry["key"] = line.phrase
        entry["params"] = line.params or {}
    return entry


def explanation(state: State, seat: int | None, lang: Lang = DEFAULT_LANG) -> dict[str, Any] | None:
    """The breakdown of a finished game's result, from the seat's own final view, every event
    in it worded in `lang`."""
    narration = game_narration(state.game.name)
    if narration.explain is None:
        return None
    return worded_explanation(narration, lang, narration.explain(state.view(seat)))


def welcome_message(
    table: LiveTable, seat: int | None, hand_over_after: float = HAND_OVER_AFTER
) -> dict[str, Any]:
    game = table.game
    settings = table.settings
    return {
        "type": "welcome",
        "seat": seat,
        "chat": seat is not None or settings.spectator_chat,
        "hand_over_after": hand_over_after,
        "table": {
            **table_summary(table.row),
            "title": game.title,
            "rules_url": f"/rules/{game.name}",
            "renderer": renderer_url(game.name),
        },
    }
