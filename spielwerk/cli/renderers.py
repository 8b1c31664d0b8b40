"""Which terminal text each game has: game name -> its renderers, with a generic fallback.

A game's text module is imported only when that game is shown. Games without one get their view
as pretty JSON and their action descriptions as plain text.
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rich.markup import escape

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
    rules: str | None = None
    """A short rules summary for `spielwerk rules`."""


def render_json(view: View) -> str:
    """The fallback: the view as pretty JSON."""
    return escape(json.dumps(view, indent=2, sort_keys=True))


GENERIC = GameText(render_view=render_json, markup=escape)


RENDER_MODULES: dict[str, str] = {
    "witches": "spielwerk.games.witches.render",
    "inkheart_dice": "spielwerk.games.inkheart_dice.render",
    "isolde": "spielwerk.games.isolde.render",
    "inkspell": "spielwerk.games.inkspell.render",
    "tainted_grail": "spielwerk.games.tainted_grail.render",
}
"""Game name -> its text module: `render(view)`, `colourise(text)` and `RULES` required;
`render_setup(view)` and `render_changes(before, after)` used when present."""


def game_text(name: str) -> GameText:
    """The terminal text of game `name` (the generic fallback if it has none)."""
    path = RENDER_MODULES.get(name)
    if path is None:
        return GENERIC
    module = importlib.import_module(path)
    return GameText(
        render_view=module.render,
        markup=module.colourise,
        setup=getattr(module, "render_setup", None),
        changes=getattr(module, "render_changes", None),
        rules=module.RULES,
    )
