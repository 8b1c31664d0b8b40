"""What a game declares for balance analysis (`spielwerk balance`): its components, and how a
finished game shows which seat held, played or visited each of them.

Each game declares this in one place, `spielwerk/games/<game>/components.py`, as a module-level
`DECLARATION`. A *component* is one thing a designer could make stronger or weaker (a card, a
location, a board, an advantage card, an event) seen one way (held, secured, captured,
visited): `item` names the thing, `key` the thing-and-way. `exposures` reads from a finished
state how much of each component every seat had; `uses` says which items an action uses, so an
agent can be forbidden to use one (restricted play); `running_scores` gives the score on the
table as the game goes (for lead changes), where the game keeps one.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from spielwerk.core.actions import Action
from spielwerk.core.state import State

if TYPE_CHECKING:
    from spielwerk.core.game import Game

Exposures = list[dict[str, float]]
"""Per seat: component key -> amount (1.0 for held once; a count where it can be more)."""


@dataclass(frozen=True, slots=True)
class Component:
    """One component seen one way: `key` is unique, `item` names the thing (shared by the ways
    it can be seen), `kind` groups components in the report ("card secured")."""

    key: str
    item: str
    kind: str
    label: str


@dataclass(frozen=True, slots=True)
class BalanceDeclaration:
    """A game's declaration for `spielwerk balance`; see the module text."""

    components: tuple[Component, ...]
    exposures: Callable[[State], Exposures]
    uses: Callable[[Action], tuple[str, ...]]
    """Items an action uses (empty for most); an agent forbidden an item never chooses such an
    action while it has another."""
    running_scores: Callable[[State], Sequence[float] | None]
    tune: tuple[str, ...] = ()
    """The default `--tune` of the rule-variant search (`key=lo..hi` or `key=a,b`)."""
    target: str = "first_player<0.02"
    """The default target of the rule-variant search."""

    def component(self, key: str) -> Component:
        for component in self.components:
            if component.key == key:
                return component
        raise KeyError(key)


def history_actions(state: State) -> list[tuple[int, Action]]:
    """The state's history as (actor, action) pairs."""
    table = state.game.actions
    return [(actor, table[action_id]) for actor, action_id in state.history]


def tally_actions(
    state: State, way: str, pick: Callable[[Action], Sequence[str]], once: bool = True
) -> Exposures:
    """Per seat, the items its own actions name (`pick`), as keys `item/way`: 1.0 each (or the
    number of times, `once=False`)."""
    found: Exposures = [{} for _ in range(state.num_players)]
    for actor, action in history_actions(state):
        if actor < 0:
            continue
        for item in pick(action):
            key = f"{item}/{way}"
            found[actor][key] = 1.0 if once else found[actor].get(key, 0.0) + 1.0
    return found


def merge(*parts: Exposures) -> Exposures:
    """Seat by seat, the union of several exposure tables (keys never collide: ways differ)."""
    merged: Exposures = [{} for _ in range(len(parts[0]))]
    for part in parts:
        for seat, found in enumerate(part):
            merged[seat].update(found)
    return merged


def param(action: Action, name: str) -> str | None:
    """An action's parameter as text, or None."""
    for key, value in action.params:
        if key == name:
            return None if value is None else str(value)
    return None


def declaration_for(game: Game) -> BalanceDeclaration | None:
    """The game's declaration: `declare(game)` of the `components` module beside its Game class
    (`spielwerk/games/<game>/components.py`), or beside the class it derives from (a variant the
    tooling builds), or None if it has none."""
    for cls in type(game).__mro__:
        if cls.__module__ == "builtins" or cls.__module__.startswith("spielwerk.core."):
            continue  # `object` and the core's `Game`
        module = sys.modules[cls.__module__]
        package = (
            module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
        )
        try:
            module = importlib.import_module(f"{package}.components")
        except ModuleNotFoundError:
            continue
        break
    else:
        return None
    declared: BalanceDeclaration = module.declare(game)
    return declared
