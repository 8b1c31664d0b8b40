"""Witches' simple strategies: play the highest- or lowest-ranked card, never change trump."""

from __future__ import annotations

from collections.abc import Sequence

from spielwerk.agents.base import Turn
from spielwerk.agents.strategies import Rule, Strategy
from spielwerk.core.actions import Action


def _rank(view: dict[str, object], card: str) -> tuple[int, int]:
    """Smaller is stronger: trump before the rest, then the wheel's order of values."""
    trump = str(view["trump"]).partition("-")[0]
    order = list(view["wheel_order"])  # type: ignore[call-overload]
    colour, _, value = card.partition("-")
    return (0 if colour == trump else 1, order.index(int(value)))


def _plays(turn: Turn) -> list[Action]:
    return [a for a in turn.legal_actions if a.type == "play"]


def _extreme(highest: bool) -> Rule:
    def rule(turn: Turn) -> Sequence[Action] | None:
        plays = _plays(turn)
        if not plays:
            return None
        ranked = sorted(plays, key=lambda a: _rank(turn.view, str(a.to_json()["card"])))
        return [ranked[0] if highest else ranked[-1]]

    return rule


def _keep_trump(turn: Turn) -> Sequence[Action] | None:
    keep = [a for a in turn.legal_actions if a.type == "keep_trump"]
    return keep or None


STRATEGIES = {
    "highest": Strategy("always play the highest-ranked card", lambda _: _extreme(True)),
    "lowest": Strategy("always play the lowest-ranked card", lambda _: _extreme(False)),
    "keep-trump": Strategy("never change trump", lambda _: _keep_trump),
}
