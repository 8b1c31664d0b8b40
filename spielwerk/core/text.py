"""Which text each game has: game name -> its renderers, with a generic fallback.

Text rendering belongs to the games (`spielwerk/games/<game>/render.py`, rich markup) and is
used by the terminal, the web and the adapters alike, so the lookup lives here in the core. A
game's text module is the `render` module beside its Game class, imported only when that game is
shown; games without one get their view as pretty JSON and their action descriptions as plain
text. Every function of a render module takes the language as its keyword `lang`
(`spielwerk.core.i18n`); `game_text(name, lang)` binds it. How to play a game is its
`how_to_play.<lang>.md` (`spielwerk.core.howto`).
"""

from __future__ import annotations

import importlib
import importlib.util
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

from rich.markup import escape

from spielwerk.core.i18n import DEFAULT_LANG, Lang

View = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class GameText:
    """How a game shows itself in the terminal; every function returns rich markup."""

    render_view: Callable[[View], str]
    """The whole table as one seat (or the spectator) sees it."""
    markup: Callable[[str], str]
    """An action's description (from `State.describe`) made into markup."""
    setup: Callable[[View], list[str]] | None = None
    """A summary of the set-up (the deal) from the view once it is over; None: list its events."""
    changes: Callable[[View, View], list[str]] | None = None
    """Public events between two views of one seat (tricks completed, ...), as log lines. A game
    that has it is logged compactly in bot-only games: only these lines, not every action."""


def render_json(view: View) -> str:
    """The fallback: the view as pretty JSON."""
    return escape(json.dumps(view, indent=2, sort_keys=True))


GENERIC = GameText(render_view=render_json, markup=escape)


def game_text(name: str, lang: Lang = DEFAULT_LANG) -> GameText:
    """The terminal text of game `name` in `lang` (the generic fallback if it has none)."""
    from spielwerk.core.errors import UnknownGame
    from spielwerk.core.registry import game_class

    try:
        package = game_class(name).__module__.rpartition(".")[0]
        found = bool(package) and importlib.util.find_spec(f"{package}.render") is not None
    except (UnknownGame, ModuleNotFoundError):
        found = False
    if not found:
        return GENERIC
    module = importlib.import_module(f"{package}.render")
    setup = getattr(module, "render_setup", None)
    changes = getattr(module, "render_changes", None)
    return GameText(
        render_view=partial(module.render, lang=lang),
        markup=partial(module.colourise, lang=lang),
        setup=None if setup is None else partial(setup, lang=lang),
        changes=None if changes is None else partial(changes, lang=lang),
    )
