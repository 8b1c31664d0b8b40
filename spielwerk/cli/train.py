"""`spielwerk train`: the progress bar, the training log and the learning curve (PNG)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

from spielwerk.learn.train import Progress as RunProgress
from spielwerk.learn.train import Run


def log_path(model: Path) -> Path:
    return model.with_name(model.stem + ".log.jsonl")


def curve_path(model: Path) -> Path:
    return model.with_name(model.stem + ".curve.png")


def train_with_progress(run: Run, console: Console, status: Console) -> RunProgress:
    """Run the training with a time bar (generations, games, loss, last evaluation) on
    `status`; each evaluation and checkpoint is a line on `console` and in the log file."""
    config = run.config
    start_seconds = run.progress.seconds
    columns = (
        TextColumn("[bold]training"),
        BarColumn(),
        TextColumn("{task.description}"),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
    )
    with (
        log_path(config.out).open("a", encoding="utf-8") as log,
        Progress(*columns, console=status) as bar,
    ):
        total = config.minutes * 60
        task = bar.add_task("starting", total=total)

        def on_event(kind: str, progress: RunProgress, details: dict[str, Any]) -> None:
            _log(log, kind, progress, details)
            loss = progress.loss.get("loss")
            text = (
                f"gen {progress.generation} · {progress.games} games · "
                f"{progress.samples} samples" + (f" · loss {loss:.3f}" if loss is not None else "")
            )
            if progress.curve:
                text += f" · vs heuristic {progress.curve[-1].get('vs_heuristic', 0):.2f}"
            bar.update(
                task, completed=min(total, progress.seconds - start_seconds), description=text
            )
            if kind == "evaluation":
                console.print(f"evaluation: {escape(_point_text(details))}")
            elif kind == "checkpoint" and not details.get("final"):
                console.print(f"checkpoint written to {escape(details['path'])}")

        return run.run(on_event)


def _log(log: IO[str], kind: str, progress: RunProgress, details: dict[str, Any]) -> None:
    entry = {
        "event": kind,
        "minutes": round(progress.seconds / 60, 3),
        "generation": progress.generation,
        "games": progress.games,
        "samples": progress.samples,
        "steps": progress.steps,
        "loss": progress.loss,
        **details,
    }
    log.write(json.dumps(entry) + "\n")
    log.flush()


def _point_text(point: dict[str, Any]) -> str:
    parts = [f"{point['minutes']:.1f} min"]
    for opponent in ("heuristic", "previous"):
        if f"vs_{opponent}" in point:
            games = point[f"vs_{opponent}_games"]
            text = f"{point[f'vs_{opponent}']:.3f} vs {opponent} ({games} games)"
            if f"{opponent}_team" in point:
                text += f", {opponent} team {point[f'{opponent}_team']:.3f}"
            parts.append(text)
    return ", ".join(parts)


def plot_curve(curve: Sequence[dict[str, Any]], players: int, title: str, path: Path) -> bool:
    """The learning curve: win rate against the heuristic over training time (PNG). False if
    there is no evaluation to plot yet."""
    points = [p for p in curve if "vs_heuristic" in p]
    if not points:
        return False
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(6.4, 4.0), dpi=100)
    minutes = [p["minutes"] for p in points]
    axes.plot(
        minutes, [p["vs_heuristic"] for p in points], "o-", label="network search vs heuristic"
    )
    if "heuristic_team" in points[0]:
        axes.plot(minutes, [p["heuristic_team"] for p in points], "s--", label="heuristic team")
    else:
        axes.axhline(1 / players, color="grey", linestyle=":", label=f"equal share 1/{players}")
    previous = [p for p in points if "vs_previous" in p]
    if previous:
        axes.plot(
            [p["minutes"] for p in previous],
            [p["vs_previous"] for p in previous],
            "^-",
            alpha=0.6,
            label="vs previous network",
        )
    axes.set_xlabel("training time (minutes)")
    axes.set_ylabel("win rate")
    axes.set_ylim(0, 1)
    axes.set_title(title)
    axes.legend(loc="lower right", fontsize="small")
    figure.tight_layout()
    figure.savefig(path)
    plt.close(figure)
    return True
