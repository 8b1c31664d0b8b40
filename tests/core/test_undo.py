"""The undo rule (`spielwerk.core.undo`) answers the same whether the caller hands it the state
before the last action (the web server has it: the copy a move was checked on) or it replays
the history itself."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import spielwerk
from spielwerk.core.state import CHANCE
from spielwerk.core.undo import undo_refusal

PLAYERS = {"witches": 4, "inkheart_dice": 2, "isolde": 3, "inkspell": 2, "tainted_grail": 2}


@pytest.mark.parametrize("game", sorted(PLAYERS))
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(0, 2**31 - 1))
def test_the_state_before_gives_the_replayed_answer(game: str, seed: int) -> None:
    rng = random.Random(seed)
    state = spielwerk.load(game).new_state(PLAYERS[game], seed=seed)
    for _ in range(60):
        if state.is_terminal():
            break
        before = state.clone()
        if state.to_move == CHANCE:
            state.apply(state.sample_chance(rng), player=CHANCE)
            continue
        to_move = state.to_move
        seat = min(to_move) if isinstance(to_move, frozenset) else to_move
        state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        draws = rng.randrange(2**32)
        replayed = undo_refusal(state, seat, random.Random(draws))
        handed = undo_refusal(state, seat, random.Random(draws), before)
        assert handed == replayed, (game, seed, len(state.history))
