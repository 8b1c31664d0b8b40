"""What a ladder writes to `--out`: ladder.json, ratings.md, ratings.png (and skill.png for a
doubling ladder), report.html, beside the games file that makes the run resumable."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from spielwerk.sim.ladder import apart
from spielwerk.sim.report import html_table, image_tag

RATING_HEADER = (
    "entrant",
    "rating (mu)",
    "95% interval",
    "games",
    "win rate",
    "95% interval",
    "s/decision",
)


def rating_rows(summary: Mapping[str, Any]) -> list[list[str]]:
    return [
        [
            r["entrant"],
            f"{r['mu']:.1f}",
            f"{r['low']:.1f}-{r['high']:.1f}",
            str(r["games"]),
            f"{r['win_rate']:.3f}",
            f"{r['win_low']:.3f}-{r['win_high']:.3f}",
            "-" if r.get("seconds_per_decision") is None else f"{r['seconds_per_decision']:.4f}",
        ]
        for r in summary["ratings"]
    ]


def markdown(summary: Mapping[str, Any]) -> str:
    lines = [
        "| " + " | ".join(RATING_HEADER) + " |",
        "|---|---:|---:|---:|---:|---:|---:|",
        *("| " + " | ".join(row) + " |" for row in rating_rows(summary)),
    ]
    return "\n".join(lines)


def findings(summary: Mapping[str, Any]) -> list[str]:
    """Which neighbours in the table are apart (95% intervals not overlapping)."""
    lines = []
    for upper, lower, separated in apart(summary["ratings"]):
        relation = "above, intervals apart" if separated else "not separated from"
        lines.append(f"{upper} {relation} {lower}")
    return lines


def plot_ratings(path: Path, summary: Mapping[str, Any]) -> None:
    """Each entrant's rating with its 95% interval, best at the top."""
    ratings = list(reversed(summary["ratings"]))
    figure = Figure(figsize=(6.4, 0.9 + 0.45 * len(ratings)))
    axes = figure.add_subplot(1, 1, 1)
    mus = [r["mu"] for r in ratings]
    errors = [[r["mu"] - r["low"] for r in ratings], [r["high"] - r["mu"] for r in ratings]]
    axes.errorbar(mus, range(len(ratings)), xerr=errors, fmt="o", capsize=4)
    axes.set_yticks(range(len(ratings)), [r["entrant"] for r in ratings])
    axes.set_xlabel("openskill rating (mu, 95% interval)")
    kind = "co-operative, each team against the game" if summary["cooperative"] else "round robin"
    axes.set_title(f"Ladder - {summary['game']}, {summary['players']} players ({kind})")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


BUDGET = re.compile(r"^(?P<kind>[a-z]+):(?P<budget>\d+)$")


def skill_points(summary: Mapping[str, Any]) -> list[tuple[int, Mapping[str, Any]]]:
    """The entrants that are one kind at iteration budgets, by budget (a doubling ladder)."""
    points = []
    for rating in summary["ratings"]:
        match = BUDGET.match(rating["entrant"])
        if match is not None:
            points.append((int(match["budget"]), rating))
    return sorted(points, key=lambda point: point[0])


def plot_skill(path: Path, summary: Mapping[str, Any]) -> None:
    """Rating against the budget (log scale): where more thinking stops paying."""
    points = skill_points(summary)
    figure = Figure(figsize=(6.4, 3.6))
    axes = figure.add_subplot(1, 1, 1)
    budgets = [budget for budget, _ in points]
    mus = [r["mu"] for _, r in points]
    errors = [[r["mu"] - r["low"] for _, r in points], [r["high"] - r["mu"] for _, r in points]]
    axes.errorbar(budgets, mus, yerr=errors, fmt="o-", capsize=4)
    axes.set_xscale("log", base=2)
    axes.set_xticks(budgets, [str(b) for b in budgets])
    axes.set_xlabel("iterations a decision")
    axes.set_ylabel("rating (95% interval)")
    axes.set_title(f"Skill ladder - {summary['game']}")
    for rating in summary["ratings"]:  # anchors such as random or heuristic
        if BUDGET.match(rating["entrant"]) is None:
            axes.axhline(rating["mu"], linestyle="--", color="grey")
            axes.annotate(rating["entrant"], (budgets[0], rating["mu"]), color="grey")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def write_outputs(out: Path, summary: Mapping[str, Any]) -> list[Path]:
    out.mkdir(parents=True, exist_ok=True)
    json_path, md_path, png = out / "ladder.json", out / "ratings.md", out / "ratings.png"
    json_path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    md_path.write_text(markdown(summary) + "\n", encoding="utf-8")
    plot_ratings(png, summary)
    plots = [png]
    if len(skill_points(summary)) >= 2:
        plots.append(out / "skill.png")
        plot_skill(plots[-1], summary)
    html_path = out / "report.html"
    write_html(html_path, summary, plots)
    return [json_path, md_path, *plots, html_path]


def write_html(path: Path, summary: Mapping[str, Any], plots: Sequence[Path]) -> None:
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>spielwerk ladder: {html.escape(summary['game'])}</title>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;"
        "padding:.2em .6em;text-align:right}img{max-width:100%}</style></head><body>",
        f"<h1>{html.escape(summary['game'])}: ladder of {summary['games']} games</h1>",
        f"<p>{summary['players']} players; entrants "
        f"{html.escape(', '.join(summary['entrants']))}; seed {summary['seed']}; "
        f"{html.escape(summary['model'])}; each rating with its 95% interval.</p>",
        html_table(RATING_HEADER, rating_rows(summary)),
        *(f"<p>{html.escape(line)}</p>" for line in findings(summary)),
        *(image_tag(plot) for plot in plots),
        "</body></html>",
    ]
    path.write_text("\n".join(parts), encoding="utf-8")
