"""Information-set Monte Carlo tree search with pluggable guidance, generic over every game.

Each iteration draws a determinization of the seat's information set (`Turn.determinize`,
i.e. `State.resample`), then walks one shared tree keyed by action ids:

- selection over the actions legal *in this determinization*, with availability counts
  (Cowling, Powley & Whitehouse 2012, SO-ISMCTS), so actions that are often unavailable (an
  opponent's card that is only sometimes in its hand) are not over-explored: UCB1 without a
  prior; with a `prior` (`spielwerk.agents.guidance.Prior`), PUCT as in AlphaZero,
  Q + c · P · sqrt(availability) / (1 + visits), an unvisited action's Q being the mean of its
  visited siblings (first-play urgency);
- chance events are sampled afresh each iteration and do not branch the tree (open loop), so
  the tree never splits on hidden draws;
- simultaneous decisions are decoupled: each deciding seat picks from its own statistics at the
  node, so no seat's choice is conditioned on another's hidden pick;
- from the new node, a rollout by the `rollout` policy (uniformly random by default), cut off
  after `rollout_decisions` player decisions if given (0: value the new node at once), valued
  by the `valuation` (`leaf` at the cut-off, `terminal` at the end); every node on the path is
  credited with the value of the seat that chose its action.

The move played is the most visited one; with a `blueprint` (a bot, e.g. the game's
heuristic), the search plays the blueprint's move unless its own choice is better by at least
`margin` in mean value (search on top of a blueprint, as SPARTA does for Hanabi: it can only
leave the blueprint where its estimate is clearly better).

How a learned network plugs in: a `Prior` that runs the policy head on
`state.observation_tensor(seat)` with the legal-action mask, a `Valuation` whose `leaf` is the
value head (per seat), and `rollout_decisions=0`. The search calls the prior once per new tree
node (`Node.p` holds each child's share) and the valuation once per iteration; it never passes
the true state, only determinizations. Per-game choices of these parts live in
`spielwerk.agents.configs`.

The agent sees nothing but the Turn; the budget is a number of iterations or of seconds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.guidance import Prior, RolloutPolicy, Valuation, WinValuation
from spielwerk.core.actions import Action
from spielwerk.core.state import CHANCE, TERMINAL, State

Key = int | tuple[tuple[int, int], ...]
"""A child's key: an action id, or ((seat, action id),) at a simultaneous decision."""


