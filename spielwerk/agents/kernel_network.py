"""The seat `net` of a game with a compiled kernel: the compiled search, with the network's
value head at its leaves, at its root, or both, as the model file says.

The compiled information-set MCTS (`spielwerk.agents.kernel_mcts`) runs tens of thousands of
iterations a second; a search written in Python around the network gets a few hundred in the
same time. So the network joins the compiled search:

- `leaf_mix` (Witches and Tintenherz, whose kernels write observation tensors): every new
  leaf is valued by the value head, compiled (`kernel_mcts.network_values`), reading the
  searching seat's observation of the leaf: (1 - leaf_mix) x a random rollout + leaf_mix x
  the network, the mix of a value network with rollouts that AlphaGo made at its leaves
  (Silver et al. 2016, "Mastering the game of Go with deep neural networks and tree search",
  lambda = 0.5); at 1 no rollout is played, as in AlphaZero.
- `blend`: once a decision, for each legal move, the value head reads the seat's own
  observation tensor right after that move (applied to the Turn's sample, a state of the
  seat's information set: the tensor depends on the seat's view alone), and the move played
  maximises (1 - blend) x the search's mean value of the move + blend x the network's value
  of it, among the moves the search visited at least `MIN_VISIT_SHARE` as often as its
  favourite.

The value head was trained on the outcomes of real games, where the search values a move by
random play in determinized worlds (each iteration sees every hidden card), so the two err
differently. Which use pays depends on the game and on how much the value head learned
(docs/learning.md: in Tintenherz the network at every leaf beats mcts:1000 at the same time a
decision; the root blend only ties it, and in Witches, whose value head learned little,
neither helps).

A model file may also carry a learned rollout policy (`rollout/w`, Witches, Isolde and
Tintenblut): the search then rolls out with it instead of uniformly at random
(`spielwerk.agents.rollouts`); in Witches that, not the value head, is what `net` plays with
(docs/learning.md). Its metadata may also cut the rollouts and value them by the lead
(`rollout_decisions`, `lead_scale`: Tintenblut's `mcts` valuation, with the policy's rollouts),
in the score or in the heuristic's estimate (`leaf_estimate`).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.kernel_mcts import (
    KernelMCTSAgent,
    LeafNetwork,
    check_leaf_network,
    most_visited,
)
from spielwerk.agents.network import Model
from spielwerk.core.actions import Action

DEFAULT_BLEND = 0.4
"""The network's share of a root move's value where a model file names none."""
MIN_VISIT_SHARE = 0.05
"""Moves the search visited less than this share of its favourite's visits are not played:
their mean values rest on too few iterations to be compared."""


@dataclass
class RootJudgement:
    """What a decision saw at the root, move by move (in the order of the legal actions)."""

    visits: npt.NDArray[np.int64]
    search_values: npt.NDArray[np.float64]
    network_values: npt.NDArray[np.float64]
    chosen: int


class KernelNetworkAgent(Agent):
    """The compiled search of a kernel game, its root's moves judged with the network."""

    name = "net"
    wants_sample = True

    def __init__(
        self,
        model: Model | None,
        game_name: str,
        iterations: int | None = 1000,
        seconds: float | None = None,
        seed: int | None = None,
        blend: float = DEFAULT_BLEND,
        exploration: float = 0.7,
        score_weight: float = 0.0,
        leaf_mix: float = 0.0,
        rollout_weights: npt.NDArray[np.floating] | None = None,
        rollout_decisions: int | None = None,
        lead_scale: float | None = None,
        leaf_estimate: bool = False,
    ) -> None:
        self.model = model
        self.blend = blend if model is not None else 0.0
        self.iterations = iterations
        self.seconds = seconds
        network = None if model is None else leaf_network(model)
        self.search = KernelMCTSAgent(
            game_name,
            iterations=iterations,
            seconds=seconds,
            exploration=exploration,
            seed=seed,
            score_weight=score_weight,
            leaf_network=network if leaf_mix else None,
            leaf_mix=leaf_mix if network is not None else 0.0,
            rollout_weights=rollout_weights,
            rollout_decisions=rollout_decisions,
            lead_scale=lead_scale,
            leaf_estimate=leaf_estimate,
        )
        # Where the kernel writes observations, the root's moves are judged in the kernel too.
        self.compiled_network: LeafNetwork | None = None
        if network is not None and self.blend and self.search.game.rules.observe is not None:
            check_leaf_network(network, self.search.game)
            self.compiled_network = network

    @property
    def last_iterations(self) -> int:
        return self.search.last_iterations

    def act(self, turn: Turn) -> Action:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        return legal[self.judge(turn).chosen]

    def judge(self, turn: Turn) -> RootJudgement:
        """Search, value every legal move, and choose one (its index in the legal actions)."""
        if turn.sample is None:
            raise RuntimeError("the network seat needs the Turn's sample")
        start = time.perf_counter()
        legal = turn.legal_actions
        network = self.network_values(turn) if self.blend else np.zeros(len(legal))
        if self.seconds is not None:  # the network's share of the time comes off the search's
            self.search.seconds = max(self.seconds - (time.perf_counter() - start), 1e-3)
        visits, sums = self.search.root(turn)
        means = sums / np.maximum(visits, 1)
        if not self.blend:  # no network: the plain search's choice
            return RootJudgement(visits, means, network, most_visited(visits, sums))
        score = (1.0 - self.blend) * means + self.blend * network
        score[visits < MIN_VISIT_SHARE * visits.max()] = -np.inf
        chosen = max(range(len(legal)), key=lambda i: (score[i], visits[i]))
        return RootJudgement(visits, means, network, chosen)

    def network_values(self, turn: Turn) -> npt.NDArray[np.float64]:
        """The value head's value, for the seat, of the state right after each legal move,
        read from the seat's own observation tensor of it (written by the kernel where it
        can: `python_network_values` is the same, built by the engine)."""
        assert self.model is not None and turn.sample is not None
        if self.compiled_network is not None:
            net = self.compiled_network
            ids = np.array([action.id for action in turn.legal_actions], dtype=np.int64)
            values = np.zeros(len(ids))
            state = self.search.game.from_state(turn.sample)
            self.search.game.compiled.values_after(
                state,
                turn.player,
                ids,
                net.weights,
                net.biases,
                net.sizes,
                values,
            )
            return values
        return self.python_network_values(turn)

    def python_network_values(self, turn: Turn) -> npt.NDArray[np.float64]:
        """`network_values` with the observation tensors built by the engine (Isolde's way)."""
        assert self.model is not None and turn.sample is not None
        rows = []
        for action in turn.legal_actions:
            after = turn.sample.clone()
            after.apply(action.id, turn.player)
            rows.append(np.asarray(after.observation_tensor(turn.player), dtype=np.float32))
        _, values = self.model.forward(np.stack(rows))
        return values[:, 0].astype(np.float64)


def leaf_network(model: Model) -> LeafNetwork:
    """The model's value network (hidden layers and value head, no policy) in the padded form
    the compiled search evaluates at its leaves (`kernel_mcts.network_values`)."""
    params = model.params
    names = [f"hidden_{i}" for i in range(len(model.hidden))] + ["value"]
    matrices = [params[f"{name}/w"] for name in names]
    sizes = [matrices[0].shape[0]] + [matrix.shape[1] for matrix in matrices]
    widest_in, widest_out = max(sizes[:-1]), max(sizes[1:])
    weights = np.zeros((len(names), widest_in, widest_out), dtype=np.float32)
    biases = np.zeros((len(names), widest_out), dtype=np.float32)
    for layer, (name, matrix) in enumerate(zip(names, matrices, strict=True)):
        weights[layer, : matrix.shape[0], : matrix.shape[1]] = matrix
        biases[layer, : matrix.shape[1]] = params[f"{name}/b"]
    return LeafNetwork(weights, biases, np.asarray(sizes, dtype=np.int64))
