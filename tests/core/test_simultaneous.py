"""The core's simultaneous decisions, on a minimal third-party game: rock-paper-scissors.

Both seats pick at once (`to_move` is the frozenset of seats still to pick); a pick stays
hidden until both have picked. The generic conformance checker, the match driver and the MCTS
must all handle it, which is what Die Holde Isolde's draft will need.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, Self

import pytest

import spielwerk
from spielwerk.agents import MCTSAgent, RandomAgent
from spielwerk.agents.base import make_turn
from spielwerk.core.actions import Action, ActionTable
from spielwerk.core.conformance import run_conformance
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.core.registry import _registry
from spielwerk.core.state import TERMINAL, State
from spielwerk.sim.match import play_game

SIGNS = ("rock", "paper", "scissors")
NO_PICK = -1


class RPSState(State):
    __slots__ = ("picks", "rounds_played", "scores")

    game: RPSGame

    def __init__(self, game: RPSGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.picks = [NO_PICK, NO_PICK]
        self.scores = [0, 0]
        self.rounds_played = 0
        self.to_move = frozenset({0, 1})

    def legal_ids(self, player: int | None = None) -> list[int]:
        actor = self._legal_actor(player)
        return [] if actor is None else [0, 1, 2]

    def chance_ids(self) -> list[tuple[int, float]]:
        return []

    def _apply_id(self, actor: int, action_id: int) -> None:
        self.picks[actor] = action_id
        waiting = frozenset(p for p in (0, 1) if self.picks[p] == NO_PICK)
        if waiting:
            self.to_move = waiting
            return
        a, b = self.picks
        if (a - b) % 3 == 1:
            self.scores[0] += 1
        elif (b - a) % 3 == 1:
            self.scores[1] += 1
        self.picks = [NO_PICK, NO_PICK]
        self.rounds_played += 1
        rounds = int(self.game.options["rounds"])
        self.to_move = TERMINAL if self.rounds_played == rounds else frozenset({0, 1})

    def clone(self) -> Self:
        cls = type(self)  # the compiled State refuses object.__new__
        new = cls.__new__(cls)
        new.game, new.num_players, new.seed = self.game, self.num_players, self.seed
        new.history, new.to_move = self.history.copy(), self.to_move
        new.picks, new.scores = self.picks.copy(), self.scores.copy()
        new.rounds_played = self.rounds_played
        return new

    def view(self, player: int | None) -> dict[str, Any]:
        mine = None if player is None else self.picks[player]
        return {
            "scores": self.scores.copy(),
            "rounds_played": self.rounds_played,
            "picked": [p != NO_PICK for p in self.picks],
            "my_pick": None if mine is None or mine == NO_PICK else SIGNS[mine],
        }

    def resample(self, player: int | None, rng: random.Random) -> Self:
        """The other seat's pending pick is hidden: draw it uniformly."""
        new = self.clone()
        new.seed = rng.randrange(2**31)
        for q in (0, 1):
            if q != player and self.picks[q] != NO_PICK:
                new.picks[q] = rng.randrange(3)
                new.history[-1] = (q, new.picks[q])  # only the latest action can be pending
        return new

    def returns(self) -> list[float]:
        if self.to_move != TERMINAL:
            return [0.0, 0.0]
        a, b = self.scores
        return [1.0, 0.0] if a > b else [0.0, 1.0] if b > a else [0.5, 0.5]

    def result(self) -> dict[str, Any]:
        if self.to_move != TERMINAL:
            return {}
        best = max(self.scores)
        return {
            "scores": self.scores.copy(),
            "winners": [p for p in (0, 1) if self.scores[p] == best],
        }

    def describe(self, action: Action, viewer: int | None) -> str:
        actor = min(self.to_move) if isinstance(self.to_move, frozenset) else -1
        return f"a seat picks {action.params[0][1]}" if viewer != actor else f"you pick {action}"

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        """Each seat holds three sign cards (seat * 3 + sign); a pick lies face down."""
        zones: dict[str, Sequence[int]] = {}
        for seat, pick in enumerate(self.picks):
            cards = [seat * 3 + sign for sign in range(3)]
            zones[f"face_down_{seat}"] = [] if pick == NO_PICK else [seat * 3 + pick]
            zones[f"hand_{seat}"] = [c for c in cards if c not in zones[f"face_down_{seat}"]]
        return zones


class RPSGame(Game):
    name = "rps"
    title = "Rock-paper-scissors"
    min_players = 2
    max_players = 2
    option_specs = (OptionSpec("rounds", int, 3, "rounds to play", minimum=1),)

    def _build_actions(self) -> ActionTable:
        return ActionTable([Action(i, "pick", (("sign", s),)) for i, s in enumerate(SIGNS)], [])

    def _new_state(self, num_players: int, seed: int) -> RPSState:
        return RPSState(self, num_players, seed)


@pytest.fixture(autouse=True)
def registered(monkeypatch: pytest.MonkeyPatch) -> None:
    """Register the game for the duration of each test (replay looks games up by name)."""
    monkeypatch.setitem(_registry(), RPSGame.name, RPSGame)


def test_a_pick_needs_its_player_and_stays_hidden() -> None:
    state = RPSGame().new_state(2, seed=0)
    assert state.to_move == frozenset({0, 1})
    with pytest.raises(spielwerk.IllegalAction, match="say which player"):
        state.apply({"type": "pick", "sign": "rock"})
    state.apply({"type": "pick", "sign": "rock"}, player=1)
    assert state.to_move == frozenset({0})
    with pytest.raises(spielwerk.IllegalAction, match="player 1 has no decision"):
        state.apply(0, player=1)
    assert state.view(0)["my_pick"] is None and state.view(0)["picked"] == [False, True]
    assert state.view(1)["my_pick"] == "rock"
    state.apply({"type": "pick", "sign": "paper"}, player=0)
    assert state.view(None)["scores"] == [1, 0]  # paper covers rock


@pytest.mark.parametrize("seed", range(6))
def test_simultaneous_game_passes_the_generic_conformance_checks(seed: int) -> None:
    report = run_conformance(RPSGame(rounds=4), 2, seed, every=1)
    assert report.steps == 8


def test_mcts_decides_without_seeing_the_other_seats_hidden_pick() -> None:
    """Seat 1 has picked face down; MCTS for seat 0 (decoupled at the simultaneous node)
    chooses the same, seeded, whatever seat 1 picked."""
    chosen = set()
    for hidden_pick in range(3):
        state = RPSGame().new_state(2, seed=0)
        state.apply(hidden_pick, player=1)
        turn = make_turn(state, 0, with_sample=True, rng=random.Random(5))
        agent = MCTSAgent(iterations=200, seed=1)
        chosen.add(agent.act(turn))
        assert agent.last_iterations == 200
    assert len(chosen) == 1


def test_driver_plays_simultaneous_games_to_the_end() -> None:
    game = RPSGame(rounds=5)
    for agents in ([MCTSAgent(iterations=50, seed=1), RandomAgent(2)], [RandomAgent(1)] * 2):
        state = play_game(game, list(agents), seed=3)
        assert state.is_terminal() and len(state.history) == 10
