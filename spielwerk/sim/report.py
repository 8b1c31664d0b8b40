"""What a simulation writes to `--out`: results.csv, summary.json, PNG plots, report.html.

The report is one self-contained HTML file (plots embedded as data URIs) that can be mailed or
archived; the CSV has one row per game and seat for any further analysis.
"""

from __future__ import annotations

import base64
import csv
import html
import json
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from matplotlib.figure import Figure

from spielwerk.sim.runner import GameRow
from spielwerk.sim.stats import entry_labels

CSV_FIELDS = (
    "variant",
    "game",
    "deal",
    "seed",
    "rotation",
    "seat",
    "agent",
    "spec",
    "score",
    "win_share",
    "won",
    "decisions",
    "steps",
    "seat_decisions",
    "think_seconds",
)


def write_csv(path: Path, rows: Sequence[GameRow]) -> None:
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.writer(file)
        writer.writerow(CSV_FIELDS)
        for row in rows:
            spec = row.spec
            labels = entry_labels(spec.lineup)
            for seat in range(len(spec.lineup)):
                entry = spec.entry_at(seat)
                writer.writerow(
                    (
                        spec.variant.label,
                        spec.index,
                        spec.deal,
                        spec.seed,
                        spec.rotation,
                        seat,
                        labels[entry],
                        spec.lineup[entry],
                        row.scores[seat],
                        row.win_shares[seat],
                        int(row.win_shares[seat] > 0),
                        row.decisions,
                        row.steps,
                        row.seat_decisions[seat] if row.seat_decisions else "",
                        f"{row.think_seconds[seat]:.4f}" if row.think_seconds else "",
                    )
                )


def _scores_by_agent(rows: Sequence[GameRow], variant: str) -> dict[str, list[float]]:
    by_agent: dict[str, list[float]] = {}
    for row in rows:
        if row.spec.variant.label != variant:
            continue
        labels = entry_labels(row.spec.lineup)
        for seat, score in enumerate(row.scores):
            by_agent.setdefault(labels[row.spec.entry_at(seat)], []).append(score)
    return by_agent


def _title(summary: Mapping[str, Any], variant: Mapping[str, Any]) -> str:
    label = f" ({variant['variant']})" if variant["variant"] else ""
    return f"{summary['game']}{label}, {variant['games']} games"


def plot_scores(path: Path, summary: Mapping[str, Any], rows: Sequence[GameRow]) -> None:
    """Score distribution of each agent: one box plot per variant."""
    variants = summary["variants"]
    figure = Figure(figsize=(max(5.0, 1.6 * len(summary["lineup"])), 3.6 * len(variants)))
    for index, variant in enumerate(variants):
        axes = figure.add_subplot(len(variants), 1, index + 1)
        by_agent = _scores_by_agent(rows, variant["variant"])
        axes.boxplot(list(by_agent.values()), tick_labels=list(by_agent), showmeans=True)
        axes.set_ylabel("score")
        axes.set_title(f"Score distribution - {_title(summary, variant)}")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def _bars(
    axes: Any,
    labels: Sequence[str],
    entries: Sequence[Mapping[str, Any]],
    offset: float,
    width: float,
    label: str,
) -> None:
    positions = [i + offset for i in range(len(labels))]
    rates = [e["win_rate"] for e in entries]
    errors = [
        [e["win_rate"] - e["low"] for e in entries],
        [e["high"] - e["win_rate"] for e in entries],
    ]
    axes.bar(positions, rates, width=width, yerr=errors, capsize=4, label=label)


