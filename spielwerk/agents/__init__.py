"""Agents: random, per-game heuristics, guided information-set MCTS; and seat specs like `mcts:2s`.

A seat spec is `random`, `heuristic`, `mcts` (the plain search, 1000 iterations), `mcts:500`
(iterations) or `mcts:2.5s` (seconds per decision), or `best` (the game's strongest built-in
bot at its default time a decision; `best:0.5s` or `best:2000` at another budget). Where the
`mcts` seat's search is compiled (`kernel_mcts`), `mcts-py` (`mcts-py:500`, ...) is the same
search run by the Python `MCTSAgent`, the reference it is checked against. `human` is
handled by the interfaces, not here. Each game's search settings are in
`spielwerk.agents.configs`. `strategy:NAME` and `without:ITEM` are the heuristic with one
fixed rule or one component forbidden (`spielwerk.agents.strategies`). `net` is the search guided
by the game's shipped network (`net:FILE`, `net:1.5s`, `net:FILE:800`: another model file or
budget, see `spielwerk.agents.network`).
"""

from __future__ import annotations

from dataclasses import replace

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.configs import (
    BEST_CONFIGS,
    MCTS_CONFIGS,
    SearchConfig,
    best_config,
    mcts_config,
)
from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.agents.random_agent import RandomAgent

AGENT_KINDS = ("random", "heuristic", "mcts", "mcts-py", "best", "net")
SEARCH_KINDS = ("mcts", "mcts-py", "best", "net")
"""Seat kinds that search (and so think for a while on every decision)."""


class AgentSpecError(ValueError):
    """A seat spec that names no agent or gives a bad budget."""


def make_agent(spec: str, game_name: str, seed: int | None = None) -> Agent:
    """Build the agent a seat spec names, for `game_name`, seeded."""
    kind, _, budget = spec.strip().lower().partition(":")
    if kind == "net":  # a trained network; the rest may be a file name, so its case is kept
        from spielwerk.agents.network import network_agent

        return network_agent(spec.strip().partition(":")[2], game_name, seed)
    if kind == "random" and not budget:
        return RandomAgent(seed)
    if kind == "heuristic" and not budget:
        factory = heuristic_factory(game_name)
        if factory is None:
            raise AgentSpecError(f"there is no heuristic bot for {game_name} yet")
        return factory(seed)
    if kind == "mcts":
        return _search(mcts_config(game_name), budget, game_name, seed)
    if kind == "mcts-py":  # the Python reference of a compiled `mcts` seat
        return _search(mcts_config(game_name), budget, game_name, seed, compiled=False)
    if kind == "best":
        return _search(best_config(game_name), budget, game_name, seed)
    if kind in ("strategy", "without") and budget:  # spielwerk/agents/strategies (balance)
        from spielwerk.agents.strategies import make_strategy_agent

        try:
            return make_strategy_agent(game_name, spec.strip(), seed)
        except ValueError as error:
            raise AgentSpecError(str(error)) from None
    raise AgentSpecError(
        f"unknown seat {spec!r}: use random, heuristic, mcts, mcts:ITERATIONS, mcts:SECONDSs, "
        "mcts-py[:BUDGET], best, net or net:MODEL_FILE"
    )


def is_search_spec(spec: str) -> bool:
    """True for the seat specs whose agents search (they take a while a decision)."""
    return spec.strip().lower().partition(":")[0] in SEARCH_KINDS


def parse_budget(budget: str) -> tuple[int | None, float | None]:
    """`500` -> (500, None); `2.5s` -> (None, 2.5); AgentSpecError on anything else."""
    try:
        if budget.endswith("s"):
            seconds = float(budget[:-1])
            if not seconds > 0 or seconds == float("inf"):
                raise ValueError
            return None, seconds
        iterations = int(budget)
        if iterations < 1:
            raise ValueError
        return iterations, None
    except ValueError:
        raise AgentSpecError(
            f"bad MCTS budget {budget!r}: give iterations (mcts:500) or seconds (mcts:2s)"
        ) from None


def _search(
    config: SearchConfig, budget: str, game_name: str, seed: int | None, compiled: bool = True
) -> Agent:
    if budget:
        config = config.with_budget(*parse_budget(budget))
    if config.network:
        from spielwerk.agents.network import FittingNetworkAgent, NetworkAgent, load_model

        model = load_model(game_name)
        network = NetworkAgent(
            model, iterations=config.iterations, seconds=config.seconds, seed=seed
        )
        fallback = config.fallback
        if fallback is None:
            return network
        if budget:
            fallback = fallback.with_budget(*parse_budget(budget))
        chosen = fallback
        return FittingNetworkAgent(network, lambda: _search(chosen, "", game_name, seed, compiled))
    if compiled:
        agent = _compiled(config, game_name, seed)
        if agent is not None:
            return agent
    try:
        return config.build(game_name, seed)
    except ValueError as error:
        raise AgentSpecError(str(error)) from None


def is_plain(config: SearchConfig) -> bool:
    """Whether `config` is the plain search: uniformly random rollouts to the end, valued by
    the win and a score term (`kernel_mcts` compiles it, and `spielwerk train`'s kernel expert
    is it; the compiled `mcts` seat may also cut rollouts and value the lead:
    `is_cut_and_lead`)."""
    return (
        config.rollout == "random"
        and config.rollout_decisions is None
        and config.prior is None
        and config.leaf is None
        and config.lead_scale is None
        and not config.blueprint
        and not config.network
    )


def is_cut_and_lead(config: SearchConfig) -> bool:
    """Whether `config` is the plain search but for rollouts valued by the lead, cut or not
    (Tintenblut's `mcts` seat): `kernel_mcts` compiles it for games whose kernel can cut a
    rollout and value the lead (`KernelRules.rollout_cut`, `lead_values`)."""
    return (
        is_plain(replace(config, rollout_decisions=None, lead_scale=None))
        and config.lead_scale is not None
        and not config.score_weight
    )


def _compiled(config: SearchConfig, game_name: str, seed: int | None) -> Agent | None:
    """The same search compiled (`kernel_mcts`) where the game has a kernel the search
    serves, Numba is installed and the configuration is the plain search, or the plain search
    with rollouts cut and valued by the lead where the kernel has both; None otherwise."""
    plain = is_plain(config)
    if not plain and not is_cut_and_lead(config):
        return None
    from spielwerk.games.kernels import has_kernel, kernel_rules

    if not has_kernel(game_name):
        return None
    from spielwerk.agents.kernel_mcts import KernelMCTSAgent

    rules = kernel_rules(game_name)
    if not plain and not (
        rules.lead_values is not None
        and (config.rollout_decisions is None or rules.rollout_cut is not None)
    ):
        return None

    return KernelMCTSAgent(
        game_name,
        iterations=config.iterations,
        seconds=config.seconds,
        exploration=config.exploration,
        seed=seed,
        score_weight=config.score_weight,
        rollout_decisions=config.rollout_decisions,
        lead_scale=config.lead_scale,
    )


__all__ = [
    "AGENT_KINDS",
    "BEST_CONFIGS",
    "MCTS_CONFIGS",
    "SEARCH_KINDS",
    "Agent",
    "AgentSpecError",
    "MCTSAgent",
    "RandomAgent",
    "SearchConfig",
    "Turn",
    "is_cut_and_lead",
    "is_plain",
    "is_search_spec",
    "make_agent",
    "parse_budget",
]
