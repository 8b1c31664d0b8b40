"""`spielwerk bench`: every measurement present, ratios against the targets, tables printed.
(Speed itself is never asserted: benchmarks measure, tests check that they run and report.)"""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from typer.testing import CliRunner

from spielwerk.bench.report import markdown, print_bench
from spielwerk.bench.run import Budget, run_bench
from spielwerk.cli.main import app

TINY = Budget(
    seconds_per_game=0.05, seconds_per_cost=0.01, mcts_iterations=10, startup_runs=1,
    batch_games=128,
)  # fmt: skip


def test_a_tiny_bench_run_has_every_section_and_ratio() -> None:
    results = run_bench(quick=True, budget=TINY)
    json.dumps(results)  # JSON-ready
    play = results["random_play"]
    assert "witches" in play and "openspiel:hearts" in play
    assert play["witches"]["players"] == 4 and play["witches"]["steps_per_s"] > 0
    assert {"clone_us", "view_us", "resample_us"} <= set(results["costs"]["witches"])
    assert results["mcts"]["spielwerk"]["iterations"] == 10
    assert results["mcts"]["openspiel_ismcts"]["iterations_per_s"] > 0
    assert set(results["startup"]) == {"spielwerk", "openspiel"}
    assert results["batched"]["witches"]["games"] == 128
    assert results["openspiel_evaluate_bots"]["games_per_s"] > 0
    ratios = results["ratios"]
    assert ratios["witches_vs_hearts"]["ratio"] == (
        play["witches"]["games_per_s"] / play["openspiel:hearts"]["games_per_s"]
    )
    assert ratios["witches_vs_hearts"]["met"] == (ratios["witches_vs_hearts"]["ratio"] >= 0.5)
    assert "batched_vs_evaluate_bots:witches" in ratios
    public = results["public_api"]  # timed in turns with hearts' loop, whose figure it is held to
    assert public["witches"]["rounds"] == public["openspiel:hearts"]["rounds"] == 10
    assert ratios["public_api_vs_hearts"]["ratio"] == (
        public["witches"]["games_per_s"] / public["openspiel:hearts"]["games_per_s"]
    )

    console = Console(record=True, width=200)
    print_bench(console, results)
    text = console.export_text()
    for title in ("Random play", "Information-set MCTS", "State operations", "Start-up",
                  "Batched random play", "Targets"):  # fmt: skip
        assert title in text
    assert "| witches | 4 |" in markdown(results)


def test_loops_timed_in_turns_share_the_rounds_and_number_their_games_on() -> None:
    """Each loop gets a slice of every round, the order alternating; its games are numbered
    0, 1, 2, ... across the rounds (so seeds never repeat)."""
    from spielwerk.bench.measure import interleaved_games

    seen: dict[str, list[int]] = {"a": [], "b": []}
    order: list[str] = []

    def loop(name: str):  # type: ignore[no-untyped-def]
        def play_one(seed: int) -> int:
            seen[name].append(seed)
            order.append(name)  # a budget of 0: one game a slice
            return 3

        return play_one

    figures = interleaved_games({"a": loop("a"), "b": loop("b")}, budget=0.0, rounds=4)
    assert order == ["a", "b", "b", "a", "a", "b", "b", "a"]
    for name in ("a", "b"):
        assert seen[name] == list(range(len(seen[name])))
        assert figures[name]["games"] == len(seen[name]) and figures[name]["steps"] == 3 * len(
            seen[name]
        )


def test_bench_refuses_an_output_file_in_a_missing_directory(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "--quick", "--out", str(tmp_path / "no" / "x")])
    assert result.exit_code == 2
    assert "no directory" in result.stderr
