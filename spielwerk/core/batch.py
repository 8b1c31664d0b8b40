"""What a batched simulator returns: many random-play games stepped together with NumPy.

A game with a batched simulator has `spielwerk/games/<game>/batched.py` with
`play_random_batch(game, players, games, rng, record=False) -> BatchResult`: the same rules as
the scalar engine, every decision uniform among the legal actions (as `RandomAgent` plays) and
every chance event as likely as `chance_ids` says. With `record=True` it returns each game's
action ids in the scalar vocabulary, so tests can replay them through the scalar engine.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class BatchResult:
    scores: np.ndarray
    """(games, players): each seat's final score."""
    decisions: np.ndarray
    """(games,): player actions per game."""
    steps: np.ndarray
    """(games,): all actions per game, chance included."""
    actions: list[list[int]] | None = None
    """Per game, its action ids in the scalar engine's vocabulary (with `record=True`)."""
