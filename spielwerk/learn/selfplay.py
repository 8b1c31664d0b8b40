"""Self-play games that produce training samples, one game at a time from its task alone.

Two kinds of games, both played from each seat's own information only:

- `heuristic` (the warm start): every seat plays the game's heuristic bot, with probability
  `epsilon` a uniformly random move instead. Policy target: the heuristic's move. A network
  that starts from this plays like the heuristic before search improves on it, which on two
  cores saves most of an hour of learning from scratch.
- `search` (expert iteration): every seat runs the information-set MCTS guided by the current
  network (policy head as the PUCT prior, value head as the leaf value; no rollouts). Policy
  target: the root's visit shares. Playout cap randomisation (Wu 2019, KataGo): a decision
  gets the full budget with probability `full_share` and is a policy target only then; the
  others get a small budget, so more games (and value targets) fit in the same time.

- `kernel` (games with a compiled kernel): every seat runs the compiled search with the
  current network judging the root's moves (`spielwerk.agents.kernel_network`; the first
  generation, before any training, the plain compiled search). Policy target: the root's
  visit shares. Each decision also gives a value-only sample, the seat's observation right
  after its move: the network's value of exactly such states is what the seat plays by.
  The first `temperature_decisions` sample their move from the visit shares.

Value target: each seat's outcome (win share plus `score_weight` x score, as
`spielwerk.agents.network.terminal_values`), relative to the deciding seat. A game's samples
depend on its `GameTask` only, so results are the same on one core, many, or a Ray cluster.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import numpy.typing as npt

from spielwerk.agents.base import Agent, make_turn
from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.agents.network import Model, build_model, observe, terminal_values
from spielwerk.core.registry import load
from spielwerk.core.state import CHANCE, State

HEURISTIC = "heuristic"
SEARCH = "search"
KERNEL = "kernel"


def game_seed(seed: int, game: int) -> int:
    """The seed of a run's game number `game`: everything random in self-play comes from
    the run's seed, so a run replays exactly."""
    return seed * 1_000_003 + game


@dataclass(frozen=True)
class SearchSettings:
    iterations: int = 100
    fast_iterations: int = 20
    full_share: float = 0.3
    exploration: float = 1.5
    temperature_decisions: int = 12
    """Each game's first decisions sample their move from the visit shares (exploration)."""
    blend: float = 0.4
    """`kernel` games: the network's share of a root move's value."""
    leaf_mix: float = 0.0
    """`kernel` games with a compiled observation: the network's share of a new leaf's value
    (0: random rollouts only; `kernel_network` module doc)."""


@dataclass(frozen=True)
class GameTask:
    """Everything one self-play game needs (picklable: plain values and arrays)."""

    game: str
    options: tuple[tuple[str, Any], ...]
    players: int
    seed: int
    mode: str
    score_weight: float
    epsilon: float = 0.1
    search: SearchSettings = field(default_factory=SearchSettings)
    metadata: dict[str, Any] | None = None
    params: dict[str, npt.NDArray[np.float32]] | None = None

    def model(self) -> Model:
        if self.metadata is None or self.params is None:
            raise ValueError("a search game needs the network's weights")
        return build_model(self.metadata, self.params, "the training network")

    def model_or_none(self) -> Model | None:
        return None if self.params is None else self.model()


@dataclass
class GameSamples:
    """One game's training samples, stacked."""

    observations: npt.NDArray[np.float16]
    legal: list[list[int]]
    policies: list[list[float]]
    policy_weights: npt.NDArray[np.float32]
    values: npt.NDArray[np.float32]  # (samples, seats) relative to the deciding seat
    seats_used: int  # the game's player count
    decisions: int
    returns: list[float]
    cooperative: bool


