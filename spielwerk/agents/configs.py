"""Each game's search settings, in one place: what an `mcts` seat and a `best` seat get.

A `SearchConfig` names the parts of `spielwerk.agents.mcts.MCTSAgent` (see
`spielwerk.agents.guidance`): the valuation, the rollout policy and its cut-off, the prior,
the exploration constant, an optional blueprint, and the default budget. `MCTS_CONFIGS` is the
plain search of `mcts` seats (uniformly random rollouts, with the valuation each game measured
best); `BEST_CONFIGS` is the strongest built-in bot of each game (`best` seats), chosen by
measurement at equal wall time per decision (docs/agents.md has the figures).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Literal

from spielwerk.agents.base import Agent
from spielwerk.agents.guidance import (
    EpsilonPolicy,
    HeuristicPolicy,
    HeuristicPrior,
    LeadValuation,
    Prior,
    RolloutPolicy,
    Valuation,
    WinValuation,
)
from spielwerk.agents.heuristics import heuristic_factory, valuation_factory
from spielwerk.agents.mcts import MCTSAgent


@dataclass(frozen=True, slots=True)
class SearchConfig:
    """The search one kind of seat gets in one game."""

    score_weight: float = 0.0
    """Finished rollouts are worth the return + score_weight x the seat's score."""
    lead_scale: float | None = None
    """If set, rollouts are valued by the lead in the running scores at this scale instead."""
    leaf: Literal["heuristic"] | None = None
    """`heuristic`: rollouts cut off by `rollout_decisions` are valued by the heuristic's
    value function (`spielwerk.agents.heuristics.VALUATIONS`)."""
    rollout: Literal["random", "heuristic"] = "random"
    epsilon: float = 0.0
    """With a heuristic rollout: the share of random moves in it."""
    rollout_decisions: int | None = None
    """Cut rollouts off after this many player decisions (0: value the new node at once)."""
    prior: Literal["heuristic"] | None = None
    """A prior over actions at tree nodes (PUCT); None: UCB1 without one."""
    prior_weight: float = 0.5
    """With the heuristic prior: the share on the heuristic's choice."""
    exploration: float = 0.7
    blueprint: bool = False
    """Play the heuristic's move unless the search finds one better by `margin`."""
    margin: float = 0.05
    network: bool = False
    """Guide the search by the game's shipped network instead (`spielwerk.agents.network`:
    its policy is the PUCT prior, its value values each new node); the other parts unused."""
    fallback: SearchConfig | None = None
    """With `network`: the search that plays where the shipped network was not made for the
    table (its player count or options); None: such a table is refused."""
    iterations: int | None = 1000
    """The default budget (when a seat spec gives none): iterations, or else seconds."""
    seconds: float | None = None

    def with_budget(self, iterations: int | None, seconds: float | None) -> SearchConfig:
        return replace(self, iterations=iterations, seconds=seconds)

    def describe(self) -> str:
        """A short human summary (for docs and the ladder's table)."""
        budget = f"{self.seconds:g} s" if self.seconds is not None else f"{self.iterations} it."
        if self.network:
            return f"PUCT guided by the shipped network, no rollouts; {budget} a decision"
        parts = [f"{self.rollout} rollouts"]
        if self.rollout == "heuristic" and self.epsilon:
            parts[0] = f"epsilon-heuristic ({self.epsilon:g}) rollouts"
        if self.rollout_decisions == 0:
            parts[0] = "no rollouts (each new node valued at once)"
        elif self.rollout_decisions is not None:
            parts.append(f"cut after {self.rollout_decisions} decisions")
        if self.leaf == "heuristic":
            parts.append("valued by the heuristic's estimate")
        elif self.lead_scale is not None:
            parts.append(f"valued by the score lead (scale {self.lead_scale:g})")
        elif self.score_weight:
            parts.append(f"valued by win + {self.score_weight:g} x score")
        if self.prior is not None:
            parts.append(f"PUCT with the heuristic prior ({self.prior_weight:g})")
        if self.blueprint:
            parts.append(f"heuristic blueprint (margin {self.margin:g})")
        return f"{', '.join(parts)}; {budget} a decision"

    def build(self, game_name: str, seed: int | None) -> MCTSAgent:
        """The search agent for `game_name` with this configuration."""
        valuation: Valuation
        if self.leaf == "heuristic":
            factory = valuation_factory(game_name)
            if factory is None:
                raise ValueError(f"{game_name}'s heuristic has no value function")
            valuation = factory()
        elif self.lead_scale is not None:
            valuation = LeadValuation(self.lead_scale)
        else:
            valuation = WinValuation(self.score_weight)
        rollout: RolloutPolicy | None = None
        if self.rollout == "heuristic":
            rollout = HeuristicPolicy(_heuristic(game_name, seed))
            if self.epsilon:
                rollout = EpsilonPolicy(rollout, self.epsilon)
        prior: Prior | None = None
        if self.prior == "heuristic":
            prior = HeuristicPrior(_heuristic(game_name, seed), self.prior_weight)
        blueprint = _heuristic(game_name, seed) if self.blueprint else None
        return MCTSAgent(
            iterations=self.iterations,
            seconds=self.seconds,
            exploration=self.exploration,
            seed=seed,
            valuation=valuation,
            rollout=rollout,
            rollout_decisions=self.rollout_decisions,
            prior=prior,
            blueprint=blueprint,
            margin=self.margin,
        )


