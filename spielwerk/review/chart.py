"""The chart of a review: the seat's winning chance over its decisions (PNG, matplotlib)."""

from __future__ import annotations

from pathlib import Path

from matplotlib.figure import Figure

from spielwerk.core.i18n import Lang
from spielwerk.review.engine import GameReview
from spielwerk.review.words import say, title

MARK_COLOURS = {"inaccuracy": "#d9a400", "mistake": "#e07000", "blunder": "#c00000"}
"""Yellow, orange, red: lichess's colours for the three marks."""


def plot_review(review: GameReview, path: Path, lang: Lang) -> None:
    """Write the chart of `review` to `path`: the chance after the move played and after the
    best move at each judged decision, the marked moves as coloured dots."""
    seat = review.seat + 1
    numbers = [d.number for d in review.decisions]
    played = [100 * d.played_move.chance for d in review.decisions]
    best = [100 * d.best_move.chance for d in review.decisions]
    figure = Figure(figsize=(8, 3.6))
    axes = figure.add_subplot()
    axes.plot(numbers, best, color="#7a7a7a", linestyle="--", label=say(lang, "chart.best"))
    axes.plot(
        numbers, played, color="#1f4e9a", marker="o", markersize=3, label=say(lang, "chart.played")
    )
    for mark, colour in MARK_COLOURS.items():
        points = [
            (d.number, 100 * d.played_move.chance) for d in review.decisions if d.mark == mark
        ]
        if points:
            xs, ys = zip(*points, strict=True)
            axes.scatter(xs, ys, color=colour, s=36, zorder=3, label=say(lang, f"mark.{mark}"))
    axes.set_ylim(0, 100)
    axes.set_xlabel(say(lang, "chart.x", seat=seat))
    axes.set_ylabel(say(lang, "chart.y") + " (%)")
    heading = say(lang, "chart.title", game=title(review.game, lang), seat=seat)
    if not review.calibrated:
        heading += f" ({say(lang, 'chart.uncalibrated')})"
    axes.set_title(heading)
    axes.grid(alpha=0.3)
    axes.legend(loc="best", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
