"""The review of a finished game for one seat: at each of the seat's decisions, every legal
move's estimated winning chance from what the seat knew then, the drop from the best move to
the move played, and a mark.

The review walks the record's actions. At each decision of the seat that had a choice, it draws
a state from the seat's information set (`State.resample(seat, rng)`, a function of what the
seat knows: the conformance checks hold every game to that) and hands the search nothing but
that sample, as a `Turn`; the true state is only ever stepped forward. So two games that the
seat cannot tell apart get the same review (tests/review/test_review_hidden.py).

The best move is the one the search tried most (its choice); the drop is the best move's chance
minus the played move's, never below 0; marks follow `THRESHOLDS`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from spielwerk.agents.base import Turn
from spielwerk.core.errors import SpielwerkError
from spielwerk.core.game import Game
from spielwerk.core.i18n import LANGUAGES
from spielwerk.core.state import State
from spielwerk.review.calibration import Calibration, calibration_for, uncalibrated_chance
from spielwerk.review.search import (
    MoveJudge,
    SearchPlan,
    build_judge,
    hindsight_available,
    plan_for,
)

REVIEW_FORMAT = "spielwerk-review/1"

THRESHOLDS: tuple[tuple[str, float], ...] = (
    ("blunder", 0.20),
    ("mistake", 0.10),
    ("inaccuracy", 0.05),
)
"""A move is marked by the largest threshold its drop in winning chance reaches (lichess's
marks, in chances rather than pawns). The estimate's noise is far below the smallest: between
two reviews with different seeds, docs/review.md, "Noise"."""

Progress = Callable[[int, int], None]
"""Called with (decisions judged, decisions to judge) after each judged decision."""


class ReviewError(SpielwerkError):
    """A review that cannot be made: an unfinished game, a seat the game does not have."""


@dataclass(frozen=True, slots=True)
class MoveChance:
    """One legal move at a decision, as the search judged it."""

    id: int
    """The action's id (`Game.encode`)."""
    action: dict[str, Any]
    """The action's JSON form (as in the record)."""
    text: dict[str, str]
    """Its button text for the seat, in each language (`State.label`)."""
    chance: float
    """Estimated winning chance after it (the seat's; in a co-operative game the team's)."""
    value: float
    """The search's own mean value of it (before calibration)."""
    visits: int
    hindsight: float | None = None
    """With everything open (`review_game(hindsight=True)`): its winning chance judged on the
    true state, every hidden card as it lay; None where not asked for or not available."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of the reviewed seat."""

    number: int
    """The seat's decisions counted from 1 (forced moves included)."""
    step: int
    """The index of the move played in the record's action list."""
    played: int
    """Index of the played move in `moves`."""
    best: int
    """Index of the best move (the one the search tried most) in `moves`."""
    moves: list[MoveChance]
    """Every legal move, the search's favourites first (by visits)."""
    drop: float
    mark: str | None

    @property
    def played_move(self) -> MoveChance:
        return self.moves[self.played]

    @property
    def best_move(self) -> MoveChance:
        return self.moves[self.best]


@dataclass(frozen=True, slots=True)
class GameReview:
    game: str
    players: int
    seat: int
    """The reviewed seat, from 0 (as in records); pages count from 1."""
    seed: int
    method: str
    iterations: int
    cooperative: bool
    calibration: Calibration | None
    decisions: list[Decision]
    result: dict[str, Any]
    thresholds: tuple[tuple[str, float], ...] = THRESHOLDS
    forced: int = 0
    """Decisions with a single legal move (not judged)."""
    hindsight: bool = False
    """Whether the moves carry hindsight chances (judged with every card open)."""

    @property
    def calibrated(self) -> bool:
        return self.calibration is not None and self.calibration.calibrated

    def count(self, mark: str) -> int:
        return sum(d.mark == mark for d in self.decisions)

    def to_json(self) -> dict[str, Any]:
        """The review as JSON (`spielwerk-review/1`; docs/review.md)."""
        c = self.calibration
        return {
            "format": REVIEW_FORMAT,
            "game": self.game,
            "players": self.players,
            "seat": self.seat,
            "seed": self.seed,
            "search": {"method": self.method, "iterations": self.iterations},
            "cooperative": self.cooperative,
            "calibrated": self.calibrated,
            "calibration": None
            if c is None
            else {
                "held_out_positions": c.held_out_positions,
                "brier": c.brier,
                "base_brier": c.base_brier,
                "reliability_error": c.reliability_error,
            },
            "thresholds": dict(self.thresholds),
            "forced": self.forced,
            "hindsight": self.hindsight,
            "result": self.result,
            "decisions": [
                {
                    "number": d.number,
                    "step": d.step,
                    "played": d.played,
                    "best": d.best,
                    "drop": d.drop,
                    "mark": d.mark,
                    "moves": [
                        {
                            "action": m.action,
                            "text": m.text,
                            "chance": m.chance,
                            "value": m.value,
                            "visits": m.visits,
                            "hindsight": m.hindsight,
                        }
                        for m in d.moves
                    ],
                }
                for d in self.decisions
            ],
        }


