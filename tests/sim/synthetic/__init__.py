"""A synthetic game for testing the balance estimators: component effects known by design.

Two or three seats; each is dealt one token, uniformly and independently (a chance action),
then plays it (its only decision, so restricted play has something to forbid). A token's
strength decides the game: gold 3, copper 1, tin 1, lead 0; the strongest wins, equal
strengths share. Option `first_bonus=1` gives seat 0 +0.5 (it wins the ties: a built-in
first-player edge).

Without the bonus, with two players, the within-game effect of holding a token on the win
share is exact: gold +1 (whoever holds it alone wins), lead -1 (whoever holds it alone loses),
copper and tin 0 on average (the other seat holds gold, lead or the other neutral token with
equal chance: -1, +1 or a shared win).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

from spielwerk.core.actions import Action, ActionTable
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.core.outcome import shared_win_returns, top_scorers
from spielwerk.core.state import CHANCE, TERMINAL, State

TOKENS = ("gold", "copper", "tin", "lead")
STRENGTH = {"gold": 3.0, "copper": 1.0, "tin": 1.0, "lead": 0.0}
FIRST_SEAT_BONUS = 0.5
PLAY = 0
DEAL = len(TOKENS)


class SyntheticGame(Game):
    name = "synthetic"
    title = "Synthetic tokens"
    min_players = 2
    max_players = 3
    option_specs = (
        OptionSpec("first_bonus", int, 0, "seat 0 gets +0.5 (wins ties)", choices=(0, 1)),
    )

    def _build_actions(self) -> ActionTable:
        plays = [Action(i, "play", (("token", t),)) for i, t in enumerate(TOKENS)]
        deals = [Action(DEAL + i, "deal", (("token", t),)) for i, t in enumerate(TOKENS)]
        return ActionTable(plays, deals)

    def _new_state(self, num_players: int, seed: int) -> SyntheticState:
        return SyntheticState(self, num_players, seed)


class SyntheticState(State):
    __slots__ = ("played", "tokens")

    def __init__(self, game: Game, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.tokens: list[int] = []
        self.played: list[bool] = [False] * num_players

    def legal_ids(self, player: int | None = None) -> list[int]:
        if self.to_move == CHANCE:
            return [DEAL + i for i in range(len(TOKENS))]
        if self.to_move == TERMINAL or (player is not None and player != self.to_move):
            return []
        assert isinstance(self.to_move, int)
        return [PLAY + self.tokens[self.to_move]]

    def _apply_id(self, actor: int, action_id: int) -> None:
        self.history.append((actor, action_id))
        if actor == CHANCE:
            self.tokens.append(action_id - DEAL)
            self.to_move = CHANCE if len(self.tokens) < self.num_players else 0
            return
        self.played[actor] = True
        self.to_move = actor + 1 if actor + 1 < self.num_players else TERMINAL

    def chance_ids(self) -> list[tuple[int, float]]:
        return [(DEAL + i, 1 / len(TOKENS)) for i in range(len(TOKENS))]

    def clone(self) -> Self:
        new = type(self)(self.game, self.num_players, self.seed)
        new.history = list(self.history)
        new.to_move = self.to_move
        new.tokens = list(self.tokens)
        new.played = list(self.played)
        return new

    def strengths(self) -> list[float]:
        return [
            STRENGTH[TOKENS[t]]
            + (FIRST_SEAT_BONUS if seat == 0 and self.game.options["first_bonus"] else 0.0)
            for seat, t in enumerate(self.tokens)
        ]

    def view(self, player: int | None) -> dict[str, Any]:
        return {"tokens": [TOKENS[t] for t in self.tokens], "to_move": self.to_move}

    def resample(self, player: int | None, rng: random.Random) -> Self:
        return self.clone()

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.num_players
        return shared_win_returns(self.strengths())

    def result(self) -> dict[str, Any]:
        return {"scores": self.strengths(), "winners": top_scorers(self.strengths())}

    def describe(self, action: Action, viewer: int | None) -> str:
        return str(action)

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        return {"dealt": list(self.tokens)}
