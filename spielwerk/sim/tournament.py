"""Tournaments: many seeded games of one line-up with seat rotation, and their statistics.

Game `i` is played with seed `seed + i` and the line-up rotated by `i` seats, so every agent
sits in every seat equally often. Results report, per line-up entry, the win rate (a shared win
counts as a fraction) with a 95% Wilson interval and the mean score.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from spielwerk.agents import make_agent
from spielwerk.core.registry import load
from spielwerk.sim.match import play_game


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game, indexed by line-up entry (not by seat)."""

    win_shares: tuple[float, ...]
    scores: tuple[float, ...]


@dataclass
class EntryStats:
    spec: str
    games: int = 0
    wins: float = 0.0
    scores: list[float] = field(default_factory=list)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    def win_interval(self, z: float = 1.96) -> tuple[float, float]:
        """95% Wilson score interval of the win rate."""
        n = self.games
        if n == 0:
            return (0.0, 1.0)
        p = self.win_rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return (max(0.0, centre - half), min(1.0, centre + half))

    @property
    def mean_score(self) -> float:
        return sum(self.scores) / len(self.scores) if self.scores else 0.0


def play_one(
    game_name: str, options: Mapping[str, Any], lineup: Sequence[str], seed: int, index: int
) -> GameOutcome:
    """Game `index` of a tournament: line-up rotated by `index` seats."""
    n = len(lineup)
    shift = index % n
    entry_at_seat = [(seat - shift) % n for seat in range(n)]
    game = load(game_name, **options)
    game_seed = seed + index
    agents = [
        make_agent(lineup[entry], game_name, seed=game_seed * 31 + seat)
        for seat, entry in enumerate(entry_at_seat)
    ]
    state = play_game(game, agents, seed=game_seed)
    result = state.result()
    winners = result["winners"]
    # A cooperative game's seats win or lose together: each winner scores a whole win.
    share = 1.0 if result.get("cooperative") else 1.0 / max(len(winners), 1)
    shares = [0.0] * n
    scores = [0.0] * n
    for seat, entry in enumerate(entry_at_seat):
        scores[entry] = float(result["scores"][seat])
        if seat in winners:
            shares[entry] = share
    return GameOutcome(tuple(shares), tuple(scores))


def run_tournament(
    game_name: str,
    lineup: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[EntryStats]:
    """Play `games` games and return one EntryStats per line-up entry."""
    opts = dict(options or {})
    load(game_name, **opts)  # fail fast on a bad game or option
    for spec in lineup:  # and on a bad seat spec
        make_agent(spec, game_name, seed=0)
    stats = [EntryStats(spec) for spec in lineup]

    def record(outcome: GameOutcome) -> None:
        for entry, entry_stats in enumerate(stats):
            entry_stats.games += 1
            entry_stats.wins += outcome.win_shares[entry]
            entry_stats.scores.append(outcome.scores[entry])
        if progress is not None:
            progress(1)

    if jobs <= 1:
        for index in range(games):
            record(play_one(game_name, opts, lineup, seed, index))
    else:
        with ProcessPoolExecutor(max_workers=jobs) as pool:
            futures = [
                pool.submit(play_one, game_name, opts, lineup, seed, index)
                for index in range(games)
            ]
            for future in futures:
                record(future.result())
    return stats


def markdown_table(stats: Sequence[EntryStats]) -> str:
    lines = [
        "| seat | games | win rate | 95% interval | mean score |",
        "|---|---:|---:|---:|---:|",
    ]
    for s in stats:
        low, high = s.win_interval()
        lines.append(
            f"| {s.spec} | {s.games} | {s.win_rate:.3f} | {low:.3f}-{high:.3f} | "
            f"{s.mean_score:.1f} |"
        )
    return "\n".join(lines)
