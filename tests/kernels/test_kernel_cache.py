"""Compiled kernels never run stale machine code: their cache is keyed on everything they
depend on (`spielwerk.core.kernel.dependencies`), so editing a game's data file is followed.

`data.toml` says "no code change is needed" to correct a value; a kernel bakes such values in
when it is compiled (Witches' hand size decides when its deal ends). The test edits the data
file of a copy of the package and runs the kernel in fresh interpreters against a cache of its
own: the first run compiles, the second loads the cache, the third (after the edit) must deal
the new hand size.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from spielwerk.core.kernel import PACKAGE, dependencies

pytest.importorskip("numba", reason="needs numba")

DEAL_A_HAND = """
import json
import spielwerk
from spielwerk.games.witches import kernel
from spielwerk.games.witches.actions import DRAW
from spielwerk.games.witches.state import DEAL

s = kernel.initial(spielwerk.load("witches"), 3)
card = 0
while s[kernel.PHASE] == DEAL:  # the kernel deals until each seat holds a hand
    kernel.apply(s, DRAW + card)
    card += 1
print(json.dumps({
    "package": spielwerk.__file__,
    "hand": bin(int(s[kernel.HANDS])).count("1"),
    "loaded": sum(kernel.apply.stats.cache_hits.values()),
    "compiled": sum(kernel.apply.stats.cache_misses.values()),
}))
"""


def deal(copy: Path, cache: Path) -> dict[str, object]:
    """Run `DEAL_A_HAND` on the package copy in `copy` with its kernel cache in `cache`."""
    env = dict(os.environ)
    env.update(PYTHONPATH=str(copy), SPIELWERK_CACHE_DIR=str(cache), SPIELWERK_PURE_PYTHON="1")
    done = subprocess.run(
        [sys.executable, "-c", DEAL_A_HAND],
        env=env,
        cwd=copy,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_a_kernel_follows_an_edit_of_its_games_data_file(tmp_path: Path) -> None:
    copy = tmp_path / "tree"
    shutil.copytree(
        PACKAGE, copy / "spielwerk", ignore=shutil.ignore_patterns("*.so", "__pycache__", "models")
    )
    cache = tmp_path / "cache"
    first = deal(copy, cache)
    assert str(first["package"]).startswith(str(copy))  # the copy runs, not the checkout
    assert first["hand"] == 6 and first["compiled"] == 1
    again = deal(copy, cache)
    assert again["hand"] == 6 and again["loaded"] == 1 and again["compiled"] == 0
    data = copy / "spielwerk" / "games" / "witches" / "data.toml"
    text = data.read_text(encoding="utf-8")
    assert "\nhand_size = 6 " in text
    data.write_text(text.replace("\nhand_size = 6 ", "\nhand_size = 5 "), encoding="utf-8")
    edited = deal(copy, cache)
    assert edited["hand"] == 5 and edited["compiled"] == 1


def test_a_kernels_dependencies_are_its_imports_and_their_data_files() -> None:
    """Witches' kernel depends on its rules, its parameters and their data file, on the core
    modules they import and on the packages above them; not on another game."""
    files = {str(p.relative_to(PACKAGE)) for p in dependencies("spielwerk.games.witches.kernel")}
    for expected in (
        "games/witches/kernel.py",
        "games/witches/params.py",
        "games/witches/data.toml",
        "games/witches/state.py",
        "core/kernel_ops.py",
        "core/state.py",
        "games/witches/__init__.py",
        "__init__.py",
    ):
        assert expected in files
    assert not any(f.startswith("games/isolde/") for f in files)
