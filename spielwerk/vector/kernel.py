"""The compiled step of `spielwerk.vector`: every game of a batch advanced by one decision.

Each game of the batch is a kernel array (a row of `states`) with its own random generator
(`rngs`); a step applies each game's action for its seat to move, resolves chance, restarts a
finished game at once (its final returns are reported), and writes the observation and the
legal-action mask of the seat to move next. Built for each game from its kernel's description
(`spielwerk.core.kernel_game.KernelRules`): games whose kernel encodes observations.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from spielwerk.core.kernel import kernel
from spielwerk.core.kernel_game import KernelRules
from spielwerk.core.kernel_ops import uniform
from spielwerk.core.state import CHANCE, TERMINAL
from spielwerk.games.kernels import KERNELS, kernel_rules


def vector_games() -> list[str]:
    """The games `spielwerk.vector` can batch: those whose kernel writes observations."""
    return [name for name in KERNELS if kernel_rules(name).observe is not None]


@dataclass(frozen=True)
class VectorSteps:
    """One game's compiled batch steps."""

    reset_all: Any
    """(states, initial, rngs, obs, masks, to_move): start every game afresh and write its
    first observation and mask."""
    step_all: Any
    """(states, initial, rngs, actions, obs, masks, to_move, rewards, terminated, returns) ->
    bad: one decision in every game: `actions[i]` for the seat to move in game `i` (which must
    be legal: see `masks`). A game that ends is restarted at once; `terminated[i]` says so,
    `returns[i]` holds its final returns per seat and `rewards[i]` the acting seat's. Returns
    the index of the first game given an illegal action (nothing is applied to it), or -1."""


@cache
def vector_steps(name: str) -> VectorSteps:
    """The batch steps of game `name` (ValueError if its kernel writes no observations)."""
    rules = kernel_rules(name)
    if rules.observe is None:
        raise ValueError(f"{name}'s kernel writes no observations")
    return _build(rules)


def _build(rules: KernelRules) -> VectorSteps:
    to_move_at = rules.to_move_at
    apply, sample_chance, returns_of = rules.apply, rules.sample_chance, rules.returns
    observe, legal_mask = rules.observe, rules.legal_mask
    assert observe is not None

    def resolve_chance(s: np.ndarray, rng: np.ndarray) -> None:
        """Draw chance outcomes from the game's generator until a seat decides or it ends."""
        while s[to_move_at] == CHANCE:
            apply(s, sample_chance(s, rng))

    resolve = kernel(resolve_chance)

    def restart(s: np.ndarray, initial: np.ndarray, rng: np.ndarray) -> None:
        s[:] = initial
        resolve(s, rng)

    start = kernel(restart)

    def reset_all(
        states: np.ndarray,
        initial: np.ndarray,
        rngs: np.ndarray,
        obs: np.ndarray,
        masks: np.ndarray,
        to_move: np.ndarray,
    ) -> None:
        for i in range(states.shape[0]):
            start(states[i], initial, rngs[i])
            to_move[i] = states[i][to_move_at]
            observe(states[i], to_move[i], obs[i])
            legal_mask(states[i], masks[i])

    def step_all(
        states: np.ndarray,
        initial: np.ndarray,
        rngs: np.ndarray,
        actions: np.ndarray,
        obs: np.ndarray,
        masks: np.ndarray,
        to_move: np.ndarray,
        rewards: np.ndarray,
        terminated: np.ndarray,
        returns: np.ndarray,
    ) -> int:
        bad = -1
        players = returns.shape[1]
        for i in range(states.shape[0]):
            s = states[i]
            action = actions[i]
            terminated[i] = False
            rewards[i] = 0.0
            if action < 0 or action >= masks.shape[1] or masks[i, action] == 0:
                if bad < 0:
                    bad = i
                continue
            seat = to_move[i]
            apply(s, action)
            resolve(s, rngs[i])
            if s[to_move_at] == TERMINAL:
                returns_of(s, returns[i])
                rewards[i] = returns[i, seat]
                terminated[i] = True
                start(s, initial, rngs[i])
            else:
                for p in range(players):
                    returns[i, p] = 0.0
            to_move[i] = s[to_move_at]
            observe(s, to_move[i], obs[i])
            legal_mask(s, masks[i])
        return bad

    return VectorSteps(kernel(reset_all), kernel(step_all))


@kernel
def sample_actions(masks: np.ndarray, rngs: np.ndarray, out: np.ndarray) -> None:
    """A uniformly random legal action per game (a baseline policy or opponent), drawn from
    each game's generator."""
    for i in range(masks.shape[0]):
        count = 0
        for a in range(masks.shape[1]):
            count += masks[i, a]
        pick = int(uniform(rngs[i]) * count)
        for a in range(masks.shape[1]):
            if masks[i, a]:
                if pick == 0:
                    out[i] = a
                    break
                pick -= 1
