"""A game that never ends makes `play_game` fail with a clear message instead of hanging
(issue 22: every loop over a game has a step limit)."""

from __future__ import annotations

import pytest

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.sim.match import play_game


def test_a_game_that_does_not_end_within_the_limit_is_an_error() -> None:
    game = spielwerk.load("witches")
    agents = [make_agent("random", "witches", seed=s) for s in range(3)]
    with pytest.raises(RuntimeError, match=r"witches \(seed 4\) did not end within 10 steps"):
        play_game(game, agents, seed=4, max_steps=10)
    assert play_game(game, agents, seed=4).is_terminal()  # the default limit is far away
