"""`spielwerk ladder`: play the round robin with a progress bar, rate, print and write it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.table import Table

from spielwerk.cli.simulate import run_with_progress
from spielwerk.sim.ladder import GAMES_FILE, GameLog, LadderSetup, plan_ladder, rate
from spielwerk.sim.ladder_report import RATING_HEADER, findings, rating_rows, write_outputs
from spielwerk.sim.runner import GameRow, run

DEFAULT_ENTRANTS = ("random", "heuristic", "mcts:300", "mcts", "best")


def run_ladder(
    setup: LadderSetup,
    games: int,
    jobs: int,
    backend: str,
    ray_address: str | None,
    out: Path | None,
    console: Console,
    progress: bool = True,
) -> tuple[dict[str, Any], bool]:
    """Play what is left of the ladder (resuming from `out`), rate it; (summary, interrupted)."""
    specs = plan_ladder(setup, games)
    log = GameLog(out / GAMES_FILE, setup, specs) if out is not None else None
    done: dict[int, GameRow] = dict(log.rows) if log is not None else {}
    todo = [spec for spec in specs if spec.index not in done]
    console.print(
        f"[bold]{escape(setup.game)}[/bold] ladder: {len(specs)} games "
        f"({len(specs) // setup.games_per_deal} deals x {len(setup.lineups)} line-ups x "
        f"{setup.players} rotations), entrants {escape(', '.join(setup.entrants))}"
        + (f"; {len(done)} already played, resuming" if done else "")
    )
    interrupted = False
    if todo:
        hook = log.add if log is not None else None
        if progress:
            result = run_with_progress(
                todo, jobs, backend, ray_address, Console(stderr=True), False, on_rows=hook
            )
        else:
            result = run(
                todo,
                jobs=jobs,
                backend=backend,
                ray_address=ray_address,
                batched=False,
                on_rows=hook,
            )
        done.update((row.spec.index, row) for row in result.rows)
        interrupted = result.interrupted
    summary = rate(setup, list(done.values()))
    summary["planned_games"] = len(specs)
    print_ratings(console, summary)
    if out is not None and done:
        written = write_outputs(out, summary)
        console.print(
            f"Written to {escape(str(out))}: {GAMES_FILE}, " + ", ".join(p.name for p in written)
        )
    return summary, interrupted


def print_ratings(console: Console, summary: Mapping[str, Any]) -> None:
    table = Table(
        title=f"Ratings after {summary['games']} of {summary['planned_games']} games",
        title_justify="left",
    )
    for index, column in enumerate(RATING_HEADER):
        table.add_column(column, justify="left" if index == 0 else "right")
    for row in rating_rows(summary):
        table.add_row(*(escape(cell) for cell in row))
    console.print(table)
    for line in findings(summary):
        console.print(escape(line))


def entrant_list(text: str | None, skill: str | None) -> Sequence[str]:
    """The entrants of `--entrants` (default: the lobby's strengths) plus a `--skill` ladder."""
    from spielwerk.sim.ladder import doubling

    entrants: list[str] = []
    if text is not None:
        entrants = [part.strip().lower() for part in text.split(",")]
    if skill is not None:
        kind, _, span = skill.partition(":")
        low, _, high = span.partition(":")
        if not kind or not low.isdigit() or not high.isdigit():
            raise ValueError(
                f"bad --skill {skill!r}: write it as KIND:LOW:HIGH, e.g. mcts:100:3200"
            )
        entrants += doubling(kind, int(low), int(high))
    return entrants or list(DEFAULT_ENTRANTS)
