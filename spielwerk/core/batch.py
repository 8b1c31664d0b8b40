"""What a batched simulator returns: many random-play games played in a compiled kernel.

A game with a kernel has one (`spielwerk.core.kernel_game.KernelRules.play_random_batch(game,
players, games, rng, record=False) -> BatchResult`): the same rules as the scalar engine, every
decision uniform among the legal actions (as `RandomAgent` plays) and every chance event as
likely as `chance_ids` says. With `record=True` it returns each game's action ids in the scalar
vocabulary, so tests can replay them through the scalar engine.
"""

from __future__ import annotations

from collections.abc import Callable
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


def recorded_games(
    games: int,
    players: int,
    new_state: Callable[[], np.ndarray],
    play: Callable[[np.ndarray, np.ndarray], int],
    final_scores: Callable[[np.ndarray], np.ndarray],
    max_steps: int,
    first_chance_id: int,
) -> BatchResult:
    """A compiled kernel's `record=True` path, one game after another: `play(state, buffer)`
    plays a random game from `new_state()` to the end, writing its action ids into `buffer`
    (at least `max_steps` long) and returning how many; ids below `first_chance_id` are player
    decisions (every kernel numbers its chance outcomes after its player actions)."""
    scores = np.zeros((games, players), dtype=np.int64)
    decisions = np.zeros(games, dtype=np.int64)
    steps = np.zeros(games, dtype=np.int64)
    actions: list[list[int]] = []
    buffer = np.empty(max_steps, dtype=np.int64)
    for g in range(games):
        s = new_state()
        count = play(s, buffer)
        played = buffer[:count].tolist()
        actions.append(played)
        steps[g] = count
        decisions[g] = sum(1 for a in played if a < first_chance_id)
        scores[g] = final_scores(s)
    return BatchResult(scores, decisions, steps, actions)
