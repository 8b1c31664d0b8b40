"""Win-rate tables for the bots of any game (docs/agents.md, docs/games/*.md).

    .venv/bin/python bench/winrates.py --games 400 --jobs 2                 # Witches line-ups
    .venv/bin/python bench/winrates.py --game inkheart_dice --games 400 --jobs 2
    .venv/bin/python bench/winrates.py --game isolde --lineup mcts:500,heuristic,random,random

Plays each line-up with seat rotation (`spielwerk.sim.tournament.run_tournament`) and prints a
markdown table with 95% Wilson intervals. Without `--lineup`, the game's standard line-ups from
LINEUPS are played. MCTS seats get the game's tuning from `spielwerk.agents.configs.MCTS_CONFIGS`.
"""

from __future__ import annotations

import argparse
import platform
import time

from spielwerk.sim.tournament import markdown_table, run_tournament

LINEUPS: dict[str, tuple[tuple[str, ...], ...]] = {
    "witches": (
        ("mcts:1000", "heuristic", "random", "random"),
        ("heuristic", "random", "random", "random"),
        ("best", "mcts:0.25s", "heuristic", "random"),  # best at its own time a decision
    ),
    "inkheart_dice": (("mcts:1000", "heuristic", "random"), ("best", "mcts:0.5s", "heuristic")),
    "isolde": (
        ("mcts:300", "heuristic", "random", "random"),  # mcts:1000: over 4 CPU hours
        ("best", "mcts:0.25s", "heuristic", "random"),
    ),
    "inkspell": (("mcts:1000", "heuristic", "random"), ("best", "heuristic", "random")),
    "tainted_grail": (("heuristic", "heuristic"), ("mcts:1000", "mcts:1000"), ("best", "best")),
}
"""Each game's standard line-ups; the `best` ones compare it with the plain search at the same
time a decision (`BEST_CONFIGS` in spielwerk/agents/configs.py) and with the heuristic."""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", default="witches")
    parser.add_argument("--lineup", help="comma-separated seat specs, e.g. mcts:500,heuristic")
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.lineup:
        lineups: tuple[tuple[str, ...], ...] = (tuple(args.lineup.split(",")),)
    elif args.game in LINEUPS:
        lineups = LINEUPS[args.game]
    else:
        parser.error(f"no standard line-up for {args.game!r}: give --lineup")
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, Python {platform.python_version()}")
    for lineup in lineups:
        start = time.perf_counter()
        stats = run_tournament(args.game, lineup, args.games, seed=args.seed, jobs=args.jobs)
        elapsed = time.perf_counter() - start
        title = f"{args.game} {', '.join(lineup)}: {args.games} games, seed {args.seed}"
        print(f"\n### {title}, {elapsed:.0f} s\n")
        print(markdown_table(stats))


if __name__ == "__main__":
    main()
