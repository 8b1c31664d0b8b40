"""`spielwerk bench`: every measurement in one run, side by side with OpenSpiel, with ratios and
the targets of docs/performance.md."""

from __future__ import annotations

import importlib.util
import os
import platform
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import spielwerk
from spielwerk import native
from spielwerk.bench import measure
from spielwerk.core.conformance import games_under_test

USUAL_PLAYERS = {"witches": 4, "inkheart_dice": 3, "isolde": 4, "inkspell": 3, "tainted_grail": 2}
"""The player count each game is benchmarked at (Witches at 4: closest to Hearts)."""

TARGETS = {
    "witches_vs_hearts": 0.5,
    "public_api_vs_hearts": 1.0,
    "kernel_mcts_vs_openspiel_cpp_ismcts": 1.0,
    "mcts_vs_openspiel_ismcts": 3.0,
    "steps_per_s": 50_000.0,
    "tainted_grail_steps_per_s": 150_000.0,
    "startup_vs_openspiel": 2.0,
    "batched_vs_evaluate_bots": 10.0,
    "pettingzoo_agent_steps_per_s": 50_000.0,
    "vector_agent_steps_per_s": 1_000_000.0,
}
"""Goals: ratios (at least), figures (at least), and start-up (at most this times OpenSpiel's)."""
LOWER_IS_BETTER = frozenset({"startup_vs_openspiel"})


@dataclass(frozen=True)
class Budget:
    seconds_per_game: float
    seconds_per_cost: float
    mcts_iterations: int
    startup_runs: int
    batch_games: int
    vector_envs: int = 1024
    kernel_cold_start: bool = False
    """Measure the kernels' compile time from an empty cache (some ten minutes of CPU)."""


QUICK = Budget(1.0, 0.2, 200, 5, 4096)
FULL = Budget(5.0, 1.0, 1000, 15, 32768, kernel_cold_start=True)
MCTS_KERNEL_ITERATIONS = 20
"""The compiled search gets this many times the budget: a search of 1000 iterations takes
about 10 ms, too short to time alone."""


def usual_players(name: str) -> int:
    if name in USUAL_PLAYERS:
        return USUAL_PLAYERS[name]
    cls = spielwerk.load(name)
    return max(cls.min_players, min(4, cls.max_players))


def has_openspiel() -> bool:
    return importlib.util.find_spec("pyspiel") is not None


def has_kernels() -> bool:
    from spielwerk.core.kernel import available

    return available()


Progress = Callable[[str], None]


def _rules_build() -> str:
    """Whether the rules run compiled (spielwerk.native) or from source, and why."""
    build = native.status()
    return "compiled (mypyc)" if build["compiled"] else f"source ({build['reason']})"


def run_bench(
    quick: bool, progress: Progress | None = None, budget: Budget | None = None
) -> dict[str, Any]:
    """Measure everything; returns the JSON-ready results (figures, ratios, targets met).
    `budget` overrides the quick or full one (tests use a tiny one)."""
    budget = budget or (QUICK if quick else FULL)
    say = progress or (lambda _: None)
    openspiel = has_openspiel()
    kernels = has_kernels()
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
        "kernels": kernels,
        "rules": _rules_build(),
        "load_average_start": list(os.getloadavg()),
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

    if openspiel:  # timed in turns with hearts' loop: their ratio is the target
        say("public API: witches (legal_actions, chance_outcomes, apply), in turns with hearts")
        paired = measure.public_api_against_hearts("witches", 4, 2 * budget.seconds_per_game)
        results["public_api"] = {
            "witches": {"players": 4} | paired["witches"],
            "openspiel:hearts": {"players": 4} | paired["openspiel:hearts"],
        }
    else:
        say("public API: witches (legal_actions, chance_outcomes, apply)")
        results["public_api"] = {
            "witches": {"players": 4}
            | measure.spielwerk_public_api("witches", 4, budget.seconds_per_game)
        }

    say("MCTS: spielwerk on witches")
    mcts: dict[str, Any] = {
        "spielwerk": measure.spielwerk_mcts("witches", 4, budget.mcts_iterations)
    }
    if kernels:
        say("MCTS: spielwerk's compiled search on witches")
        mcts["spielwerk_kernel"] = measure.kernel_mcts(
            "witches", 4, budget.mcts_iterations * MCTS_KERNEL_ITERATIONS
        )
    if openspiel:
        say("MCTS: OpenSpiel ISMCTS (Python) on witches")
        mcts["openspiel_ismcts"] = measure.openspiel_ismcts("witches", 4, budget.mcts_iterations)
        say("MCTS: OpenSpiel ISMCTS (C++) on hearts")
        mcts["openspiel_cpp_ismcts"] = measure.openspiel_cpp_ismcts(
            "hearts", budget.mcts_iterations * MCTS_KERNEL_ITERATIONS
        )
    results["mcts"] = mcts

    say("start-up")
    snippets = {"spielwerk": "import spielwerk; spielwerk.load('witches').new_state(4, seed=0)"}
    if openspiel:
        snippets["openspiel"] = "import pyspiel; pyspiel.load_game('hearts').new_initial_state()"
    results["startup"] = measure.startup(snippets, budget.startup_runs)

    batched = _batched(budget, say)
    if batched:
        results["batched"] = batched
    if openspiel:
        say("OpenSpiel evaluate_bots on hearts (all C++)")
        results["openspiel_evaluate_bots"] = measure.openspiel_evaluate_bots(
            "hearts", budget.seconds_per_game
        )
    if importlib.util.find_spec("pettingzoo") is not None:
        say("PettingZoo AEC: witches")
        results["pettingzoo"] = {
            "witches": {"players": 4}
            | measure.pettingzoo_aec("witches", 4, budget.seconds_per_game)
        }
        say("PettingZoo AEC: its own Leduc Hold'em")
        leduc = measure.pettingzoo_leduc(budget.seconds_per_game)
        if leduc is not None:
            results["pettingzoo"]["pettingzoo:leduc_holdem"] = {"players": 2} | leduc
    if kernels:
        say("vector environment: witches")
        results["vector"] = {
            "witches": {"players": 4}
            | measure.vector_env("witches", 4, budget.vector_envs, budget.seconds_per_game)
        }
        say("kernels: loading the compiled code in a fresh interpreter")
        results["kernel_start"] = {"warm, all games": measure.kernel_start(cold=False)}
        if budget.kernel_cold_start:
            from spielwerk.agents.kernel_mcts import kernel_games

            for name in kernel_games():
                say(f"kernels: compiling {name}'s from an empty cache (its first use)")
                results["kernel_start"][f"cold, {name}"] = measure.kernel_start(True, (name,), 1)
            say("kernels: compiling all from an empty cache, two games at a time")
            results["kernel_start"]["cold, all games (2 jobs)"] = measure.kernel_start(True)
    results["load_average_end"] = list(os.getloadavg())
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
            figures[name]["simulator"] = "kernel"
    return figures