def _heuristic(game_name: str, seed: int | None) -> Agent:
    factory = heuristic_factory(game_name)
    if factory is None:
        raise ValueError(f"{game_name} has no heuristic to guide the search")
    return factory(seed)


PLAIN = SearchConfig()
"""The generic search: random rollouts valued by the win."""

MCTS_CONFIGS: dict[str, SearchConfig] = {
    # Tintenherz: a fifth of random 3-player games end with every score 0, so the win alone
    # tells rollouts apart poorly; adding 0.02 x score lifts MCTS(1000) from 0.485 to 0.547
    # against the heuristic (docs/games/inkheart_dice.md).
    "inkheart_dice": SearchConfig(score_weight=0.02),
    # Tainted Grail: random rollouts of the day cycle never win, so by win alone every move
    # looks alike and MCTS mostly passes (0 of 200 games won); the team score (quest markers)
    # gives rollouts a gradient (docs/games/tainted_grail.md).
    "tainted_grail": SearchConfig(score_weight=0.05),
    # Tintenblut: random play needs some 40 rounds to end a game, so who wins a full rollout
    # says little about the move at the root (mcts:300 won 0.045 against the heuristic); a
    # rollout cut after 60 decisions and valued by the lead on the victory track says more
    # (docs/games/inkspell.md).
    "inkspell": SearchConfig(rollout_decisions=60, lead_scale=8.0),
}
"""`mcts` seats: the plain search with random rollouts, valued as each game measured best."""

BLUEPRINT_TAINTED_GRAIL = SearchConfig(
    rollout="heuristic",
    prior="heuristic",
    prior_weight=0.8,
    blueprint=True,
    margin=0.05,
    iterations=None,
    seconds=1.0,
)
"""Tainted Grail's best before a network shipped: the heuristic team's plan as blueprint,
left only for a move better by 0.05 in mean value, with the heuristic prior in the tree."""

GUIDED_INKSPELL = SearchConfig(
    prior="heuristic", leaf="heuristic", rollout_decisions=0, iterations=None, seconds=0.5
)
"""Tintenblut's best before the network's search: PUCT with the heuristic's move as prior and
every new node valued at once by the heuristic's own estimate of the standings (score + tiles
+ provisions + advantage cards); random rollouts say little there (mcts:1000 won 0.30 against
the heuristic's 0.70), this played even with the heuristic in probes and won 0.667 against
it over 201 games (docs/agents.md)."""