def mark_of(drop: float, thresholds: tuple[tuple[str, float], ...] = THRESHOLDS) -> str | None:
    """The mark a drop in winning chance earns (None: a good move)."""
    for name, threshold in thresholds:
        if drop >= threshold - 1e-12:
            return name
    return None


class Judge:
    """A game's review search with its calibration, for one seat: judges one decision at a
    time, from a state of the seat's information set."""

    def __init__(
        self,
        game: Game,
        players: int,
        seat: int,
        plan: SearchPlan | None = None,
        hindsight: bool = False,
        max_seconds: float | None = None,
    ) -> None:
        """`max_seconds`: think at most that long a decision (a server's cap on its bots),
        which may end the search before its iterations."""
        self.seat = seat
        self.plan = plan_for(game, players) if plan is None else plan
        self.calibration = calibration_for(
            game.name, players, self.plan.method, self.plan.iterations
        )
        self.search: MoveJudge = build_judge(game, players, self.plan)
        if max_seconds is not None:
            self.search.cap(max_seconds)
        self.open_search: MoveJudge | None = None
        if hindsight and hindsight_available(game.name):
            self.open_search = build_judge(game, players, self.plan, open=True)

    def chance(self, value: float) -> float:
        if self.calibration is None:
            return uncalibrated_chance(value)
        return self.calibration.chance(value)

    def position(self, state: State, seed: int) -> list[MoveChance]:
        """Every legal move of the seat in `state`, judged from the seat's information set
        alone, the search's favourites first. `state` may be the true state: it is only
        resampled for the seat (`State.resample`), and the search gets nothing but that sample
        as a Turn; the same `seed` gives the same judgement of two states the seat cannot tell
        apart."""
        return self.moves(state.resample(self.seat, random.Random(seed)), seed)

    def decision(self, state: State, number: int, step: int, played_id: int, seed: int) -> Decision:
        """The seat's `number`-th decision, at `step` of the record, where it played
        `played_id`: every move judged (`position`), the drop and the mark."""
        moves = self.position(state, seed)
        if self.open_search is not None:
            moves = self.with_hindsight(state, moves, seed)
        played = next(i for i, m in enumerate(moves) if m.id == played_id)
        best = 0
        drop = max(0.0, moves[best].chance - moves[played].chance)
        return Decision(number, step, played, best, moves, drop, mark_of(drop))

    def with_hindsight(self, truth: State, moves: list[MoveChance], seed: int) -> list[MoveChance]:
        """`moves` with their hindsight chances: the open search on the true state (reading
        every hidden card: labelled as hindsight wherever it is shown, never a mark's basis)."""
        assert self.open_search is not None
        legal = truth.legal_actions(self.seat)
        self.open_search.reseed(seed)
        verdict = self.open_search.judge(Turn(self.seat, truth.view(self.seat), legal, truth))
        chances = {a.id: self.chance(v) for a, v in zip(legal, verdict.values, strict=True)}
        return [replace(m, hindsight=chances[m.id]) for m in moves]

    def moves(self, sample: State, seed: int) -> list[MoveChance]:
        """Every legal move of the seat in `sample` (a state of its information set, never
        the true one), judged, the search's favourites first."""
        seat = self.seat
        legal = sample.legal_actions(seat)
        self.search.reseed(seed)
        verdict = self.search.judge(Turn(seat, sample.view(seat), legal, sample))
        moves = [
            MoveChance(
                id=action.id,
                action=action.to_json(),
                text={lang: sample.label(action, seat, lang) for lang in LANGUAGES},
                chance=self.chance(value),
                value=value,
                visits=visits,
            )
            for action, visits, value in zip(legal, verdict.visits, verdict.values, strict=True)
        ]
        order = sorted(range(len(moves)), key=lambda i: (-moves[i].visits, -moves[i].value))
        return [moves[i] for i in order]


