"""Play seeded random games through one Python loop of `spielwerk bench`, for instruction counts.

    valgrind --tool=callgrind .venv/bin/python bench/loop_instructions.py LOOP GAMES

LOOP is `public` (Witches, 4 players, `measure.public_api_game`: legal_actions,
chance_outcomes, checked apply), `fast` (`measure.random_game`: legal_ids, apply_trusted) or
`hearts` (OpenSpiel's hearts in the loop of `measure.openspiel_random_play`); the games use
seeds 0 .. GAMES-1. The count of a loop is the total of GAMES games minus the total of 0 games
(interpreter, imports, loading the game): unlike a time, it does not depend on the load.
"""

from __future__ import annotations

import random
import sys

import spielwerk
from spielwerk.bench import measure


def hearts_games(games: int) -> None:
    import pyspiel

    game = pyspiel.load_game("hearts")
    for seed in range(games):
        rand = random.Random(seed).random
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])


def main(loop: str, games: int) -> None:
    if loop == "hearts":
        hearts_games(games)
        return
    play = {"public": measure.public_api_game, "fast": measure.random_game}[loop]
    game = spielwerk.load("witches")
    for seed in range(games):
        play(game, 4, seed)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
