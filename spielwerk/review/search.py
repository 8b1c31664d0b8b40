"""The search a review judges moves with: per game, the strongest machinery the project has,
run from one seat's information set at a fixed number of iterations (a review is reproducible
from its seed, never from the machine's speed).

- Witches, Tintenherz, Isolde, Tintenblut: the compiled search of the `net` seat
  (`spielwerk.agents.kernel_network`: the kernel's information-set MCTS with the shipped file's
  learned rollout policy, or its value head at every leaf in Tintenherz), at many times the
  iterations the seat plays with;
- Tainted Grail: the information-set MCTS with the shipped network's value head valuing every
  new node; without its policy as a prior (the `best` seat's PUCT), so that UCB1 tries every
  move at the root and each gets an estimate of its own.

Where the shipped file does not fit the table (another player count or options than it was
trained for), the plain search of the `mcts` seat judges instead, and the review says that its
figures are uncalibrated (`spielwerk.review.calibration`).

A search sees nothing but a `Turn`: the seat's legal actions and a state drawn from the seat's
information set (`State.resample`). Its result, for each legal action, is how often the search
tried it and its mean value, in the search's own units (a win share in Witches and Isolde; a
win share plus a score term, or a squashed lead, elsewhere): `calibration` turns those into
winning chances.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from spielwerk.agents.base import Turn
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.agents.network import (
    KERNEL_SEARCH,
    Model,
    ModelError,
    NetworkValuation,
    load_model,
    network_player,
)
from spielwerk.core.errors import SpielwerkError
from spielwerk.core.game import Game


class ReviewUnavailable(SpielwerkError):
    """The review cannot run here (e.g. a compiled search without Numba installed)."""


@dataclass(frozen=True, slots=True)
class RootValues:
    """One search's verdict at a decision, in the order of the Turn's legal actions."""

    visits: list[int]
    values: list[float]
    """Each action's mean value in the search's units (0.0 where it was never tried)."""


@dataclass(frozen=True, slots=True)
class SearchPlan:
    """Which search judges a game's moves, and how long."""

    method: str
    """`net` (the shipped network's machinery) or `mcts` (the plain search)."""
    iterations: int
    exploration: float | None = None
    """The search's exploration constant; None: what the model file or configuration says."""


REVIEW_PLANS: dict[str, SearchPlan] = {
    # Iterations sized so that a whole game's review for one seat takes well under 30 s on
    # one core of the project's machine (docs/review.md, "Speed"); the noise they leave is
    # measured there too.
    "witches": SearchPlan("net", 30000),
    "inkheart_dice": SearchPlan("net", 8000),
    "isolde": SearchPlan("net", 3000),
    "inkspell": SearchPlan("net", 6000),
    "tainted_grail": SearchPlan("net", 1500, exploration=0.7),
}
"""Per game, the review's search at the shipped network's player count and options."""

HINDSIGHT_GAMES = frozenset({"witches", "isolde", "inkspell"})
"""Games with a hindsight view: their compiled search can play on the true state with every
card open. Tintenherz and Tainted Grail's day cycle hide nothing but chance still to come (the
order of a pile, the events): there is nothing to open."""

FALLBACK_ITERATIONS = 3000
"""The plain search's iterations where no shipped network fits the table."""


class MoveJudge(Protocol):
    """What the review asks of a search: reseed it, cap its time, judge the root of a Turn."""

    def reseed(self, seed: int) -> None: ...

    def cap(self, seconds: float) -> None:
        """Think at most `seconds` a decision, whatever the iterations (a server's cap)."""

    def judge(self, turn: Turn) -> RootValues: ...


class SearchJudge:
    """What both judges share: a search agent with its own RNG and a time budget."""

    search: Any

    def reseed(self, seed: int) -> None:
        self.search.rng = random.Random(seed)

    def cap(self, seconds: float) -> None:
        self.search.seconds = seconds


