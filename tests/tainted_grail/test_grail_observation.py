"""The observation tensor: sized from the scenario, the same shape for every player count,
encoded from the seat's view alone with seats relative to the viewer."""

from __future__ import annotations

import random

from grail_table import ADA, BEN, TABLE, act, new_game, travel

import spielwerk
from spielwerk.core.conformance import random_step
from spielwerk.core.game import Game
from spielwerk.core.state import State
from spielwerk.games.tainted_grail.observation import SEATS


def played(game: Game, players: int, seed: int, steps: int) -> State:
    """A game after `steps` random actions (or its end)."""
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        random_step(state, rng)
    return state


def block(state: object, tensor: list[float], name: str) -> list[float]:
    layout = state.game.observation_layout  # type: ignore[attr-defined]
    return tensor[layout.slice(name)]


def test_the_shape_follows_the_scenario_not_the_player_count() -> None:
    demo = spielwerk.load("tainted_grail")
    table = spielwerk.load("tainted_grail", scenario=TABLE)
    assert demo.observation_shape != table.observation_shape
    for game in (demo, table):
        for players in range(1, 5):
            state = played(game, players, seed=players, steps=60)
            for seat in range(players):
                assert len(state.observation_tensor(seat)) == game.observation_shape[0]


def test_the_tensor_is_the_encoded_view() -> None:
    """Built from the view: the same view gives the same tensor, and a resample (nothing is
    hidden) gives the seat the same tensor."""
    state = played(spielwerk.load("tainted_grail"), 3, seed=4, steps=80)
    for seat in range(3):
        tensor = state.observation_tensor(seat)
        assert tensor == state.game.encode_view(state.view(seat))
        assert state.resample(seat, random.Random(1)).observation_tensor(seat) == tensor


def test_seats_are_relative_to_the_viewer() -> None:
    """Ada spends 1 energy on travel: in her tensor her own block (0) shows 3 of 4 energy; in
    Ben's, her block is the next seat's (1)."""
    state = new_game(2)
    travel(state, "north")
    act(state, "decline")
    energy = 2  # index of "energy" in the resources of a seat
    width = 6  # resources per seat
    ada = block(state, state.observation_tensor(ADA), "resources")
    ben = block(state, state.observation_tensor(BEN), "resources")
    assert ada[energy] == 0.3 and ada[width + energy] == 0.4
    assert ben[energy] == 0.4 and ben[width + energy] == 0.3
    status = block(state, state.observation_tensor(ADA), "status")
    assert [status[k * 5] for k in range(SEATS)] == [1.0, 1.0, 0.0, 0.0]  # two seats taken


def test_the_board_is_in_the_tensor() -> None:
    state = new_game(1)
    tensor = state.observation_tensor(ADA)
    locations = [p.id for p in state.game.scenario.locations]
    on_grid = block(state, tensor, "on_grid")
    assert [locations[i] for i, v in enumerate(on_grid) if v] == [
        "home",
        "north",
        "east",
        "south",
        "west",
        "corner",
        "far",
    ]
    assert block(state, tensor, "menhir_dial") == [0.5, 0.0]  # dial 2; the largest is 4
    assert block(state, tensor, "decision")[0] == 1.0  # Ada is asked to act