class Node:
    __slots__ = ("avail", "children", "p", "total", "visits")

    def __init__(self, p: float = 0.0) -> None:
        self.children: dict[Key, Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of values for the seat whose action leads here
        self.avail = 0  # how often this action was legal when its parent was visited
        self.p = p  # the prior's share of this action at its parent (PUCT only)

    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


class MCTSAgent(Agent):
    name = "mcts"
    wants_sample = True

    def __init__(
        self,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        seed: int | None = None,
        *,
        valuation: Valuation | None = None,
        rollout: RolloutPolicy | None = None,
        rollout_decisions: int | None = None,
        prior: Prior | None = None,
        blueprint: Agent | None = None,
        margin: float = 0.05,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("MCTS needs a budget: iterations or seconds")
        if iterations is not None and iterations < 1:
            raise ValueError("MCTS needs at least one iteration")
        if seconds is not None and seconds <= 0:
            raise ValueError("MCTS needs a positive time budget")
        if rollout_decisions is not None and rollout_decisions < 0:
            raise ValueError("a rollout cannot have a negative number of decisions")
        self.iterations = iterations
        self.seconds = seconds
        # UCB1's constant without a prior, PUCT's with one.
        self.exploration = exploration
        self.valuation: Valuation = valuation if valuation is not None else WinValuation()
        self.rollout = rollout  # None: uniformly random, inlined
        # Rollouts stop after this many player decisions and are valued by `valuation.leaf`
        # (0: at the new node itself); None: play to the end.
        self.rollout_decisions = rollout_decisions
        self.prior = prior
        self.blueprint = blueprint
        self.margin = margin
        self.rng = random.Random(seed)
        self.last_iterations = 0
        self.last_root: Node | None = None

    # ------------------------------------------------------------------ deciding
    def act(self, turn: Turn) -> Action:
        legal = turn.legal_actions
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        root = self.search(turn)
        simultaneous = turn.sample is not None and isinstance(turn.sample.to_move, frozenset)
        children = root.children

        def key(action: Action) -> Key:
            return ((turn.player, action.id),) if simultaneous else action.id

        visited = [(children[key(a)], a) for a in legal if key(a) in children]
        best_node, best = max(visited, key=lambda pair: (pair[0].visits, pair[0].total))
        if self.blueprint is None:
            return best
        planned = self.blueprint.act(turn)
        planned_node = children.get(key(planned))
        if planned_node is None or not planned_node.visits:
            return planned  # no evidence against the blueprint's move
        if best_node.mean() >= planned_node.mean() + self.margin:
            return best
        return planned

    def search(self, turn: Turn) -> Node:
        root = Node()
        deadline = None if self.seconds is None else time.perf_counter() + self.seconds
        limit = self.iterations
        done = 0
        while (limit is None or done < limit) and (
            deadline is None or time.perf_counter() < deadline
        ):
            self._iterate(root, turn.determinize(self.rng), turn.player)
            done += 1
        self.last_iterations = done
        self.last_root = root
        return root

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, root: Node, state: State, player: int) -> None:
        rng = self.rng
        guided = self.prior is not None
        node = root
        path: list[tuple[Node, int]] = []  # (node, seat credited with its value)
        expanded = False
        while not expanded:
            to_move = state.to_move
            if to_move == TERMINAL:
                break
            if to_move == CHANCE:
                state.apply_trusted(state.sample_chance_id(rng), CHANCE)
                continue
            if isinstance(to_move, frozenset):
                node, expanded = self._simultaneous(node, state, to_move, path)
                continue
            legal = state.legal_ids(to_move)
            children = node.children
            if guided:
                self._add_priors(node, state, to_move, legal, legal)
                action = legal[self._puct(node, legal)]
                child = children[action]
                expanded = child.visits == 0
            else:
                untried = [a for a in legal if a not in children]
                if untried:
                    action = untried[int(rng.random() * len(untried))]
                    children[action] = Node()
                    expanded = True
                else:
                    action = legal[self._select(node, legal)]
                for a in legal:  # unexpanded actions get counted once they have a node
                    counted = children.get(a)
                    if counted is not None:
                        counted.avail += 1
                child = children[action]
            node = child
            path.append((node, to_move))
            state.apply_trusted(action, to_move)
        values = self._rollout(state)
        root.visits += 1
        for visited, seat in path:
            visited.visits += 1
            visited.total += values[seat]

    def _select(self, node: Node, keys: Sequence[Key]) -> int:
        """Index of the key whose child has the best UCB score (availability-corrected)."""
        children = node.children
        c = self.exploration
        best, best_score = 0, -math.inf
        for index, key in enumerate(keys):
            child = children[key]
            score = child.total / child.visits + c * math.sqrt(
                math.log(child.avail + 1) / child.visits
            )
            if score > best_score:
                best, best_score = index, score
        return best

    def _puct(self, node: Node, keys: Sequence[Key]) -> int:
        """Index of the key with the best PUCT score; counts every key as available."""
        children = node.children
        visits = 0
        total = 0.0
        for key in keys:
            child = children[key]
            child.avail += 1
            visits += child.visits
            total += child.total
        first_play = total / visits if visits else 0.5
        c = self.exploration
        best, best_score = 0, -math.inf
        for index, key in enumerate(keys):
            child = children[key]
            n = child.visits
            q = child.total / n if n else first_play
            score = q + c * child.p * math.sqrt(child.avail) / (1 + n)
            if score > best_score:
                best, best_score = index, score
        return best

    def _add_priors(
        self,
        node: Node,
        state: State,
        seat: int,
        legal: Sequence[int],
        keys: Sequence[Key],
    ) -> None:
        """Give every key without a child one, with its prior share (one prior call per node,
        again only when a determinization shows actions the node has not seen)."""
        children = node.children
        if all(key in children for key in keys):
            return
        assert self.prior is not None
        weights = self.prior(state, seat, legal)
        total = sum(weights)
        uniform = 1.0 / len(keys)
        for key, weight in zip(keys, weights, strict=True):
            if key not in children:
                children[key] = Node(weight / total if total > 0 else uniform)

    def _simultaneous(
        self,
        node: Node,
        state: State,
        deciding: frozenset[int],
        path: list[tuple[Node, int]],
    ) -> tuple[Node, bool]:
        """Each seat picks from its own statistics, stored under keys ((seat, action),)."""
        rng = self.rng
        guided = self.prior is not None
        children = node.children
        picks: list[tuple[int, int]] = []
        expanded = False
        for seat in sorted(deciding):
            legal = state.legal_ids(seat)
            keys: list[Key] = [((seat, a),) for a in legal]
            if guided:
                self._add_priors(node, state, seat, legal, keys)
                index = self._puct(node, keys)
                expanded = expanded or children[keys[index]].visits == 0
            else:
                untried = [i for i, key in enumerate(keys) if key not in children]
                if untried:
                    index = untried[int(rng.random() * len(untried))]
                    children[keys[index]] = Node()
                    expanded = True
                else:
                    index = self._select(node, keys)
                for key in keys:
                    counted = children.get(key)
                    if counted is not None:
                        counted.avail += 1
            path.append((children[keys[index]], seat))
            picks.append((seat, legal[index]))
        for seat, action in picks:
            state.apply_trusted(action, seat)
        joint = tuple(picks)
        child = children.get(joint)
        if child is None:
            child = children[joint] = Node()
        return child, expanded

    # ------------------------------------------------------------------ the rollout
    def _rollout(self, state: State) -> Sequence[float]:
        rng = self.rng
        policy = self.rollout
        valuation = self.valuation
        limit = self.rollout_decisions
        decisions = 0
        while True:
            to_move = state.to_move
            if to_move == TERMINAL:
                return valuation.terminal(state)
            if to_move == CHANCE:
                state.apply_trusted(state.sample_chance_id(rng), CHANCE)
                continue
            if limit is not None and decisions >= limit:
                value = valuation.leaf(state)
                if value is not None:
                    return value
                limit = None  # this valuation cannot value a game in progress: play on
            if isinstance(to_move, frozenset):
                for seat in sorted(to_move):
                    legal = state.legal_ids(seat)
                    if policy is None:
                        action = legal[int(rng.random() * len(legal))]
                    else:
                        action = policy.choose(state, seat, legal, rng)
                    state.apply_trusted(action, seat)
            else:
                legal = state.legal_ids(to_move)
                if policy is None:
                    action = legal[int(rng.random() * len(legal))]
                else:
                    action = policy.choose(state, to_move, legal, rng)
                state.apply_trusted(action, to_move)
            decisions += 1
