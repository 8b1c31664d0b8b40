"""One game of a balance run: the simulation's GameRow plus what the report needs from inside
the game — each seat's exposure to every declared component, the lead as the game went, and,
for the seat being watched, how often its choice agreed with each simple strategy's rule.

`play_balance` is a module-level function of a spec alone, so the runner can send it to worker
processes or Ray like `play_spec`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.strategies import Rule, strategy_rule
from spielwerk.core.actions import Action
from spielwerk.core.components import BalanceDeclaration, declaration_for
from spielwerk.core.errors import SpielwerkError
from spielwerk.core.game import Game
from spielwerk.core.state import State
from spielwerk.sim.match import ThinkTime, play_game
from spielwerk.sim.plan import GameSpec
from spielwerk.sim.runner import GameRow, outcome_fields, spec_agents
from spielwerk.sim.variants import load_variant

NO_LEADER = -1


@dataclass(frozen=True, slots=True)
class BalanceSpec(GameSpec):
    """A planned game of a balance stage: `config` names its line-up within the stage;
    `watch` lists strategy specs to compare with line-up entry 0's choices."""

    stage: str = ""
    config: str = ""
    watch: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class BalanceRow(GameRow):
    exposures: tuple[tuple[tuple[str, float], ...], ...] = ()
    """Per seat: (component key, amount) for every component it was exposed to."""
    lead_changes: int = 0
    """How often a different seat took the sole lead (running scores; 0 where there are none)."""
    leader_two_thirds: int = NO_LEADER
    """The seat in sole lead after two thirds of the decisions, or NO_LEADER."""
    agreement: tuple[tuple[str, int, int], ...] = ()
    """Per watched strategy: (spec, decisions where its rule narrowed the choice, of them the
    ones where entry 0 chose an action the rule allowed)."""
    seconds: float = 0.0
    """Wall time the game took (for planning the rest of a time budget)."""


@cache
def _loaded(name: str, options: tuple[tuple[str, str], ...]) -> tuple[Game, BalanceDeclaration]:
    game = load_variant(name, **dict(options))
    declaration = declaration_for(game)
    if declaration is None:
        raise SpielwerkError(f"{name} declares no components for balance analysis")
    return game, declaration


class Watcher(Agent):
    """Passes every turn to `inner` and counts how often its choice is one a rule allows."""

    def __init__(self, inner: Agent, rules: Sequence[tuple[str, Rule]]) -> None:
        self.inner = inner
        self.rules = rules
        self.name = inner.name
        self.wants_sample = inner.wants_sample
        self.counts = {spec: [0, 0] for spec, _ in rules}

    def act(self, turn: Turn) -> Action:
        chosen = self.inner.act(turn)
        for spec, rule in self.rules:
            allowed = rule(turn)
            if allowed and len(allowed) < len(turn.legal_actions):
                self.counts[spec][0] += 1
                self.counts[spec][1] += chosen in allowed
        return chosen


def _sole_leader(scores: Sequence[float] | None) -> int:
    if not scores:
        return NO_LEADER
    best = max(scores)
    leaders = [seat for seat, score in enumerate(scores) if score == best]
    return leaders[0] if len(leaders) == 1 else NO_LEADER


def lead_summary(leaders: Sequence[int]) -> tuple[int, int]:
    """(lead changes, sole leader after two thirds) of the leaders seen decision by decision;
    a tie keeps the lead where it was."""
    changes, current, at_two_thirds = 0, NO_LEADER, NO_LEADER
    mark = (2 * len(leaders)) // 3
    for index, leader in enumerate(leaders):
        if leader != NO_LEADER and leader != current:
            changes += current != NO_LEADER
            current = leader
        if index == mark:
            at_two_thirds = leaders[index]
    return changes, at_two_thirds


def play_balance(spec: GameSpec) -> BalanceRow:
    """Play one planned game and read everything the balance report needs from it."""
    started = time.perf_counter()
    game, declaration = _loaded(spec.game, spec.variant.options)
    agents = spec_agents(spec)
    watchers: list[Watcher] = []
    if isinstance(spec, BalanceSpec) and spec.watch:
        rules = [
            (watched, strategy_rule(spec.game, watched.partition(":")[2])) for watched in spec.watch
        ]
        for seat in range(len(agents)):
            if spec.entry_at(seat) == 0:
                watcher = Watcher(agents[seat], rules)
                agents[seat] = watcher
                watchers.append(watcher)
    leaders: list[int] = []

    def on_step(state: State, actor: int, action: Action) -> None:
        if actor >= 0:
            leaders.append(_sole_leader(declaration.running_scores(state)))

    think = ThinkTime()
    state = play_game(game, agents, seed=spec.seed, on_step=on_step, think=think)
    final = _sole_leader(declaration.running_scores(state))
    if leaders:
        leaders.append(final)
    changes, two_thirds = lead_summary(leaders)
    agreement: dict[str, list[int]] = {}
    for watcher in watchers:
        for watched, (narrowed, agreed) in watcher.counts.items():
            total = agreement.setdefault(watched, [0, 0])
            total[0] += narrowed
            total[1] += agreed
    fields: dict[str, Any] = outcome_fields(spec, state)
    return BalanceRow(
        **fields,
        think_seconds=tuple(think.seconds),
        seat_decisions=tuple(think.decisions),
        exposures=tuple(tuple(sorted(found.items())) for found in declaration.exposures(state)),
        lead_changes=changes,
        leader_two_thirds=two_thirds,
        agreement=tuple((watched, n, k) for watched, (n, k) in agreement.items()),
        seconds=time.perf_counter() - started,
    )
