"""The compiled rules (spielwerk.native): the same games as their source, and never stale.

mypyc compiles the games' state modules from the very source that is the reference, but a
compiled module checks types where Python does not and builds some things differently, so the
two are compared game by game: seeded random games, every step's legal ids and actions, the
views and tensors of every seat, the results.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import spielwerk
from spielwerk import native
from spielwerk.core import conformance

SEEDS = (0, 1)


def digests() -> dict[str, object]:
    """Per game and player count, the digests of the seeded random games of `SEEDS`."""
    result: dict[str, object] = {}
    for name in conformance.games_under_test():
        game = spielwerk.load(name)
        for players in conformance.player_counts(game):
            for seed in SEEDS:
                digest = conformance.random_game_digest(game, players, seed)
                result[f"{name}/{players}p/seed{seed}"] = digest
    return result


def source_digests() -> dict[str, object]:
    """`digests()` in a fresh interpreter that runs the rules from their source."""
    environment = {**os.environ, native.PURE_VARIABLE: "1"}
    code = "import json, tests.core.test_native as t; print(json.dumps(t.digests()))"
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code],
        env=environment,
        cwd=root,
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(done.stdout)  # type: ignore[no-any-return]


def test_compiled_and_source_rules_play_the_same_games() -> None:
    if not native.status()["compiled"]:
        if os.environ.get("CI"):
            pytest.fail(
                f"CI runs the compiled rules, but they are not in use: {native.why_source()}"
            )
        pytest.skip(f"the compiled rules are not in use: {native.why_source()}")
    compiled = json.loads(json.dumps(digests()))  # tuples become lists, as in the other run
    source = source_digests()
    assert compiled.keys() == source.keys()
    differ = [key for key in compiled if compiled[key] != source[key]]
    assert not differ, f"compiled and source rules play differently: {differ}"


def test_the_source_runs_when_asked() -> None:
    environment = {**os.environ, native.PURE_VARIABLE: "1"}
    code = (
        "import spielwerk, spielwerk.core.state as s, spielwerk.native as n;"
        "print(s.__file__, n.status()['compiled'], n.status()['reason'])"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=environment, capture_output=True, text=True, check=True
    )
    path, compiled, reason = done.stdout.split(" ", 2)
    assert path.endswith("state.py")
    assert compiled == "False"
    assert native.PURE_VARIABLE in reason


def test_a_build_older_than_its_source_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A compiled module older than its `.py` (the source was edited after the build) makes
    the whole group run from source; so does a missing module; a fresh build is used."""
    monkeypatch.delenv(native.PURE_VARIABLE, raising=False)
    monkeypatch.setattr(native, "PACKAGE_DIR", str(tmp_path))
    assert native.why_source() is not None  # nothing built
    Path(native.group_library()).write_bytes(b"")
    for number, module in enumerate(native.COMPILED):
        source, extension = native.paths(module)
        Path(source).parent.mkdir(parents=True, exist_ok=True)
        Path(source).write_text("")
        Path(extension).write_bytes(b"")
        os.utime(source, (1000, 1000))
        os.utime(extension, (2000 + number, 2000 + number))
    assert native.why_source() is None
    edited, extension = native.paths(native.COMPILED[-1])
    os.utime(edited, (5000, 5000))
    assert "older than its source" in str(native.why_source())
    os.utime(edited, (1000, 1000))
    os.unlink(native.paths(native.COMPILED[0])[1])
    assert "not built" in str(native.why_source())
