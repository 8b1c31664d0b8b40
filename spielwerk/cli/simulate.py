"""`spielwerk simulate`: the progress bar and the summary tables in the terminal."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from rich.text import Text

from spielwerk.sim.plan import GameSpec
from spielwerk.sim.report import AGENT_HEADER, SEAT_HEADER, agent_rows, findings, seat_rows
from spielwerk.sim.runner import RowsHook, RunResult, run


class GamesPerSecond(ProgressColumn):
    def render(self, task: Task) -> Text:
        elapsed = task.finished_time if task.finished else task.elapsed
        if not elapsed or not task.completed:
            return Text("- games/s")
        return Text(f"{task.completed / elapsed:,.1f} games/s")


def run_with_progress(
    specs: Sequence[GameSpec],
    jobs: int,
    backend: str,
    ray_address: str | None,
    console: Console,
    batched: bool | None = None,
    on_rows: RowsHook | None = None,
) -> RunResult:
    """Play the games with a progress bar (games/s, ETA) on `console`."""
    columns = (
        TextColumn("[bold]simulating"),
        BarColumn(),
        MofNCompleteColumn(),
        GamesPerSecond(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
    )
    with Progress(*columns, console=console) as progress:
        task = progress.add_task("games", total=len(specs))
        return run(
            specs,
            jobs=jobs,
            backend=backend,
            ray_address=ray_address,
            progress=lambda done: progress.advance(task, done),
            batched=batched,
            on_rows=on_rows,
        )


def _table(title: str, header: Sequence[str], rows: Sequence[Sequence[str]]) -> Table:
    table = Table(title=title, title_justify="left")
    for index, column in enumerate(header):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in rows:
        table.add_row(*(escape(cell) for cell in row))
    return table


def _print_whole(console: Console, table: Table) -> None:
    """Into a file or pipe a table is printed at its full width (a report keeps every figure
    whole); on a terminal it fits the window."""
    if console.is_terminal:
        console.print(table)
        return
    natural = console.measure(table, options=console.options.update_width(10_000)).maximum
    window = console.width
    console.width = max(window, natural)  # print(width=) cannot go beyond the console's
    try:
        console.print(table)
    finally:
        console.width = window


def print_summary(console: Console, summary: Mapping[str, Any]) -> None:
    """Per variant: the agents' and the seats' tables, then the findings in words."""
    if summary["interrupted"]:
        console.print(
            f"[bold]Interrupted[/bold]: {summary['games']} of {summary['planned_games']} "
            "games finished; the figures below are theirs."
        )
    for variant in summary["variants"]:
        name = variant["variant"] or "all games"
        console.print()
        console.print(f"[bold]{escape(summary['game'])}[/bold] - {escape(name)}")
        _print_whole(console, _table("Agents", AGENT_HEADER, agent_rows(variant)))
        _print_whole(console, _table("Seats", SEAT_HEADER, seat_rows(variant)))
        for line in findings(variant):
            console.print(escape(line))
    if len(summary["variants"]) > 1:
        console.print()
        _print_whole(console, _variants_table(summary))


def _variants_table(summary: Mapping[str, Any]) -> Table:
    """The variants side by side: each agent's win rate, first-player edge, game length."""
    variants = summary["variants"]
    table = Table(title="Variants side by side", title_justify="left")
    table.add_column("")
    for variant in variants:
        table.add_column(escape(variant["variant"]), justify="right")
    for index, agent in enumerate(variants[0]["agents"]):
        cells = []
        for variant in variants:
            a = variant["agents"][index]
            cells.append(f"{a['win_rate']:.3f} [{a['low']:.3f}-{a['high']:.3f}]")
        table.add_row(escape(f"{agent['agent']} win rate"), *cells)
    if variants[0]["first_player"] is not None:
        table.add_row(
            "first-player edge (p)",
            *(
                f"{v['first_player']['advantage']:+.3f} ({v['first_player']['p_value']:.2g})"
                for v in variants
            ),
        )
    table.add_row(
        "decisions per game",
        *(f"{v['length']['decisions']['mean']:.1f}" for v in variants),
    )
    return table
