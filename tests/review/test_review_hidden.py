"""The review judges a decision from what the seat knew, never from the true state: two true
states the seat cannot tell apart (one drawn from the other's information set, with other hidden
cards, as the conformance checks draw them) get the same judgement, move for move, and two
finished games the seat cannot tell apart get the same review. Every registered game."""

from __future__ import annotations

import random
from typing import Any

import pytest

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.core.conformance import fingerprint, fingerprint_diff
from spielwerk.core.state import State
from spielwerk.review.engine import GameReview, Judge, review_game
from spielwerk.review.search import SearchPlan
from spielwerk.sim.match import play_game

GAMES = {"witches": 4, "inkheart_dice": 3, "isolde": 4, "inkspell": 3, "tainted_grail": 2}
SMALL = {name: SearchPlan("net", 120) for name in GAMES}
"""The review's search at a small budget: the same machinery, quick enough for a test."""


def finished_game(name: str, players: int, seed: int) -> State:
    game = spielwerk.load(name)
    bots = [make_agent("heuristic" if s % 2 else "random", name, seed + s) for s in range(players)]
    return play_game(game, bots, seed=seed)


def decisions_of(final: State, seat: int) -> list[State]:
    """The state at each of the seat's decisions with a choice."""
    state = final.game.new_state(final.num_players, seed=final.seed)
    found = []
    for actor, action_id in final.history:
        if actor == seat and len(state.legal_ids(seat)) > 1:
            found.append(state.clone())
        state.apply_trusted(action_id, actor)
    return found


def other_world(state: State, seat: int) -> State | None:
    """A state the seat cannot tell from `state` that differs from it (None if the seat knows
    everything there is to know here)."""
    truth = fingerprint(state)
    for attempt in range(20):
        other = state.resample(seat, random.Random(7919 * attempt + 1))
        if fingerprint(other) != truth:
            return other
    return None


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_judgement_for_states_the_seat_cannot_tell_apart(name: str) -> None:
    final = finished_game(name, GAMES[name], seed=11)
    seat = 1
    judge = Judge(final.game, final.num_players, seat, SMALL[name])
    states = decisions_of(final, seat)
    compared = differed = 0
    for number, state in enumerate(states[:: max(1, len(states) // 8)]):
        other = other_world(state, seat)
        if other is None:
            continue
        compared += 1
        differed += fingerprint(other) != fingerprint(state)
        seed = 1000 + number
        mine, theirs = judge.position(state, seed), judge.position(other, seed)
        assert mine == theirs, (
            f"{name}: seat {seat} is judged differently in two states it cannot tell apart:\n"
            f"{fingerprint_diff(fingerprint(state), fingerprint(other))}"
        )
    if name == "tainted_grail":
        return  # the day cycle hides nothing but chance still to come: no other world
    # (Tintenherz hides nothing either but the pile's order: its other worlds differ only in
    # the seed that would predict the next draws.)
    assert compared >= 4 and differed == compared, (name, compared, differed)


def comparable(review: GameReview) -> list[dict[str, Any]]:
    """A review's judgements without the record positions they sit at (the record's step
    numbers count chance steps, whose timing the seat may not know)."""
    decisions = review.to_json()["decisions"]
    return [{key: value for key, value in d.items() if key != "step"} for d in decisions]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_review_for_games_the_seat_cannot_tell_apart(name: str) -> None:
    final = finished_game(name, GAMES[name], seed=5)
    seat = 0
    other = final.resample(seat, random.Random(3))
    assert other.is_terminal()
    mine = review_game(final, seat, seed=2, plan=SMALL[name])
    theirs = review_game(other, seat, seed=2, plan=SMALL[name])
    assert comparable(mine) == comparable(theirs)
    assert mine.result == theirs.result and mine.forced == theirs.forced
    assert mine.decisions, f"{name}: seat {seat + 1} had no decision to judge"
