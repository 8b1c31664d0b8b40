"""Small untrained networks for the tests (NumPy only)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import pytest

from spielwerk.agents.network import Model, build_model, initial_params, network_metadata
from spielwerk.core.game import Game

TinyModel = Callable[..., Model]


def make_tiny_model(
    game: Game, players: Sequence[int], hidden: Sequence[int] = (16,), seed: int = 0
) -> Model:
    """A randomly initialised network for `game`, its output layers scaled up so that its
    policy is far from flat and any leak of hidden information would show in it."""
    metadata = network_metadata(game, players, hidden)
    params = initial_params(metadata, seed)
    params["policy/w"] *= 300.0
    params["value/w"] *= 300.0
    return build_model(metadata, params, "a test network")


@pytest.fixture
def tiny_model() -> TinyModel:
    return make_tiny_model
