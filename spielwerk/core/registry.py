"""Which games exist: those registered in-process (`register`) and third-party ones from the
entry-point group `spielwerk.games` (a value naming a Game subclass).

The core names no game: the package root (`spielwerk/__init__.py`) registers the built-in
games, so importing anything under `spielwerk` has them registered, and a source checkout
works without installation. A game's module is imported only when that game is loaded, so
listing names is cheap and one game's import never costs (or breaks) another's; the entry
points are scanned (`importlib.metadata`, slow to import and to search) only when a name is
asked for that is not registered, or when all names are listed.
"""

from __future__ import annotations

import importlib
from typing import Any

from spielwerk.core.errors import UnknownGame
from spielwerk.core.game import Game

ENTRY_POINT_GROUP = "spielwerk.games"

_games: dict[str, type[Game] | str] = {}
"""Game name -> its class, or "module:Class" still to import."""
_scanned: list[bool] = []
"""Non-empty once the entry points have been read into `_games`."""


def register(name: str, source: type[Game] | str) -> None:
    """Offer game `name`: its Game class, or "module:Class" to import when first loaded. A
    registered game takes precedence over an entry point of the same name."""
    _games[name] = source


def _registry() -> dict[str, type[Game] | str]:
    """Every game: the registered ones and the entry points' (read once)."""
    if not _scanned:
        from importlib.metadata import entry_points

        for entry in entry_points(group=ENTRY_POINT_GROUP):
            _games.setdefault(entry.name, entry.value)
        _scanned.append(True)
    return _games


def import_object(path: str) -> Any:
    """The object "package.module:Name" names."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def game_class(name: str) -> type[Game]:
    games = _games if name in _games else _registry()
    if name not in games:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(games))})")
    source = games[name]
    if isinstance(source, str):
        games[name] = source = _resolve(name, source)
    return source


def _resolve(name: str, source: str) -> type[Game]:
    """The Game class "module:Class" names, checked to be game `name`'s."""
    cls = import_object(source)
    if not (isinstance(cls, type) and issubclass(cls, Game)) or cls.name != name:
        raise UnknownGame(f"{source!r} registered as {name!r} is not that game's Game class")
    return cls


def list_games() -> list[str]:
    """Names of all registered games, sorted."""
    return sorted(_registry())


def load(name: str, **options: Any) -> Game:
    """The game `name` with the given options (defaults for the rest)."""
    return game_class(name)(**options)
