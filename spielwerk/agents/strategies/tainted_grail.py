"""Tainted Grail's simple strategies: explore first, always join, never wait."""

from __future__ import annotations

from collections.abc import Sequence

from spielwerk.agents.base import Turn
from spielwerk.agents.strategies import Rule, Strategy
from spielwerk.core.actions import Action


def _only(kind: str) -> Rule:
    def rule(turn: Turn) -> Sequence[Action] | None:
        found = [a for a in turn.legal_actions if a.type == kind]
        return found or None

    return rule


def _never_wait(turn: Turn) -> Sequence[Action] | None:
    kept = [a for a in turn.legal_actions if a.type != "wait"]
    return kept or None


STRATEGIES = {
    "explore-first": Strategy("explore whenever possible", lambda _: _only("explore")),
    "always-join": Strategy("join every action of the others", lambda _: _only("join")),
    "never-wait": Strategy("never wait for the others", lambda _: _never_wait),
}
