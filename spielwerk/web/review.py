"""The game review and the hints on the server (`spielwerk.review`, docs/review.md).

Reviews: a finished table's review for one seat is computed in the bot workers, one decision
at a time, each queued fairly with the bots' decisions (grouped by the client that asked) and
capped at the bots' time a move; the page polls its progress; the complete review is stored
with the table (`review_store`), so it is computed once per seat.

Hints: at a table whose creator allowed them and where every person agreed (and always at a
table of one person against bots), a player may ask for the three best moves of its own
decision, with their winning chances, judged from that seat's information alone. Never for a
spectator, never for another seat, never where not everybody agreed: each request names its
seat by the seat's token (HTTP) or holds it (the websocket), and the answer goes to that
request only. Every hint is stored; once the game is over the record, the replay and the
result mark the moves played after a hint.

HTTP (JSON bodies; tokens only ever in bodies, never in a URL; docs/web.md has the table):
`POST /api/tables/ID/review/SEAT` starts (or joins) the review of a finished table's seat,
`GET` the same path asks how far it is; `POST /api/tables/ID/hints/status`, `.../hints/agree`
and `.../hint` (`{"token", "version"}`) are the hints; `GET /api/tables/ID/hints` lists the
hints given, once the game is over.

Websocket: `{"type": "hint", "version", "ref"?, "seat"?}` is answered, on that connection
only, with `{"type": "hint", "ref", "step", "version", "moves": [{"action", "text",
"chance"}], "calibrated"}` or an error.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field, replace
from typing import Annotated, Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, ConfigDict, Field, StringConstraints, ValidationError

from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.core.state import State
from spielwerk.review.calibration import calibration_for
from spielwerk.review.engine import (
    Decision,
    MoveChance,
    ReviewError,
    assemble_review,
    check_reviewable,
    decision_points,
)
from spielwerk.review.search import plan_for
from spielwerk.web.errors import ClientError, TableNotFound
from spielwerk.web.protocol import error_message, validation_text
from spielwerk.web.review_store import HintRow, HintRules, ReviewStore
from spielwerk.web.review_work import JudgeRequest, judge_decision, judge_hint
from spielwerk.web.storage import StorageError
from spielwerk.web.tables import DatabaseDown, LiveTable, TableHub, deciders

log = logging.getLogger("spielwerk.web")

HINT_MOVES = 3
"""Moves a hint names: the search's three favourites."""
REVIEW_SEED = 0
"""The seed of every review on the server: the same table and seat give the same review."""
REVIEWS_PER_CLIENT = 2
"""Reviews one client address may have running at once (each is many decisions of search)."""
HINT_REF_LIMIT = 2**31


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Token = Annotated[str, StringConstraints(min_length=1, max_length=128)]


class SeatToken(_Strict):
    token: Token | None = None


class HintRequest(_Strict):
    token: Token
    version: Annotated[int, Field(ge=0, le=2**31)]
    seat: Annotated[int, Field(ge=0, le=64)] | None = None
    lang: Lang = DEFAULT_LANG


@dataclass(eq=False)
class ReviewJob:
    """A review being computed: its progress and the task computing it."""

    client: str
    done: int = 0
    total: int | None = None
    error: str | None = None
    task: asyncio.Task[None] | None = field(default=None, repr=False)

    def status(self) -> dict[str, Any]:
        if self.error is not None:
            return {"state": "failed", "message": self.error}
        return {"state": "running", "done": self.done, "total": self.total}


