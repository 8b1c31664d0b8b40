"""Agents: random, per-game heuristics, information-set MCTS; and seat specs like `mcts:2s`.

A seat spec is `random`, `heuristic`, `mcts` (1000 iterations), `mcts:500` (iterations) or
`mcts:2.5s` (seconds per decision). `human` is handled by the interfaces, not here.
"""

from __future__ import annotations

from typing import TypedDict

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.agents.random_agent import RandomAgent

AGENT_KINDS = ("random", "heuristic", "mcts")


class MCTSTuning(TypedDict, total=False):
    """Keyword arguments of MCTSAgent that a game may set for its `mcts` seats."""

    score_weight: float
    rollout_decisions: int
    lead_scale: float


MCTS_TUNING: dict[str, MCTSTuning] = {
    # Tintenherz: a fifth of random 3-player games end with every score 0, so the win alone
    # tells rollouts apart poorly; adding 0.02 x score lifts MCTS(1000) from 0.485 to 0.547
    # against the heuristic (docs/games/inkheart_dice.md).
    "inkheart_dice": {"score_weight": 0.02},
    # Tainted Grail: random rollouts of the day cycle never win, so by win alone every move
    # looks alike and MCTS mostly passes (0 of 200 games won); the team score (quest markers)
    # gives rollouts a gradient (docs/games/tainted_grail.md).
    "tainted_grail": {"score_weight": 0.05},
    # Tintenblut: random play needs some 40 rounds to end a game, so who wins a full rollout
    # says little about the move at the root (mcts:300 won 0.045 against the heuristic); a
    # rollout cut after 60 decisions and valued by the lead on the victory track says more
    # (docs/games/inkspell.md).
    "inkspell": {"rollout_decisions": 60, "lead_scale": 8.0},
}
"""Per-game MCTS settings measured to play better than the generic defaults."""


class AgentSpecError(ValueError):
    """A seat spec that names no agent or gives a bad budget."""


def make_agent(spec: str, game_name: str, seed: int | None = None) -> Agent:
    """Build the agent a seat spec names, for `game_name`, seeded."""
    kind, _, budget = spec.strip().lower().partition(":")
    if kind == "random" and not budget:
        return RandomAgent(seed)
    if kind == "heuristic" and not budget:
        factory = heuristic_factory(game_name)
        if factory is None:
            raise AgentSpecError(f"there is no heuristic bot for {game_name} yet")
        return factory(seed)
    if kind == "mcts":
        return _mcts(budget, seed, MCTS_TUNING.get(game_name, {}))
    raise AgentSpecError(
        f"unknown seat {spec!r}: use random, heuristic, mcts, mcts:ITERATIONS or mcts:SECONDSs"
    )


def _mcts(budget: str, seed: int | None, tuning: MCTSTuning) -> MCTSAgent:
    if not budget:
        return MCTSAgent(iterations=1000, seed=seed, **tuning)
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not seconds > 0:
                raise ValueError
            return MCTSAgent(iterations=None, seconds=seconds, seed=seed, **tuning)
        iterations = int(budget)
        if iterations < 1:
            raise ValueError
        return MCTSAgent(iterations=iterations, seed=seed, **tuning)
    except ValueError:
        raise AgentSpecError(
            f"bad MCTS budget {budget!r}: give iterations (mcts:500) or seconds (mcts:2s)"
        ) from None


__all__ = [
    "AGENT_KINDS",
    "MCTS_TUNING",
    "Agent",
    "AgentSpecError",
    "MCTSAgent",
    "MCTSTuning",
    "RandomAgent",
    "Turn",
    "make_agent",
]
