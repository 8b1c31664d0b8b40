"""Isolde's kernel keeps a record of the current round (`DEALT`, `PICKS`, `PLAYED` in
`spielwerk/games/isolde/kernel.py`), for a determinization in the kernel to read: `apply` keeps
it exactly as `from_state` reads it from the reference engine's history.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

import spielwerk
from spielwerk.core.state import CHANCE

pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")
from spielwerk.games.isolde import kernel as K

OPTIONS: list[dict[str, Any]] = [
    {},
    {"advanced": True, "start_player": 1},
    {"advanced_start_player_tiebreak": True},
    {"advanced_isolde_setback": True, "quest_first_points": 17},
    {"advanced_reset": True},
]
"""The option sets of `test_kernel_equivalence.py`: every rule the kernel knows."""


def cases() -> list[tuple[int, dict[str, Any]]]:
    game = spielwerk.load("isolde")
    return [
        (players, options)
        for players in range(game.min_players, game.max_players + 1)
        for options in OPTIONS
        if int(options.get("start_player", 0)) < players
    ]


# ---------------------------------------------------------------------- the round's record
def test_apply_keeps_the_round_record_as_from_state_reads_it() -> None:
    """`DEALT`, `PICKS` and `PLAYED` (what the determinization reads) are the same whether the
    kernel applied the actions or `from_state` read them from the history, at every step of a
    game per player count and option set."""
    for number, (players, options) in enumerate(cases()):
        game = spielwerk.load("isolde", **options)
        s = K.initial(game, players)
        record = slice(K.DEALT, K.SIZE)
        state = game.new_state(players, seed=number)
        rng = random.Random(number)
        while True:
            assert np.array_equal(K.from_state(state)[record], s[record]), len(state.history)
            if state.is_terminal():
                break
            to_move = state.to_move
            if to_move == CHANCE:
                actor, action = CHANCE, state.sample_chance_id(rng)
            else:
                actor = rng.choice(sorted(to_move)) if isinstance(to_move, frozenset) else to_move
                action = rng.choice(state.legal_ids(actor))
            state.apply_trusted(action, actor)
            K.apply(s, action)
