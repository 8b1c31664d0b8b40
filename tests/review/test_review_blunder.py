"""A planted blunder is marked a blunder: in a position of each game (the game up to one seat's
decision, `positions/GAME.json`), one move loses in every world the seat cannot tell from the
true one, whatever anybody plays after it, and another wins. The review, with the game's own
search, must mark the losing move a blunder and find no fault with the winning one.

The positions were found by playing seeded games and trying every move in the seat's worlds
against every continuation (the note in each file says which game):

- Witches: the last trick's winner chooses the trump, and it decides the end scoring: keeping
  it wins, changing it to red 9 loses;
- Tintenherz: the last card taken from the centre decides the totals: Mortola wins,
  Cockerell loses;
- Isolde: the last Isolde move of the game decides the standings: on studies it wins, on
  Isolde's own board it loses;
- Tintenblut: the last turn of the final round: converting the tiles wins, ending the turn
  loses (exchanging two provisions first and converting four tiles after wins too);
- Tainted Grail: the Ash Hound bars the way of the last character standing, at 1 health, the
  rite of cleansing begun: running costs the last health point and the game, fighting wins
  unless the test fails (set up on the table, as the game's own tests set one up).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.base import make_turn
from spielwerk.core.state import CHANCE, State
from spielwerk.review.engine import Judge

POSITIONS = Path(__file__).parent / "positions"
GAMES = sorted(path.stem for path in POSITIONS.glob("*.json"))
WORLDS = 10


def position(name: str) -> tuple[State, int, int, int]:
    """The position: the state, the seat, the losing move's id and the winning move's."""
    data: dict[str, Any] = json.loads((POSITIONS / f"{name}.json").read_text())
    state = spielwerk.replay(data["record"])
    for field, value in data.get("set", {}).items():  # the situation set up on the table
        getattr(state, field)[:] = value
    game = state.game
    losing = game.action_from_json(data["losing"]).id
    winning = game.action_from_json(data["winning"]).id
    return state, int(data["seat"]), losing, winning


def play_on(state: State, seed: int) -> State:
    """The rest of the game: chance drawn, every further choice made by the heuristic."""
    rng = random.Random(seed)
    bots = [make_agent("heuristic", state.game.name, seed + s) for s in range(state.num_players)]
    while not state.is_terminal():
        to_move = state.to_move
        if to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), CHANCE)
            continue
        seats = sorted(to_move) if isinstance(to_move, frozenset) else [to_move]
        moves = []
        for seat in seats:
            legal = state.legal_ids(seat)
            if len(legal) == 1:
                moves.append((seat, legal[0]))
            else:
                turn = make_turn(state, seat, bots[seat].wants_sample, rng)
                moves.append((seat, bots[seat].act(turn).id))
        for seat, action in moves:
            state.apply_trusted(action, seat)
    return state


def outcomes(state: State, seat: int, move: int) -> list[float]:
    """What `move` brings the seat in each of `WORLDS` worlds of its information set."""
    found = []
    for world in range(WORLDS):
        sample = state.resample(seat, random.Random(world))
        sample.apply_trusted(move, seat)
        found.append(play_on(sample, world).returns()[seat])
    return found


@pytest.mark.parametrize("name", GAMES)
def test_the_losing_move_loses_and_the_winning_move_wins(name: str) -> None:
    """The planted blunder loses whatever the hidden cards are; the better move wins in
    almost every world (Tainted Grail: unless a die fails)."""
    state, seat, losing, winning = position(name)
    assert max(outcomes(state, seat, losing)) == 0.0
    won = outcomes(state, seat, winning)
    assert sum(won) / len(won) >= 0.8


@pytest.mark.parametrize("name", GAMES)
def test_the_planted_blunder_is_marked_a_blunder(name: str) -> None:
    state, seat, losing, winning = position(name)
    judge = Judge(state.game, state.num_players, seat)
    step = len(state.history)
    blunder = judge.decision(state, 1, step, losing, seed=0)
    assert blunder.mark == "blunder", (name, blunder.drop, blunder.best_move.action)
    assert blunder.best != blunder.played and blunder.drop >= 0.2
    good = judge.decision(state, 1, step, winning, seed=0)
    # Tintenblut's search values the lead, not the win alone: exchanging two provisions first
    # and then converting four tiles wins too, by more, so the sure win by converting three
    # tiles at once may cost an inaccuracy there (docs/review.md, "Limits"); never more.
    tolerated = {None, "inaccuracy"} if name == "inkspell" else {None}
    assert good.mark in tolerated, (name, good.drop, good.best_move.action, good.played_move.action)
