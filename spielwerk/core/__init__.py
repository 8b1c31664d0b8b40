"""The core: Game/State contract, actions, chance, views, records, encoding."""

from spielwerk.core.actions import Action, ActionTable
from spielwerk.core.errors import (
    IllegalAction,
    OptionError,
    RecordError,
    SpielwerkError,
    UnknownGame,
)
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.core.record import load_record, replay
from spielwerk.core.registry import list_games, load
from spielwerk.core.state import CHANCE, TERMINAL, State

__all__ = [
    "CHANCE",
    "TERMINAL",
    "Action",
    "ActionTable",
    "Game",
    "IllegalAction",
    "OptionError",
    "OptionSpec",
    "RecordError",
    "SpielwerkError",
    "State",
    "UnknownGame",
    "list_games",
    "load",
    "load_record",
    "replay",
]
