"""Which games exist: the built-in ones and third-party ones from the entry-point group
`spielwerk.games` (a value naming a Game subclass).

A game's module is imported only when that game is loaded, so listing names is cheap and one
game's import never costs (or breaks) another's.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from spielwerk.core.errors import UnknownGame
from spielwerk.core.game import Game

ENTRY_POINT_GROUP = "spielwerk.games"


@cache
def _registry() -> dict[str, type[Game] | str]:
    """Game name -> its class, or "module:Class" still to import."""
    # Built-ins are listed directly so that a source checkout works without installation.
    from importlib.metadata import entry_points  # slow to import: only when first needed

    from spielwerk.games import BUILTIN_GAMES

    games: dict[str, type[Game] | str] = dict(BUILTIN_GAMES)
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        games.setdefault(entry.name, entry.value)
    return games


def import_object(path: str) -> Any:
    """The object "package.module:Name" names."""
    module, _, attribute = path.partition(":")
    return getattr(importlib.import_module(module), attribute)


def game_class(name: str) -> type[Game]:
    from spielwerk.games import BUILTIN_GAMES

    if name in BUILTIN_GAMES and not _registry.cache_info().currsize:
        # No entry-point scan for a built-in game (importlib.metadata is slow to import and to
        # search): built-ins take precedence over entry points of the same name anyway.
        return _resolve(name, BUILTIN_GAMES[name])
    games = _registry()
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
