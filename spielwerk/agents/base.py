"""What an agent gets and gives: a `Turn` in, one legal `Action` out.

An agent never holds the true state of a hidden-information game. `Turn` carries the seat's
view, its legal actions and a *determinization*: a state already resampled for that seat, i.e.
drawn from everything the seat cannot tell apart. Resampling that sample again gives the same
distribution as resampling the truth, so search can run without any access to hidden cards.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any

from spielwerk.core.actions import Action
from spielwerk.core.game import Game
from spielwerk.core.state import CHANCE, State


@dataclass(frozen=True, slots=True)
class Turn:
    player: int
    view: dict[str, Any]
    legal_actions: list[Action]
    sample: State | None = None
    """A state from the seat's information set (not the true state), if the agent asked for it."""

    def determinize(self, rng: random.Random) -> State:
        """A fresh full state consistent with everything this seat knows."""
        if self.sample is None:
            raise RuntimeError("this agent did not ask for determinizations")
        return self.sample.resample(self.player, rng)


class Agent(ABC):
    """A seat's decision maker."""

    name: str = "agent"
    wants_sample: bool = False
    """True if `act` needs `Turn.sample` (search agents); building it costs a resample."""

    @abstractmethod
    def act(self, turn: Turn) -> Action:
        """Choose one of `turn.legal_actions`."""


def make_turn(state: State, player: int, with_sample: bool, rng: random.Random) -> Turn:
    """The Turn for `player`: its view and actions, and, if asked, a resampled state."""
    sample = state.resample(player, rng) if with_sample else None
    return Turn(player, state.view(player), state.legal_actions(player), sample)


def opening_turn(game: Game, players: int, with_sample: bool) -> Turn:
    """The Turn of the first decision of the deal seeded 0 (its chance steps drawn from a
    generator seeded 0; of a simultaneous decision, the lowest seat's): a fixed position to
    time an agent on or to run its compiled code once."""
    state = game.new_state(players, seed=0)
    rng = random.Random(0)
    while state.to_move == CHANCE:
        state.apply_trusted(state.sample_chance_id(rng), CHANCE)
    to_move = state.to_move
    seat = min(to_move) if isinstance(to_move, frozenset) else int(to_move)
    return make_turn(state, seat, with_sample, rng)
