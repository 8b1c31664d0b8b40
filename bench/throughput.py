"""Random-play throughput, clone/view/resample cost, and MCTS iterations per second (Witches).

    .venv/bin/python bench/throughput.py [--games 2000] [--players 4]

A first look at speed; `spielwerk bench` (against OpenSpiel) comes with the performance issue.
"""

from __future__ import annotations

import argparse
import random
import time

import spielwerk
from spielwerk.agents.base import make_turn
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.core.state import CHANCE, State


def random_game(game: spielwerk.Game, players: int, seed: int) -> tuple[State, int]:
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        to_move = state.to_move
        if to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), CHANCE)
        else:
            assert isinstance(to_move, int)
            ids = state.legal_ids(to_move)
            state.apply_trusted(ids[int(rng.random() * len(ids))], to_move)
        steps += 1
    return state, steps


def per_call(fn: object, calls: int) -> float:
    assert callable(fn)
    start = time.perf_counter()
    for _ in range(calls):
        fn()
    return (time.perf_counter() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    game = spielwerk.load("witches")

    start = time.perf_counter()
    steps = sum(random_game(game, args.players, seed)[1] for seed in range(args.games))
    elapsed = time.perf_counter() - start
    print(
        f"random play, {args.players} players: {args.games / elapsed:,.0f} games/s, "
        f"{steps / elapsed:,.0f} steps/s (chance steps included)"
    )

    state = game.new_state(args.players, seed=1)
    rng = random.Random(1)
    while len(state.history) < 60 or state.to_move == CHANCE:
        if state.to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), CHANCE)
        else:
            state.apply(rng.choice(state.legal_actions()))
    seat = state.to_move
    assert isinstance(seat, int)
    print(
        f"mid-game clone: {per_call(state.clone, 20000):.2f} µs, "
        f"view: {per_call(lambda: state.view(seat), 5000):.1f} µs, "
        f"resample: {per_call(lambda: state.resample(seat, rng), 5000):.1f} µs"
    )

    agent = MCTSAgent(iterations=2000, seed=0)
    turn = make_turn(state, seat, True, rng)
    start = time.perf_counter()
    agent.act(turn)
    elapsed = time.perf_counter() - start
    print(f"MCTS from mid-game: {agent.last_iterations / elapsed:,.0f} iterations/s")


if __name__ == "__main__":
    main()