def decision_seed(seed: int, number: int) -> int:
    """The seed of the review's randomness at the seat's `number`-th decision."""
    return (seed * 1_000_003 + number) % 2**63


@dataclass(frozen=True, slots=True)
class DecisionPoint:
    """Where a seat decided with a choice: its `number`-th decision, at `step` of the record,
    where it played the action `played`."""

    number: int
    step: int
    played: int


def decision_points(final: State, seat: int) -> tuple[list[DecisionPoint], int]:
    """The seat's decisions with more than one legal move, and how many it made without."""
    state = final.game.new_state(final.num_players, seed=final.seed)
    points: list[DecisionPoint] = []
    number = forced = 0
    for step, (actor, action_id) in enumerate(final.history):
        if actor == seat:
            number += 1
            if len(state.legal_ids(seat)) > 1:
                points.append(DecisionPoint(number, step, action_id))
            else:
                forced += 1
        state.apply_trusted(action_id, actor)
    return points, forced


def check_reviewable(final: State, seat: int) -> None:
    """ReviewError unless `final` is a finished game with a seat `seat` (from 0)."""
    if not final.is_terminal():
        raise ReviewError("only a finished game can be reviewed: this record's game goes on")
    if not 0 <= seat < final.num_players:
        raise ReviewError(
            f"this game has seats 1 to {final.num_players}; there is no seat {seat + 1}"
        )


def review_game(
    final: State,
    seat: int,
    seed: int = 0,
    progress: Progress | None = None,
    plan: SearchPlan | None = None,
    hindsight: bool = False,
) -> GameReview:
    """Review the finished game `final` (e.g. `spielwerk.load_record(text)`) for `seat` (from
    0), reproducibly from `seed`; `plan` overrides the game's review search (tests).
    `hindsight`: also judge each move with every card open, where the game's compiled search
    can (`MoveChance.hindsight`; it reads the true state, and nothing else does)."""
    check_reviewable(final, seat)
    game = final.game
    judge = Judge(game, final.num_players, seat, plan, hindsight)
    points, forced = decision_points(final, seat)
    state = game.new_state(final.num_players, seed=final.seed)
    decisions: list[Decision] = []
    for point in points:
        for actor, action_id in final.history[len(state.history) : point.step]:
            state.apply_trusted(action_id, actor)
        here = decision_seed(seed, point.number)
        decisions.append(judge.decision(state, point.number, point.step, point.played, here))
        if progress is not None:
            progress(len(decisions), len(points))
    return assemble_review(
        final,
        seat,
        seed,
        judge.plan,
        judge.calibration,
        decisions,
        forced,
        hindsight=judge.open_search is not None,
    )


def assemble_review(
    final: State,
    seat: int,
    seed: int,
    plan: SearchPlan,
    calibration: Calibration | None,
    decisions: list[Decision],
    forced: int,
    hindsight: bool = False,
) -> GameReview:
    """The review of `final` for `seat` from its decisions, judged (here or in other
    processes) by the search `plan` with `calibration`."""
    return GameReview(
        game=final.game.name,
        players=final.num_players,
        seat=seat,
        seed=seed,
        method=plan.method,
        iterations=plan.iterations,
        cooperative=bool(final.result().get("cooperative")),
        calibration=calibration,
        decisions=decisions,
        result=final.result(),
        forced=forced,
        hindsight=hindsight,
    )
