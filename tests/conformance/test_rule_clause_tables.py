"""The clause tables of docs/games/*.md name tests that exist.

Each game's doc maps every clause of its rules file (`shared/rules/GAME.md`) to the scenario
tests that check it ("Rules clauses and their tests"). A renamed or deleted test would leave a
clause untested without anyone noticing: this test reads every table and finds each named test
function in `tests/GAME/FILE`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
GAMES = ("witches", "inkheart_dice", "isolde", "inkspell", "tainted_grail")


def clause_table(game: str) -> list[tuple[str, list[str]]]:
    """(clause, ["file.py::test_name", ...]) for each row of the game's clause table."""
    text = (ROOT / "docs" / "games" / f"{game}.md").read_text(encoding="utf-8")
    start = text.index("## Rules clauses and their tests")
    end = text.find("\n## ", start + 5)
    rows = []
    for line in text[start : end if end > 0 else None].splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) != 2 or cells[0] in ("clause (rules file)", "---"):
            continue
        rows.append((cells[0], re.findall(r"`([\w.]+\.py::test_\w+)`", cells[1])))
    return rows


def functions_in(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.name for n in tree.body if isinstance(n, ast.FunctionDef)}


@pytest.mark.parametrize("game", GAMES)
def test_every_clause_names_tests_that_exist(game: str) -> None:
    rows = clause_table(game)
    assert len(rows) >= 15, f"{game}: the clause table is missing or short"
    for clause, tests in rows:
        assert tests, f"{game}: no test named for {clause!r}"
        for named in tests:
            file, function = named.split("::")
            path = ROOT / "tests" / game / file
            assert path.is_file(), f"{game}: {clause!r} names {named}, but there is no {file}"
            assert function in functions_in(path), f"{game}: {clause!r} names missing {named}"
