"""The compiled step of `spielwerk.vector`: every game of a batch advanced by one decision.

Each game of the batch is a kernel array (a row of `states`) with its own random generator
(`rngs`); a step applies each game's action for its seat to move, resolves chance, restarts a
finished game at once (its final returns are reported), and writes the observation and the
legal-action mask of the seat to move next. Games: those whose kernel encodes observations.
"""

from __future__ import annotations

import numpy as np

from spielwerk.core.kernel import kernel
from spielwerk.core.kernel_ops import uniform
from spielwerk.core.state import CHANCE, TERMINAL
from spielwerk.games.inkheart_dice import kernel as inkheart_dice
from spielwerk.games.witches import kernel as witches

VECTOR_GAMES = ("witches", "inkheart_dice")
"""Games `spielwerk.vector` can batch; the code of each is its index here."""
WITCHES, INKHEART_DICE = range(2)


@kernel
def _to_move(game: int, s: np.ndarray) -> int:
    if game == WITCHES:
        return s[witches.TO_MOVE]
    return s[inkheart_dice.TO_MOVE]


@kernel
def _apply(game: int, s: np.ndarray, action: int) -> None:
    if game == WITCHES:
        witches.apply(s, action)
    else:
        inkheart_dice.apply(s, action)


@kernel
def _observe(game: int, s: np.ndarray, seat: int, obs: np.ndarray, mask: np.ndarray) -> None:
    if game == WITCHES:
        witches.observe(s, seat, obs)
        witches.legal_mask(s, mask)
    else:
        inkheart_dice.observe(s, seat, obs)
        inkheart_dice.legal_mask(s, mask)


@kernel
def _returns(game: int, s: np.ndarray, out: np.ndarray) -> None:
    if game == WITCHES:
        witches.returns(s, out)
    else:
        inkheart_dice.returns(s, out)


@kernel
def _restart(game: int, s: np.ndarray, initial: np.ndarray, rng: np.ndarray) -> None:
    s[:] = initial
    _resolve_chance(game, s, rng)


@kernel
def _resolve_chance(game: int, s: np.ndarray, rng: np.ndarray) -> None:
    """Draw chance outcomes from the game's generator until a seat decides or the game ends."""
    while _to_move(game, s) == CHANCE:
        if game == WITCHES:
            witches.apply(s, witches.chance_from(s, uniform(rng)))
        else:
            inkheart_dice.apply(s, inkheart_dice.chance_from(s, uniform(rng)))


@kernel
def reset_all(
    game: int,
    states: np.ndarray,
    initial: np.ndarray,
    rngs: np.ndarray,
    obs: np.ndarray,
    masks: np.ndarray,
    to_move: np.ndarray,
) -> None:
    """Start every game afresh and write its first observation and mask."""
    for i in range(states.shape[0]):
        _restart(game, states[i], initial, rngs[i])
        to_move[i] = _to_move(game, states[i])
        _observe(game, states[i], to_move[i], obs[i], masks[i])


@kernel
def step_all(
    game: int,
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
    """One decision in every game: `actions[i]` for the seat to move in game `i` (which must be
    legal: see `masks`). A game that ends is restarted at once; `terminated[i]` says so,
    `returns[i]` holds its final returns per seat and `rewards[i]` the acting seat's. Returns the
    index of the first game given an illegal action (nothing is applied to it), or -1."""
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
        _apply(game, s, action)
        _resolve_chance(game, s, rngs[i])
        if _to_move(game, s) == TERMINAL:
            _returns(game, s, returns[i])
            rewards[i] = returns[i, seat]
            terminated[i] = True
            _restart(game, s, initial, rngs[i])
        else:
            for p in range(players):
                returns[i, p] = 0.0
        to_move[i] = _to_move(game, s)
        _observe(game, s, to_move[i], obs[i], masks[i])
    return bad


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