class ReviewService:
    """Reviews and hints of the hub's tables."""

    def __init__(self, hub: TableHub) -> None:
        self.hub = hub
        self.store = ReviewStore(hub.storage)
        self.jobs: dict[tuple[str, int], ReviewJob] = {}

    async def _in_db(self, fn: Callable[..., Any], *args: Any) -> Any:
        try:
            return await self.hub._in_db(fn, *args)
        except StorageError as error:
            log.error("reviews: %s", error.__cause__ or error)
            raise DatabaseDown("the database did not answer; try again") from None

    # ------------------------------------------------------------------ reviews
    async def finished_table(self, table_id: str) -> LiveTable:
        """The finished table `table_id` (ClientError if it is unknown or still running)."""
        if not (await self.hub.summary(table_id))["finished"]:
            raise GameRunning("a review is made when the game is over")
        table = await self.hub.get(table_id)
        if not table.state.is_terminal():
            raise GameRunning("a review is made when the game is over")
        return table

    async def review(self, table_id: str, seat: int, start: bool, client: str) -> dict[str, Any]:
        """The review of `seat` (from 0) at a finished table: stored, running, or (with
        `start`) started now; {"state": "none"} if there is none and `start` is off."""
        table = await self.finished_table(table_id)
        try:
            check_reviewable(table.state, seat)
        except ReviewError as error:
            raise ClientError(str(error)) from None
        stored = await self._in_db(self.store.load_review, table.id, seat)
        if stored is not None:
            return {"state": "done", "review": stored}
        key = (table.id, seat)
        job = self.jobs.get(key)
        if job is not None and (job.error is None or not start):
            return job.status()
        if not start:
            return {"state": "none"}
        running = sum(1 for j in self.jobs.values() if j.client == client and j.error is None)
        if running >= REVIEWS_PER_CLIENT:
            raise TooManyReviews(
                f"you have {running} reviews running already (at most {REVIEWS_PER_CLIENT} at "
                "a time): wait for one to finish"
            )
        job = self.jobs[key] = ReviewJob(client)
        job.task = asyncio.create_task(self._compute(table, seat, job), name=f"review-{key}")
        return job.status()

    async def _compute(self, table: LiveTable, seat: int, job: ReviewJob) -> None:
        key = (table.id, seat)
        try:
            final = table.state.clone()
            points, forced = await self.hub._in_thread(decision_points, final, seat)
            job.total = len(points)
            decisions: list[Decision] = []
            for point in points:
                request = replace(
                    self._request(table, final, seat, point.step),
                    number=point.number,
                    played=point.played,
                    review_seed=REVIEW_SEED,
                )
                decision = await self.hub.bots.search.call(judge_decision, request, job.client)
                decisions.append(decision)
                job.done = len(decisions)
            review = await self.hub._in_thread(self._assemble, final, seat, decisions, forced)
            await self._in_db(self.store.save_review, table.id, seat, review)
            del self.jobs[key]
        except asyncio.CancelledError:
            self.jobs.pop(key, None)
            raise
        except Exception as error:  # a worker or the database failed: the page may ask again
            log.exception("table %s: the review of seat %d failed", table.id, seat)
            job.error = f"the review could not be made ({type(error).__name__}); try again"

    @staticmethod
    def _assemble(
        final: State, seat: int, decisions: list[Decision], forced: int
    ) -> dict[str, Any]:
        plan = plan_for(final.game, final.num_players)
        calibration = calibration_for(
            final.game.name, final.num_players, plan.method, plan.iterations
        )
        review = assemble_review(final, seat, REVIEW_SEED, plan, calibration, decisions, forced)
        return review.to_json()

    def _request(self, table: LiveTable, state: State, seat: int, step: int) -> JudgeRequest:
        return JudgeRequest(
            table_id=table.id,
            game=state.game.name,
            options=dict(state.game.options),
            players=state.num_players,
            seed=state.seed,
            history=tuple(state.history[:step]),
            seat=seat,
            max_seconds=self.hub.max_bot_seconds,
        )

    # ------------------------------------------------------------------ hints
    async def note_new_table(self, table_id: str, enabled: bool, creator_seat: int | None) -> None:
        """A new table's hint rule: allowed or not by its creator, who agrees by allowing."""
        agreed = [creator_seat] if enabled and creator_seat is not None else []
        await self._in_db(self.store.set_hint_rules, table_id, enabled, agreed)

    async def rules(self, table: LiveTable) -> HintRules:
        rules: HintRules = await self._in_db(self.store.hint_rules, table.id)
        return rules

    @staticmethod
    def humans(table: LiveTable) -> list[int]:
        return [s.seat for s in table.row.seats if s.kind == "human"]

    def solo(self, table: LiveTable) -> bool:
        """One person against bots: hints need nobody else's agreement."""
        return len(self.humans(table)) == 1 and len(table.row.seats) > 1

    def refusal(self, table: LiveTable, rules: HintRules, seat: int | None) -> str | None:
        """Why `seat` may get no hints at this table (None: it may, on its own turn)."""
        if seat is None:
            return "spectators get no hints: a hint is for the player whose turn it is"
        if seat not in self.humans(table):
            return f"seat {seat + 1} is not a person's seat"
        if self.solo(table):
            return None
        if not rules.enabled:
            return "hints are off at this table: its creator did not allow them"
        missing = [p + 1 for p in self.humans(table) if p not in rules.agreed]
        if missing:
            seats = ", ".join(map(str, missing))
            return f"hints need every player's agreement: seat {seats} has not agreed yet"
        return None

    async def status(self, table: LiveTable, seat: int | None) -> dict[str, Any]:
        rules = await self.rules(table)
        reason = self.refusal(table, rules, seat)
        return {
            "seat": seat,
            "enabled": rules.enabled,
            "solo": self.solo(table),
            "humans": self.humans(table),
            "agreed": sorted(rules.agreed),
            "available": reason is None,
            "reason": reason,
        }

    async def agree(self, table: LiveTable, seat: int) -> dict[str, Any]:
        rules = await self.rules(table)
        if not rules.enabled and not self.solo(table):
            raise ClientError("hints are off at this table: its creator did not allow them")
        if seat not in self.humans(table):
            raise ClientError(f"seat {seat + 1} is not a person's seat")
        await self._in_db(self.store.agree, table.id, seat)
        return await self.status(table, seat)

    async def hint(
        self, table: LiveTable, seat: int | None, version: int, lang: Lang
    ) -> dict[str, Any]:
        """The best moves of `seat`'s decision now, in `lang`; ClientError with the reason if
        this seat may not have one (a spectator, no agreement, not its turn, a stale view)."""
        reason = self.refusal(table, await self.rules(table), seat)
        if reason is not None:
            raise HintRefused(reason)
        assert seat is not None
        state = table.state
        if table.broken:
            raise ClientError(table.broken)
        if state.is_terminal():
            raise ClientError("the game is over: no hints after the end")
        if seat not in deciders(state):
            raise ClientError("a hint is for your own decision: wait for your turn")
        if not table.decision_since.get(seat, 0) <= version <= table.version:
            raise ClientError(
                "this hint was asked for in an earlier state of the table: look again and ask"
            )
        step = len(state.history)
        stored: HintRow | None = await self._in_db(self.store.hint, table.id, seat, step)
        if stored is None:
            request = self._request(table, state, seat, step)
            group = self.hub._creators.get(table.id, table.id)
            moves: list[MoveChance] = await self.hub.bots.search.call(judge_hint, request, group)
            stored = HintRow(seat, step, [_move_json(m) for m in moves[:HINT_MOVES]])
            await self._in_db(self.store.save_hint, table.id, stored)
        plan = plan_for(state.game, state.num_players)
        calibration = calibration_for(
            state.game.name, state.num_players, plan.method, plan.iterations
        )
        return {
            "type": "hint",
            "step": step,
            "version": version,
            "moves": [
                {"action": m["action"], "text": m["text"][lang], "chance": m["chance"]}
                for m in stored.moves
            ],
            "calibrated": calibration is not None and calibration.calibrated,
        }

    async def marks(self, table: LiveTable) -> list[dict[str, Any]]:
        """Every hint at a finished table: its seat, the step it was asked at, and the index
        of the action the seat then played (None if it played none after it)."""
        rows: list[HintRow] = await self._in_db(self.store.hints, table.id)
        history = table.state.history
        found = []
        for row in rows:
            played = next(
                (i for i in range(row.step, len(history)) if history[i][0] == row.seat), None
            )
            found.append({"seat": row.seat, "step": row.step, "action": played})
        return found


