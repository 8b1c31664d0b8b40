"""What each seat may know in Tintenherz - Das Würfelspiel, and resampling.

Rules file "Hidden information": "Only the draw pile's order is hidden; everything else is
public." Rulebook "Preparation": the cards are "laid on the table face down as a draw pile";
"The top-most four cards are turned over and laid face up".
"""

from __future__ import annotations

import json
import random

import pytest
from inkheart_table import ALL_CARDS, draw, new_game, public, reroll, roll, take

import spielwerk
from spielwerk.core.conformance import check_no_leak, fingerprint, play_random
from spielwerk.core.state import State


def mid_game() -> State:
    state = new_game(["Farid", "Darius", "Basta", "Gwin"], players=3)
    roll(state, 4, 2)
    take(state, "Farid", refill="Staubfinger")
    roll(state, 6, 6)
    reroll(state, 6)
    return state


def test_views_differ_only_in_the_viewer() -> None:
    """Rules file: everything but the pile's order is public, so every seat sees the same."""
    state = mid_game()
    base = public(state)
    for seat in range(3):
        view = state.view(seat)
        assert view["viewer"] == seat
        assert {**view, "viewer": None} == base


def test_the_view_never_names_a_pile_card() -> None:
    """Rulebook: the draw pile lies "face down": its cards appear in no view, only their
    number."""
    state = mid_game()
    shown = {"Farid", "Darius", "Basta", "Gwin", "Staubfinger"}
    for seat in (None, 0, 1, 2):
        text = json.dumps(state.view(seat))
        for card in set(ALL_CARDS) - shown:
            assert card not in text
    assert public(state)["draw_pile"] == 11


def test_descriptions_are_the_same_for_every_viewer() -> None:
    """Every action is public (cards are turned up face up, dice are rolled openly)."""
    state = new_game(["Farid", "Darius", "Basta", "Gwin"], players=3)
    for action in [*state.chance_outcomes()][:3]:
        texts = {state.describe(action[0], v) for v in (None, 0, 1, 2)}
        assert len(texts) == 1
    roll(state, 4, 1)
    texts = {state.describe(a, v) for a in state.legal_actions() for v in (None, 0, 1, 2)}
    assert "seat 1 takes Farid (+4) from the centre" in texts  # seats counted from 1
    assert "seat 1 takes Basta (-3) from the centre and slides it under the castle" not in texts
    assert "seat 1 re-rolls both dice" in texts
    state.apply({"type": "take", "card": "Darius"})
    action = state.game.action_from_json({"type": "draw", "card": "Capricorn"})
    assert state.describe(action, 1) == "Capricorn (-6♥) is turned up into the centre"


def test_resample_is_the_same_position_with_a_fresh_seed() -> None:
    """Rules file "Hidden information": only the pile's order is hidden, and the pile is kept
    as an unordered pool, so a resample differs from the truth only in the seed (which would
    predict the default chance draws)."""
    state = mid_game()
    sample = state.resample(1, random.Random(5))
    a, b = fingerprint(state), fingerprint(sample)
    assert {k for k in a if a[k] != b[k]} <= {"seed"}
    assert sample.view(1) == state.view(1)
    again = state.resample(1, random.Random(5))
    assert fingerprint(again) == b
    replayed = spielwerk.replay(json.loads(json.dumps(sample.to_record())))
    assert fingerprint(replayed) == b


@pytest.mark.parametrize("players", [2, 3, 4])
def test_no_leak_at_every_step(players: int) -> None:
    """The conformance suite's strict check (resample of a resample equals resample of the
    truth for the same RNG state; the resample's record replays) at every step of a game."""
    game = spielwerk.load("inkheart_dice")
    final = play_random(game, players, seed=players)
    state = game.new_state(players, seed=players)
    rng = random.Random(0)
    for _, action_id in final.history:
        check_no_leak(state, rng)
        state.apply(action_id)
    check_no_leak(state, rng)


def test_draw_is_uniform_over_unseen_cards() -> None:
    """Rules file: the pile's order is hidden: every unseen card is equally likely next."""
    state = new_game(["Farid", "Darius", "Basta", "Gwin"])
    roll(state, 4, 4)
    take(state, "Farid")
    counts = dict.fromkeys(set(ALL_CARDS) - {"Farid", "Darius", "Basta", "Gwin"}, 0)
    rng = random.Random(1)
    for _ in range(2400):
        counts[str(state.sample_chance(rng).to_json()["card"])] += 1
    assert all(150 < n < 250 for n in counts.values()), counts
    draw(state, "Mo")
    assert public(state)["centre"] == ["Darius", "Gwin", "Mo", "Basta"]
