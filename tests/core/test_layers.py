"""The layers of docs/architecture.md only point down: core → games → agents →
sim/learn/review/web/adapters/vector → bench → cli (the package root wires them together). Every
`import` in the package is checked, function-level ones included."""

from __future__ import annotations

import ast
from pathlib import Path

import spielwerk
from spielwerk.games import BUILTIN_GAMES

PACKAGE = Path(spielwerk.__file__).parent
LAYERS = (
    {"core"},
    {"games"},
    {"agents"},
    {"sim", "learn", "review", "web", "adapters", "vector"},
    {"bench"},
    {"cli"},
)
LEVEL = {part: level for level, parts in enumerate(LAYERS) for part in parts}


def imported_parts(path: Path) -> set[str]:
    """The top-level parts of spielwerk (core, games, ...) that a module imports."""
    parts = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module]
        parts.update(n.split(".")[1] for n in names if n.startswith("spielwerk."))
    return parts


def test_every_import_points_down() -> None:
    upward = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(PACKAGE)
        if len(relative.parts) < 2:
            continue  # the package root sits above every layer
        part = relative.parts[0]
        assert part in LEVEL, f"{part} is in no layer: add it to LAYERS and the docs"
        upward += [
            f"{relative} imports spielwerk.{other}"
            for other in sorted(imported_parts(path))
            if LEVEL.get(other, len(LAYERS)) > LEVEL[part]
        ]
    assert not upward, upward


def test_the_package_root_registers_the_built_in_games() -> None:
    """The core imports no game (above); the built-ins are registered all the same."""
    assert set(BUILTIN_GAMES) <= set(spielwerk.list_games())


def test_the_review_stands_on_the_bots_alone() -> None:
    """The game review (spielwerk/review) uses the agents, games and core only: the web may
    show it, but it knows no page, no simulation, no training."""
    allowed = {"core", "games", "agents", "review"}
    found = {
        f"{path.relative_to(PACKAGE)} imports spielwerk.{part}"
        for path in sorted((PACKAGE / "review").rglob("*.py"))
        for part in imported_parts(path) - allowed
    }
    assert not found, sorted(found)
