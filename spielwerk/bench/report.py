"""The tables `spielwerk bench` prints (rich) and the markdown for docs/performance.md."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.table import Table


def _num(value: float | None, digits: int = 0) -> str:
    return "-" if value is None else f"{value:,.{digits}f}"


def _ratio(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f}x"


def tables(results: Mapping[str, Any]) -> list[tuple[str, Sequence[str], list[list[str]]]]:
    """(title, header, rows) of every table, for the terminal and for markdown alike."""
    play = results["random_play"]
    hearts = play.get("openspiel:hearts", {}).get("games_per_s")
    out: list[tuple[str, Sequence[str], list[list[str]]]] = []
    out.append(
        (
            "Random play, driven from Python (chance steps included)",
            ("game", "players", "games/s", "steps/s", "games/s vs hearts"),
            [
                [
                    name,
                    str(f["players"]),
                    _num(f["games_per_s"]),
                    _num(f["steps_per_s"]),
                    _ratio(f["games_per_s"] / hearts if hearts else None),
                ]
                for name, f in play.items()
            ],
        )
    )
    mcts = results["mcts"]
    theirs = mcts.get("openspiel_ismcts", {}).get("iterations_per_s")
    mine = mcts["spielwerk"]["iterations_per_s"]
    out.append(
        (
            "Information-set MCTS on Witches, 4 players, same position and budget",
            ("engine", "iterations", "iterations/s", "relative to spielwerk"),
            [
                ["spielwerk MCTS", str(mcts["spielwerk"]["iterations"]), _num(mine), _ratio(1.0)],
                [
                    "OpenSpiel ISMCTS (Python) via adapter",
                    str(mcts.get("openspiel_ismcts", {}).get("iterations", "-")),
                    _num(theirs),
                    _ratio(theirs / mine if theirs else None),
                ],
            ],
        )
    )
    out.append(
        (
            "State operations, mid-game (microseconds per call)",
            ("game", "clone", "view", "resample"),
            [
                [name, _num(c["clone_us"], 2), _num(c["view_us"], 1), _num(c["resample_us"], 1)]
                for name, c in results["costs"].items()
            ],
        )
    )
    startup = results["startup"]
    out.append(
        (
            "Start-up: import and a new game (interpreter start subtracted)",
            ("engine", "seconds"),
            [[engine, _num(f["seconds"], 3)] for engine, f in startup.items()],
        )
    )
    evaluate = results.get("openspiel_evaluate_bots", {}).get("games_per_s")
    rows = [
        [
            f"spielwerk batched {name} ({f['players']} players, {f['games']:,} games)",
            _num(f["games_per_s"]),
            _ratio(f["games_per_s"] / evaluate if evaluate else None),
        ]
        for name, f in results.get("batched", {}).items()
    ]
    if evaluate:
        rows.append(["OpenSpiel hearts, evaluate_bots (all C++)", _num(evaluate), _ratio(1.0)])
    out.append(("Batched random play", ("engine", "games/s", "vs evaluate_bots"), rows))
    out.append(("Targets", ("target", "measured", "goal", "met"), _target_rows(results)))
    return out


def _target_rows(results: Mapping[str, Any]) -> list[list[str]]:
    labels = {
        "witches_vs_hearts": "Witches random play vs OpenSpiel hearts (games/s)",
        "mcts_vs_openspiel_ismcts": "spielwerk MCTS vs OpenSpiel ISMCTS (iterations/s)",
        "steps_per_s": "slowest game's random-play steps/s",
    }
    rows = []
    for key, figures in results["ratios"].items():
        met = {True: "yes", False: "NO", None: "-"}[figures["met"]]
        if key == "steps_per_s":
            rows.append(
                [
                    f"{labels[key]} ({figures['slowest_game']})",
                    _num(figures["value"]),
                    f">= {figures['target']:,.0f}",
                    met,
                ]
            )
            continue
        base, _, game = key.partition(":")
        label = labels.get(base, f"batched {game} vs evaluate_bots hearts (games/s)")
        rows.append([label, _ratio(figures["ratio"]), f">= {figures['target']}x", met])
    return rows


def print_bench(console: Console, results: Mapping[str, Any]) -> None:
    machine = results["machine"]
    console.print(
        f"[bold]spielwerk bench[/bold] ({'quick' if results['quick'] else 'full'}), "
        f"{results['date']}, {machine['processor']}, Python {machine['python']}"
    )
    if not results["openspiel"]:
        console.print("OpenSpiel is not installed (pip install 'spielwerk[rl]'): no comparison.")
    for title, header, rows in tables(results):
        table = Table(title=title, title_justify="left")
        for index, column in enumerate(header):
            table.add_column(column, justify="left" if index == 0 else "right")
        for row in rows:
            table.add_row(*row)
        console.print(table)


def markdown(results: Mapping[str, Any]) -> str:
    """The same tables as markdown (docs/performance.md)."""
    parts = []
    for title, header, rows in tables(results):
        parts.append(f"**{title}**\n")
        parts.append("| " + " | ".join(header) + " |")
        parts.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(header))) + "|")
        parts.extend("| " + " | ".join(row) + " |" for row in rows)
        parts.append("")
    return "\n".join(parts)
