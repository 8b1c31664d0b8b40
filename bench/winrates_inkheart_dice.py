"""Win-rate table for the Tintenherz - Das Würfelspiel bots (docs/games/inkheart_dice.md).

    .venv/bin/python bench/winrates_inkheart_dice.py --games 400 --jobs 2

Plays the line-up MCTS (300 iterations) + heuristic + random, 3 players, with seat rotation
(`spielwerk.sim.tournament.run_tournament`), and prints a markdown table with 95% Wilson
intervals. `--mcts 1000` changes the MCTS budget. `--exploration 0.3,0.5` additionally plays the
same line-up with MCTS agents built with those UCB exploration constants (the seat spec
`mcts:N` always uses the default 0.7), through the same seeds and seat rotation.
"""

from __future__ import annotations

import argparse
import platform
import time
from concurrent.futures import ProcessPoolExecutor

from spielwerk.agents import make_agent
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.core.registry import load
from spielwerk.sim.match import play_game
from spielwerk.sim.tournament import EntryStats, markdown_table, run_tournament

GAME = "inkheart_dice"


def play_with_exploration(
    iterations: int, exploration: float, seed: int, index: int
) -> tuple[float, ...]:
    """Game `index` of `mcts, heuristic, random` rotated by `index` seats, the MCTS agent with
    the given exploration constant; win shares per line-up entry (as run_tournament plays)."""
    n = 3
    shift = index % n
    entry_at_seat = [(seat - shift) % n for seat in range(n)]
    game_seed = seed + index
    agents = []
    for seat, entry in enumerate(entry_at_seat):
        agent_seed = game_seed * 31 + seat
        if entry == 0:
            agents.append(MCTSAgent(iterations, exploration=exploration, seed=agent_seed))
        else:
            agents.append(make_agent(("heuristic", "random")[entry - 1], GAME, seed=agent_seed))
    state = play_game(load(GAME), agents, seed=game_seed)
    winners = state.result()["winners"]
    shares = [0.0] * n
    for seat, entry in enumerate(entry_at_seat):
        if seat in winners:
            shares[entry] = 1.0 / len(winners)
    return tuple(shares)


def exploration_table(iterations: int, exploration: float, games: int, seed: int, jobs: int) -> str:
    stats = [EntryStats(f"mcts:{iterations} c={exploration}"), EntryStats("heuristic")]
    stats.append(EntryStats("random"))
    args = [(iterations, exploration, seed, index) for index in range(games)]
    with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
        outcomes = list(pool.map(play_with_exploration, *zip(*args, strict=True)))
    for shares in outcomes:
        for entry, share in zip(stats, shares, strict=True):
            entry.games += 1
            entry.wins += share
    table = markdown_table(stats)
    # No scores are collected here: drop the mean-score column.
    return "\n".join(line.rsplit("|", 2)[0] + "|" for line in table.splitlines())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--mcts", type=int, default=300, help="MCTS iterations per decision")
    parser.add_argument("--exploration", default="", help="comma-separated UCB constants")
    args = parser.parse_args()
    machine = platform.processor() or platform.machine()
    print(f"machine: {machine}, Python {platform.python_version()}")
    lineup = (f"mcts:{args.mcts}", "heuristic", "random")
    start = time.perf_counter()
    stats = run_tournament(GAME, lineup, args.games, seed=args.seed, jobs=args.jobs)
    elapsed = time.perf_counter() - start
    print(f"\n### {', '.join(lineup)}: {args.games} games, seed {args.seed}, {elapsed:.0f} s\n")
    print(markdown_table(stats))
    for text in filter(None, args.exploration.split(",")):
        exploration = float(text)
        start = time.perf_counter()
        table = exploration_table(args.mcts, exploration, args.games, args.seed, args.jobs)
        elapsed = time.perf_counter() - start
        print(
            f"\n### mcts:{args.mcts} with exploration {exploration}, heuristic, random: "
            f"{args.games} games, seed {args.seed}, {elapsed:.0f} s\n"
        )
        print(table)


if __name__ == "__main__":
    main()
