"""Simple parametrised strategies and restricted play, as seat specs (`spielwerk balance`).

- `strategy:NAME` (or `strategy:NAME=PARAM`): the game's heuristic with one fixed rule, such as
  "never re-roll" or "rush the king's board". Where the rule narrows the choice, the heuristic
  picks among what it allows; elsewhere the heuristic plays as usual. Each game lists its
  strategies in `spielwerk/agents/strategies/<game>.py`.
- `without:ITEM`: the heuristic forbidden to use one component (a card, a location, a board,
  an advantage card), as the game declares them (`spielwerk/games/<game>/components.py`): it
  never chooses an action that uses the item while it has another (Jaffe et al. 2012,
  restricted play).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.core.actions import Action
from spielwerk.core.components import declaration_for
from spielwerk.core.registry import load

Rule = Callable[[Turn], Sequence[Action] | None]
"""The legal actions a strategy allows at this turn (never empty), or None: no opinion."""


@dataclass(frozen=True, slots=True)
class Strategy:
    """One simple strategy: `make(param)` builds its rule; `params` are the values the balance
    report tries (empty: the strategy takes none)."""

    describe: str
    make: Callable[[str | None], Rule]
    params: tuple[str, ...] = ()


def strategies(game_name: str) -> dict[str, Strategy]:
    """The game's simple strategies by name (none if it lists none)."""
    try:
        module = importlib.import_module(f"spielwerk.agents.strategies.{game_name}")
    except ModuleNotFoundError:
        return {}
    found: dict[str, Strategy] = module.STRATEGIES
    return found


def strategy_specs(game_name: str) -> list[str]:
    """Every seat spec of the game's strategies, each parameter value its own."""
    specs = []
    for name, strategy in strategies(game_name).items():
        if strategy.params:
            specs += [f"strategy:{name}={value}" for value in strategy.params]
        else:
            specs.append(f"strategy:{name}")
    return specs


def strategy_rule(game_name: str, spec: str) -> Rule:
    """The rule of `strategy:NAME[=PARAM]` (spec without the `strategy:` prefix)."""
    name, _, value = spec.partition("=")
    known = strategies(game_name)
    if name not in known:
        names = ", ".join(sorted(known)) or "none"
        raise ValueError(f"{game_name} has no strategy {name!r} (its strategies: {names})")
    strategy = known[name]
    if bool(value) != bool(strategy.params) or (value and value not in strategy.params):
        choices = ", ".join(strategy.params) or "no parameter"
        raise ValueError(f"strategy {name!r} of {game_name} takes {choices}, got {value!r}")
    return strategy.make(value or None)


class NarrowedAgent(Agent):
    """An agent that chooses only among the actions `narrow` leaves it."""

    def __init__(self, base: Agent, narrow: Rule, name: str) -> None:
        self.base = base
        self.narrow = narrow
        self.name = name
        self.wants_sample = base.wants_sample

    def act(self, turn: Turn) -> Action:
        allowed = self.narrow(turn)
        if not allowed or len(allowed) == len(turn.legal_actions):
            return self.base.act(turn)
        if len(allowed) == 1:
            return allowed[0]
        return self.base.act(replace(turn, legal_actions=list(allowed)))


def _heuristic(game_name: str, seed: int | None) -> Agent:
    factory = heuristic_factory(game_name)
    if factory is None:
        raise ValueError(f"there is no heuristic bot for {game_name} to build a strategy on")
    return factory(seed)


def make_strategy_agent(game_name: str, spec: str, seed: int | None) -> Agent:
    """`strategy:NAME[=PARAM]` or `without:ITEM` (spec without the kind) for `game_name`."""
    kind, _, rest = spec.partition(":")
    if kind == "strategy":
        rule = strategy_rule(game_name, rest)
        return NarrowedAgent(_heuristic(game_name, seed), rule, f"strategy:{rest}")
    if kind == "without":
        return NarrowedAgent(
            _heuristic(game_name, seed), forbid(game_name, rest), f"without:{rest}"
        )
    raise ValueError(f"unknown seat {spec!r}")


def forbid(game_name: str, item: str) -> Rule:
    """The rule of restricted play: every legal action but those that use `item`."""
    declaration = declaration_for(load(game_name))
    if declaration is None:
        raise ValueError(f"{game_name} declares no components to forbid")
    items = {component.item for component in declaration.components}
    if item not in items:
        raise ValueError(f"{game_name} has no component {item!r} (see its components.py)")
    uses = declaration.uses

    def allowed(turn: Turn) -> Sequence[Action] | None:
        kept = [action for action in turn.legal_actions if item not in uses(action)]
        return kept or None

    return allowed
