"""`--backend ray` against a local Ray instance that the run starts: same results as local."""

from __future__ import annotations

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
        runs[backend] = (out / "results.csv").read_text()
    assert runs["ray"] == runs["local"]
    assert runs["ray"].count("\n") == 1 + 12 * 3
