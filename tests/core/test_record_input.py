"""Hostile record files (issue 15, item 12): whatever the text, `load_record` and `spielwerk
replay` answer with a RecordError (one line, exit 2), never another exception; seeds outside
0 .. 2**63 - 1 are refused."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import spielwerk
from spielwerk.core.record import MAX_SEED


def start_record(seed: Any) -> dict[str, Any]:
    """A record of a game that has not started: no actions."""
    return {
        "format": "spielwerk-record/1",
        "game": "witches",
        "options": {},
        "players": 3,
        "seed": seed,
        "actions": [],
    }


HOSTILE_TEXTS = {
    "deep arrays": "[" * 100_000 + "]" * 100_000,
    "deep objects": '{"a": ' * 50_000 + "1" + "}" * 50_000,
    "deep inside a record": json.dumps(start_record(0))[:-1] + ', "x": ' + "[" * 60_000,
    "5000-digit integer": '{"format": "spielwerk-record/1", "seed": ' + "7" * 5000 + "}",
    "5000-digit seed": json.dumps(start_record(0)).replace('"seed": 0', '"seed": ' + "9" * 5000),
}


@pytest.mark.parametrize("name", sorted(HOSTILE_TEXTS))
def test_hostile_texts_are_record_errors(name: str) -> None:
    with pytest.raises(spielwerk.RecordError):
        spielwerk.load_record(HOSTILE_TEXTS[name])


@pytest.mark.parametrize("seed", [-1, MAX_SEED + 1, 10**100, -(10**100)])
def test_seeds_outside_the_range_are_refused(seed: int) -> None:
    with pytest.raises(spielwerk.RecordError, match="'seed' must be 0 to 2\\*\\*63 - 1"):
        spielwerk.replay(start_record(seed))
    with pytest.raises(spielwerk.RecordError, match="'seed' must be"):
        spielwerk.load_record(json.dumps(start_record(seed)))


@pytest.mark.parametrize("seed", [0, 1, MAX_SEED])
def test_seeds_inside_the_range_replay(seed: int) -> None:
    state = spielwerk.replay(start_record(seed))
    assert state.seed == seed and state.history == []


def test_a_huge_value_in_a_refusal_is_not_printed_whole() -> None:
    record = start_record(0)
    record["game"] = ["x" * 100_000]
    with pytest.raises(spielwerk.RecordError) as refused:
        spielwerk.replay(record)
    assert len(str(refused.value)) < 300


def replay_command(path: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-c", "from spielwerk.cli.main import main; main()", "replay", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


@pytest.mark.parametrize("name", ["deep arrays", "5000-digit integer", "seed -1", "seed 10**100"])
def test_the_replay_command_answers_one_line(tmp_path: Path, name: str) -> None:
    texts = {
        **HOSTILE_TEXTS,
        "seed -1": json.dumps(start_record(-1)),
        "seed 10**100": json.dumps(start_record(10**100)),
    }
    path = tmp_path / "record.json"
    path.write_text(texts[name])
    done = replay_command(path)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("spielwerk: error: ") and done.stderr.count("\n") == 1
    assert "Traceback" not in done.stderr
