"""`spielwerk review`: judge one seat's decisions of a finished game, print them as a table in
the player's language, and write the review as JSON and its chart as PNG."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from spielwerk.core.i18n import Lang
from spielwerk.core.state import State
from spielwerk.review.engine import THRESHOLDS, Decision, GameReview, review_game
from spielwerk.review.words import percent, say, seats_from_one, title

TOP_MOVES = 3
"""The search's favourite moves shown at each decision, the best first."""
MARK_STYLES = {"inaccuracy": "yellow", "mistake": "dark_orange", "blunder": "bold red"}


def review_with_progress(
    final: State, seat: int, seed: int, lang: Lang, hindsight: bool = False
) -> GameReview:
    """`review_game` with a progress bar on stderr (gone when it is done)."""
    columns = (
        TextColumn(escape(say(lang, "progress"))),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
    )
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("review", total=None)

        def advance(done: int, total: int) -> None:
            progress.update(task, completed=done, total=total)

        return review_game(final, seat, seed=seed, progress=advance, hindsight=hindsight)


def print_review(console: Console, review: GameReview, lang: Lang) -> None:
    """The review as a player reads it: what judged the moves, how far to trust the chances,
    one row per decision, and the marks counted."""
    seat = review.seat + 1
    console.print(
        f"[bold]{escape(say(lang, 'title', game=title(review.game, lang), seat=seat))}[/bold]"
    )
    console.print(
        escape(say(lang, f"method.{review.method}", iterations=review.iterations, seat=seat))
    )
    console.print(escape(calibration_line(review, lang)))
    if review.cooperative:
        console.print(escape(say(lang, "team")))
    limits = {name: percent(value) for name, value in THRESHOLDS}
    console.print(escape(say(lang, "thresholds", **limits)))
    if review.hindsight:
        console.print(escape(say(lang, "hindsight.note")))
    if not review.decisions:
        console.print(escape(say(lang, "no_decisions", seat=seat)))
        return
    console.print(decision_table(review, lang))
    counts = [say(lang, f"count.{name}", n=review.count(name)) for name, _ in THRESHOLDS]
    judged = say(lang, "judged", n=len(review.decisions))
    forced = say(lang, "forced", n=review.forced) if review.forced else None
    console.print(escape("; ".join([judged, *counts] + ([forced] if forced else []))))


def calibration_line(review: GameReview, lang: Lang) -> str:
    """Whether the chances were checked against real games, and how well."""
    c = review.calibration
    if c is None:
        return say(lang, "uncalibrated")
    if not c.calibrated:
        return say(
            lang,
            "miscalibrated",
            positions=f"{c.held_out_positions:,}",
            error=percent(c.reliability_error),
        )
    return say(
        lang,
        "calibrated",
        positions=f"{c.held_out_positions:,}",
        brier=f"{c.brier:.3f}",
        base=f"{c.base_brier:.3f}",
    )


def decision_table(review: GameReview, lang: Lang) -> Table:
    table = Table(show_lines=True)
    table.add_column(say(lang, "column.number"), justify="right")
    table.add_column(say(lang, "column.played"))
    table.add_column(say(lang, "column.chance"), justify="right")
    table.add_column(say(lang, "column.best"))
    table.add_column(say(lang, "column.drop"), justify="right")
    table.add_column(say(lang, "column.mark"))
    if review.hindsight:
        table.add_column(say(lang, "column.hindsight"))
    for decision in review.decisions:
        table.add_row(*decision_row(decision, lang))
    return table


def decision_row(decision: Decision, lang: Lang) -> list[str]:
    """The move played and its chance; the search's favourites with theirs, one a line (the
    move played among them in bold); the drop and the mark."""
    played = decision.played_move
    mark = decision.mark
    favourites = []
    for index, move in enumerate(decision.moves[:TOP_MOVES]):
        line = f"{escape(seats_from_one(move.text[lang]))} {percent(move.chance)}"
        favourites.append(f"[bold]{line}[/bold]" if index == decision.played else line)
    return [
        str(decision.number),
        escape(seats_from_one(played.text[lang])),
        percent(played.chance),
        "\n".join(favourites),
        percent(decision.drop) if decision.drop > 0 else "",
        f"[{MARK_STYLES[mark]}]{escape(say(lang, f'mark.{mark}'))}[/{MARK_STYLES[mark]}]"
        if mark
        else "",
        *([hindsight_cell(decision, lang)] if played.hindsight is not None else []),
    ]


def hindsight_cell(decision: Decision, lang: Lang) -> str:
    """With every card open: the move played's chance, and the best move's by hindsight."""
    played = decision.played_move
    best = max(decision.moves, key=lambda m: m.hindsight or 0.0)
    assert played.hindsight is not None and best.hindsight is not None
    if best is played:
        return percent(played.hindsight)
    text = escape(seats_from_one(best.text[lang]))
    return f"{percent(played.hindsight)}\n{say(lang, 'hindsight.best', move=text)} " + percent(
        best.hindsight
    )


def write_review(review: GameReview, out: Path, lang: Lang) -> tuple[Path, Path]:
    """Write the review's JSON and chart into the directory `out`; their paths."""
    from spielwerk.review.chart import plot_review

    stem = f"{review.game}-seat{review.seat + 1}-review"
    data, chart = out / f"{stem}.json", out / f"{stem}.png"
    data.write_text(json.dumps(review.to_json(), indent=1, ensure_ascii=False) + "\n", "utf-8")
    plot_review(review, chart, lang)
    return data, chart
