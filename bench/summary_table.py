"""The agents' table of a `spielwerk simulate --out DIR` run as Markdown, for docs/agents.md.

    .venv/bin/python bench/summary_table.py DIR [DIR ...]

Reads DIR/summary.json: per agent its games, win rate with 95% interval, mean score with 95%
interval and wall seconds a decision (what an equal-time claim quotes).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def table(directory: Path) -> str:
    summary = json.loads((directory / "summary.json").read_text(encoding="utf-8"))
    lines = [
        f"`{directory}`: {summary['game']}, {summary['games']} games, seed {summary['seed']}",
        "",
        "| agent | games | win rate | 95% interval | mean score | s/decision |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for variant in summary["variants"]:
        for a in variant["agents"]:
            lines.append(
                f"| {a['agent']} | {a['games']} | {a['win_rate']:.3f} | "
                f"{a['low']:.3f}-{a['high']:.3f} | {a['score']['mean']:.1f} | "
                f"{seconds(a.get('seconds_per_decision'))} |"
            )
    return "\n".join(lines)


if __name__ == "__main__":
    print("\n\n".join(table(Path(arg)) for arg in sys.argv[1:]))
