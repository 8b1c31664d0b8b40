"""spielwerk: tabletop games played exactly by their rulebooks.

>>> import spielwerk
>>> game = spielwerk.load("witches", wheel="ascending")
>>> state = game.new_state(4, seed=1)
"""

from spielwerk import native

native.guard()  # before any rule is imported: never a stale compiled build

from spielwerk.core import (  # noqa: E402
    CHANCE,
    TERMINAL,
    Action,
    Game,
    IllegalAction,
    OptionError,
    RecordError,
    SpielwerkError,
    State,
    UnknownGame,
    list_games,
    load,
    load_record,
    replay,
)
from spielwerk.core.registry import register  # noqa: E402
from spielwerk.games import BUILTIN_GAMES  # noqa: E402

# The composition root: the core knows no game, the package offers its own.
for _name, _source in BUILTIN_GAMES.items():
    register(_name, _source)
del _name, _source

__version__ = "0.1.0"

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "Game",
    "IllegalAction",
    "OptionError",
    "RecordError",
    "SpielwerkError",
    "State",
    "UnknownGame",
    "list_games",
    "load",
    "load_record",
    "replay",
]