def ratios(results: dict[str, Any]) -> dict[str, Any]:
    """Each target: the measured value, the goal, whether it is met (None: not measured), and
    the label the report prints."""
    play = results["random_play"]
    out: dict[str, Any] = {}

    def ratio(key: str, label: str, mine: float | None, theirs: float | None) -> None:
        value = None if not mine or not theirs else mine / theirs
        goal = TARGETS[key.partition(":")[0]]
        met = None
        if value is not None:
            met = value <= goal if key in LOWER_IS_BETTER else value >= goal
        sign = "<=" if key in LOWER_IS_BETTER else ">="
        out[key] = {"label": label, "ratio": value, "target": goal, "met": met, "goal": sign}

    def figure(key: str, label: str, value: float | None) -> None:
        goal = TARGETS[key]
        met = None if value is None else value >= goal
        out[key] = {"label": label, "value": value, "target": goal, "met": met, "goal": ">="}

    hearts = play.get("openspiel:hearts", {}).get("games_per_s")
    ratio(
        "witches_vs_hearts",
        "Witches random play (apply_trusted) vs OpenSpiel hearts, games/s",
        play.get("witches", {}).get("games_per_s"),
        hearts,
    )
    public = results.get("public_api", {})
    ratio(
        "public_api_vs_hearts",
        "Witches public API (legal_actions/apply) vs OpenSpiel hearts, games/s, timed in turns",
        public.get("witches", {}).get("games_per_s"),
        public.get("openspiel:hearts", {}).get("games_per_s", hearts),
    )
    mcts = results["mcts"]
    ratio(
        "kernel_mcts_vs_openspiel_cpp_ismcts",
        "compiled MCTS (Witches) vs OpenSpiel C++ ISMCTS (hearts), iterations/s",
        mcts.get("spielwerk_kernel", {}).get("iterations_per_s"),
        mcts.get("openspiel_cpp_ismcts", {}).get("iterations_per_s"),
    )
    ratio(
        "mcts_vs_openspiel_ismcts",
        "Python MCTS vs OpenSpiel Python ISMCTS (both Witches), iterations/s",
        mcts["spielwerk"]["iterations_per_s"],
        mcts.get("openspiel_ismcts", {}).get("iterations_per_s"),
    )
    slowest = min(
        (figures["steps_per_s"], name) for name, figures in play.items() if ":" not in name
    )
    figure("steps_per_s", f"slowest game's random-play steps/s ({slowest[1]})", slowest[0])
    out["steps_per_s"]["slowest_game"] = slowest[1]
    figure(
        "tainted_grail_steps_per_s",
        "Tainted Grail random-play steps/s",
        play.get("tainted_grail", {}).get("steps_per_s"),
    )
    startup = results["startup"]
    ratio(
        "startup_vs_openspiel",
        "start-up (import, new game) vs OpenSpiel's",
        startup.get("spielwerk", {}).get("seconds"),
        startup.get("openspiel", {}).get("seconds"),
    )
    evaluate = results.get("openspiel_evaluate_bots", {}).get("games_per_s")
    for name, figures in results.get("batched", {}).items():
        ratio(
            f"batched_vs_evaluate_bots:{name}",
            f"batched {name} vs evaluate_bots hearts, games/s",
            figures["games_per_s"],
            evaluate,
        )
    figure(
        "pettingzoo_agent_steps_per_s",
        "PettingZoo AEC Witches agent-steps/s",
        results.get("pettingzoo", {}).get("witches", {}).get("agent_steps_per_s"),
    )
    figure(
        "vector_agent_steps_per_s",
        "vector env Witches agent-steps/s (one core)",
        results.get("vector", {}).get("witches", {}).get("agent_steps_per_s"),
    )
    return out
