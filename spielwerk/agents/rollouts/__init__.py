"""The learned rollout policies of the compiled search (`spielwerk.agents.kernel_mcts`), and
the compiled valuations that go with them: a bot's compiled parts, by game name.

A game's learned rollout policy (AlphaGo's fast rollout policy: a linear softmax over features
of each legal move, `spielwerk.learn.rollout_policy` fits the weights) plays a rollout in the
game's kernel, calling the kernel's own rules for what a move does. Imported when first asked
for (needs Numba).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import Any

Kernel = Any
"""A compiled kernel function (Numba's dispatcher)."""

ROLLOUT_POLICIES: dict[str, str] = {
    "witches": "spielwerk.games.witches.kernel",
    "isolde": "spielwerk.games.isolde.kernel_policy",
    "inkspell": "spielwerk.games.inkspell.kernel_policy",
}
"""Game name -> the module of its learned rollout policy."""


@dataclass(frozen=True)
class LearnedRollout:
    """A game's learned rollout policy, compiled."""

    features: tuple[str, ...]
    """The features a move is described by, in the order of the weights."""
    rollout_features: Kernel
    """(s, actions, out): `out[i]` = the features of `actions[i]` (legal for the seat to move
    in `s`): the reference the learning reads."""
    rollout: Kernel
    """(s, rng, weights): play to the end, each move drawn from the softmax of `weights .
    features` over the legal moves."""
    rollout_cut: Kernel | None = None
    """(s, rng, weights, limit): `rollout` stopped at the decision after `limit` ones."""
    estimate_lead_values: Kernel | None = None
    """(s, scale, out): the lead of each seat in the heuristic's estimate of the standings
    (0.5 + 0.5 tanh(lead / scale)), a cut rollout's value."""


def learned_rollout(game_name: str) -> LearnedRollout | None:
    """The learned rollout policy of `game_name`, None if it has none."""
    path = ROLLOUT_POLICIES.get(game_name)
    if path is None:
        return None
    module = importlib.import_module(path)
    return LearnedRollout(
        tuple(module.ROLLOUT_FEATURES),
        module.rollout_features,
        module.rollout_policy,
        getattr(module, "rollout_policy_cut", None),
        getattr(module, "estimate_lead_values", None),
    )
