"""`spielwerk balance`: the report a game designer needs, within a time budget.

`run.BalanceRun` plays the stages (`run.STAGES`) and stores their games as they finish;
`estimate` holds the estimators; `search` the rule-variant search; `report` writes the files.
`balance()` does all of it. Method and findings: docs/analysis.md.
"""

from __future__ import annotations

import json
import os
import platform
import sys
import time
from pathlib import Path
from typing import Any

from spielwerk.sim.balance.play import BalanceRow
from spielwerk.sim.balance.report import statements, write_report
from spielwerk.sim.balance.run import STAGES, BalanceConfig, BalanceRun, StageProgress

__all__ = ["STAGES", "BalanceConfig", "StageProgress", "balance", "machine"]


def machine() -> str:
    """The machine in a few words: CPU, cores, Python."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                cpu = line.partition(":")[2].strip()
                break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def _load() -> str:
    try:
        return ", ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def balance(
    config: BalanceConfig,
    out: Path,
    progress: StageProgress | None = None,
    command: str | None = None,
    started: float | None = None,
) -> tuple[dict[str, Any], list[Path]]:
    """Run the stages within the budget, then write the report into `out`. Returns the
    report (what summary.json holds) and the files written. `started`: when the budget began
    (`time.monotonic()`; default now)."""
    started_wall = time.strftime("%Y-%m-%d %H:%M:%S %Z")
    load_before = _load()
    started = time.monotonic() if started is None else started
    runner = BalanceRun(config, out, progress, started=started)
    try:
        results = runner.execute()
    except KeyboardInterrupt:
        runner.cancelled = True
        results = runner.results
    rows: list[BalanceRow] = [row for stage in runner.store.rows.values() for row in stage]
    missing = [s for s in config.stages if s not in results]
    report: dict[str, Any] = {
        "game": config.game,
        "title": runner.game.title,
        "players": runner.players,
        "options": config.options,
        "seed": config.seed,
        "cooperative": runner.cooperative,
        "complete": not runner.cancelled and not missing,
        "incomplete_reason": (
            f"Interrupted: stages {', '.join(missing)} did not run; run the same command "
            "again to go on from the stored games."
            if runner.cancelled or missing
            else ""
        ),
        **results,
    }
    report["statements"] = statements(report)
    report["run"] = {
        "command": command or " ".join(["spielwerk", *sys.argv[1:]]),
        "machine": machine(),
        "started": started_wall,
        "budget_seconds": config.budget,
        "elapsed_seconds": time.monotonic() - started,
        "load_before": load_before,
        "load_after": _load(),
        "jobs": config.jobs,
        "backend": config.backend,
        "games": len(rows),
        "games_by_stage": {stage: len(r) for stage, r in runner.store.rows.items()},
        "stage_seconds": runner.timing,
    }
    files = write_report(out, report, rows)
    report["run"]["elapsed_seconds"] = time.monotonic() - started  # files written too
    (out / "summary.json").write_text(
        json.dumps(report, indent=1, default=str) + "\n", encoding="utf-8"
    )
    return report, files
