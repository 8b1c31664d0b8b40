"""Invariants of the table over whole random games (hypothesis), and each advanced rule alone
under the generic conformance checks.

The conformance suite (tests/conformance) runs the defaults and the whole advanced game
(`advanced=true`) at every player count; the three single rules are options without listed
choices, so they are checked here, each on its own.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spielwerk
from spielwerk.core.conformance import play_on, random_step, run_conformance


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    advanced=st.booleans(),
)
def test_random_games_keep_the_table_consistent(players: int, seed: int, advanced: bool) -> None:
    """At every step of a random game: every board holds one disc per seat, ranked front first
    by distance (Seed 004, l. 155: a stack's top disc is ahead, never a disc further back); the
    king never goes beyond 12 (l. 157); the shields of each seat add up to its score (l. 310);
    in the play phase each seat holds 5 cards less those it played (l. 145); an Isolde scoring
    moves at most 3 seats, and at most players - 1 (l. 187-189, 219)."""
    state = spielwerk.load("isolde", advanced=advanced).new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in play_on(state):
        random_step(state, rng)
        view = state.view(None)
        for board in view["boards"]:
            distances = [disc["distance"] for disc in board["discs"]]
            assert distances == sorted(distances, reverse=True)
            assert sorted(disc["seat"] for disc in board["discs"]) == list(range(players))
            if not board["loops"]:
                assert distances[0] <= board["spaces"]
        shields = [0] * players
        for award in view["awards"]:
            shields[award["seat"]] += award["points"]
        assert shields == view["scores"]
        if view["phase"] == "play":
            played = Counter(play["seat"] for play in view["played"])
            assert view["hand_sizes"] == [5 - played[seat] for seat in range(players)]
        moves = Counter(move["round"] for move in view["isolde_moves"])
        assert all(count <= min(3, players - 1) for count in moves.values())


@pytest.mark.parametrize(
    "rule", ["advanced_start_player_tiebreak", "advanced_isolde_setback", "advanced_reset"]
)
@pytest.mark.parametrize("players", [3, 4])
def test_each_advanced_rule_alone_passes_the_conformance_checks(rule: str, players: int) -> None:
    """Seed 004, l. 316-328: each of the three rules is an option of its own; with only that
    rule on, random games pass every conformance check (illegal input, replay, clones, no leak,
    conservation)."""
    game = spielwerk.load("isolde", **{rule: True})
    report = run_conformance(game, players, seed=players, every=8)
    assert report.result["winners"]
    assert report.options[rule] is True
