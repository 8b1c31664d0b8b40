"""Win-rate table for the Tintenherz - Das Würfelspiel bots (docs/games/inkheart_dice.md).

    .venv/bin/python bench/winrates_inkheart_dice.py --games 400 --jobs 2

Plays the line-up MCTS (1000 iterations, with this game's tuning from
`spielwerk.agents.MCTS_TUNING`) + heuristic + random, 3 players, with seat rotation
(`spielwerk.sim.tournament.run_tournament`), and prints a markdown table with 95% Wilson
intervals. `--mcts N` changes the MCTS budget.
"""

from __future__ import annotations

import argparse
import platform
import time

from spielwerk.sim.tournament import markdown_table, run_tournament

GAME = "inkheart_dice"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mcts", type=int, default=1000, help="MCTS iterations per decision")
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, Python {platform.python_version()}")
    lineup = (f"mcts:{args.mcts}", "heuristic", "random")
    start = time.perf_counter()
    stats = run_tournament(GAME, lineup, args.games, seed=args.seed, jobs=args.jobs)
    elapsed = time.perf_counter() - start
    print(f"\n### {', '.join(lineup)}: {args.games} games, seed {args.seed}, {elapsed:.0f} s\n")
    print(markdown_table(stats))


if __name__ == "__main__":
    main()
