"""How close can Witches' public-API loop come to OpenSpiel hearts' loop? Its floor, measured.

`spielwerk bench` times the loop a newcomer writes (`measure.public_api_game`: `is_terminal()`,
`is_chance()`, `chance_outcomes()` or `legal_actions()`, a checked `apply(Action)`) against the
same loop over OpenSpiel's C++ hearts. This script times, in turns (`measure.interleaved_games`):

- `public`: that loop on Witches, 4 players;
- `fast`: the unchecked fast path (`measure.random_game`: `to_move`, `sample_chance_id`,
  `legal_ids`, `apply_trusted`);
- `public-floor` and `fast-floor`: the same two loops over a stand-in state whose methods do no
  work: it replays recorded Witches games (the same lists at every step) by a counter. What they
  take is the cost of the loop and its calls alone, in CPython;
- `hearts`: OpenSpiel hearts in the public loop.

`fast` minus `fast-floor` is what the rules themselves take. `public-floor` plus that is what
the public loop would take if checking an action, handing out Action objects and listing chance
outcomes cost nothing: a lower bound of `public` with the rules as fast as they are now.

    .venv/bin/python bench/public_api_floor.py --seconds 10
"""

from __future__ import annotations

import argparse
import random
import types
from collections.abc import Callable
from typing import Any

import spielwerk
from spielwerk.bench import measure
from spielwerk.core.state import CHANCE, TERMINAL

RECORDED = 50  # recorded Witches games the stand-in replays, in turn
# Per step of a recorded game: whether chance moves, the list offered, its ids.
Recorded = tuple[list[bool], list[list[Any]], list[list[int]]]


def record(game: spielwerk.Game, seed: int) -> list[tuple[bool, list[Any]]]:
    """One random public-API game: per step, whether chance moves and the list it was offered."""
    state = game.new_state(4, seed=seed)
    rand = random.Random(seed).random
    steps: list[tuple[bool, list[Any]]] = []
    while not state.is_terminal():
        chance = state.is_chance()
        offered: list[Any] = state.chance_outcomes() if chance else state.legal_actions()
        steps.append((chance, offered))
        picked = offered[int(rand() * len(offered))]
        state.apply(picked[0] if chance else picked)
    return steps


class Replay:
    """A recorded game behind both loops' methods; every method is a lookup or a counter."""

    __slots__ = ("chance", "ids", "last", "lists", "step", "to_move")

    def __init__(self, recorded: Recorded) -> None:
        self.chance, self.lists, self.ids = recorded
        self.last = len(self.lists) - 1
        self.step = 0
        self.to_move = CHANCE if self.chance[0] else 0

    def is_terminal(self) -> bool:
        return self.step == self.last

    def is_chance(self) -> bool:
        return self.chance[self.step]

    def chance_outcomes(self) -> list[Any]:
        return self.lists[self.step]

    def legal_actions(self) -> list[Any]:
        return self.lists[self.step]

    def legal_ids(self, seat: int) -> list[int]:
        return self.ids[self.step]

    def sample_chance_id(self, rng: random.Random) -> int:
        ids = self.ids[self.step]
        return ids[int(rng.random() * len(ids))]

    def apply(self, action: object) -> None:
        self.advance()

    def apply_trusted(self, action_id: int, actor: int) -> None:
        self.advance()

    def advance(self) -> None:
        step = self.step = self.step + 1
        if step == self.last:
            self.to_move = TERMINAL
        else:
            self.to_move = CHANCE if self.chance[step] else 0


class ReplayGame:
    """Stands in for the game in `measure`'s loops: `new_state` replays a recorded game."""

    def __init__(self, games: list[list[tuple[bool, list[Any]]]]) -> None:
        # Everything a replay reads is laid out once, here: a new game costs one small object.
        self.games: list[Recorded] = [
            (
                [c for c, _ in steps] + [False],
                [offered for _, offered in steps] + [[]],
                [[a[0].id if c else a.id for a in offered] for c, offered in steps] + [[]],
            )
            for steps in games
        ]

    def new_state(self, players: int, seed: int) -> Replay:
        return Replay(self.games[seed % len(self.games)])


def own_copy(function: types.FunctionType) -> Callable[..., int]:
    """The same function with its own code object (and so its own specialized bytecode)."""
    return types.FunctionType(function.__code__.replace(), function.__globals__, function.__name__)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="budget of each loop")
    args = parser.parse_args()
    game = spielwerk.load("witches")
    replay: Any = ReplayGame([record(game, seed) for seed in range(RECORDED)])
    # The floor loops run their own copies of the loop functions: CPython specializes a
    # function's bytecode for the types it meets, and one copy shared by the compiled state
    # and the stand-in would be re-specialized back and forth, slowing both.
    public_floor, fast_floor = (
        own_copy(measure.public_api_game),  # type: ignore[arg-type]
        own_copy(measure.random_game),  # type: ignore[arg-type]
    )
    loops: dict[str, Callable[[int], int]] = {
        "public": lambda seed: measure.public_api_game(game, 4, seed),
        "fast": lambda seed: measure.random_game(game, 4, seed),
        "public-floor": lambda seed: public_floor(replay, 4, seed),
        "fast-floor": lambda seed: fast_floor(replay, 4, seed),
        "hearts": measure.openspiel_random_game("hearts"),
    }
    figures = measure.interleaved_games(loops, args.seconds)
    us = {name: 1e6 / f["games_per_s"] for name, f in figures.items()}
    print(f"{'loop':14s} {'us/game':>8s} {'ns/step':>8s} {'vs hearts':>9s}")
    for name, f in figures.items():
        ratio = f["games_per_s"] / figures["hearts"]["games_per_s"]
        print(f"{name:14s} {us[name]:8.1f} {1e9 / f['steps_per_s']:8.0f} {ratio:8.2f}x")
    rules = us["fast"] - us["fast-floor"]
    bound = us["public-floor"] + rules
    print(f"the rules' own work (fast - fast-floor): {rules:.1f} us/game")
    print(
        f"public loop with free checks and lists (public-floor + rules): {bound:.1f} us/game,"
        f" {us['hearts'] / bound:.2f}x hearts"
    )


if __name__ == "__main__":
    main()
