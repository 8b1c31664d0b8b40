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
    public = results.get("public_api", {})
    if public:
        # Hearts' loop timed in turns with the public one, where the run did (else the above).
        hearts = public.get("openspiel:hearts", {}).get("games_per_s", hearts)
        out.append(
            (
                "Public API: legal_actions(), chance_outcomes(), checked apply(Action); "
                "timed in turns with hearts' loop",
                ("game", "players", "games/s", "steps/s", "games/s vs hearts"),
                [
                    [
                        name,
                        str(f["players"]),
                        _num(f["games_per_s"]),
                        _num(f["steps_per_s"]),
                        _ratio(f["games_per_s"] / hearts if hearts else None),
                    ]
                    for name, f in public.items()
                ],
            )
        )
    mcts = results["mcts"]
    engines = (
        ("spielwerk_kernel", "spielwerk compiled MCTS (Witches)"),
        ("spielwerk", "spielwerk Python MCTS (Witches)"),
        ("openspiel_cpp_ismcts", "OpenSpiel ISMCTS, C++ (hearts)"),
        ("openspiel_ismcts", "OpenSpiel ISMCTS, Python, via adapter (Witches)"),
    )
    cpp = mcts.get("openspiel_cpp_ismcts", {}).get("iterations_per_s")
    out.append(
        (
            "Information-set MCTS, random rollouts, 4 players, mid-game position",
            ("engine", "iterations", "iterations/s", "vs OpenSpiel C++"),
            [
                [
                    label,
                    str(mcts[key]["iterations"]),
                    _num(mcts[key]["iterations_per_s"]),
                    _ratio(mcts[key]["iterations_per_s"] / cpp if cpp else None),
                ]
                for key, label in engines
                if key in mcts
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
            f"spielwerk batched {name}, {f.get('simulator', 'kernel')} "
            f"({f['players']} players, {f['games']:,} games)",
            _num(f["games_per_s"]),
            _ratio(f["games_per_s"] / evaluate if evaluate else None),
        ]
        for name, f in results.get("batched", {}).items()
    ]
    if evaluate:
        rows.append(["OpenSpiel hearts, evaluate_bots (all C++)", _num(evaluate), _ratio(1.0)])
    out.append(("Batched random play", ("engine", "games/s", "vs evaluate_bots"), rows))
    environments = [
        [
            f"{kind}: {name} ({f['players']} players)",
            _num(f["agent_steps_per_s"]),
        ]
        for kind, section in (("PettingZoo AEC", "pettingzoo"), ("vector env", "vector"))
        for name, f in results.get(section, {}).items()
    ]
    if environments:
        out.append(("Environments for learning", ("environment", "agent-steps/s"), environments))
    start = results.get("kernel_start", {})
    if start:
        out.append(
            (
                "Kernels: fresh interpreters compiling (cold) or loading (warm) them",
                ("cache", "seconds"),
                [[kind, _num(f["seconds"], 1)] for kind, f in start.items()],
            )
        )
    out.append(("Targets", ("target", "measured", "goal", "met"), _target_rows(results)))
    return out


def _target_rows(results: Mapping[str, Any]) -> list[list[str]]:
    rows = []
    for figures in results["ratios"].values():
        met = {True: "yes", False: "NO", None: "-"}[figures["met"]]
        if "ratio" in figures:
            measured, goal = _ratio(figures["ratio"]), f"{figures['target']}x"
        else:
            measured, goal = _num(figures["value"]), f"{figures['target']:,.0f}"
        rows.append([figures["label"], measured, f"{figures['goal']} {goal}", met])
    return rows


def _load(results: Mapping[str, Any]) -> str:
    """The 1-minute load average at the start and the end of the run (a busy machine slows
    every absolute figure; ratios measured side by side suffer less)."""
    start, end = results.get("load_average_start"), results.get("load_average_end")
    if not start or not end:
        return "-"
    return f"{start[0]:.2f} at the start, {end[0]:.2f} at the end"


def print_bench(console: Console, results: Mapping[str, Any]) -> None:
    machine = results["machine"]
    console.print(
        f"[bold]spielwerk bench[/bold] ({'quick' if results['quick'] else 'full'}), "
        f"{results['date']}, {machine['processor']}, Python {machine['python']}, "
        f"load average {_load(results)}, rules {results.get('rules', '-')}"
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
