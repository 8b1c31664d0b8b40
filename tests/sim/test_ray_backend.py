"""`--backend ray` against a local Ray instance that the run starts: same results as local."""

from __future__ import annotations

import csv
from pathlib import Path

import ray  # the `ray` extra, installed by `make test`
from typer.testing import CliRunner

from spielwerk.cli.main import app


def test_ray_backend_gives_the_local_results(tmp_path: Path) -> None:
    assert not ray.is_initialized()  # the run starts its own local instance and stops it
    lineup = "heuristic,random,random"
    runs = {}
    for backend in ("local", "ray"):
        out = tmp_path / backend
        result = CliRunner().invoke(
            app,
            ["simulate", "witches", "-n", "12", "-p", lineup, "--seed", "5",
             "--backend", backend, "--out", str(out)],
        )  # fmt: skip
        assert result.exit_code == 0, result.stderr
        with (out / "results.csv").open(encoding="utf-8") as file:
            rows = list(csv.DictReader(file))
        for row in rows:
            row.pop("think_seconds")  # the machine's time, not the game's
        runs[backend] = rows
    assert runs["ray"] == runs["local"]
    assert len(runs["ray"]) == 12 * 3


def test_ray_backend_plays_a_callers_own_play_function() -> None:
    """`spielwerk balance` sends its own play function (`play_balance`) to the workers: on Ray
    its rows (exposures, lead changes, watched agreement) equal the local ones."""
    from dataclasses import replace

    from spielwerk.sim.balance.play import BalanceSpec, play_balance
    from spielwerk.sim.plan import Variant
    from spielwerk.sim.runner import run

    specs = [
        BalanceSpec(
            i, "witches", Variant("", ()), ("strategy:highest", "heuristic", "heuristic"),
            i // 3, 40 + i // 3, i % 3, stage="ladder", config="x", watch=("strategy:lowest",),
        )
        for i in range(6)
    ]  # fmt: skip
    rows = {}
    for backend in ("local", "ray"):
        result = run(specs, backend=backend, play=play_balance)
        rows[backend] = [replace(row, seconds=0.0) for row in result.rows]  # type: ignore[type-var]
    assert rows["ray"] == rows["local"]
    assert rows["local"][0].exposures and rows["local"][0].agreement
