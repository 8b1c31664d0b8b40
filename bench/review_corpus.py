"""Finished games among different bots, for measuring the game review (docs/review.md).

    .venv/bin/python bench/review_corpus.py witches --games 800 --seed 0 --out bench/results/review

Each game seats bots drawn from the game's pool (`POOLS`), different seats different bots
where the pool has enough, all seeded from the game's index, and is appended to
`OUT/GAME-games.jsonl` as its record (one JSON object a line) with the line-up. Run it again
with a larger `--games` to add games; the ones already there are kept.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path
from typing import Any

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.sim.match import play_game

POOLS: dict[str, tuple[str, ...]] = {
    "witches": ("random", "heuristic", "mcts:100", "mcts:300", "mcts:1000"),
    "inkheart_dice": ("random", "heuristic", "mcts:100", "mcts:300", "mcts:1000"),
    "isolde": ("random", "heuristic", "mcts:100", "mcts:300"),
    "inkspell": ("random", "heuristic", "mcts:100", "mcts:300", "net:100"),
    "tainted_grail": ("random", "heuristic", "mcts:30", "best"),
}
"""Quick bots of very different strength: the positions of their games range from lost to won."""

PLAYERS = {"witches": 4, "inkheart_dice": 3, "isolde": 4, "inkspell": 3, "tainted_grail": 2}
"""The player count each game is measured at: its shipped network's."""


def lineup(game: str, index: int, seed: int) -> list[str]:
    """The bots of game `index`: a random draw from the pool, without repeats where the pool
    is large enough."""
    rng = random.Random(seed * 1_000_003 + index)
    pool = list(POOLS[game])
    players = PLAYERS[game]
    if players <= len(pool):
        return rng.sample(pool, players)
    return [rng.choice(pool) for _ in range(players)]


def game_seed(seed: int, index: int) -> int:
    return seed * 1_000_003 + index


def read_games(path: Path) -> list[dict[str, Any]]:
    if not path.exists():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def extend(game: str, path: Path, games: int, seed: int) -> list[dict[str, Any]]:
    """The first `games` games of the corpus at `path`, playing and appending those missing."""
    have = read_games(path)
    loaded = spielwerk.load(game)
    with path.open("a", encoding="utf-8") as out:
        for index in range(len(have), games):
            seats = lineup(game, index, seed)
            start = game_seed(seed, index)
            agents = [make_agent(spec, game, start * 101 + s) for s, spec in enumerate(seats)]
            final = play_game(loaded, agents, seed=start)
            entry = {"index": index, "lineup": seats, "record": final.to_record()}
            out.write(json.dumps(entry, separators=(",", ":")) + "\n")
            out.flush()
            have.append(entry)
    return have[:games]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=sorted(POOLS))
    parser.add_argument("--games", type=int, default=800)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/review"))
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    path = args.out / f"{args.game}-games.jsonl"
    start = time.perf_counter()
    extend(args.game, path, args.games, args.seed)
    print(f"{args.game}: {args.games} games in {path} ({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
