"""The pluggable parts of the guided search: a rollout policy, a prior over actions, a valuation.

`spielwerk.agents.mcts.MCTSAgent` takes one of each; every part sees nothing but a
*determinized* state (`Turn.determinize`, a state drawn from the searching seat's information
set), never the true one, so any part may read that state's fields directly, which is far
cheaper than building a seat's JSON view.

- `RolloutPolicy.choose(state, seat, legal, rng) -> action id`: plays a seat's decision inside a
  rollout. `None` in the search means uniformly random (its fast path); `HeuristicPolicy` is the
  game's heuristic bot, `EpsilonPolicy` mixes a policy with random moves.
- `Prior(state, seat, legal) -> weights`: one non-negative weight per legal action id (the
  search normalises them). With a prior the search selects by PUCT,
  Q + c · P · sqrt(availability) / (1 + visits) (AlphaZero's rule, with SO-ISMCTS's
  availability counts in place of the parent's visits). `HeuristicPrior` puts extra weight on
  the heuristic's choice (or spreads it by the heuristic's action scores where it has them).
- `Valuation`: `leaf(state)` values a non-terminal state per seat (or `None`: it cannot, play
  on to the end) and `terminal(state)` a finished one. `WinValuation` is the return, plus a
  weighted score where a game's wins alone say little; `LeadValuation` is the lead in the
  running scores, squashed into (0, 1).

A learned network plugs in as a `Prior` (its policy head on `state.observation_tensor(seat)`,
masked to the legal ids) and a `Valuation` whose `leaf` is its value head, with
`rollout_decisions=0` in the search so that every new tree node is valued at once. The search
calls the prior at most once per tree node (again only when a determinization shows actions the
node has not seen), and the valuation once per iteration.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.state import State


class RolloutPolicy(Protocol):
    """Chooses a seat's action inside a rollout."""

    def choose(self, state: State, seat: int, legal: Sequence[int], rng: random.Random) -> int:
        """One id of `legal` (the ids `state.legal_ids(seat)` returned) for `seat`."""
        ...


class Prior(Protocol):
    """How promising each legal action of a tree node looks before any search."""

    def __call__(self, state: State, seat: int, legal: Sequence[int]) -> Sequence[float]:
        """One non-negative weight per id of `legal`, in that order (need not sum to 1)."""
        ...


class Valuation(Protocol):
    """What a state at the end of an iteration is worth to each seat (higher is better)."""

    def leaf(self, state: State) -> Sequence[float] | None:
        """Per seat, the value of a non-terminal state; None if this valuation cannot tell
        (the rollout then plays on to the end)."""
        ...

    def terminal(self, state: State) -> Sequence[float]:
        """Per seat, the value of a finished game."""
        ...


# ---------------------------------------------------------------------- valuations
class WinValuation:
    """The game's returns (a win is 1, shared among tied winners), plus `score_weight` x the
    seat's final score. Where most random games end in near-draws, the score says which line
    was better when the win alone does not. Cannot value a game in progress."""

    def __init__(self, score_weight: float = 0.0) -> None:
        self.score_weight = score_weight

    def leaf(self, state: State) -> Sequence[float] | None:
        return None

    def terminal(self, state: State) -> Sequence[float]:
        returns = state.returns()
        weight = self.score_weight
        if not weight:
            return returns
        scores = state.result()["scores"]
        return [r + weight * float(s) for r, s in zip(returns, scores, strict=True)]


class LeadValuation:
    """Each seat's lead over the best other seat in the running scores
    (`State.running_scores`), as 0.5 + 0.5 tanh(lead / scale); finished games are valued the
    same way, so a rollout that ends early is on the cut-off's scale. A game that keeps no
    running score falls back to its returns."""

    def __init__(self, scale: float = 10.0) -> None:
        if not scale > 0:
            raise ValueError("the lead scale must be positive")
        self.scale = scale

    def leaf(self, state: State) -> Sequence[float] | None:
        return lead_values(state.running_scores(), self.scale)

    def terminal(self, state: State) -> Sequence[float]:
        lead = lead_values(state.running_scores(), self.scale)
        return state.returns() if lead is None else lead


def lead_values(scores: Sequence[float] | None, scale: float) -> list[float] | None:
    """0.5 + 0.5 tanh((own score - best other score) / scale) per seat; None without scores."""
    if scores is None or len(scores) < 2:
        return None
    values = []
    for seat, mine in enumerate(scores):
        best_other = max(score for other, score in enumerate(scores) if other != seat)
        values.append(0.5 + 0.5 * math.tanh((mine - best_other) / scale))
    return values


# ---------------------------------------------------------------------- policies
class RandomPolicy:
    """Uniformly random (the search's default, which it inlines for speed)."""

    def choose(self, state: State, seat: int, legal: Sequence[int], rng: random.Random) -> int:
        return legal[int(rng.random() * len(legal))]


class HeuristicPolicy:
    """A heuristic bot as a policy on determinized states: it is handed the state's view for
    `seat`, the legal actions and the state itself as `Turn.sample` (a bot that reads the
    sample, such as Tainted Grail's, needs no view: `needs_view = False` on its class)."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self.needs_view: bool = getattr(agent, "needs_view", True)

    def turn(self, state: State, seat: int, legal: Sequence[int]) -> Turn:
        table = state.game.actions
        view: dict[str, Any] = state.view(seat) if self.needs_view else {}
        return Turn(seat, view, [table[i] for i in legal], state)

    def choose(self, state: State, seat: int, legal: Sequence[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        return self.agent.act(self.turn(state, seat, legal)).id


class EpsilonPolicy:
    """`inner` with probability 1 - epsilon, else a uniformly random action."""

    def __init__(self, inner: RolloutPolicy, epsilon: float) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise ValueError("epsilon must be between 0 and 1")
        self.inner = inner
        self.epsilon = epsilon

    def choose(self, state: State, seat: int, legal: Sequence[int], rng: random.Random) -> int:
        if rng.random() < self.epsilon:
            return legal[int(rng.random() * len(legal))]
        return self.inner.choose(state, seat, legal, rng)


# ---------------------------------------------------------------------- priors
ActionScores = Callable[[Turn], Sequence[float]]


class HeuristicPrior:
    """A prior from a heuristic bot: `weight` on the action it would play, the rest spread
    evenly (a blueprint the search may leave where its statistics say so). If the bot scores
    every action (`action_scores(turn)`, one float per legal action), the prior is instead the
    softmax of those scores at `temperature`."""

    def __init__(self, agent: Agent, weight: float = 0.5, temperature: float | None = None) -> None:
        if not 0.0 <= weight <= 1.0:
            raise ValueError("the prior's weight must be between 0 and 1")
        self.policy = HeuristicPolicy(agent)
        self.weight = weight
        self.temperature = temperature
        scores = getattr(agent, "action_scores", None)
        self.scores: ActionScores | None = scores if temperature is not None else None

    def __call__(self, state: State, seat: int, legal: Sequence[int]) -> Sequence[float]:
        n = len(legal)
        if n == 1:
            return [1.0]
        turn = self.policy.turn(state, seat, legal)
        if self.scores is not None and self.temperature is not None:
            return softmax(self.scores(turn), self.temperature)
        chosen = self.policy.agent.act(turn).id
        rest = (1.0 - self.weight) / n
        return [rest + self.weight if a == chosen else rest for a in legal]


def softmax(scores: Sequence[float], temperature: float) -> list[float]:
    top = max(scores)
    weights = [math.exp((s - top) / temperature) for s in scores]
    total = sum(weights)
    return [w / total for w in weights]
