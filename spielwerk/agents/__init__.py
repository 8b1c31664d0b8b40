"""Agents: random, per-game heuristics, information-set MCTS; and seat specs like `mcts:2s`.

A seat spec is `random`, `heuristic`, `mcts` (1000 iterations), `mcts:500` (iterations) or
`mcts:2.5s` (seconds per decision). `human` is handled by the interfaces, not here.
"""

from __future__ import annotations

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.heuristics import HEURISTICS
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.agents.random_agent import RandomAgent

AGENT_KINDS = ("random", "heuristic", "mcts")


class AgentSpecError(ValueError):
    """A seat spec that names no agent or gives a bad budget."""


def make_agent(spec: str, game_name: str, seed: int | None = None) -> Agent:
    """Build the agent a seat spec names, for `game_name`, seeded."""
    kind, _, budget = spec.strip().lower().partition(":")
    if kind == "random" and not budget:
        return RandomAgent(seed)
    if kind == "heuristic" and not budget:
        if game_name not in HEURISTICS:
            raise AgentSpecError(f"there is no heuristic bot for {game_name} yet")
        return HEURISTICS[game_name](seed)
    if kind == "mcts":
        return _mcts(budget, seed)
    raise AgentSpecError(
        f"unknown seat {spec!r}: use random, heuristic, mcts, mcts:ITERATIONS or mcts:SECONDSs"
    )


def _mcts(budget: str, seed: int | None) -> MCTSAgent:
    if not budget:
        return MCTSAgent(iterations=1000, seed=seed)
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not seconds > 0:
                raise ValueError
            return MCTSAgent(iterations=None, seconds=seconds, seed=seed)
        iterations = int(budget)
        if iterations < 1:
            raise ValueError
        return MCTSAgent(iterations=iterations, seed=seed)
    except ValueError:
        raise AgentSpecError(
            f"bad MCTS budget {budget!r}: give iterations (mcts:500) or seconds (mcts:2s)"
        ) from None


__all__ = [
    "AGENT_KINDS",
    "Agent",
    "AgentSpecError",
    "MCTSAgent",
    "RandomAgent",
    "Turn",
    "make_agent",
]
