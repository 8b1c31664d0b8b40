"""How much faster is Tintenblut in its kernel? Random games and search iterations, one core.

Random games a second of the Python engine (`conformance.play_random`, for `--seconds`) and of
the kernel (`kernel.play_batch`, `--games`), at 2, 3 and 4 players; then iterations a second
of four searches on two mid-game decisions of 3 players: the `mcts` seat's search (rollouts cut
after 60 decisions and valued by the lead) in Python (`mcts-py`) and compiled (`mcts`), the
Python plain search (full random rollouts) and the compiled plain search (`KernelMCTSAgent`,
full random rollouts). No timing is asserted anywhere; the figures depend on the machine and
its load.

    .venv/bin/python bench/inkspell_kernel_speed.py --seconds 3 --games 20000
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np

import spielwerk
from spielwerk.agents import Agent, make_agent
from spielwerk.agents.base import make_turn
from spielwerk.agents.configs import PLAIN
from spielwerk.agents.kernel_mcts import KernelMCTSAgent
from spielwerk.bench.measure import mid_game_state
from spielwerk.core.conformance import play_random
from spielwerk.games.inkspell import kernel as ink


def random_games(seconds: float, games: int) -> None:
    game = spielwerk.load("inkspell")
    max_rounds = int(game.options["max_rounds"])
    for players in range(game.min_players, game.max_players + 1):
        start = time.perf_counter()
        played = 0
        while time.perf_counter() - start < seconds:
            play_random(game, players, played)
            played += 1
        engine = played / (time.perf_counter() - start)
        scores = np.zeros((games, players), dtype=np.int64)
        decisions = np.zeros(games, dtype=np.int64)
        steps = np.zeros(games, dtype=np.int64)
        ink.play_batch(players, max_rounds, 10, 1, scores, decisions, steps)  # compiled now
        start = time.perf_counter()
        ink.play_batch(players, max_rounds, games, 2, scores, decisions, steps)
        elapsed = time.perf_counter() - start
        print(
            f"{players} players: engine {engine:,.0f} games/s, kernel {games / elapsed:,.0f} "
            f"games/s ({games / elapsed / engine:.0f}x; {steps.mean():.0f} steps a game, "
            f"{steps.sum() / elapsed / 1e6:.1f} M steps/s)"
        )


def searches() -> None:
    for decisions in (30, 150):
        state = mid_game_state("inkspell", 3, decisions=decisions, seed=3)
        seat = state.to_move
        assert isinstance(seat, int)
        turn = make_turn(state, seat, True, random.Random(0))
        plain = PLAIN.with_budget(100, None).build("inkspell", 0)
        lineup: list[tuple[str, Agent, int]] = [
            ("mcts seat in Python (cut at 60, lead 8)", make_agent("mcts-py:300", "inkspell"), 300),
            ("mcts seat compiled (cut at 60, lead 8)", make_agent("mcts:5000", "inkspell"), 5000),
            ("Python plain (full rollouts)", plain, 100),
            ("compiled plain (full rollouts)", KernelMCTSAgent("inkspell", 20_000, seed=0), 20_000),
        ]
        for label, agent, iterations in lineup:
            agent.act(turn)  # compiled or warmed now
            start = time.perf_counter()
            agent.act(turn)
            rate = iterations / (time.perf_counter() - start)
            print(f"decision {decisions}, {label}: {rate:,.0f} iterations/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="engine time per count")
    parser.add_argument("--games", type=int, default=20_000, help="kernel games per count")
    args = parser.parse_args()
    random_games(args.seconds, args.games)
    searches()


if __name__ == "__main__":
    main()
