"""Tainted Grail's components for `spielwerk balance`, read from the scenario: its events (came
up at a dawn: the whole party meets them), locations (travelled to), location actions (begun),
items (used) and improvements (bought). The game is cooperative: the report reads them per
party. Restricted play forbids travelling to a location, beginning a location action, using
an item or buying an improvement."""

from __future__ import annotations

from collections.abc import Callable

from spielwerk.core.actions import Action
from spielwerk.core.components import (
    BalanceDeclaration,
    Component,
    Exposures,
    history_actions,
    merge,
    param,
    tally_actions,
)
from spielwerk.core.game import Game
from spielwerk.core.state import CHANCE, State

WAYS = {
    "travel": ("to", "visited"),
    "location_action": ("action", "begun"),
    "use": ("item", "used"),
    "improve": ("improvement", "bought"),
}


def _uses(action: Action) -> tuple[str, ...]:
    how = WAYS.get(action.type)
    value = None if how is None else param(action, how[0])
    return () if value is None else (value,)


def _events(state: State) -> Exposures:
    came = {
        f"{param(action, 'event')}/came up"
        for actor, action in history_actions(state)
        if actor == CHANCE and action.type == "event"
    }
    return [dict.fromkeys(came, 1.0) for _ in range(state.num_players)]


def _of_type(kind: str) -> Callable[[Action], tuple[str, ...]]:
    def pick(action: Action) -> tuple[str, ...]:
        return _uses(action) if action.type == kind else ()

    return pick


def _exposures(state: State) -> Exposures:
    parts = [tally_actions(state, way, _of_type(kind)) for kind, (_, way) in WAYS.items()]
    return merge(_events(state), *parts)


def declare(game: Game) -> BalanceDeclaration:
    scenario = game.scenario  # type: ignore[attr-defined]
    components = (
        tuple(
            Component(f"{e.id}/came up", e.id, "event", f"event {e.title} came up")
            for e in scenario.events
        )
        + tuple(
            Component(f"{loc.id}/visited", loc.id, "location", f"{loc.name} visited")
            for loc in scenario.locations
        )
        + tuple(
            Component(f"{a.id}/begun", a.id, "location action", f"{a.label} begun")
            for a in scenario.actions
        )
        + tuple(Component(f"{i.id}/used", i.id, "item", f"{i.name} used") for i in scenario.items)
        + tuple(
            Component(f"{i.id}/bought", i.id, "improvement", f"{i.name} bought")
            for i in scenario.improvements
        )
    )
    return BalanceDeclaration(
        components=components,
        exposures=_exposures,
        uses=_uses,
        running_scores=lambda state: None,
        tune=(),
        target="win_rate>0.5",
    )