def plot_seats(path: Path, summary: Mapping[str, Any]) -> None:
    """Win rate by seat with 95% intervals, one group of bars per variant, and the fair share."""
    variants = summary["variants"]
    players = len(summary["lineup"])
    figure = Figure(figsize=(max(5.0, 1.4 * players * len(variants)), 3.6))
    axes = figure.add_subplot(1, 1, 1)
    width = 0.8 / len(variants)
    labels = [f"seat {seat}" for seat in range(players)]
    for index, variant in enumerate(variants):
        offset = (index - (len(variants) - 1) / 2) * width
        _bars(axes, labels, variant["seats"], offset, width, variant["variant"] or "all games")
    if not variants[0]["cooperative"]:
        axes.axhline(1.0 / players, linestyle="--", color="grey", label="fair share")
    axes.set_xticks(range(players), labels)
    axes.set_ylabel("win rate")
    axes.set_title(f"Win rate by seat - {summary['game']}")
    axes.legend(loc="upper right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def plot_variants(path: Path, summary: Mapping[str, Any]) -> None:
    """Each agent's win rate under each variant, side by side."""
    variants = summary["variants"]
    agents = [a["agent"] for a in variants[0]["agents"]]
    figure = Figure(figsize=(max(5.0, 1.5 * len(agents) * len(variants)), 3.6))
    axes = figure.add_subplot(1, 1, 1)
    width = 0.8 / len(variants)
    for index, variant in enumerate(variants):
        offset = (index - (len(variants) - 1) / 2) * width
        _bars(axes, agents, variant["agents"], offset, width, variant["variant"])
    axes.set_xticks(range(len(agents)), agents)
    axes.set_ylabel("win rate")
    axes.set_title(f"Variants compared - {summary['game']}")
    axes.legend(loc="upper right")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def html_table(header: Sequence[str], body: Sequence[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    rows = "".join(
        "<tr>" + "".join(f"<td>{html.escape(cell)}</td>" for cell in row) + "</tr>" for row in body
    )
    return f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"


def agent_rows(variant: Mapping[str, Any]) -> list[list[str]]:
    return [
        [
            a["agent"],
            str(a["games"]),
            f"{a['win_rate']:.3f}",
            f"{a['low']:.3f}-{a['high']:.3f}",
            f"{a['score']['mean']:.2f}",
            f"{a['score']['low']:.2f}-{a['score']['high']:.2f}",
            _seconds(a.get("seconds_per_decision")),
        ]
        for a in variant["agents"]
    ]


def _seconds(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.3f}" if value >= 0.001 else f"{value * 1e6:.0f} µs"


AGENT_HEADER = (
    "agent",
    "games",
    "win rate",
    "95% interval",
    "mean score",
    "95% interval",
    "s/decision",
)
SEAT_HEADER = ("seat", "games", "win rate", "95% interval", "mean score")


def seat_rows(variant: Mapping[str, Any]) -> list[list[str]]:
    return [
        [
            str(s["seat"]),
            str(s["games"]),
            f"{s['win_rate']:.3f}",
            f"{s['low']:.3f}-{s['high']:.3f}",
            f"{s['score']['mean']:.2f}",
        ]
        for s in variant["seats"]
    ]


def findings(variant: Mapping[str, Any]) -> list[str]:
    """Plain sentences: the first-player test, the seat effect and the game length."""
    lines = []
    first = variant["first_player"]
    if first is not None:
        lines.append(
            f"First player wins {first['win_rate']:.3f} "
            f"[{first['low']:.3f}-{first['high']:.3f}] against a fair {first['fair']:.3f} "
            f"(advantage {first['advantage']:+.3f}, t-test over deals p = {first['p_value']:.3g})."
        )
    effect = variant["seat_effect"]
    if effect is not None:
        lines.append(
            f"Seat effect on wins: chi-square {effect['chi2']:.2f}, p = {effect['p_value']:.3g}."
        )
    length = variant["length"]["decisions"]
    lines.append(
        f"Game length: {length['mean']:.1f} decisions on average "
        f"[{length['low']:.1f}-{length['high']:.1f}], median {length['quantiles']['median']:.0f}, "
        f"{variant['length']['steps_mean']:.1f} steps with chance."
    )
    return lines


def image_tag(path: Path) -> str:
    data = base64.b64encode(path.read_bytes()).decode("ascii")
    return f'<img alt="{html.escape(path.stem)}" src="data:image/png;base64,{data}">'


def write_html(path: Path, summary: Mapping[str, Any], plots: Sequence[Path]) -> None:
    parts = [
        "<!doctype html><html lang='en'><head><meta charset='utf-8'>",
        f"<title>spielwerk simulation: {html.escape(summary['game'])}</title>",
        "<meta name='viewport' content='width=device-width, initial-scale=1'>",
        "<style>body{font-family:sans-serif;max-width:60em;margin:auto;padding:1em}"
        "table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #bbb;"
        "padding:.2em .6em;text-align:right}img{max-width:100%}</style></head><body>",
        f"<h1>{html.escape(summary['game'])}: {summary['games']} games</h1>",
        f"<p>Line-up {html.escape(', '.join(summary['lineup']))}; seed {summary['seed']}; "
        "each deal played once per seat rotation.</p>",
    ]
    if not summary["complete"]:
        parts.append(
            f"<p><strong>Interrupted: {summary['games']} of {summary['planned_games']} "
            "planned games finished.</strong></p>"
        )
    for variant in summary["variants"]:
        parts.append(f"<h2>{html.escape(variant['variant'] or 'All games')}</h2>")
        parts.append(html_table(AGENT_HEADER, agent_rows(variant)))
        parts.append(html_table(SEAT_HEADER, seat_rows(variant)))
        parts.extend(f"<p>{html.escape(line)}</p>" for line in findings(variant))
    parts.append("<h2>Plots</h2>")
    parts.extend(image_tag(plot) for plot in plots)
    parts.append("</body></html>")
    path.write_text("\n".join(parts), encoding="utf-8")


def write_outputs(out: Path, summary: Mapping[str, Any], rows: Sequence[GameRow]) -> list[Path]:
    """Write everything into `out` (created if missing); returns the files written."""
    out.mkdir(parents=True, exist_ok=True)
    csv_path, json_path = out / "results.csv", out / "summary.json"
    write_csv(csv_path, rows)
    json_path.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    plots = []
    if rows:
        plots = [out / "scores.png", out / "seats.png"]
        plot_scores(plots[0], summary, rows)
        plot_seats(plots[1], summary)
        if len(summary["variants"]) > 1:
            plots.append(out / "variants.png")
            plot_variants(plots[-1], summary)
    html_path = out / "report.html"
    write_html(html_path, summary, plots)
    return [csv_path, json_path, *plots, html_path]
