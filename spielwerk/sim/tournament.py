"""A tournament in one call: plan, play and summarise one line-up (one variant), per agent.

For bench scripts and tests; `spielwerk simulate` (spielwerk/cli/simulate.py) is the full tool
with variants, seats, tests of significance, files and plots.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from spielwerk.sim.plan import plan_games
from spielwerk.sim.runner import run
from spielwerk.sim.stats import summarise_variant


@dataclass(frozen=True, slots=True)
class AgentStats:
    """One line-up entry over all games: its win rate with 95% Wilson interval, mean score and
    wall seconds a decision (None if not measured)."""

    agent: str
    games: int
    wins: float
    win_rate: float
    low: float
    high: float
    mean_score: float
    seconds_per_decision: float | None = None


def run_tournament(
    game_name: str,
    lineup: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    jobs: int = 1,
) -> list[AgentStats]:
    """Play `games` games (rounded up to whole deals) with seat rotation; one entry per agent."""
    specs = plan_games(
        game_name, lineup, games, seed, {k: str(v) for k, v in (options or {}).items()}
    )
    result = run(specs, jobs=jobs)
    summary = summarise_variant(specs[0].variant, lineup, result.rows)
    return [
        AgentStats(
            a["agent"],
            a["games"],
            a["wins"],
            a["win_rate"],
            a["low"],
            a["high"],
            a["score"]["mean"],
            a["seconds_per_decision"],
        )
        for a in summary["agents"]
    ]


def markdown_table(stats: Sequence[AgentStats]) -> str:
    lines = [
        "| seat | games | win rate | 95% interval | mean score | s/decision |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for s in stats:
        seconds = "-" if s.seconds_per_decision is None else f"{s.seconds_per_decision:.4f}"
        lines.append(
            f"| {s.agent} | {s.games} | {s.win_rate:.3f} | {s.low:.3f}-{s.high:.3f} | "
            f"{s.mean_score:.1f} | {seconds} |"
        )
    return "\n".join(lines)
