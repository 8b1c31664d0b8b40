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
rollouts follow the game's learned rollout policy instead of uniform play (`policy_rollout`,
`spielwerk.learn.rollout_policy`). Given a cut-off and a lead scale (Tintenblut's `mcts` seat),
its rollouts stop after that many decisions and are valued by the lead on the victory track
(`cut_rollout`, `lead_values`: `MCTSAgent`'s `rollout_decisions` with `LeadValuation`); with
rollout weights too, the policy's rollout is cut there (`cut_policy_rollout`), and the cut may be
valued by the lead in the heuristic's estimate instead of the score (`leaf_estimate`,
`estimate_values`).

For other searches (`strength`'s guided MCTS), `KernelGame` offers the pieces alone: convert a
state, determinize it, roll it out at random, read the returns.
"""

from __future__ import annotations

import importlib
import random
import time
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import numpy as np

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action
from spielwerk.core.kernel import available, kernel
from spielwerk.core.kernel_ops import generator, uniform
from spielwerk.core.registry import load
from spielwerk.core.state import CHANCE, TERMINAL, State

SIMULTANEOUS = -3
"""A kernel's `to_move` when several seats decide at once (their mask is `deciding(s)`)."""

KERNEL_GAMES = ("witches", "inkheart_dice", "isolde", "inkspell")
"""Games with a kernel; the code of each is its index here."""

MAX_SEATS = 8
MAX_LEGAL = 128
ACTION_SPAN = 1024
"""Keys of per-seat statistics at a simultaneous node: SEAT_KEY + seat * ACTION_SPAN + action."""
SEAT_KEY = 1 << 40
JOINT_KEY = 1 << 60


def has_kernel(game_name: str) -> bool:
    return game_name in KERNEL_GAMES and available()


def kernel_module(game_name: str) -> ModuleType:
    return importlib.import_module(f"spielwerk.games.{game_name}.kernel")


def rollout_module(game_name: str) -> ModuleType:
    """The module of a game's learned rollout policy (`ROLLOUT_FEATURES`, `rollout_features`,
    `rollout_policy`): its kernel's, or the one `ROLLOUT_MODULES` names."""
    name = ROLLOUT_MODULES.get(game_name)
    return kernel_module(game_name) if name is None else importlib.import_module(name)


# ---------------------------------------------------------------------- the games, by code
from spielwerk.games.inkheart_dice import kernel as inkheart_dice  # noqa: E402
from spielwerk.games.inkspell import kernel as inkspell  # noqa: E402
from spielwerk.games.inkspell import kernel_policy as inkspell_policy  # noqa: E402
from spielwerk.games.isolde import kernel as isolde  # noqa: E402
from spielwerk.games.isolde import kernel_hidden as isolde_hidden  # noqa: E402
from spielwerk.games.isolde import kernel_policy as isolde_policy  # noqa: E402
from spielwerk.games.witches import kernel as witches  # noqa: E402

WITCHES, INKHEART_DICE, ISOLDE, INKSPELL = range(4)
COMPILED_OBSERVATION = (True, True, False, False)
"""Whether the kernel writes observation tensors (`observe`), which a network in the
compiled search reads."""
WORLD_POOL = (0, 0, 256, 0)
"""Worlds a decision's search deals up front and starts its iterations from, reused (0: a
fresh deal at every iteration instead). Isolde keeps a pool, as its search did when the
worlds came from the Python engine: dealt afresh at every iteration, mcts:1000 won 0.54
instead of 0.71 of 120 games against three heuristic seats (docs/agents.md); a pool dealt by
the kernel gives the old strength at the new speed."""
ROLLOUT_POLICY = (True, False, True, True)
"""Whether the game has a learned rollout policy (`rollout_policy`, its features named by
`ROLLOUT_FEATURES`, `rollout_features` the reference; in the module `rollout_module` names)
that the search can roll out with instead of uniform play."""
ROLLOUT_MODULES = {
    "isolde": "spielwerk.games.isolde.kernel_policy",
    "inkspell": "spielwerk.games.inkspell.kernel_policy",
}
"""Where a game's rollout policy lives when not in its kernel module (Isolde's and Tintenblut's
have a module of their own beside the kernel)."""
NO_ROLLOUT_POLICY = np.zeros(0, dtype=np.float64)
"""The rollout weights of uniformly random rollouts."""
CUT_ROLLOUT = (False, False, False, True)
"""Whether the kernel can stop a random rollout after a number of decisions (`rollout_cut`,
where `MCTSAgent._rollout` stops), which the search can then value by the lead."""
LEAD_VALUATION = (False, False, False, True)
"""Whether the kernel values a state by the lead on its victory track (`lead_values`,
`guidance.LeadValuation` on `State.running_scores`)."""
ESTIMATE_VALUATION = (False, False, False, True)
"""Whether the game's rollout policy module values a state by the lead in the heuristic's
estimate (`estimate_lead_values`: Tintenblut's `InkspellValuation`, compiled), which the
search can use instead of the score lead (`leaf_estimate`)."""
CUT_POLICY_ROLLOUT = (False, False, False, True)
"""Whether the game's rollout policy can also be cut after a number of decisions
(`rollout_policy_cut`), so that the search rolls out with it under a cut-off and the lead."""
FULL_ROLLOUT = -1
"""The search's `rollout_decisions` for rollouts played to the end."""
NO_LEAD = 0.0
"""The search's `lead_scale` for values by the returns (and `score_weight`)."""


@kernel
def to_move(game: int, s: np.ndarray) -> int:
    if game == WITCHES:
        return s[witches.TO_MOVE]
    if game == INKHEART_DICE:
        return s[inkheart_dice.TO_MOVE]
    if game == INKSPELL:
        return s[inkspell.TO_MOVE]
    return s[isolde.TO_MOVE]


@kernel
def deciding(game: int, s: np.ndarray) -> int:
    if game == ISOLDE:
        return s[isolde.DECIDING]
    return 0


@kernel
def legal(game: int, s: np.ndarray, seat: int, out: np.ndarray) -> int:
    if game == WITCHES:
        return witches.legal(s, out)
    if game == INKHEART_DICE:
        return inkheart_dice.legal(s, out)
    if game == INKSPELL:
        return inkspell.legal(s, out)
    return isolde.legal(s, seat, out)


@kernel
def apply(game: int, s: np.ndarray, action: int) -> None:
    if game == WITCHES:
        witches.apply(s, action)
    elif game == INKHEART_DICE:
        inkheart_dice.apply(s, action)
    elif game == INKSPELL:
        inkspell.apply(s, action)
    else:
        isolde.apply(s, action)


@kernel
def sample_chance(game: int, s: np.ndarray, rng: np.ndarray) -> int:
    if game == WITCHES:
        return witches.sample_chance(s, rng)
    if game == INKHEART_DICE:
        return inkheart_dice.sample_chance(s, rng)
    if game == INKSPELL:
        return inkspell.sample_chance(s, rng)
    return isolde.sample_chance(s, rng)


@kernel
def determinize(game: int, s: np.ndarray, seat: int, rng: np.ndarray) -> None:
    """Deal what `seat` cannot know afresh, in place (Isolde's sampler: `kernel_hidden.py`)."""
    if game == WITCHES:
        witches.determinize(s, seat, rng)
    elif game == INKHEART_DICE:
        inkheart_dice.determinize(s, seat, rng)
    elif game == INKSPELL:
        inkspell.determinize(s, seat, rng)
    else:
        isolde_hidden.determinize(s, seat, rng)


@kernel
def deal_worlds(game: int, worlds: np.ndarray, seat: int, rng: np.ndarray) -> None:
    """Determinize every row of `worlds` (copies of one state) for `seat`, in place."""
    for w in range(worlds.shape[0]):
        determinize(game, worlds[w], seat, rng)


@kernel
def scores(game: int, s: np.ndarray, out: np.ndarray) -> None:
    """Each seat's score so far (Tintenherz: the better castle-card option)."""
    if game == WITCHES:
        for p in range(s[witches.N]):
            out[p] = s[witches.SCORES + p]
    elif game == INKHEART_DICE:
        inkheart_dice.scores(s, out)
    elif game == INKSPELL:
        inkspell.scores(s, out)
    else:
        for p in range(s[isolde.N]):
            out[p] = s[isolde.SCORES + p]


@kernel
def value(game: int, s: np.ndarray, score_weight: float, out: np.ndarray) -> None:
    """Each seat's return at the end, plus score_weight x its score."""
    if game == WITCHES:
        witches.returns(s, out)
    elif game == INKHEART_DICE:
        inkheart_dice.returns(s, out)
    elif game == INKSPELL:
        inkspell.returns(s, out)
    else:
        isolde.returns(s, out)
    if score_weight == 0.0:
        return
    points = np.zeros(MAX_SEATS, dtype=np.float64)
    scores(game, s, points)
    for p in range(MAX_SEATS):
        out[p] += score_weight * points[p]


@kernel
def observe(game: int, s: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """`viewer`'s observation tensor of `s` (Witches and Tintenherz; Isolde has no compiled
    observation, so no network evaluates its leaves)."""
    if game == WITCHES:
        witches.observe(s, viewer, out)
    elif game == INKHEART_DICE:
        inkheart_dice.observe(s, viewer, out)


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


@kernel
def values_after(
    game: int,
    s: np.ndarray,
    player: int,
    actions: np.ndarray,
    weights: np.ndarray,
    biases: np.ndarray,
    sizes: np.ndarray,
    out: np.ndarray,
) -> None:
    """For each of `actions` (legal in `s`), the network's value for `player` of the state
    right after it, read from `player`'s observation of that state."""
    observation = np.zeros(sizes[0], dtype=np.float32)
    work = np.zeros((2, weights.shape[2]), dtype=np.float32)
    judged = np.zeros(weights.shape[2], dtype=np.float32)
    for i in range(actions.shape[0]):
        after = s.copy()
        apply(game, after, actions[i])
        observe(game, after, player, observation)
        network_values(weights, biases, sizes, observation, work, judged)
        out[i] = judged[0]


@kernel
def rollout(game: int, s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random play to the end, in place (chance drawn as likely as it is; in a
    simultaneous step the seats pick lowest first): each game's own compiled rollout."""
    if game == WITCHES:
        witches.rollout(s, rng)
    elif game == INKHEART_DICE:
        inkheart_dice.rollout(s, rng)
    elif game == INKSPELL:
        inkspell.rollout(s, rng)
    else:
        isolde.rollout(s, rng)


@kernel
def policy_rollout(game: int, s: np.ndarray, rng: np.ndarray, weights: np.ndarray) -> None:
    """`rollout` with the game's learned rollout policy where `weights` are given (games with
    `ROLLOUT_POLICY`: the agent refuses them elsewhere), else uniformly random play. A
    simultaneous step (Isolde's draft) is played seat by seat, each seat drawing its pick from
    the policy."""
    if weights.shape[0] == 0:
        rollout(game, s, rng)
    elif game == WITCHES:
        witches.rollout_policy(s, rng, weights)
    elif game == ISOLDE:
        isolde_policy.rollout_policy(s, rng, weights)
    elif game == INKSPELL:
        inkspell_policy.rollout_policy(s, rng, weights)
    else:
        rollout(game, s, rng)


@kernel
def cut_rollout(game: int, s: np.ndarray, rng: np.ndarray, limit: int) -> None:
    """Uniformly random play, in place, up to the decision after `limit` decisions (chance
    before it drawn) or the end (Tintenblut only: the agent refuses a cut elsewhere)."""
    if game == INKSPELL:
        inkspell.rollout_cut(s, rng, limit)
    else:
        rollout(game, s, rng)


@kernel
def cut_policy_rollout(
    game: int, s: np.ndarray, rng: np.ndarray, weights: np.ndarray, limit: int
) -> None:
    """`cut_rollout` played by the game's learned rollout policy where `weights` are given
    (games with `CUT_POLICY_ROLLOUT`: the agent refuses them elsewhere), else uniformly."""
    if weights.shape[0] and game == INKSPELL:
        inkspell_policy.rollout_policy_cut(s, rng, weights, limit)
    else:
        cut_rollout(game, s, rng, limit)


@kernel
def lead_values(game: int, s: np.ndarray, scale: float, out: np.ndarray) -> None:
    """Each seat's 0.5 + 0.5 tanh((its score - the best other score) / scale), in play or at
    the end (Tintenblut only: the agent refuses a lead scale elsewhere)."""
    if game == INKSPELL:
        inkspell.lead_values(s, scale, out)
    else:
        value(game, s, 0.0, out)


@kernel
def estimate_values(game: int, s: np.ndarray, scale: float, out: np.ndarray) -> None:
    """`lead_values` on the heuristic's estimate of each seat instead of its score
    (Tintenblut only: the agent refuses `leaf_estimate` elsewhere)."""
    if game == INKSPELL:
        inkspell_policy.estimate_lead_values(s, scale, out)
    else:
        lead_values(game, s, scale, out)


@kernel
def rollout_value(
    game: int,
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
    decisions, by the rollout policy if `rollout_weights` are given, else uniform; valued by
    the lead at `lead_scale` if it is > 0 (`LeadValuation`: the same at a cut and at the end;
    with `leaf_estimate` the lead in the heuristic's estimate, `estimate_values`), else by the
    returns plus `score_weight` x the score (`WinValuation`)."""
    if rollout_decisions >= 0:
        cut_policy_rollout(game, s, rng, rollout_weights, rollout_decisions)
    else:
        policy_rollout(game, s, rng, rollout_weights)
    if lead_scale > 0.0 and leaf_estimate:
        estimate_values(game, s, lead_scale, out)
    elif lead_scale > 0.0:
        lead_values(game, s, lead_scale, out)
    else:
        value(game, s, score_weight, out)


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
def search(
    game: int,
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
    `rollout_weights` are given (`policy_rollout`), else they play uniformly at random; with
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
            determinize(game, s, player, rng)
        node = 0
        depth = 0
        expanded[0] = 0
        while expanded[0] == 0:
            mover = to_move(game, s)
            if mover == TERMINAL:
                break
            if mover == CHANCE:
                apply(game, s, sample_chance(game, s, rng))
                continue
            if mover == SIMULTANEOUS:
                # Each deciding seat picks from its own statistics at this node.
                mask = deciding(game, s)
                joint = JOINT_KEY
                seat = 0
                while mask:
                    if mask & 1:
                        count = legal(game, s, seat, out)
                        for i in range(count):
                            keys[i] = SEAT_KEY + seat * ACTION_SPAN + out[i]
                        i = _choose(links, totals, node, keys, count, exploration, expanded, rng)
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
                mask = deciding(game, s)
                seat = 0
                while mask:
                    if mask & 1:
                        apply(game, s, picks[seat])
                    mask >>= 1
                    seat += 1
                child = _child(links, node, joint)
                if child < 0:
                    child = _add_child(links, used, node, joint)
                node = child
                continue
            count = legal(game, s, mover, out)
            i = _choose(links, totals, node, out, count, exploration, expanded, rng)
            child = _child(links, node, out[i])
            if child < 0:
                child = _add_child(links, used, node, out[i])
            _count_available(links, node, out, count)
            path[depth] = child
            seats[depth] = mover
            depth += 1
            node = child
            apply(game, s, out[i])
        judge = leaf_mix > 0.0 and to_move(game, s) != TERMINAL
        if judge:  # before the rollout, which plays on in `s`
            observe(game, s, player, observation)
            network_values(weights, biases, sizes, observation, work, judged)
        if not judge or leaf_mix < 1.0:
            rollout_value(
                game,
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
                values[p] = (1.0 - leaf_mix) * rolled + leaf_mix * judged[(p - player) % players]
        links[0, VISITS] += 1
        for d in range(depth):
            links[path[d], VISITS] += 1
            totals[path[d]] += values[seats[d]]
        done += 1
    return done


@kernel
def root_statistics(
    links: np.ndarray, totals: np.ndarray, keys: np.ndarray, visits: np.ndarray, out: np.ndarray
) -> None:
    """Visits and total value of the root's children with `keys` (0 where never visited)."""
    for i in range(keys.shape[0]):
        child = _child(links, 0, keys[i])
        visits[i] = 0 if child < 0 else links[child, VISITS]
        out[i] = 0.0 if child < 0 else totals[child]


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
    """A game's kernel as building blocks for searches written in Python."""

    name: str
    seed: int = 0
    """Seeds the generator of `determinize` and `rollout`."""

    def __post_init__(self) -> None:
        self.code = KERNEL_GAMES.index(self.name)
        self.module = kernel_module(self.name)
        self.rng = generator(self.seed)

    def from_state(self, state: State) -> np.ndarray:
        array: np.ndarray = self.module.from_state(state)
        return array

    def roots(self, turn: Turn, budget: int | None, rng: np.ndarray) -> np.ndarray:
        """The kernel arrays a search of `budget` iterations (None: a time budget) starts its
        iterations from: the Turn's sample alone where the search deals afresh at every
        iteration, else a pool of `WORLD_POOL` worlds (at most one an iteration) dealt from it
        by the kernel with the generator `rng`."""
        assert turn.sample is not None
        sample = self.from_state(turn.sample)[None, :]
        pool = WORLD_POOL[self.code]
        if not pool:
            return sample
        worlds = np.repeat(sample, pool if budget is None else min(pool, budget), axis=0)
        deal_worlds(self.code, worlds, turn.player, rng)
        return worlds

    @property
    def deals_each_iteration(self) -> bool:
        """Whether the search deals every iteration's world afresh (else: from `roots`' pool)."""
        return not WORLD_POOL[self.code]

    def determinize(self, s: np.ndarray, seat: int) -> None:
        determinize(self.code, s, seat, self.rng)

    def rollout(self, s: np.ndarray) -> None:
        rollout(self.code, s, self.rng)

    def returns(self, s: np.ndarray, score_weight: float = 0.0) -> list[float]:
        values = np.zeros(MAX_SEATS)
        value(self.code, s, score_weight, values)
        return [float(v) for v in values[: int(s[0])]]


class KernelMCTSAgent(Agent):
    """`MCTSAgent`'s search with random rollouts, compiled: for games with a kernel.

    `rollout_decisions` and `lead_scale` are `MCTSAgent`'s `rollout_decisions` with a
    `LeadValuation(lead_scale)` (games whose kernel has `CUT_ROLLOUT` and `LEAD_VALUATION`):
    a lead scale alone values full rollouts by the lead at the end; a cut needs the lead (the
    win values no game in progress, and the Python search would then play on to the end).
    `leaf_estimate` takes the lead in the heuristic's estimate instead of the score
    (`MCTSAgent` with the heuristic's valuation at the cut; games with `ESTIMATE_VALUATION`)."""

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
            ran = search(
                self.game.code,
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
    if not COMPILED_OBSERVATION[game.code]:
        raise ValueError(f"{game.name} has no compiled observation: no network at the leaves")
    size = int(game.module.OBSERVATION_SIZE)
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
    must provide the cut and the lead (`CUT_ROLLOUT`, `LEAD_VALUATION`), a cut needs the lead,
    and a cut rollout is valued by the lead alone and played uniformly unless the game's
    rollout policy can be cut too (`CUT_POLICY_ROLLOUT`); the lead in the heuristic's estimate
    (`estimate`) needs the lead scale and the game's `ESTIMATE_VALUATION`."""
    if estimate:
        if not ESTIMATE_VALUATION[game.code]:
            raise ValueError(f"{game.name} has no compiled estimate to value rollouts by")
        if lead_scale is None:
            raise ValueError("the estimate's lead needs a lead scale")
    if lead_scale is not None:
        if not LEAD_VALUATION[game.code]:
            raise ValueError(f"{game.name} has no compiled lead valuation (lead_scale)")
        if not lead_scale > 0:
            raise ValueError("the lead scale must be positive")
        if score_weight:
            raise ValueError("rollouts are valued by the lead or by the score term, not both")
    if rollout_decisions is None:
        return
    if not CUT_ROLLOUT[game.code]:
        raise ValueError(f"{game.name} has no compiled cut-off of rollouts (rollout_decisions)")
    if rollout_decisions < 0:
        raise ValueError("a rollout cannot have a negative number of decisions")
    if lead_scale is None:
        raise ValueError(
            "a cut rollout needs the lead valuation (lead_scale): the win values no game in play"
        )
    if policy and not CUT_POLICY_ROLLOUT[game.code]:
        raise ValueError(
            f"{game.name}'s cut rollout is uniformly random: no rollout policy with it"
        )


def checked_rollout_weights(weights: np.ndarray, game: KernelGame) -> np.ndarray:
    """`weights` as the compiled rollout policy reads them (float64, one per feature of the
    game's `ROLLOUT_FEATURES`); ValueError if the game has no rollout policy or they do not fit
    it."""
    if not ROLLOUT_POLICY[game.code]:
        raise ValueError(f"{game.name} has no compiled rollout policy")
    array = np.ascontiguousarray(weights, dtype=np.float64)
    features = len(rollout_module(game.name).ROLLOUT_FEATURES)
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


def kernel_state(state: State) -> Any:
    """A scalar state's kernel array (for games with a kernel)."""
    return kernel_module(state.game.name).from_state(state)


__all__ = [
    "CUT_ROLLOUT",
    "KERNEL_GAMES",
    "LEAD_VALUATION",
    "KernelGame",
    "KernelMCTSAgent",
    "LeafNetwork",
    "has_kernel",
    "kernel_state",
]


def compile_all() -> float:
    """Compile (or load from the cache) every kernel and the search for every kernel game, by
    a tiny search on each; returns the seconds it took. `make install` runs it once, so that
    nobody waits for the compiler at a first move."""
    import spielwerk
    from spielwerk.agents.base import make_turn
    from spielwerk.core.state import CHANCE

    start = time.perf_counter()
    for name in KERNEL_GAMES:
        game = spielwerk.load(name)
        state = game.new_state(game.min_players, seed=0)
        while state.to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(random.Random(0)), CHANCE)
        to_move = state.to_move
        seat = min(to_move) if isinstance(to_move, frozenset) else int(to_move)
        turn = make_turn(state, seat, True, random.Random(0))
        KernelMCTSAgent(name, iterations=2, seed=0).act(turn)
        kernel_module(name).play_random_batch(game, game.min_players, 2, np.random.default_rng(0))
    return time.perf_counter() - start


if __name__ == "__main__":
    print(f"kernels compiled or loaded in {compile_all():.1f} s")