def _move_json(move: MoveChance) -> dict[str, Any]:
    return {"action": move.action, "text": move.text, "chance": move.chance}


class GameRunning(ClientError):
    """A finished table's thing asked of a table still in play."""


class TooManyReviews(ClientError):
    """This client has as many reviews running as it may."""


class HintRefused(ClientError):
    """No hint for this seat at this table (a spectator, no agreement)."""


# ---------------------------------------------------------------------- HTTP
router = APIRouter()


def service(request: Request) -> ReviewService:
    found: ReviewService = request.app.state.reviews
    return found


def _error(status: int, text: str) -> JSONResponse:
    return JSONResponse(error_message(text), status_code=status)


def _status_of(error: ClientError) -> int:
    if isinstance(error, TableNotFound):
        return 404
    if isinstance(error, DatabaseDown):
        return 503
    if isinstance(error, GameRunning):
        return 409
    if isinstance(error, TooManyReviews):
        return 429
    if isinstance(error, HintRefused):
        return 403
    return 400


async def _answer(work: Awaitable[dict[str, Any]]) -> Response:
    try:
        return JSONResponse(await work)
    except ClientError as error:
        return _error(_status_of(error), str(error))


def _client(request: Request) -> str:
    hub: TableHub = request.app.state.hub
    return hub.client_key(request.client.host if request.client else "unknown")


