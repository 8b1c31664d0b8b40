"""Information-set Monte Carlo tree search, generic over every registered game.

Each iteration draws a determinization of the seat's information set (`Turn.determinize`,
i.e. `State.resample`), then walks one shared tree keyed by action ids:

- selection by UCB1 over the actions legal *in this determinization*, with availability counts
  (Cowling, Powley & Whitehouse 2012, SO-ISMCTS), so actions that are often unavailable (an
  opponent's card that is only sometimes in its hand) are not over-explored;
- chance events are sampled afresh each iteration and do not branch the tree (open loop), so
  the tree never splits on hidden draws;
- simultaneous decisions are decoupled: each deciding seat picks from its own statistics at the
  node, so no seat's choice is conditioned on another's hidden pick;
- a uniformly random rollout to the end, then every node on the path is credited with the
  return of the seat that chose its action. Per game (`MCTS_TUNING`), a rollout may instead stop
  after a number of player decisions and be valued by each seat's lead in the running scores
  (`State.running_scores`): where random play wanders for hundreds of steps, the score a few
  dozen steps on says more about a move than who happens to win at the end.

The agent sees nothing but the Turn; the budget is a number of iterations or of seconds.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action
from spielwerk.core.state import CHANCE, TERMINAL, State


class Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int | tuple[tuple[int, int], ...], Node] = {}
        self.visits = 0
        self.total = 0.0  # sum of returns for the seat whose action leads here
        self.avail = 0  # how often this action was legal when its parent was visited


class MCTSAgent(Agent):
    name = "mcts"
    wants_sample = True

    def __init__(
        self,
        iterations: int | None = 1000,
        seconds: float | None = None,
        exploration: float = 0.7,
        seed: int | None = None,
        score_weight: float = 0.0,
        rollout_decisions: int | None = None,
        lead_scale: float = 10.0,
    ) -> None:
        if iterations is None and seconds is None:
            raise ValueError("MCTS needs a budget: iterations or seconds")
        if iterations is not None and iterations < 1:
            raise ValueError("MCTS needs at least one iteration")
        if seconds is not None and seconds <= 0:
            raise ValueError("MCTS needs a positive time budget")
        if rollout_decisions is not None and rollout_decisions < 1:
            raise ValueError("a rollout needs at least one decision")
        if not lead_scale > 0:
            raise ValueError("the lead scale must be positive")
        self.iterations = iterations
        self.seconds = seconds
        self.exploration = exploration
        # Value of a finished rollout for a seat: its return plus score_weight x its score
        # (from `result()["scores"]`). Where most random games end in near-draws, the score
        # says which line of play was better when the win alone does not.
        self.score_weight = score_weight
        # Rollouts stop after this many player decisions, valued by the lead in the running
        # scores: 0.5 + 0.5 tanh((mine - best other) / lead_scale). None: play to the end.
        self.rollout_decisions = rollout_decisions
        self.lead_scale = lead_scale
        self.rng = random.Random(seed)
        self.last_iterations = 0

    def act(self, turn: Turn) -> Action:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        root = self.search(turn)
        simultaneous = turn.sample is not None and isinstance(turn.sample.to_move, frozenset)
        children = root.children
        keyed = [(((turn.player, a.id),) if simultaneous else a.id, a) for a in legal]
        visited = [(children[key], action) for key, action in keyed if key in children]
        return max(visited, key=lambda pair: (pair[0].visits, pair[0].total))[1]

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
        return root

    def _iterate(self, root: Node, state: State, player: int) -> None:
        rng = self.rng
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
            untried = [a for a in legal if a not in children]
            if untried:
                action = untried[int(rng.random() * len(untried))]
                children[action] = Node()
                expanded = True
            else:
                action = legal[self._select(node, legal)]
            for a in legal:  # unexpanded actions get counted once they have a node
                child = children.get(a)
                if child is not None:
                    child.avail += 1
            node = children[action]
            path.append((node, to_move))
            state.apply_trusted(action, to_move)
        returns = self._rollout(state)
        root.visits += 1
        for visited, seat in path:
            visited.visits += 1
            visited.total += returns[seat]

    def _select(self, node: Node, keys: Sequence[int | tuple[tuple[int, int], ...]]) -> int:
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

    def _simultaneous(
        self,
        node: Node,
        state: State,
        deciding: frozenset[int],
        path: list[tuple[Node, int]],
    ) -> tuple[Node, bool]:
        """Each seat picks from its own statistics, stored under keys ((seat, action),)."""
        rng = self.rng
        children = node.children
        picks: list[tuple[int, int]] = []
        expanded = False
        for seat in sorted(deciding):
            legal = state.legal_ids(seat)
            keys = [((seat, a),) for a in legal]
            untried = [i for i, key in enumerate(keys) if key not in children]
            if untried:
                index = untried[int(rng.random() * len(untried))]
                children[keys[index]] = Node()
                expanded = True
            else:
                index = self._select(node, keys)
            for key in keys:
                child = children.get(key)
                if child is not None:
                    child.avail += 1
            path.append((children[keys[index]], seat))
            picks.append((seat, legal[index]))
        for seat, action in picks:
            state.apply_trusted(action, seat)
        joint = tuple(picks)
        child = children.get(joint)
        if child is None:
            child = children[joint] = Node()
        return child, expanded

    def _rollout(self, state: State) -> list[float]:
        rng = self.rng
        limit = self.rollout_decisions
        decisions = 0
        while True:
            to_move = state.to_move
            if to_move == TERMINAL:
                return self._value(state)
            if to_move == CHANCE:
                state.apply_trusted(state.sample_chance_id(rng), CHANCE)
                continue
            if limit is not None and decisions >= limit:
                lead = self._lead(state)
                if lead is not None:
                    return lead
                limit = None  # no running score in this game: play to the end
            if isinstance(to_move, frozenset):
                for seat in sorted(to_move):
                    legal = state.legal_ids(seat)
                    state.apply_trusted(legal[int(rng.random() * len(legal))], seat)
            else:
                legal = state.legal_ids(to_move)
                state.apply_trusted(legal[int(rng.random() * len(legal))], to_move)
            decisions += 1

    def _lead(self, state: State) -> list[float] | None:
        """Each seat's lead over the best other seat in the running scores, squashed to (0, 1)."""
        scores = state.running_scores()
        if scores is None or len(scores) < 2:
            return None
        scale = self.lead_scale
        values = []
        for seat, mine in enumerate(scores):
            best_other = max(score for other, score in enumerate(scores) if other != seat)
            values.append(0.5 + 0.5 * math.tanh((mine - best_other) / scale))
        return values

    def _value(self, state: State) -> list[float]:
        if self.rollout_decisions is not None:
            # Finished within the cut-off: valued on the same scale as a cut-off rollout.
            lead = self._lead(state)
            if lead is not None:
                return lead
        returns = state.returns()
        if not self.score_weight:
            return returns
        weight = self.score_weight
        scores = state.result()["scores"]
        return [r + weight * float(s) for r, s in zip(returns, scores, strict=True)]
