"""The review's and the hints' work in the bot worker processes (`spielwerk.web.bots`).

A request carries the table's game, options, seed and actions up to the decision (as ids), the
seat, and the server's cap on thinking time; the worker rebuilds the state (keeping the last
ones it built, so a review's next decision applies only the new actions) and judges the seat's
decision with the game's review search (`spielwerk.review`), which sees nothing but a state
drawn from the seat's information set.
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from spielwerk.core.state import State
from spielwerk.review.engine import Decision, Judge, MoveChance, decision_seed
from spielwerk.web.bots import state_after

CACHED_JUDGES = 8
"""Review searches a worker keeps (one per game, options, player count and seat)."""


@dataclass(frozen=True, slots=True)
class JudgeRequest:
    """One decision to judge (picklable, small)."""

    table_id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    history: tuple[tuple[int, int], ...]
    """(actor, action id) of every action before the decision."""
    seat: int
    max_seconds: float
    number: int = 0
    """The seat's decision number (from 1) in a review; 0 for a hint."""
    played: int = -1
    """The action the seat played there (a review); -1 for a hint (nothing played yet)."""
    review_seed: int = 0


_judges: OrderedDict[tuple[str, str, int, int, float], Judge] = OrderedDict()


def _state_for(request: JudgeRequest) -> State:
    """The state after the request's history (the bot workers' cache of table states)."""
    return state_after(
        request.table_id,
        request.game,
        request.options,
        request.players,
        request.seed,
        request.history,
    )


def _judge_for(request: JudgeRequest, state: State) -> Judge:
    key = (
        request.game,
        repr(sorted(request.options.items())),
        request.players,
        request.seat,
        request.max_seconds,
    )
    judge = _judges.pop(key, None)
    if judge is None:
        judge = Judge(state.game, request.players, request.seat, max_seconds=request.max_seconds)
    _judges[key] = judge
    while len(_judges) > CACHED_JUDGES:
        _judges.popitem(last=False)
    return judge


def judge_decision(request: JudgeRequest) -> Decision:
    """In a worker: the review's judgement of the seat's `number`-th decision."""
    state = _state_for(request)
    judge = _judge_for(request, state)
    seed = decision_seed(request.review_seed, request.number)
    return judge.decision(state.clone(), request.number, len(state.history), request.played, seed)


def judge_hint(request: JudgeRequest) -> list[MoveChance]:
    """In a worker: every legal move of the seat now, judged, the search's favourites first."""
    state = _state_for(request)
    judge = _judge_for(request, state)
    return judge.position(state.clone(), decision_seed(request.review_seed, len(state.history)))