@router.post("/api/tables/{table_id}/review/{seat}")
async def start_review(request: Request, table_id: str, seat: int) -> Response:
    return await _answer(service(request).review(table_id, seat, True, _client(request)))


@router.get("/api/tables/{table_id}/review/{seat}")
async def get_review(request: Request, table_id: str, seat: int) -> Response:
    return await _answer(service(request).review(table_id, seat, False, _client(request)))


async def _seat_of(request: Request, table: LiveTable, token: str | None) -> int | None:
    """The seat a token holds at `table` (None: no token); HintRefused for a token that is
    not one of this table's."""
    if token is None:
        return None
    hub: TableHub = request.app.state.hub
    seat = await hub.seat_of(table, token)
    if seat is None:
        raise HintRefused("this seat token does not belong to this table")
    return seat


async def _body(request: Request, model: type[Any]) -> Any:
    try:
        return model.model_validate_json(await request.body())
    except ValidationError as error:
        raise ClientError(f"bad request: {validation_text(error)}") from None


@router.post("/api/tables/{table_id}/hints/status")
async def hint_status(request: Request, table_id: str) -> Response:
    async def work() -> dict[str, Any]:
        body = await _body(request, SeatToken)
        table = await request.app.state.hub.get(table_id)
        return await service(request).status(table, await _seat_of(request, table, body.token))

    return await _answer(work())


@router.post("/api/tables/{table_id}/hints/agree")
async def agree_to_hints(request: Request, table_id: str) -> Response:
    async def work() -> dict[str, Any]:
        body = await _body(request, SeatToken)
        table = await request.app.state.hub.get(table_id)
        seat = await _seat_of(request, table, body.token)
        if seat is None:
            raise HintRefused("spectators cannot agree to hints: only the players can")
        return await service(request).agree(table, seat)

    return await _answer(work())


@router.post("/api/tables/{table_id}/hint")
async def ask_hint(request: Request, table_id: str) -> Response:
    async def work() -> dict[str, Any]:
        body: HintRequest = await _body(request, HintRequest)
        table = await request.app.state.hub.get(table_id)
        seat = await _seat_of(request, table, body.token)
        if body.seat is not None and body.seat != seat:
            raise HintRefused(f"your token is for seat {seat}: no hints for seat {body.seat}")
        return await service(request).hint(table, seat, body.version, body.lang)

    return await _answer(work())


@router.get("/api/tables/{table_id}/hints")
async def hinted_moves(request: Request, table_id: str) -> Response:
    async def work() -> dict[str, Any]:
        reviews = service(request)
        try:
            table = await reviews.finished_table(table_id)
        except GameRunning:
            raise GameRunning("the hints are shown when the game is over") from None
        return {"hints": await reviews.marks(table)}

    return await _answer(work())


# ---------------------------------------------------------------------- websocket
async def hint_over_socket(
    reviews: ReviewService,
    table: LiveTable,
    seat: int | None,
    lang: Lang,
    message: Any,
    send: Callable[[dict[str, Any]], Awaitable[None]],
) -> None:
    """Answer a websocket's {"type": "hint"} on that connection only (`seat`: the
    connection's, None for a spectator)."""
    ref = message.ref
    try:
        if message.seat is not None and message.seat != seat:
            raise HintRefused(f"your token is for seat {seat}: no hints for seat {message.seat}")
        answer = await reviews.hint(table, seat, message.version, lang)
    except ClientError as error:
        await send(error_message(str(error), ref))
        return
    if ref is not None:
        answer["ref"] = ref
    await send(answer)
