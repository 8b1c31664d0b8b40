"""Per-game heuristic bots, by game name."""

from __future__ import annotations

from collections.abc import Callable

from spielwerk.agents.base import Agent
from spielwerk.agents.heuristics.inkheart_dice import InkheartDiceHeuristic
from spielwerk.agents.heuristics.witches import WitchesHeuristic

HEURISTICS: dict[str, Callable[[int | None], Agent]] = {
    "witches": WitchesHeuristic,
    "inkheart_dice": InkheartDiceHeuristic,
}
