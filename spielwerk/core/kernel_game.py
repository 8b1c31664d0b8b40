"""A game's compiled kernel described once (`KernelRules`), and the harness every kernel game
shares (needs Numba: import only where `spielwerk.core.kernel.available()`).

A game with a kernel keeps it in its own package (`spielwerk/games/<game>/kernel.py`: the state
as one int64 array, the rules as compiled functions) and describes it there by one
`KernelRules`, registered by one line in `spielwerk/games/kernels.py`. Everything that runs a
kernel is built from that description, for each game its own compiled version: the harness
here (chance drawn from a private generator, the legal-action mask, random games one after
another for `spielwerk simulate`), the compiled search (`spielwerk.agents.kernel_mcts`) and the
vector environment (`spielwerk.vector`). A capability a kernel lacks is None, and whatever
needs it says so.

Every kernel keeps the player count in `s[0]`; `s[to_move_at]` is the seat to move, `CHANCE`,
`TERMINAL` or `SIMULTANEOUS` (several seats decide at once: `deciding(s)` is their mask), and
`s[steps_at]` counts the actions applied. Action ids are the scalar engine's; chance outcomes
are numbered from `first_chance_id` on, after every player action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import Any

import numpy as np

from spielwerk.core.batch import BatchResult, recorded_games
from spielwerk.core.game import Game
from spielwerk.core.kernel import inline_kernel, kernel
from spielwerk.core.kernel_ops import generator, new_generator, uniform
from spielwerk.core.state import CHANCE, TERMINAL

SIMULTANEOUS = -3
"""A kernel's `to_move` when several seats decide at once (their mask is `deciding(s)`)."""

Kernel = Any
"""A compiled kernel function (Numba's dispatcher)."""


@dataclass(frozen=True, eq=False)
class KernelRules:
    """A game's compiled kernel: its functions and what it can do besides."""

    name: str
    """The game's name (`spielwerk.load(name)`)."""
    size: int
    """Entries of a state array."""
    to_move_at: int
    """Where a state holds whose move it is."""
    steps_at: int
    """Where a state counts the actions applied."""
    first_chance_id: int
    """The first chance outcome's action id: the ids below it are player decisions."""
    max_legal: int
    """Room enough for any list `legal` writes."""
    legal: Kernel
    """(s, seat, out) -> count: the legal action ids of `seat` (the seat to move, or one of
    those deciding at once) or the chance outcomes, in the order of `State.legal_ids`."""
    apply: Kernel
    """(s, action): apply a legal action of whoever is to move (chance included)."""
    sample_chance: Kernel
    """(s, rng) -> action: the pending chance outcome, drawn as likely as it is."""
    scores: Kernel
    """(s, out): each seat's score so far into `out`."""
    returns: Kernel
    """(s, out): each seat's return at the end (0 before it) into `out`."""
    determinize: Kernel
    """(s, seat, rng): deal afresh, in place, everything `seat` cannot know."""
    rollout: Kernel
    """(s, rng) -> decisions: play uniformly at random to the end, in place."""
    initial: Callable[[Any, int], np.ndarray]
    """(game, players): the state array of `game.new_state(players)` (the player count
    checked)."""
    from_state: Callable[[Any], np.ndarray]
    """(state): the state array of a scalar state, the same game from here on."""
    max_game_steps: Callable[[Any], int]
    """(game): more actions than any game of `game` (its options) has."""
    random_game: Kernel | None = None
    """(s, actions, rng) -> count: play to the end at random writing every action id into
    `actions`, where the game's own random play draws otherwise than uniformly from `legal`
    (None: the harness does that)."""
    deciding: Kernel | None = None
    """(s) -> mask: the seats deciding at once (games with simultaneous decisions)."""
    observe: Kernel | None = None
    """(s, viewer, out): `viewer`'s observation tensor (exactly `State.observation_tensor`)."""
    observation_size: int = 0
    rollout_cut: Kernel | None = None
    """(s, rng, limit) -> decisions: `rollout` stopped at the decision after `limit` ones."""
    lead_values: Kernel | None = None
    """(s, scale, out): 0.5 + 0.5 tanh((a seat's score - the best other score) / scale)."""

    # ------------------------------------------------------------------ the shared harness
    @cached_property
    def advance(self) -> Kernel:
        """(s, rng, log, logged) -> logged: resolve chance until a decision or the end, drawing
        from the private generator `rng`; each chance action is appended to `log` from `logged`
        on. Returns the new log length."""
        return _advance(self.to_move_at, self.sample_chance, self.apply)

    @cached_property
    def legal_mask(self) -> Kernel:
        """(s, out): `out[a]` = 1 for each legal player action `a` of the seat to move, else 0."""
        return _legal_mask(self.to_move_at, self.max_legal, self.legal)

    @cached_property
    def play_randomly(self) -> Kernel:
        """(s, actions, rng) -> count: the game's `random_game`, or uniform play from `legal`."""
        if self.random_game is not None:
            return self.random_game
        return _random_game(
            self.to_move_at, self.max_legal, self.legal, self.sample_chance, self.apply
        )

    @cached_property
    def play_batch(self) -> Kernel:
        """(initial, games, seed, scores, decisions, steps): `games` random games from the
        state `initial`, one after another (one core), by `rollout` with a generator seeded by
        `seed`: each one's final scores, player decisions and actions."""
        return _play_batch(self.steps_at, self.rollout, self.scores)

    def play_random_batch(
        self, game: Game, players: int, games: int, rng: np.random.Generator, record: bool = False
    ) -> BatchResult:
        """`games` random games in the kernel (the batched-simulator contract of
        `spielwerk.core.batch`): uniform decisions, chance as likely as the engine's."""
        start = self.initial(game, players)  # checks the player count against the options
        seed_value = int(rng.integers(2**62))
        if record:
            stream = generator(seed_value)
            play = self.play_randomly
            return recorded_games(
                games,
                players,
                lambda: self.initial(game, players),
                lambda s, buffer: int(play(s, buffer, stream)),
                self.final_scores,
                self.max_game_steps(game),
                self.first_chance_id,
            )
        scores = np.zeros((games, players), dtype=np.int64)
        decisions = np.zeros(games, dtype=np.int64)
        steps = np.zeros(games, dtype=np.int64)
        self.play_batch(start, games, seed_value, scores, decisions, steps)
        return BatchResult(scores, decisions, steps)

    def final_scores(self, s: np.ndarray) -> np.ndarray:
        """Each seat's score in `s` (int64)."""
        out = np.zeros(int(s[0]), dtype=np.int64)
        self.scores(s, out)
        return out


