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
from spielwerk.agents.strengths import bot_label, level_about, level_word, levels, technical
from spielwerk.core.game import Game
from spielwerk.core.i18n import (
    DEFAULT_LANG,
    Lang,
    game_title,
    option_help,
    option_label,
    option_value,
    texts_of_game,
)
from spielwerk.core.options import OptionSpec, OptionValue
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


def value_key(value: OptionValue) -> str:
    """An option value as the lobby's script writes it (`String(value)`: "true", "3")."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def option_values(cls: type[Game], spec: OptionSpec) -> list[OptionValue]:
    """The values of an option that have words of their own: its choices, both of a yes/no
    option, every seat of a seat option, and the game's ``option_value.<name>.*`` texts (the
    built-in scenarios)."""
    if spec.seat:
        return list(range(cls.max_players))
    if spec.type is bool:
        return [False, True]
    values: list[OptionValue] = list(spec.choices or ())
    prefix = f"option_value.{spec.name}."
    texts = texts_of_game(cls.name)
    values += [key[len(prefix) :] for key in texts.raw if key.startswith(prefix)]
    return list(dict.fromkeys(values))


def game_info(name: str, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
    """A game's description for the lobby and the table page, every option's name (`label`),
    help and values (`value_labels`: a choice's words by its value; `seat`: the value is a
    seat, shown counted from 1) in `lang`."""
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
                "label": option_label(cls.name, spec.name, lang),
                "help": option_help(cls.name, spec.name, spec.help, lang),
                "choices": list(spec.choices) if spec.choices is not None else None,
                "value_labels": {
                    value_key(value): option_value(cls.name, spec, value, lang)
                    for value in option_values(cls, spec)
                },
                "seat": spec.seat,
                "minimum": spec.minimum,
                "maximum": spec.maximum,
            }
            for spec in cls.option_specs
        ],
        "bots": bot_levels(cls.name, cls.max_players, lang),
        "other_bots": {
            kind: [bot_label(cls.name, kind, seat, lang) for seat in range(cls.max_players)]
            for kind in ("random", "other")
        },
        "renderer": renderer_url(cls.name),
        "rules_url": f"/rules/{cls.name}",
    }


def bot_levels(name: str, max_players: int, lang: Lang) -> list[dict[str, Any]]:
    """The four levels the lobby offers, weakest first (`spielwerk.agents.strengths`): the
    seat spec a table stores, the level's word and one plain line in `lang`, the technical
    side for a tooltip, and how a bot of that level is named in each seat at the table."""
    return [
        {
            "spec": level.spec,
            "level": level.key,
            "label": level_word(level.key, lang),
            "about": level_about(level.key, lang),
            "tech": technical(level, lang),
            "seats": [bot_label(name, level.spec, seat, lang) for seat in range(max_players)],
        }
        for level in levels(name)
    ]
