"""Information-set MCTS with the whole search compiled (Numba): the `mcts` seat of every game
that has a kernel (`spielwerk/games/<game>/kernel.py`), with random rollouts.

The same search as `MCTSAgent` (SO-ISMCTS: a fresh determinization per iteration, one tree
keyed by action ids, UCB1 with availability counts, open-loop chance, decoupled simultaneous
decisions, a uniformly random rollout), but every step of it runs in the game's kernel: the
determinization deals the unseen cards in the kernel state, the tree is a handful of flat
arrays, and a rollout is a compiled loop. The agent still sees nothing but its `Turn`: it
converts the Turn's sample (a state from its information set) to a kernel array and
determinizes that. Given a value network (`LeafNetwork`, the seat `net`), it values new leaves
by the network too, compiled, from the searching seat's observation of the leaf
(`network_values`, `leaf_mix`). Given rollout weights (Witches, Isolde, Tintenblut), its
rollouts follow the game's learned rollout policy instead of uniform play
(`spielwerk.agents.rollouts`, learned by `spielwerk.learn.rollout_policy`). Given a cut-off and
a lead scale (Tintenblut's `mcts` seat), its rollouts stop after that many decisions and are
valued by the lead on the victory track (the kernel's `rollout_cut` and `lead_values`:
`MCTSAgent`'s `rollout_decisions` with `LeadValuation`); with rollout weights too, the policy's
rollout is cut there, and the cut may be valued by the lead in the heuristic's estimate instead
of the score (`leaf_estimate`, the learned rollout's `estimate_lead_values`).

Every game's search is its own compiled code, built from the game's kernel description
(`spielwerk.core.kernel_game.KernelRules`, registered in `spielwerk/games/kernels.py`) and its
learned rollout policy, if any (`spielwerk.agents.rollouts`): `search_kernels(name)`. A
capability the game lacks (a cut rollout, the lead, compiled observations) is refused by the
agent. For other searches (`strength`'s guided MCTS), `KernelGame` offers the pieces alone:
convert a state, determinize it, roll it out at random, read the returns.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from functools import cache
from typing import Any

import numpy as np

from spielwerk.agents.base import Agent, Turn, opening_turn
from spielwerk.agents.rollouts import LearnedRollout, learned_rollout
from spielwerk.core.actions import Action
from spielwerk.core.kernel import first_use, kernel
from spielwerk.core.kernel_game import SIMULTANEOUS, KernelRules
from spielwerk.core.kernel_ops import generator, uniform
from spielwerk.core.registry import load
from spielwerk.core.state import CHANCE, TERMINAL, State
from spielwerk.games.kernels import KERNELS, has_kernel, kernel_rules

MAX_SEATS = 8
MAX_LEGAL = 128
ACTION_SPAN = 1024
"""Keys of per-seat statistics at a simultaneous node: SEAT_KEY + seat * ACTION_SPAN + action."""
SEAT_KEY = 1 << 40
JOINT_KEY = 1 << 60

WORLD_POOL = {"isolde": 256}
"""Worlds a decision's search deals up front and starts its iterations from, reused (games not
named: a fresh deal at every iteration instead). Isolde keeps a pool, as its search did when
the worlds came from the Python engine: dealt afresh at every iteration, mcts:1000 won 0.54
instead of 0.71 of 120 games against three heuristic seats (docs/agents.md); a pool dealt by
the kernel gives the old strength at the new speed."""
NO_ROLLOUT_POLICY = np.zeros(0, dtype=np.float64)
"""The rollout weights of uniformly random rollouts."""
FULL_ROLLOUT = -1
"""The search's `rollout_decisions` for rollouts played to the end."""
NO_LEAD = 0.0
"""The search's `lead_scale` for values by the returns (and `score_weight`)."""


def kernel_games() -> tuple[str, ...]:
    """The games with a kernel (whether or not Numba is installed)."""
    return tuple(KERNELS)


# ---------------------------------------------------------------------- shared by every game
@kernel
def _nobody_deciding(s: np.ndarray) -> int:
    """A kernel's `deciding` where one seat decides at a time."""
    return 0