def seated(legal: Kernel) -> Kernel:
    """`legal(s, out)` of a game where one seat decides at a time as the (s, seat, out) of
    `KernelRules.legal` (the seat is the one to move)."""

    def legal_of(s: np.ndarray, seat: int, out: np.ndarray) -> int:
        return legal(s, out)

    return inline_kernel(legal_of)


def _advance(to_move_at: int, sample_chance: Kernel, apply: Kernel) -> Kernel:
    def advance(s: np.ndarray, rng: np.ndarray, log: np.ndarray, logged: int) -> int:
        while s[to_move_at] == CHANCE:
            action = sample_chance(s, rng)
            apply(s, action)
            log[logged] = action
            logged += 1
        return logged

    return kernel(advance)


def _legal_mask(to_move_at: int, max_legal: int, legal: Kernel) -> Kernel:
    def legal_mask(s: np.ndarray, out: np.ndarray) -> None:
        out[:] = 0
        seat = s[to_move_at]
        if seat < 0:
            return
        ids = np.empty(max_legal, dtype=np.int64)
        for i in range(legal(s, seat, ids)):
            out[ids[i]] = 1

    return kernel(legal_mask)


def _random_game(
    to_move_at: int, max_legal: int, legal: Kernel, sample_chance: Kernel, apply: Kernel
) -> Kernel:
    def random_game(s: np.ndarray, actions: np.ndarray, rng: np.ndarray) -> int:
        out = np.empty(max_legal, dtype=np.int64)
        steps = 0
        while True:
            to_move = s[to_move_at]
            if to_move == TERMINAL:
                return steps
            if to_move == CHANCE:
                action = sample_chance(s, rng)
            else:
                action = out[int(uniform(rng) * legal(s, to_move, out))]
            apply(s, action)
            actions[steps] = action
            steps += 1

    return kernel(random_game)


def _play_batch(steps_at: int, rollout: Kernel, scores_of: Kernel) -> Kernel:
    def play_batch(
        initial: np.ndarray,
        games: int,
        seed_value: int,
        scores: np.ndarray,
        decisions: np.ndarray,
        steps: np.ndarray,
    ) -> None:
        rng = new_generator(seed_value)
        s = initial.copy()
        for g in range(games):
            s[:] = initial
            decisions[g] = rollout(s, rng)
            steps[g] = s[steps_at]
            scores_of(s, scores[g])

    return kernel(play_batch)
