"""Nim, the game whose best move is known: a pile of counters, each turn a player takes 1 to 3,
whoever takes the last counter wins. A pile that is a multiple of 4 is lost for the player to
move, so the best move from any other pile is to take `pile % 4`.

Small enough that a test can say what every part of the guided search must find, and long
enough (a pile of 21: up to 21 decisions) that a random rollout says little about a move.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action, ActionTable
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.core.state import TERMINAL, State

MAX_TAKE = 3


def best_take(pile: int) -> int:
    """The winning take (1..3), or 1 from a lost pile."""
    return pile % (MAX_TAKE + 1) or 1


class NimState(State):
    __slots__ = ("pile", "winner")

    game: NimGame

    def __init__(self, game: NimGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.pile = int(game.options["pile"])
        self.winner = -1
        self.to_move = 0

    def legal_ids(self, player: int | None = None) -> list[int]:
        actor = self._legal_actor(player)
        if actor is None:
            return []
        return [take - 1 for take in range(1, min(MAX_TAKE, self.pile) + 1)]

    def chance_ids(self) -> list[tuple[int, float]]:
        return []

    def _apply_id(self, actor: int, action_id: int) -> None:
        self.pile -= action_id + 1
        if self.pile == 0:
            self.winner = actor
            self.to_move = TERMINAL
        else:
            self.to_move = 1 - actor

    def clone(self) -> Self:
        cls = type(self)  # the compiled State refuses object.__new__
        new = cls.__new__(cls)
        new.game, new.num_players, new.seed = self.game, self.num_players, self.seed
        new.history, new.to_move = self.history.copy(), self.to_move
        new.pile, new.winner = self.pile, self.winner
        return new

    def view(self, player: int | None) -> dict[str, Any]:
        return {"pile": self.pile, "to_move": self.to_move}

    def resample(self, player: int | None, rng: random.Random) -> Self:
        """Nothing is hidden: a copy."""
        return self.clone()

    def returns(self) -> list[float]:
        if self.winner < 0:
            return [0.0, 0.0]
        return [1.0 if seat == self.winner else 0.0 for seat in (0, 1)]

    def result(self) -> dict[str, Any]:
        if self.winner < 0:
            return {}
        return {"scores": self.returns(), "winners": [self.winner]}

    def describe(self, action: Action, viewer: int | None) -> str:
        return f"take {action.id + 1}"

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        start = int(self.game.options["pile"])
        return {"pile": list(range(self.pile)), "taken": list(range(self.pile, start))}


class NimGame(Game):
    name = "nim"
    title = "Nim"
    min_players = 2
    max_players = 2
    option_specs = (OptionSpec("pile", int, 21, "counters at the start", minimum=1),)

    def _build_actions(self) -> ActionTable:
        return ActionTable([Action(t - 1, "take", (("n", t),)) for t in range(1, 4)], [])

    def _new_state(self, num_players: int, seed: int) -> NimState:
        return NimState(self, num_players, seed)


class PerfectNim(Agent):
    """Takes `pile % 4` (the known best move); scores each take by whether it wins."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.seed = seed

    def act(self, turn: Turn) -> Action:
        take = best_take(int(turn.view["pile"]))
        return next(a for a in turn.legal_actions if a.id == take - 1)

    def action_scores(self, turn: Turn) -> list[float]:
        pile = int(turn.view["pile"])
        return [1.0 if (pile - a.id - 1) % 4 == 0 else 0.0 for a in turn.legal_actions]


class GreedyNim(Agent):
    """A poor blueprint: always takes as many as it may."""

    name = "greedy"

    def act(self, turn: Turn) -> Action:
        return turn.legal_actions[-1]


def start(pile: int = 21) -> NimState:
    state = NimGame(pile=pile).new_state(2, seed=0)
    assert isinstance(state, NimState)
    return state
