"""The learned rollout policies of the compiled search (`spielwerk.agents.kernel_mcts`), and
the compiled valuations that go with them: a bot's compiled parts, by game name.

A game's learned rollout policy (AlphaGo's fast rollout policy: a linear softmax over features
of each legal move, `spielwerk.learn.rollout_policy` fits the weights) plays a rollout in the
game's kernel, calling the kernel's own rules for what a move does: `<game>.py` here, registered
by one line in `ROLLOUT_POLICIES`. Imported when first asked for (needs Numba).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, cast

from spielwerk.core.registry import import_object

Kernel = Any
"""A compiled kernel function (Numba's dispatcher)."""

ROLLOUT_POLICIES: dict[str, str] = {
    "witches": "spielwerk.agents.rollouts.witches:POLICY",
    "isolde": "spielwerk.agents.rollouts.isolde:POLICY",
    "inkspell": "spielwerk.agents.rollouts.inkspell:POLICY",
}
"""Game name -> "module:POLICY" of its learned rollout policy (a `LearnedRollout`)."""


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
    return None if path is None else cast(LearnedRollout, import_object(path))
