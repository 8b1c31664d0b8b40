"""What the lobby offers: the registered games that load, their options, bots, component data
and rules pages. A game whose code does not import (yet) is left out, not fatal."""

from __future__ import annotations

import logging
import tomllib
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any

import spielwerk
from spielwerk.agents.strengths import lobby_levels
from spielwerk.core.game import Game
from spielwerk.core.i18n import DEFAULT_LANG, Lang, game_title, option_help
from spielwerk.core.registry import game_class
from spielwerk.web.errors import ClientError

log = logging.getLogger("spielwerk.web")

STATIC_DIR = Path(__file__).with_name("static")
GENERIC_RENDERER = "/static/games/_generic.js"


@cache
def _loadable(name: str) -> type[Game] | None:
    try:
        return game_class(name)
    except Exception as error:  # a game still being written must not take the server down
        log.warning("game %s is not offered: %s", name, error)
        return None


def web_games() -> list[str]:
    """Names of the registered games that load, sorted."""
    return [name for name in spielwerk.list_games() if _loadable(name) is not None]


def renderer_url(name: str) -> str:
    """The game's table renderer (a JS module), or the generic one if it has none yet."""
    own = STATIC_DIR / "games" / f"{name}.js"
    return f"/static/games/{name}.js" if own.is_file() else GENERIC_RENDERER


@cache
def component_data(name: str) -> dict[str, Any]:
    """The game's `data.toml` (the box contents: card names, values, ...), for its renderer."""
    cls = _loadable(name)
    if cls is None:
        return {}
    package = cls.__module__.rpartition(".")[0] or cls.__module__
    try:
        text = files(package).joinpath("data.toml").read_text(encoding="utf-8")
    except (FileNotFoundError, ModuleNotFoundError, NotADirectoryError):
        return {}
    return tomllib.loads(text)


def game_info(name: str, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """A game's description for the lobby and the table page, option help in `lang`."""
    cls = _loadable(name)
    if cls is None:
        raise ClientError(f"unknown game {name!r}")
    return {
        "name": cls.name,
        "title": game_title(cls.name, lang),
        "min_players": cls.min_players,
        "max_players": cls.max_players,
        "options": [
            {
                "name": spec.name,
                "type": spec.type.__name__,
                "default": spec.default,
                "help": option_help(cls.name, spec.name, spec.help, lang),
                "choices": list(spec.choices) if spec.choices is not None else None,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
            }
            for spec in cls.option_specs
        ],
        "bots": lobby_levels(cls.name),
        "renderer": renderer_url(cls.name),
        "rules_url": f"/rules/{cls.name}",
    }