BEST_CONFIGS: dict[str, SearchConfig] = {
    # Witches: the shipped network's search (the compiled search with its learned rollout
    # policy) at a quarter second a decision. Its ladder rates it first, above the plain search
    # at the same budget (the earlier best): 32.4 [28.4-36.4] against 27.5 [23.6-31.4], wins
    # 0.442 [0.380-0.505] against 0.315 [0.259-0.376] (docs/agents.md "Bot levels"); past
    # 800-1,600 iterations the plain search gains nothing more there (skill ladder).
    # At tables the network was not made for (it plays 4 seats), the plain search at that time.
    "witches": SearchConfig(
        network=True, iterations=None, seconds=0.25, fallback=PLAIN.with_budget(None, 0.25)
    ),
    # Isolde: the shipped network's search at a quarter second a decision, first in its ladder
    # (36.7 [30.6-42.8]; the plain search at 0.25 s 29.1 [23.2-34.9], scoring 3.2 [0.1-6.3]
    # points a game less on the same deals). The earlier best, the plain search at half a
    # second (the time it took when it beat mcts:1000 head to head), plays the tables the
    # network was not made for (it plays 4 seats).
    "isolde": SearchConfig(
        network=True, iterations=None, seconds=0.25, fallback=PLAIN.with_budget(None, 0.5)
    ),
    # Tintenherz: the plain search with its score term at a quarter second a decision, first
    # in its ladder (480 games: 26.0 [22.7-29.4]) though within the intervals of every other
    # seat of it, the shipped network's search at the same time last (23.8): a game of dice,
    # where luck outweighs what these bots know (docs/agents.md "Bot levels").
    "inkheart_dice": MCTS_CONFIGS["inkheart_dice"].with_budget(None, 0.25),
    # Tintenblut: the shipped network's search (the compiled search with its learned rollout
    # policy, docs/learning.md) at its own budget, 370 iterations. On the same 20 deals it
    # scored 4.05 [1.2-6.9] points a game more than the earlier best (PUCT with the heuristic
    # as prior and leaf value, 0.5 s a decision) with a third of its time (docs/agents.md "Bot
    # levels"). The earlier best plays at tables the network was not made for (it plays 3).
    "inkspell": SearchConfig(network=True, iterations=None, fallback=GUIDED_INKSPELL),
    # Tainted Grail: a random party never wins, the heuristic party does (0.94 over 600
    # deals); a party of the shipped network's search at 10 iterations won 0.987 of the same
    # deals in milliseconds a decision (docs/learning.md), where the heuristic-blueprint search
    # (BLUEPRINT_TAINTED_GRAIL) needs a second a decision: it plays the parties of 1, 3 or 4
    # characters, which the network was not made for (it plays 2).
    "tainted_grail": SearchConfig(network=True, iterations=10, fallback=BLUEPRINT_TAINTED_GRAIL),
}
"""`best` seats: the strongest built-in bot of each game at its default time a decision."""


def mcts_config(game_name: str) -> SearchConfig:
    return MCTS_CONFIGS.get(game_name, PLAIN)


def best_config(game_name: str) -> SearchConfig:
    return BEST_CONFIGS.get(game_name, PLAIN.with_budget(None, 1.0))


def best_seat(game_name: str) -> str:
    """The seat spec that plays exactly as `best` does in this game (`net:0.25s`, `mcts:0.5s`),
    the name its ladder rates it under; `best` where no other spec builds the same bot."""
    config = best_config(game_name)
    budget = (
        f"{config.seconds:g}s"
        if config.seconds is not None
        else str(config.iterations)
        if config.iterations is not None
        else ""
    )
    if config.network:
        return f"net:{budget}" if budget else "net"
    if replace(config, iterations=None, seconds=None) == replace(
        mcts_config(game_name), iterations=None, seconds=None
    ):
        return f"mcts:{budget}"
    return "best"
