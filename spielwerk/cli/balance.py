"""`spielwerk balance`: one progress bar per stage (time used of its share, games played), then
the findings in plain words and the files written."""

from __future__ import annotations

import re
import shutil
from collections.abc import Sequence
from pathlib import Path

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TaskID, TextColumn, TimeElapsedColumn

from spielwerk.core.errors import OptionError
from spielwerk.sim.balance import BalanceConfig, balance

UNITS = {"s": 1.0, "m": 60.0, "h": 3600.0, "": 1.0}


def parse_budget(text: str) -> float:
    """`90`, `90s`, `10m`, `1.5h` into seconds (at least one second)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([smh]?)\s*", text.lower())
    if not match or float(match[1]) * UNITS[match[2]] < 1:
        raise OptionError(f"bad --budget {text!r}: write e.g. 90s, 10m or 1h")
    return float(match[1]) * UNITS[match[2]]


class StageBars:
    """A bar per stage: the share of its time used, the games it played."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task: TaskID | None = None
        self.played = 0

    def stage(self, name: str, what: str, seconds: float) -> None:
        self._close()
        self.played = 0
        self.task = self.progress.add_task(
            f"{name}: {what}", total=max(seconds, 0.1), games=0, start=True
        )
        self.progress.update(self.task, completed=0)

    def games(self, count: int) -> None:
        if self.task is None:
            return
        self.played += count
        task = self.progress.tasks[self.task]
        self.progress.update(
            self.task, games=self.played, completed=min(task.total or 0, task.elapsed or 0)
        )

    def _close(self) -> None:
        if self.task is not None:
            task = self.progress.tasks[self.task]
            self.progress.update(self.task, completed=task.total)
            self.progress.stop_task(self.task)

    def finish(self) -> None:
        self._close()
        self.task = None


def run_balance(
    console: Console,
    *,
    game: str,
    players: int | None,
    budget: float,
    options: dict[str, str],
    tune: Sequence[str] | None,
    target: str | None,
    seed: int,
    jobs: int,
    backend: str,
    ray_address: str | None,
    out: Path,
    fresh: bool,
    started: float | None = None,
) -> int:
    """Run and report; returns 130 if Ctrl-C cut the run short, else 0. `started`: when the
    budget began (`time.monotonic()`), default now."""
    if fresh and (out / "partial").is_dir():
        shutil.rmtree(out / "partial")
    config = BalanceConfig(
        game=game,
        players=players,
        budget=budget,
        jobs=jobs,
        backend=backend,
        ray_address=ray_address,
        seed=seed,
        options=options,
        tune=list(tune) if tune else None,
        target=target,
    )
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        TextColumn("{task.fields[games]} games"),
        TimeElapsedColumn(),
    )
    status = Console(stderr=True)
    with Progress(*columns, console=status, refresh_per_second=4) as progress:
        bars = StageBars(progress)
        report, files = balance(config, out, bars, started=started)
        bars.finish()
    console.print(
        f"[bold]{escape(report['title'])}[/bold], {report['players']} players: "
        f"{report['run']['games']} games in {report['run']['elapsed_seconds']:.0f} s"
    )
    for line in report["statements"]:
        console.print(f"- {escape(line)}")
    console.print(f"Written to {escape(str(out))}: " + ", ".join(p.name for p in files))
    return 0 if report["complete"] or not report["incomplete_reason"].startswith("Interr") else 130