def play_task(task: GameTask) -> GameSamples:
    game = load(task.game, **dict(task.options))
    seats = game.max_players
    state = game.new_state(task.players, seed=task.seed)
    rng = random.Random(task.seed * 7919 + 17)
    deciders_by_mode = {SEARCH: _search_decider, KERNEL: _kernel_decider}
    decide = deciders_by_mode.get(task.mode, _heuristic_decider)(task, rng)
    observations: list[npt.NDArray[np.float32]] = []
    legal_lists: list[list[int]] = []
    policies: list[list[float]] = []
    weights: list[float] = []
    deciders: list[int] = []
    decisions = 0
    while not state.is_terminal():
        to_move = state.to_move
        if to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), CHANCE)
            continue
        movers = sorted(to_move) if isinstance(to_move, frozenset) else [int(to_move)]
        moves = []
        decided_before = len(deciders)
        for seat in movers:
            legal = state.legal_ids(seat)
            if len(legal) == 1:
                moves.append((seat, legal[0]))
                continue
            action, policy, weight = decide(state, seat, legal, decisions)
            observations.append(observe(state, seat))
            legal_lists.append(legal)
            policies.append(policy)
            weights.append(weight)
            deciders.append(seat)
            moves.append((seat, action))
        decided = len(deciders) - decided_before
        for seat, action in moves:
            state.apply(action, seat)
        if task.mode == KERNEL and len(movers) == 1 and decided:
            # The value-only sample of the state the seat's move made (see above); at a
            # simultaneous step the seat never sees the state after its move alone.
            seat = movers[0]
            observations.append(observe(state, seat))
            legal_lists.append(legal_lists[-1])
            policies.append([0.0] * len(legal_lists[-1]))
            weights.append(0.0)
            deciders.append(seat)
        decisions += 1
    outcome = terminal_values(state, task.score_weight)
    n = task.players
    values = np.zeros((len(deciders), seats), dtype=np.float32)
    for row, seat in enumerate(deciders):
        for other in range(n):
            values[row, (other - seat) % n] = outcome[other]
    stacked = (
        np.stack(observations).astype(np.float16)
        if observations
        else np.zeros((0, game.observation_shape[0]), dtype=np.float16)
    )
    return GameSamples(
        stacked,
        legal_lists,
        policies,
        np.asarray(weights, dtype=np.float32),
        values,
        n,
        decisions,
        [float(r) for r in state.returns()],
        bool(state.result().get("cooperative")),
    )


def play_tasks(tasks: Sequence[GameTask]) -> list[GameSamples]:
    return [play_task(task) for task in tasks]


Decider = Any  # (state, seat, legal ids, decisions so far) -> (action id, policy, weight)


def _heuristic_decider(task: GameTask, rng: random.Random) -> Decider:
    factory = heuristic_factory(task.game)
    if factory is None:
        raise ValueError(f"{task.game} has no heuristic bot for the warm start")
    bots: dict[int, Agent] = {}

    def decide(
        state: State, seat: int, legal: list[int], decisions: int
    ) -> tuple[int, list[float], float]:
        bot = bots.get(seat)
        if bot is None:
            bot = bots[seat] = factory(task.seed * 31 + seat)
        chosen = bot.act(make_turn(state, seat, bot.wants_sample, rng)).id
        policy = [1.0 if a == chosen else 0.0 for a in legal]
        action = legal[int(rng.random() * len(legal))] if rng.random() < task.epsilon else chosen
        return action, policy, 1.0

    return decide


def _search_decider(task: GameTask, rng: random.Random) -> Decider:
    from spielwerk.agents.network import network_search_agent, root_visits

    settings = task.search
    agent = network_search_agent(task.model(), settings.iterations, task.seed, settings.exploration)

    def decide(
        state: State, seat: int, legal: list[int], decisions: int
    ) -> tuple[int, list[float], float]:
        full = rng.random() < settings.full_share
        agent.iterations = settings.iterations if full else settings.fast_iterations
        turn = make_turn(state, seat, True, rng)
        root = agent.search(turn)
        visits = root_visits(root, turn, legal)
        favourite = legal[max(range(len(legal)), key=lambda i: visits[i])]
        policy, action = _visit_policy(
            visits, legal, favourite, decisions < settings.temperature_decisions, rng
        )
        return action, policy, 1.0 if full else 0.0

    return decide


def _visit_policy(
    visits: Sequence[int], legal: list[int], chosen: int, explore: bool, rng: random.Random
) -> tuple[list[float], int]:
    """The policy target (the root's visit shares, in the order of `legal`) and the move to
    play: drawn from those shares while the game's first decisions `explore`, else `chosen`."""
    total = sum(visits)
    policy = [v / total for v in visits] if total else [1.0 / len(legal)] * len(legal)
    if explore:
        index = int(np.searchsorted(np.cumsum(policy), rng.random() * sum(policy)))
        return policy, legal[min(index, len(legal) - 1)]
    return policy, chosen


def _kernel_decider(task: GameTask, rng: random.Random) -> Decider:
    from spielwerk.agents.kernel_network import KernelNetworkAgent

    settings = task.search
    model = task.model_or_none()
    agents: dict[int, KernelNetworkAgent] = {}

    def decide(
        state: State, seat: int, legal: list[int], decisions: int
    ) -> tuple[int, list[float], float]:
        agent = agents.get(seat)
        if agent is None:
            agent = agents[seat] = KernelNetworkAgent(
                model,
                task.game,
                iterations=settings.iterations,
                seed=task.seed * 31 + seat,
                blend=settings.blend,
                exploration=settings.exploration,
                score_weight=task.score_weight,
                leaf_mix=settings.leaf_mix,
            )
        turn = make_turn(state, seat, True, rng)
        judged = agent.judge(turn)  # in the order of turn.legal_actions, that of `legal`
        policy, action = _visit_policy(
            judged.visits.tolist(),
            legal,
            legal[judged.chosen],
            decisions < settings.temperature_decisions,
            rng,
        )
        return action, policy, 1.0

    return decide
