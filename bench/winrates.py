"""Win-rate table for the Witches of Blackmore bots (docs/agents.md).

    .venv/bin/python bench/winrates.py --games 400 --jobs 2

Plays two line-ups with seat rotation: MCTS (1000 iterations) + heuristic + 2 random, and
heuristic + 3 random; prints markdown tables with 95% Wilson intervals.
"""

from __future__ import annotations

import argparse
import platform
import time

from spielwerk.sim.tournament import markdown_table, run_tournament

LINEUPS = (
    ("mcts:1000", "heuristic", "random", "random"),
    ("heuristic", "random", "random", "random"),
)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, Python {platform.python_version()}")
    for lineup in LINEUPS:
        start = time.perf_counter()
        stats = run_tournament("witches", lineup, args.games, seed=args.seed, jobs=args.jobs)
        elapsed = time.perf_counter() - start
        title = f"{', '.join(lineup)}: {args.games} games, seed {args.seed}, {elapsed:.0f} s"
        print(f"\n### {title}\n")
        print(markdown_table(stats))


if __name__ == "__main__":
    main()
