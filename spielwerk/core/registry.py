"""Which games exist: the built-in ones and third-party ones from the entry-point group
`spielwerk.games` (a value naming a Game subclass)."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points
from typing import Any

from spielwerk.core.errors import UnknownGame
from spielwerk.core.game import Game

ENTRY_POINT_GROUP = "spielwerk.games"


@cache
def _registry() -> dict[str, type[Game]]:
    # Built-ins are listed directly so that a source checkout works without installation.
    from spielwerk.games import BUILTIN_GAMES

    games: dict[str, type[Game]] = {cls.name: cls for cls in BUILTIN_GAMES}
    for entry in entry_points(group=ENTRY_POINT_GROUP):
        if entry.name in games:
            continue
        cls = entry.load()
        if isinstance(cls, type) and issubclass(cls, Game):
            games[cls.name] = cls
    return games


def game_class(name: str) -> type[Game]:
    games = _registry()
    if name not in games:
        raise UnknownGame(f"unknown game {name!r} (known: {', '.join(sorted(games))})")
    return games[name]


def list_games() -> list[str]:
    """Names of all registered games, sorted."""
    return sorted(_registry())


def load(name: str, **options: Any) -> Game:
    """The game `name` with the given options (defaults for the rest)."""
    return game_class(name)(**options)