@kernel
def _no_observation(s: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """A kernel's `observe` where it writes none (the agent then refuses a network)."""
    return


@kernel
def network_values(
    weights: np.ndarray,
    biases: np.ndarray,
    sizes: np.ndarray,
    x: np.ndarray,
    work: np.ndarray,
    out: np.ndarray,
) -> None:
    """The value head of a ReLU network on the observation `x`, into `out` (one value per
    seat, relative to the viewer): `spielwerk.agents.network.Model.forward`'s values, compiled.

    Layer `l` (hidden layers first, the value head last) maps `sizes[l]` inputs to
    `sizes[l + 1]` outputs with `weights[l]` and `biases[l]` (zero-padded to the widest
    layer: one array of fixed shape, which Numba's loops vectorize); `work` holds two rows
    of the widest layer. Observation tensors are mostly zeros, and so are half the ReLU
    outputs: each layer adds up only the weight rows of its non-zero inputs."""
    layers = sizes.shape[0] - 1
    for layer in range(layers):
        target = work[(layer + 1) % 2]
        source = x if layer == 0 else work[layer % 2]
        width_out = sizes[layer + 1]
        for j in range(width_out):
            target[j] = biases[layer, j]
        for i in range(sizes[layer]):
            xi = source[i]
            if xi != 0.0:
                for j in range(width_out):
                    target[j] += xi * weights[layer, i, j]
        if layer < layers - 1:
            for j in range(width_out):
                if target[j] < 0.0:
                    target[j] = 0.0
    for j in range(sizes[layers]):
        out[j] = work[layers % 2, j]


# ---------------------------------------------------------------------- the tree
# Node arrays: first child, next sibling, key (action id or a simultaneous key), visits,
# total value for the seat whose action leads to the node, availability count.
FIRST, SIBLING, KEY, VISITS, AVAIL = range(5)


@kernel
def _child(links: np.ndarray, node: int, key: int) -> int:
    child = links[node, FIRST]
    while child >= 0:
        if links[child, KEY] == key:
            return child
        child = links[child, SIBLING]
    return -1


@kernel
def _add_child(links: np.ndarray, used: np.ndarray, node: int, key: int) -> int:
    child = used[0]
    used[0] += 1
    links[child, FIRST] = -1
    links[child, KEY] = key
    links[child, VISITS] = 0
    links[child, AVAIL] = 0
    links[child, SIBLING] = links[node, FIRST]
    links[node, FIRST] = child
    return child


@kernel
def _choose(
    links: np.ndarray,
    totals: np.ndarray,
    node: int,
    keys: np.ndarray,
    count: int,
    exploration: float,
    expanded: np.ndarray,
    rng: np.ndarray,
) -> int:
    """The child to follow among `keys[:count]`: a random untried one (created; sets
    `expanded[0]`), else the best by availability-corrected UCB1. Counts availability."""
    children = np.empty(count, dtype=np.int64)
    untried = 0
    for i in range(count):
        children[i] = _child(links, node, keys[i])
        if children[i] < 0:
            untried += 1
    if untried:
        pick = int(uniform(rng) * untried)
        for i in range(count):
            if children[i] < 0:
                if pick == 0:
                    children[i] = -2  # marker: create below
                    break
                pick -= 1
        chosen = -1
        for i in range(count):
            if children[i] == -2:
                chosen = i
        expanded[0] = 1
        return chosen
    best, best_score = 0, -np.inf
    for i in range(count):
        child = children[i]
        visits = links[child, VISITS]
        score = totals[child] / visits + exploration * np.sqrt(
            np.log(links[child, AVAIL] + 1) / visits
        )
        if score > best_score:
            best, best_score = i, score
    return best


@kernel
def _count_available(links: np.ndarray, node: int, keys: np.ndarray, count: int) -> None:
    for i in range(count):
        child = _child(links, node, keys[i])
        if child >= 0:
            links[child, AVAIL] += 1


@kernel
def root_statistics(
    links: np.ndarray, totals: np.ndarray, keys: np.ndarray, visits: np.ndarray, out: np.ndarray
) -> None:
    """Visits and total value of the root's children with `keys` (0 where never visited)."""
    for i in range(keys.shape[0]):
        child = _child(links, 0, keys[i])
        visits[i] = 0 if child < 0 else links[child, VISITS]
        out[i] = 0.0 if child < 0 else totals[child]


# ---------------------------------------------------------------------- each game's search
@dataclass(frozen=True)
class SearchKernels:
    """One game's compiled search and what it is made of."""

    rules: KernelRules
    policy: LearnedRollout | None
    search: Any
    """(roots, deal, player, iterations, exploration, score_weight, weights, biases, sizes,
    leaf_mix, rollout_weights, links, totals, used, rng, rollout_decisions, lead_scale,
    leaf_estimate) -> iterations run: see `_build_search`."""
    deal_worlds: Any
    """(worlds, seat, rng): determinize every row of `worlds` for `seat`, in place."""
    value: Any
    """(s, score_weight, out): each seat's return at the end, plus score_weight x its score."""
    values_after: Any
    """(s, player, actions, weights, biases, sizes, out): for each of `actions` (legal in `s`),
    the value network's value for `player` of the state right after it, read from `player`'s
    observation of that state (games whose kernel writes observations)."""


@cache
def search_kernels(game_name: str) -> SearchKernels:
    """The compiled search of `game_name` (built once a process; loaded from the cache)."""
    return _build_search(kernel_rules(game_name), learned_rollout(game_name))


def _build_search(rules: KernelRules, policy: LearnedRollout | None) -> SearchKernels:
    """The compiled search over `rules`, rolling out with `policy` where weights are given."""
    to_move_at = rules.to_move_at
    legal, apply, sample_chance = rules.legal, rules.apply, rules.sample_chance
    determinize, rollout, returns, scores = (
        rules.determinize,
        rules.rollout,
        rules.returns,
        rules.scores,
    )
    deciding = rules.deciding if rules.deciding is not None else _nobody_deciding
    observe = rules.observe if rules.observe is not None else _no_observation

    def value_of(s: np.ndarray, score_weight: float, out: np.ndarray) -> None:
        returns(s, out)
        if score_weight == 0.0:
            return
        points = np.zeros(MAX_SEATS, dtype=np.float64)
        scores(s, points)
        for p in range(MAX_SEATS):
            out[p] += score_weight * points[p]

    value = kernel(value_of)
    uniform_rollout: Any = rollout
    uniform_cut: Any = rules.rollout_cut
    if uniform_cut is None:  # the agent refuses a cut-off: never called

        def rollout_to_the_end(s: np.ndarray, rng: np.ndarray, limit: int) -> int:
            return uniform_rollout(s, rng)

        uniform_cut = kernel(rollout_to_the_end)
    played: Any = uniform_rollout
    played_cut: Any = uniform_cut
    if policy is not None:
        learned = policy.rollout

        def policy_rollout(s: np.ndarray, rng: np.ndarray, weights: np.ndarray) -> None:
            if weights.shape[0] == 0:
                uniform_rollout(s, rng)
            else:
                learned(s, rng, weights)

        played = kernel(policy_rollout)
        if policy.rollout_cut is not None:
            learned_cut = policy.rollout_cut

            def policy_cut(s: np.ndarray, rng: np.ndarray, weights: np.ndarray, limit: int) -> None:
                if weights.shape[0] == 0:
                    uniform_cut(s, rng, limit)
                else:
                    learned_cut(s, rng, weights, limit)

            played_cut = kernel(policy_cut)
    if played is uniform_rollout:

        def uniformly(s: np.ndarray, rng: np.ndarray, weights: np.ndarray) -> None:
            uniform_rollout(s, rng)

        played = kernel(uniformly)
    if played_cut is uniform_cut:

        def uniformly_cut(s: np.ndarray, rng: np.ndarray, weights: np.ndarray, limit: int) -> None:
            uniform_cut(s, rng, limit)

        played_cut = kernel(uniformly_cut)
    lead: Any = rules.lead_values
    if lead is None:  # the agent refuses a lead scale: never called

        def lead_by_value(s: np.ndarray, scale: float, out: np.ndarray) -> None:
            value(s, 0.0, out)

        lead = kernel(lead_by_value)
    estimate: Any = policy.estimate_lead_values if policy is not None else None
    if estimate is None:  # the agent refuses `leaf_estimate`: never called
        estimate = lead

    def rollout_value_of(
        s: np.ndarray,
        rng: np.ndarray,
        rollout_weights: np.ndarray,
        rollout_decisions: int,
        score_weight: float,
        lead_scale: float,
        out: np.ndarray,
        leaf_estimate: bool = False,
    ) -> None:
        """A new leaf's value per seat into `out`, `s` played on in place: `MCTSAgent._rollout`.
        A rollout to the end (`rollout_decisions` < 0) or cut after `rollout_decisions`
        decisions, by the rollout policy if `rollout_weights` are given, else uniform; valued
        by the lead at `lead_scale` if it is > 0 (`LeadValuation`: the same at a cut and at
        the end; with `leaf_estimate` the lead in the heuristic's estimate), else by the
        returns plus `score_weight` x the score (`WinValuation`)."""
        if rollout_decisions >= 0:
            played_cut(s, rng, rollout_weights, rollout_decisions)
        else:
            played(s, rng, rollout_weights)
        if lead_scale > 0.0 and leaf_estimate:
            estimate(s, lead_scale, out)
        elif lead_scale > 0.0:
            lead(s, lead_scale, out)
        else:
            value(s, score_weight, out)

    rollout_value = kernel(rollout_value_of)

    def search(
        roots: np.ndarray,
        deal: bool,
        player: int,
        iterations: int,
        exploration: float,
        score_weight: float,
        weights: np.ndarray,
        biases: np.ndarray,
        sizes: np.ndarray,
        leaf_mix: float,
        rollout_weights: np.ndarray,
        links: np.ndarray,
        totals: np.ndarray,
        used: np.ndarray,
        rng: np.ndarray,
        rollout_decisions: int,
        lead_scale: float,
        leaf_estimate: bool = False,
    ) -> int:
        """Run up to `iterations` iterations into the tree (`links`, `totals`, `used[0]` nodes so
        far, node 0 the root); stops early when the tree is nearly full. Returns iterations run.

        Each iteration starts from one of `roots` (rows: states of the seat's information set),
        drawn uniformly, and, if `deal`, determinizes it for `player` in the kernel (the agent
        passes its Turn's sample alone, or a pool of worlds already dealt: `WORLD_POOL`). A new
        leaf is valued by a random rollout, mixed, if `leaf_mix` > 0, with a value network
        (`weights`, `biases`, `sizes`: see `network_values`) reading `player`'s observation of the
        leaf: (1 - leaf_mix) x rollout + leaf_mix x network, AlphaGo's mix at its leaves (at 1, no
        rollout is played). Rollouts follow the game's learned rollout policy where
        `rollout_weights` are given, else they play uniformly at random; with
        `rollout_decisions` >= 0 they stop after that many decisions, and with `lead_scale` > 0
        they are valued by the lead, in the score or, with `leaf_estimate`, in the heuristic's
        estimate (`rollout_value`)."""
        capacity = links.shape[0]
        players = roots[0, 0]  # every kernel keeps the player count first
        observation = np.zeros(sizes[0] if sizes.shape[0] else 1, dtype=np.float32)
        work = np.zeros((2, weights.shape[2]), dtype=np.float32)
        judged = np.zeros(weights.shape[2], dtype=np.float32)
        out = np.empty(MAX_LEGAL, dtype=np.int64)
        keys = np.empty(MAX_LEGAL, dtype=np.int64)
        path = np.empty(4096, dtype=np.int64)
        seats = np.empty(4096, dtype=np.int64)
        picks = np.empty(MAX_SEATS, dtype=np.int64)
        values = np.zeros(MAX_SEATS, dtype=np.float64)
        expanded = np.zeros(1, dtype=np.int64)
        done = 0
        while done < iterations and used[0] + 2 * MAX_SEATS + 2 < capacity:
            s = roots[int(uniform(rng) * roots.shape[0])].copy()
            if deal:
                determinize(s, player, rng)
            node = 0
            depth = 0
            expanded[0] = 0
            while expanded[0] == 0:
                mover = s[to_move_at]
                if mover == TERMINAL:
                    break
                if mover == CHANCE:
                    apply(s, sample_chance(s, rng))
                    continue
                if mover == SIMULTANEOUS:
                    # Each deciding seat picks from its own statistics at this node.
                    mask = deciding(s)
                    joint = JOINT_KEY
                    seat = 0
                    while mask:
                        if mask & 1:
                            count = legal(s, seat, out)
                            for i in range(count):
                                keys[i] = SEAT_KEY + seat * ACTION_SPAN + out[i]
                            i = _choose(
                                links, totals, node, keys, count, exploration, expanded, rng
                            )
                            child = _child(links, node, keys[i])
                            if child < 0:
                                child = _add_child(links, used, node, keys[i])
                            _count_available(links, node, keys, count)
                            path[depth] = child
                            seats[depth] = seat
                            depth += 1
                            picks[seat] = out[i]
                            joint += (out[i] + 1) << (10 * seat)
                        mask >>= 1
                        seat += 1
                    mask = deciding(s)
                    seat = 0
                    while mask:
                        if mask & 1:
                            apply(s, picks[seat])
                        mask >>= 1
                        seat += 1
                    child = _child(links, node, joint)
                    if child < 0:
                        child = _add_child(links, used, node, joint)
                    node = child
                    continue
                count = legal(s, mover, out)
                i = _choose(links, totals, node, out, count, exploration, expanded, rng)
                child = _child(links, node, out[i])
                if child < 0:
                    child = _add_child(links, used, node, out[i])
                _count_available(links, node, out, count)
                path[depth] = child
                seats[depth] = mover
                depth += 1
                node = child
                apply(s, out[i])
            judge = leaf_mix > 0.0 and s[to_move_at] != TERMINAL
            if judge:  # before the rollout, which plays on in `s`
                observe(s, player, observation)
                network_values(weights, biases, sizes, observation, work, judged)
            if not judge or leaf_mix < 1.0:
                rollout_value(
                    s,
                    rng,
                    rollout_weights,
                    rollout_decisions,
                    score_weight,
                    lead_scale,
                    values,
                    leaf_estimate,
                )
            if judge:
                for p in range(players):
                    rolled = values[p] if leaf_mix < 1.0 else 0.0
                    values[p] = (1.0 - leaf_mix) * rolled + leaf_mix * judged[
                        (p - player) % players
                    ]
            links[0, VISITS] += 1
            for d in range(depth):
                links[path[d], VISITS] += 1
                totals[path[d]] += values[seats[d]]
            done += 1
        return done

    def deal_worlds(worlds: np.ndarray, seat: int, rng: np.ndarray) -> None:
        for w in range(worlds.shape[0]):
            determinize(worlds[w], seat, rng)

    def values_after(
        s: np.ndarray,
        player: int,
        actions: np.ndarray,
        weights: np.ndarray,
        biases: np.ndarray,
        sizes: np.ndarray,
        out: np.ndarray,
    ) -> None:
        observation = np.zeros(sizes[0], dtype=np.float32)
        work = np.zeros((2, weights.shape[2]), dtype=np.float32)
        judged = np.zeros(weights.shape[2], dtype=np.float32)
        for i in range(actions.shape[0]):
            after = s.copy()
            apply(after, actions[i])
            observe(after, player, observation)
            network_values(weights, biases, sizes, observation, work, judged)
            out[i] = judged[0]

    return SearchKernels(
        rules, policy, kernel(search), kernel(deal_worlds), value, kernel(values_after)
    )


# ---------------------------------------------------------------------- Python side
@dataclass(frozen=True)
class LeafNetwork:
    """A value network in the padded form `network_values` reads."""

    weights: np.ndarray
    """float32 (layers, widest input, widest output): layer `l`'s weights in
    `[l, :sizes[l], :sizes[l + 1]]`, zeros elsewhere; hidden layers first, the value head
    last."""
    biases: np.ndarray
    """float32 (layers, widest output): layer `l`'s bias in `[l, :sizes[l + 1]]`."""
    sizes: np.ndarray
    """int64: the layer widths, input first, the seats last."""


NO_NETWORK = LeafNetwork(
    np.zeros((0, 1, 1), dtype=np.float32),
    np.zeros((0, 1), dtype=np.float32),
    np.zeros(0, dtype=np.int64),
)


@dataclass
class KernelGame:
    """A game's kernel and compiled search as building blocks for searches written in Python."""

    name: str
    seed: int = 0
    """Seeds the generator of `determinize` and `rollout`."""

    def __post_init__(self) -> None:
        first_use(
            f"search-{self.name}",
            frozenset({__name__, KERNELS[self.name].partition(":")[0]}),
            f"the search for {load(self.name).title}",
            lambda: warm_up(self.name),
        )
        self.compiled = search_kernels(self.name)
        self.rules = self.compiled.rules
        self.policy = self.compiled.policy
        self.rng = generator(self.seed)

    def from_state(self, state: State) -> np.ndarray:
        return self.rules.from_state(state)

    @property
    def world_pool(self) -> int:
        """`WORLD_POOL`'s worlds of the game (0: a fresh deal at every iteration)."""
        return WORLD_POOL.get(self.name, 0)

    def roots(self, turn: Turn, budget: int | None, rng: np.ndarray) -> np.ndarray:
        """The kernel arrays a search of `budget` iterations (None: a time budget) starts its
        iterations from: the Turn's sample alone where the search deals afresh at every
        iteration, else a pool of `WORLD_POOL` worlds (at most one an iteration) dealt from it
        by the kernel with the generator `rng`."""
        assert turn.sample is not None
        sample = self.from_state(turn.sample)[None, :]
        pool = self.world_pool
        if not pool:
            return sample
        worlds = np.repeat(sample, pool if budget is None else min(pool, budget), axis=0)
        self.compiled.deal_worlds(worlds, turn.player, rng)
        return worlds

    @property
    def deals_each_iteration(self) -> bool:
        """Whether the search deals every iteration's world afresh (else: from `roots`' pool)."""
        return not self.world_pool

    def determinize(self, s: np.ndarray, seat: int) -> None:
        self.rules.determinize(s, seat, self.rng)

    def rollout(self, s: np.ndarray) -> None:
        self.rules.rollout(s, self.rng)

    def returns(self, s: np.ndarray, score_weight: float = 0.0) -> list[float]:
        values = np.zeros(MAX_SEATS)
        self.compiled.value(s, score_weight, values)
        return [float(v) for v in values[: int(s[0])]]


class KernelMCTSAgent(Agent):
    """`MCTSAgent`'s search with random rollouts, compiled: for games with a kernel.

    `rollout_decisions` and `lead_scale` are `MCTSAgent`'s `rollout_decisions` with a
    `LeadValuation(lead_scale)` (games whose kernel has `rollout_cut` and `lead_values`):
    a lead scale alone values full rollouts by the lead at the end; a cut needs the lead (the
    win values no game in progress, and the Python search would then play on to the end).
    `leaf_estimate` takes the lead in the heuristic's estimate instead of the score
    (`MCTSAgent` with the heuristic's valuation at the cut; games whose learned rollout has
    `estimate_lead_values`)."""

    name = "mcts"
    wants_sample = True

    def __init__(
        self,
        game_name: str,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        seed: int | None = None,
        score_weight: float = 0.0,
        leaf_network: LeafNetwork | None = None,
        leaf_mix: float = 0.0,
        rollout_weights: np.ndarray | None = None,
        rollout_decisions: int | None = None,
        lead_scale: float | None = None,
        leaf_estimate: bool = False,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("MCTS needs a budget: iterations or seconds")
        if iterations is not None and iterations < 1:
            raise ValueError("MCTS needs at least one iteration")
        if seconds is not None and seconds <= 0:
            raise ValueError("MCTS needs a positive time budget")
        if not 0.0 <= leaf_mix <= 1.0:
            raise ValueError(f"the leaf mix must lie in 0..1, got {leaf_mix}")
        if leaf_mix and leaf_network is None:
            raise ValueError("a leaf mix needs a value network")
        self.game = KernelGame(game_name)
        if leaf_network is not None and leaf_mix:
            check_leaf_network(leaf_network, self.game)
        self.leaf_network = leaf_network or NO_NETWORK
        self.leaf_mix = leaf_mix
        self.rollout_weights = NO_ROLLOUT_POLICY
        if rollout_weights is not None:
            self.rollout_weights = checked_rollout_weights(rollout_weights, self.game)
        check_rollout_valuation(
            self.game,
            rollout_decisions,
            lead_scale,
            score_weight,
            rollout_weights is not None,
            leaf_estimate,
        )
        self.leaf_estimate = leaf_estimate
        self.rollout_decisions = FULL_ROLLOUT if rollout_decisions is None else rollout_decisions
        self.lead_scale = NO_LEAD if lead_scale is None else lead_scale
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        self.score_weight = score_weight
        self.rng = random.Random(seed)
        self.last_iterations = 0

    def act(self, turn: Turn) -> Action:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        return legal[most_visited(*self.root(turn))]

    def root(self, turn: Turn) -> tuple[np.ndarray, np.ndarray]:
        """Search, then each legal action's visits and total value at the root (in the order
        of the Turn's legal actions)."""
        if turn.sample is None:
            raise RuntimeError("kernel MCTS needs the Turn's sample")
        legal = turn.legal_actions
        simultaneous = isinstance(turn.sample.to_move, frozenset)
        keys = np.array(
            [SEAT_KEY + turn.player * ACTION_SPAN + a.id if simultaneous else a.id for a in legal],
            dtype=np.int64,
        )
        links, totals = self.search(turn)
        visits = np.zeros(len(legal), dtype=np.int64)
        value_sums = np.zeros(len(legal))
        root_statistics(links, totals, keys, visits, value_sums)
        return visits, value_sums

    def search(self, turn: Turn) -> tuple[np.ndarray, np.ndarray]:
        """The tree after the budget: (links, totals). A time budget counts from the call and
        is kept to within a few milliseconds."""
        assert turn.sample is not None
        start = time.perf_counter()
        deadline = None if self.seconds is None else start + self.seconds
        stream = generator(self.rng.randrange(2**62))
        roots = self.game.roots(turn, self.iterations, stream)
        capacity = 1 << 12
        links = np.full((capacity, 5), -1, dtype=np.int64)
        links[0, VISITS] = 0
        totals = np.zeros(capacity)
        used = np.ones(1, dtype=np.int64)
        done = 0
        chunk = 64 if deadline is not None else 4096
        while self.iterations is None or done < self.iterations:
            began = time.perf_counter()
            if deadline is not None and began >= deadline:
                break
            want = chunk if self.iterations is None else min(chunk, self.iterations - done)
            ran = self.game.compiled.search(
                roots,
                self.game.deals_each_iteration,
                turn.player,
                want,
                self.exploration,
                self.score_weight,
                self.leaf_network.weights,
                self.leaf_network.biases,
                self.leaf_network.sizes,
                self.leaf_mix,
                self.rollout_weights,
                links,
                totals,
                used,
                stream,
                self.rollout_decisions,
                self.lead_scale,
                self.leaf_estimate,
            )
            done += ran
            if used[0] + 4 * MAX_SEATS + 2 >= links.shape[0]:
                links, totals = _grow(links, totals)
            if deadline is not None:
                # The next chunk fills half the time left at the rate just measured: chunks
                # shrink towards the deadline instead of overshooting it (an Isolde iteration
                # costs some ten Witches ones).
                now = time.perf_counter()
                rate = ran / max(now - began, 1e-6)
                chunk = int(min(4096, max(8, rate * (deadline - now) / 2)))
        self.last_iterations = done
        return links, totals


def check_leaf_network(network: LeafNetwork, game: KernelGame) -> None:
    """A network the compiled search can evaluate on `game`'s observations: the kernel must
    write them, the input must be their size (the kernel writes that many entries) and the
    value head must value every seat the game can seat."""
    if game.rules.observe is None:
        raise ValueError(f"{game.name} has no compiled observation: no network at the leaves")
    size = game.rules.observation_size
    if network.sizes.shape[0] < 2 or int(network.sizes[0]) != size:
        inputs = int(network.sizes[0]) if network.sizes.shape[0] else 0
        raise ValueError(
            f"the value network reads {inputs} inputs, but a {game.name} observation has {size}"
        )
    seats = load(game.name).max_players
    if int(network.sizes[-1]) < seats:
        raise ValueError(
            f"the value network values {int(network.sizes[-1])} seats; {game.name} seats {seats}"
        )


def check_rollout_valuation(
    game: KernelGame,
    rollout_decisions: int | None,
    lead_scale: float | None,
    score_weight: float,
    policy: bool,
    estimate: bool = False,
) -> None:
    """ValueError unless the compiled search can cut and value rollouts as asked: the kernel
    must provide the cut and the lead (`rollout_cut`, `lead_values`), a cut needs the lead,
    and a cut rollout is valued by the lead alone and played uniformly unless the game's
    rollout policy can be cut too (its `rollout_cut`); the lead in the heuristic's estimate
    (`estimate`) needs the lead scale and the learned rollout's `estimate_lead_values`."""
    learned = game.policy
    if estimate:
        if learned is None or learned.estimate_lead_values is None:
            raise ValueError(f"{game.name} has no compiled estimate to value rollouts by")
        if lead_scale is None:
            raise ValueError("the estimate's lead needs a lead scale")
    if lead_scale is not None:
        if game.rules.lead_values is None:
            raise ValueError(f"{game.name} has no compiled lead valuation (lead_scale)")
        if not lead_scale > 0:
            raise ValueError("the lead scale must be positive")
        if score_weight:
            raise ValueError("rollouts are valued by the lead or by the score term, not both")
    if rollout_decisions is None:
        return
    if game.rules.rollout_cut is None:
        raise ValueError(f"{game.name} has no compiled cut-off of rollouts (rollout_decisions)")
    if rollout_decisions < 0:
        raise ValueError("a rollout cannot have a negative number of decisions")
    if lead_scale is None:
        raise ValueError(
            "a cut rollout needs the lead valuation (lead_scale): the win values no game in play"
        )
    if policy and (learned is None or learned.rollout_cut is None):
        raise ValueError(
            f"{game.name}'s cut rollout is uniformly random: no rollout policy with it"
        )


def checked_rollout_weights(weights: np.ndarray, game: KernelGame) -> np.ndarray:
    """`weights` as the compiled rollout policy reads them (float64, one per feature of the
    game's learned rollout); ValueError if the game has no rollout policy or they do not fit
    it."""
    if game.policy is None:
        raise ValueError(f"{game.name} has no compiled rollout policy")
    array = np.ascontiguousarray(weights, dtype=np.float64)
    features = len(game.policy.features)
    if array.shape != (features,):
        raise ValueError(
            f"the {game.name} rollout policy has {features} weights (one per feature), "
            f"got an array of shape {array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise ValueError(f"the {game.name} rollout weights are not all finite")
    return array


def most_visited(visits: np.ndarray, value_sums: np.ndarray) -> int:
    """The plain search's choice: the most visited root action (ties: the higher total)."""
    return max(range(len(visits)), key=lambda i: (visits[i], value_sums[i]))


def _grow(links: np.ndarray, totals: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    capacity = links.shape[0] * 2
    bigger = np.full((capacity, 5), -1, dtype=np.int64)
    bigger[: links.shape[0]] = links
    more = np.zeros(capacity)
    more[: totals.shape[0]] = totals
    return bigger, more


def kernel_state(state: State) -> np.ndarray:
    """A scalar state's kernel array (for games with a kernel)."""
    return kernel_rules(state.game.name).from_state(state)


__all__ = [
    "KernelGame",
    "KernelMCTSAgent",
    "LeafNetwork",
    "has_kernel",
    "kernel_games",
    "kernel_state",
    "search_kernels",
]


def warm_up(name: str) -> None:
    """Run game `name`'s search once (a tiny search), which compiles it or loads it from the
    cache; the kernel it searches is warmed by `kernel_rules` on the way."""
    game = load(name)
    KernelMCTSAgent(name, iterations=2, seed=0).act(opening_turn(game, game.min_players, True))


def compile_all(names: tuple[str, ...] = (), jobs: int = 2) -> float:
    """Compile (or load from the cache) the kernels and the search of `names` (all kernel
    games if none), `jobs` games at a time in processes of their own; returns the seconds it
    took. Nothing needs it (every game compiles at its first use), but it spares the wait
    later: `python -m spielwerk.agents.kernel_mcts [GAME ...] [--jobs N]`."""
    from concurrent.futures import ProcessPoolExecutor
    from multiprocessing import get_context

    start = time.perf_counter()
    chosen = names or kernel_games()
    if jobs <= 1 or len(chosen) == 1:
        for name in chosen:
            _compile(name)
    else:
        # spawn: a fresh interpreter each (Numba's compiler and fork do not mix)
        with ProcessPoolExecutor(min(jobs, len(chosen)), mp_context=get_context("spawn")) as pool:
            list(pool.map(_compile, chosen))
    return time.perf_counter() - start


def _compile(name: str) -> None:
    KernelGame(name)


def main(argv: list[str] | None = None) -> None:
    import argparse

    parser = argparse.ArgumentParser(
        prog="python -m spielwerk.agents.kernel_mcts", description=compile_all.__doc__
    )
    parser.add_argument("games", nargs="*", metavar="GAME", help=", ".join(kernel_games()))
    parser.add_argument("--jobs", type=int, default=2, help="games compiled at once (2)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.games) - set(kernel_games()))
    if unknown:
        parser.error(
            f"no kernel for {', '.join(unknown)} (games with one: {', '.join(kernel_games())})"
        )
    seconds = compile_all(tuple(args.games), max(1, args.jobs))
    print(f"kernels compiled or loaded in {seconds:.1f} s")


if __name__ == "__main__":
    # Run the imported module, not this copy named __main__: compiled code records the module
    # of its functions, and the cache must hold code every later process can load.
    from spielwerk.agents import kernel_mcts

    kernel_mcts.main()