class KernelJudge(SearchJudge):
    """The compiled search (`KernelMCTSAgent` inside the `net` seat, or alone). `open`: the
    hindsight search, which plays every iteration in the Turn's own state, all cards as they
    lie, instead of dealing what the seat cannot see afresh."""

    def __init__(self, search: object, open: bool = False) -> None:
        from spielwerk.agents.kernel_mcts import KernelMCTSAgent
        from spielwerk.agents.kernel_network import KernelNetworkAgent

        if isinstance(search, KernelNetworkAgent):
            search = search.search
        assert isinstance(search, KernelMCTSAgent)
        if open:
            search.game = open_kernel_game(search.game.name)
        self.search = search

    def judge(self, turn: Turn) -> RootValues:
        visits, sums = self.search.root(turn)
        means = sums / np.maximum(visits, 1)
        return RootValues([int(v) for v in visits], [float(m) for m in means])


class TreeJudge(SearchJudge):
    """The Python information-set MCTS (`MCTSAgent`), for games without a kernel."""

    def __init__(self, search: MCTSAgent) -> None:
        self.search = search

    def judge(self, turn: Turn) -> RootValues:
        root = self.search.search(turn)
        simultaneous = turn.sample is not None and isinstance(turn.sample.to_move, frozenset)
        visits: list[int] = []
        values: list[float] = []
        for action in turn.legal_actions:
            key = ((turn.player, action.id),) if simultaneous else action.id
            child = root.children.get(key)
            visits.append(0 if child is None else child.visits)
            values.append(0.0 if child is None else child.mean())
        return RootValues(visits, values)


def open_kernel_game(name: str) -> Any:
    """The kernel of `name` as a search's building blocks, but for the roots: every iteration
    starts from the Turn's state itself, nothing dealt afresh (hindsight: all cards open)."""
    from spielwerk.agents.kernel_mcts import KernelGame

    class OpenKernelGame(KernelGame):
        def roots(self, turn: Turn, budget: int | None, rng: np.ndarray) -> np.ndarray:
            assert turn.sample is not None
            return self.from_state(turn.sample)[None, :]

        @property
        def deals_each_iteration(self) -> bool:
            return False

    return OpenKernelGame(name)


def shipped_model(game: Game, players: int) -> Model | None:
    """The game's shipped network if it was made for these options and this player count."""
    try:
        model = load_model(game.name)
        model.check(game, players)
    except ModelError:
        return None
    return model


def hindsight_available(name: str) -> bool:
    from spielwerk.agents.kernel_mcts import has_kernel

    return name in HINDSIGHT_GAMES and has_kernel(name)


def plan_for(game: Game, players: int) -> SearchPlan:
    """The search a review of `game` with `players` seats uses."""
    plan = REVIEW_PLANS.get(game.name)
    if plan is not None and shipped_model(game, players) is not None:
        return plan
    return SearchPlan("mcts", FALLBACK_ITERATIONS)


def build_judge(
    game: Game, players: int, plan: SearchPlan, seed: int = 0, open: bool = False
) -> MoveJudge:
    """The search `plan` names, ready to judge decisions of `game` with `players` seats;
    `open`: its hindsight form, for the compiled search only (ReviewUnavailable elsewhere)."""
    if open and not hindsight_available(game.name):
        raise ReviewUnavailable(f"{game.name} has no hindsight view: it hides nothing to open")
    if plan.method == "net":
        model = shipped_model(game, players)
        if model is None:
            raise ReviewUnavailable(f"no shipped {game.name} network fits this table")
        if model.metadata.get("search") == KERNEL_SEARCH:
            try:
                player = network_player(model, plan.iterations, None, seed, plan.exploration)
            except ModelError as error:
                raise ReviewUnavailable(str(error)) from None
            return KernelJudge(player, open)
        exploration = 0.7 if plan.exploration is None else plan.exploration
        return TreeJudge(
            MCTSAgent(
                iterations=plan.iterations,
                exploration=exploration,
                seed=seed,
                valuation=NetworkValuation(model),
                rollout_decisions=0,
            )
        )
    from spielwerk.agents import make_agent

    agent = make_agent(f"mcts:{plan.iterations}", game.name, seed)
    if isinstance(agent, MCTSAgent):
        return TreeJudge(agent)
    return KernelJudge(agent, open)
