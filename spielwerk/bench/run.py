"""`spielwerk bench`: every measurement in one run, side by side with OpenSpiel, with ratios and
the targets of docs/performance.md."""

from __future__ import annotations

import importlib.util
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import spielwerk
from spielwerk.bench import measure
from spielwerk.core.conformance import games_under_test

USUAL_PLAYERS = {"witches": 4, "inkheart_dice": 3, "isolde": 4, "inkspell": 3, "tainted_grail": 2}
"""The player count each game is benchmarked at (Witches at 4: closest to Hearts)."""

TARGETS = {
    "witches_vs_hearts": 0.5,
    "mcts_vs_openspiel_ismcts": 3.0,
    "steps_per_s": 50_000.0,
    "batched_vs_evaluate_bots": 1.0,
}


@dataclass(frozen=True)
class Budget:
    seconds_per_game: float
    seconds_per_cost: float
    mcts_iterations: int
    startup_runs: int
    batch_games: int


QUICK = Budget(1.0, 0.2, 200, 3, 4096)
FULL = Budget(5.0, 1.0, 1000, 7, 32768)


def usual_players(name: str) -> int:
    if name in USUAL_PLAYERS:
        return USUAL_PLAYERS[name]
    cls = spielwerk.load(name)
    return max(cls.min_players, min(4, cls.max_players))


def has_openspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


Progress = Callable[[str], None]


def run_bench(
    quick: bool, progress: Progress | None = None, budget: Budget | None = None
) -> dict[str, Any]:
    """Measure everything; returns the JSON-ready results (figures, ratios, targets met).
    `budget` overrides the quick or full one (tests use a tiny one)."""
    budget = budget or (QUICK if quick else FULL)
    say = progress or (lambda _: None)
    openspiel = has_openspiel()
    results: dict[str, Any] = {
        "quick": quick,
        "date": time.strftime("%Y-%m-%d %H:%M"),
        "machine": {
            "processor": platform.processor() or platform.machine(),
            "python": platform.python_version(),
            "system": platform.platform(),
        },
        "targets": TARGETS,
        "openspiel": openspiel,
    }

    play: dict[str, Any] = {}
    for name in games_under_test():
        players = usual_players(name)
        say(f"random play: {name}, {players} players")
        play[name] = {"players": players} | measure.spielwerk_random_play(
            name, players, budget.seconds_per_game
        )
    if openspiel:
        say("random play: OpenSpiel hearts (C++, Python loop)")
        play["openspiel:hearts"] = {"players": 4} | measure.openspiel_random_play(
            "hearts", budget.seconds_per_game
        )
    results["random_play"] = play

    results["costs"] = {}
    for name in games_under_test():
        say(f"clone/view/resample: {name}")
        results["costs"][name] = measure.state_costs(
            name, usual_players(name), budget.seconds_per_cost
        )

    say("MCTS: spielwerk on witches")
    mcts: dict[str, Any] = {
        "spielwerk": measure.spielwerk_mcts("witches", 4, budget.mcts_iterations)
    }
    if openspiel:
        say("MCTS: OpenSpiel ISMCTS on witches")
        mcts["openspiel_ismcts"] = measure.openspiel_ismcts("witches", 4, budget.mcts_iterations)
    results["mcts"] = mcts

    say("start-up")
    results["startup"] = {
        "spielwerk": measure.startup(
            "import spielwerk; spielwerk.load('witches').new_state(4, seed=0)", budget.startup_runs
        )
    }
    if openspiel:
        results["startup"]["openspiel"] = measure.startup(
            "import pyspiel; pyspiel.load_game('hearts').new_initial_state()", budget.startup_runs
        )

    batched = _batched(budget, say)
    if batched:
        results["batched"] = batched
    if openspiel:
        say("OpenSpiel evaluate_bots on hearts (all C++)")
        results["openspiel_evaluate_bots"] = measure.openspiel_evaluate_bots(
            "hearts", budget.seconds_per_game
        )
    results["ratios"] = ratios(results)
    return results


def _batched(budget: Budget, say: Progress) -> dict[str, Any]:
    from spielwerk.bench.batched import batched_throughput
    from spielwerk.sim.batched import batched_simulator

    figures: dict[str, Any] = {}
    for name in games_under_test():
        if batched_simulator(name) is not None:
            say(f"batched simulator: {name}")
            figures[name] = batched_throughput(name, usual_players(name), budget.batch_games)
    return figures


def ratios(results: dict[str, Any]) -> dict[str, Any]:
    """The ratios the targets are about, with whether each target is met (None: not measured)."""
    play = results["random_play"]
    out: dict[str, Any] = {}

    def ratio(key: str, mine: float | None, theirs: float | None) -> None:
        value = None if not mine or not theirs else mine / theirs
        met = None if value is None else value >= TARGETS[key]
        out[key] = {"ratio": value, "target": TARGETS[key], "met": met}

    hearts = play.get("openspiel:hearts", {}).get("games_per_s")
    ratio("witches_vs_hearts", play.get("witches", {}).get("games_per_s"), hearts)
    theirs = results["mcts"].get("openspiel_ismcts", {}).get("iterations_per_s")
    ratio("mcts_vs_openspiel_ismcts", results["mcts"]["spielwerk"]["iterations_per_s"], theirs)
    slowest = min(
        (figures["steps_per_s"], name) for name, figures in play.items() if ":" not in name
    )
    out["steps_per_s"] = {
        "slowest_game": slowest[1],
        "value": slowest[0],
        "target": TARGETS["steps_per_s"],
        "met": slowest[0] >= TARGETS["steps_per_s"],
    }
    evaluate = results.get("openspiel_evaluate_bots", {}).get("games_per_s")
    for name, figures in results.get("batched", {}).items():
        key = "batched_vs_evaluate_bots"
        value = None if not evaluate else figures["games_per_s"] / evaluate
        out[f"{key}:{name}"] = {
            "ratio": value,
            "target": TARGETS[key],
            "met": None if value is None else value >= TARGETS[key],
        }
    return out
