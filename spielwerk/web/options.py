"""A web table's game options: what a client may set, what is published, what the game gets.

A game's options are made for the terminal, where a text option may name a file. Over the web
no client value ever reaches the file system: an option that names a file is resolved through a
list the server knows (the Tainted Grail `scenario`, by name: `scenarios.py`), and any other text
option must be one of its declared choices; a number option must have an upper bound (a
table of 10⁹ turns would run for ever). So a new option cannot slip through.

Tables store and publish the *public* options (a scenario's name); the game is built with the
*load* options (the built-in name, or the path of the server's private copy of the file).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

import spielwerk
from spielwerk.core.game import Game
from spielwerk.core.registry import game_class
from spielwerk.web.errors import ClientError
from spielwerk.web.logs import quoted
from spielwerk.web.scenarios import ScenarioCatalog

log = logging.getLogger("spielwerk.web")

NAMED_FILE_OPTIONS: dict[tuple[str, str], str] = {("tainted_grail", "scenario"): "scenario"}
"""(game, option) of every option that names a file, and what it names."""


class TableOptions:
    def __init__(self, scenarios: ScenarioCatalog | None = None) -> None:
        self.scenarios = scenarios or ScenarioCatalog()
        self._resolvers: dict[str, Callable[[object], str]] = {"scenario": self.scenarios.resolve}
        self._choices: dict[str, Callable[[], list[str]]] = {"scenario": self.scenarios.names}

    def choices(self, game: str, option: str) -> list[str] | None:
        """The names a client may choose for an option that names a file, else None."""
        kind = NAMED_FILE_OPTIONS.get((game, option))
        return self._choices[kind]() if kind is not None else None

    def check(self, game_name: str, given: Mapping[str, Any]) -> dict[str, Any]:
        """The client's options, checked for the web (ClientError if refused); the game's own
        checks follow when it is built."""
        try:
            cls = game_class(game_name)
        except spielwerk.UnknownGame:
            raise ClientError(f"unknown game {game_name!r}") from None
        specs = {spec.name: spec for spec in cls.option_specs}
        for name in given:
            spec = specs.get(name)
            if spec is None or (game_name, name) in NAMED_FILE_OPTIONS:
                continue  # unknown names: the game's message; file options: resolved below
            if spec.type is str and spec.choices is None:
                raise ClientError(f"option {name!r} cannot be set over the web")
            if spec.type is int and spec.maximum is None:
                raise ClientError(f"option {name!r} has no upper bound: it cannot be set here")
        return dict(given)

    def load_options(self, game_name: str, public: Mapping[str, Any]) -> dict[str, Any]:
        """The options to build the game with: named files resolved to what the game reads.
        Runs in a worker thread (it may read a file)."""
        loaded = dict(public)
        for (game, option), kind in NAMED_FILE_OPTIONS.items():
            if game == game_name and option in loaded:
                loaded[option] = self._resolvers[kind](loaded[option])
        return loaded

    def build(self, game_name: str, public: Mapping[str, Any]) -> tuple[Game, dict[str, Any]]:
        """The game and its public options (every option, defaults included, as stored and
        shown). Runs in a worker thread: a scenario is read and parsed here."""
        checked = self.check(game_name, public)
        try:
            game = spielwerk.load(game_name, **self.load_options(game_name, checked))
        except spielwerk.OptionError as error:
            raise ClientError(self._option_error(game_name, checked, error)) from None
        shown = dict(game.options)
        for (game_name_, option), _kind in NAMED_FILE_OPTIONS.items():
            if game_name_ == game_name:
                shown[option] = checked.get(option, shown[option])
        return game, shown

    def _option_error(self, game_name: str, given: Mapping[str, Any], error: Exception) -> str:
        """The message for a refused option: the game's own, except for the problems of an
        operator's scenario file, which are the operator's business (logged, not shown)."""
        from spielwerk.games.tainted_grail.scenario import ScenarioError

        if isinstance(error, ScenarioError) and game_name == "tainted_grail":
            name = given.get("scenario")
            log.error("scenario %s cannot be played: %s", quoted(name), error)
            return f"scenario {name!r} cannot be played: it has errors (see the server's log)"
        return str(error)
