"""Narration: what a player at the real table would notice, as structured events.

An event is data, `{"key": "trick_won", "params": {"seat": 2, "points": 14}}`, never English: a
game's `narrate` module (`spielwerk/games/<game>/narrate.py`, beside its text module) derives the
events from two views of one viewer (`events(before, after)`), so a seat is told exactly what
its view already shows and nothing more. The same module holds `TEXTS`, the English template of
every key (a later catalogue translates them), and `explain(view)`, the breakdown of a finished
game's result.

Parameters that name seats are written so a page can put the seat's display name in: `seat`,
`winner`, `victim`, any key ending in `_seat` (one seat index), and `seats` (a list). Every
other parameter is shown as it is, but `gains` (a list of `{"seat", "points"}`: "Anna +3, Ben
-1", or "nobody") and `mark_...` (what the board highlights; not in the text).
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

View = Mapping[str, Any]
Event = dict[str, Any]
"""`{"key": str, "params": dict}`; optionally `"quiet": True` (the action's own log line says it
already: a page only highlights it) and `"mark"` (what to highlight on the board)."""

SEAT_PARAMS = frozenset({"seat", "winner", "victim", "seats"})


def event(key: str, quiet: bool = False, **params: Any) -> Event:
    """One event; `quiet` ones are for the board's highlight only."""
    made: Event = {"key": key, "params": params}
    if quiet:
        made["quiet"] = True
    return made


def is_seat_param(name: str) -> bool:
    return name in SEAT_PARAMS or name.endswith("_seat")


@dataclass(frozen=True, slots=True)
class Narration:
    """A game's narration: events between two views, their English templates, and the
    explanation of a result."""

    events: Callable[[View, View], list[Event]]
    texts: Mapping[str, str]
    explain: Callable[[View], dict[str, Any]] | None = None


def _no_events(before: View, after: View) -> list[Event]:
    return []


SILENT = Narration(events=_no_events, texts={})


@cache
def game_narration(name: str) -> Narration:
    """The narration of game `name` (SILENT if the game has none)."""
    from spielwerk.core.errors import UnknownGame
    from spielwerk.core.registry import game_class

    try:
        package = game_class(name).__module__.rpartition(".")[0]
        found = bool(package) and importlib.util.find_spec(f"{package}.narrate") is not None
    except (UnknownGame, ModuleNotFoundError):
        found = False
    if not found:
        return SILENT
    module = importlib.import_module(f"{package}.narrate")
    return Narration(
        events=module.events, texts=module.TEXTS, explain=getattr(module, "explain", None)
    )


def default_seat_name(p: int) -> str:
    return f"Seat {p + 1}"


def event_text(
    texts: Mapping[str, str], made: Event, seat_name: Callable[[int], str] = default_seat_name
) -> str:
    """The event in words: its template with seats named by `seat_name`."""
    template = texts.get(made["key"])
    if template is None:
        raise KeyError(f"no text for event {made['key']!r}")
    values: dict[str, str] = {}
    for name, value in made["params"].items():
        if is_seat_param(name) and isinstance(value, int):
            values[name] = seat_name(value)
        elif name == "gains":
            values[name] = (
                ", ".join(f"{seat_name(g['seat'])} {g['points']:+d}" for g in value) or "nobody"
            )
        elif is_seat_param(name) and isinstance(value, list):
            values[name] = ", ".join(seat_name(p) for p in value)
        else:
            values[name] = str(value)
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    missing = fields - values.keys()
    if missing:
        raise KeyError(f"event {made['key']!r} lacks {sorted(missing)}")
    return template.format(**values)


def narrate_steps(name: str, views: Sequence[View]) -> list[list[Event]]:
    """Events between consecutive views of one viewer (a step's worth each)."""
    narration = game_narration(name)
    return [narration.events(a, b) for a, b in itertools.pairwise(views)]
