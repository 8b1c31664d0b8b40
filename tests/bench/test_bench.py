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

    console = Console(record=True, width=200)
    print_bench(console, results)
    text = console.export_text()
    for title in ("Random play", "Information-set MCTS", "State operations", "Start-up",
                  "Batched random play", "Targets"):  # fmt: skip
        assert title in text
    assert "| witches | 4 |" in markdown(results)


def test_bench_refuses_an_output_file_in_a_missing_directory(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["bench", "--quick", "--out", str(tmp_path / "no" / "x")])
    assert result.exit_code == 2
    assert "no directory" in result.stderr
