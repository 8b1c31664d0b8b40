"""Per-game heuristic bots, by game name ("module:Class", imported when first asked for), and
the value functions some of them offer a search (`spielwerk.agents.guidance.Valuation`)."""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from spielwerk.agents.base import Agent
from spielwerk.agents.guidance import Valuation
from spielwerk.core.registry import import_object

HEURISTICS: dict[str, str] = {
    "witches": "spielwerk.agents.heuristics.witches:WitchesHeuristic",
    "inkheart_dice": "spielwerk.agents.heuristics.inkheart_dice:InkheartDiceHeuristic",
    "isolde": "spielwerk.agents.heuristics.isolde:IsoldeHeuristic",
    "inkspell": "spielwerk.agents.heuristics.inkspell:InkspellHeuristic",
    "tainted_grail": "spielwerk.agents.heuristics.tainted_grail:TaintedGrailHeuristic",
}


def heuristic_factory(game_name: str) -> Callable[[int | None], Agent] | None:
    """The heuristic bot class of `game_name` (called with a seed), or None if it has none."""
    path = HEURISTICS.get(game_name)
    return None if path is None else cast(Callable[[int | None], Agent], import_object(path))


VALUATIONS: dict[str, str] = {
    "inkspell": "spielwerk.agents.heuristics.inkspell:InkspellValuation",
}


def valuation_factory(game_name: str) -> Callable[[], Valuation] | None:
    """The class of `game_name`'s heuristic value function (called without arguments)."""
    path = VALUATIONS.get(game_name)
    return None if path is None else cast(Callable[[], Valuation], import_object(path))
