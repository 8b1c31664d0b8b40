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


FIRST_USE = """
import sys
import time
from pathlib import Path
from spielwerk.core.kernel import first_use

work = Path(sys.argv[1])

def warm_up():
    with open(work / "compiled", "a") as log:
        log.write("once\\n")
    (work / "started").touch()
    while not (work / "go").exists():  # held open until the test lets it finish
        time.sleep(0.01)

first_use("toy", frozenset({"spielwerk.core.kernel"}), "the toy kernels", warm_up)
print("ready")
"""


def waits_for_a_lock(pid: int) -> bool:
    """Whether process `pid` is blocked waiting for a file lock (Linux's /proc/locks lists
    each waiter as `-> FLOCK ... pid ...`)."""
    waiters = [line.split() for line in Path("/proc/locks").read_text().splitlines()]
    return any(fields[1] == "->" and fields[5] == str(pid) for fields in waiters)


def test_a_game_compiles_at_its_first_use_once_while_a_second_process_waits(
    tmp_path: Path,
) -> None:
    """The kernels compile when a process first asks for them, not at install; a second
    process asking meanwhile waits for the first (its lock) and compiles nothing; a later
    process finds them compiled and says nothing."""
    env = dict(os.environ, SPIELWERK_CACHE_DIR=str(tmp_path / "cache"))

    def start() -> subprocess.Popen[str]:
        return subprocess.Popen(
            [sys.executable, "-c", FIRST_USE, str(tmp_path)],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )

    first = start()
    while not (tmp_path / "started").exists():  # the first is compiling
        assert first.poll() is None, first.communicate()
    second = start()
    while not waits_for_a_lock(second.pid):  # the second asks while the first compiles
        assert second.poll() is None, second.communicate()
    (tmp_path / "go").touch()
    first_out, first_err = first.communicate(timeout=120)
    second_out, second_err = second.communicate(timeout=120)
    assert first_out.strip() == second_out.strip() == "ready"
    assert "spielwerk: compiling the toy kernels (once" in first_err
    assert "compiled in" in first_err
    assert "compiling" not in second_err
    assert (tmp_path / "compiled").read_text() == "once\n"
    again = subprocess.run(
        [sys.executable, "-c", FIRST_USE, str(tmp_path)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    assert again.stdout.strip() == "ready" and again.stderr == ""
    assert (tmp_path / "compiled").read_text() == "once\n"
