"""Tintenherz's simple strategies: never re-roll, always take the highest card, secure first."""

from __future__ import annotations

from collections.abc import Sequence

from spielwerk.agents.base import Turn
from spielwerk.agents.strategies import Strategy
from spielwerk.core.actions import Action
from spielwerk.games.inkheart_dice.params import PARAMS

VALUE = dict(zip(PARAMS.names, PARAMS.values, strict=True))


def _card_value(action: Action) -> int:
    return VALUE.get(str(action.to_json().get("card")), 0)


def _never_reroll(turn: Turn) -> Sequence[Action] | None:
    kept = [a for a in turn.legal_actions if a.type not in ("reroll", "reroll_both")]
    return kept or None


def _highest(turn: Turn) -> Sequence[Action] | None:
    grabs = [a for a in turn.legal_actions if a.type in ("take", "steal") and _card_value(a) > 0]
    return [max(grabs, key=_card_value)] if grabs else None


def _secure_first(turn: Turn) -> Sequence[Action] | None:
    secures = [a for a in turn.legal_actions if a.type == "secure"]
    return [max(secures, key=_card_value)] if secures else None


STRATEGIES = {
    "never-reroll": Strategy("never re-roll", lambda _: _never_reroll),
    "highest": Strategy("always take or steal the highest positive card", lambda _: _highest),
    "secure-first": Strategy("secure a card whenever possible", lambda _: _secure_first),
}
