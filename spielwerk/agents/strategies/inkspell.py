"""Tintenblut's simple strategies: travel to castles, never pass, hoard advantage cards."""

from __future__ import annotations

from collections.abc import Sequence

from spielwerk.agents.base import Turn
from spielwerk.agents.strategies import Strategy
from spielwerk.core.actions import Action
from spielwerk.games.inkspell.params import PARAMS

CASTLES = {PARAMS.location_keys[i] for i in PARAMS.castles}


def _castles(turn: Turn) -> Sequence[Action] | None:
    plays = [
        a
        for a in turn.legal_actions
        if a.type == "play" and (a.to_json().get("to") or a.to_json().get("card")) in CASTLES
    ]
    return plays or None


def _never_pass(turn: Turn) -> Sequence[Action] | None:
    kept = [a for a in turn.legal_actions if a.type != "pass"]
    return kept or None


def _hoard(turn: Turn) -> Sequence[Action] | None:
    kept = [a for a in turn.legal_actions if a.type != "advantage"]
    return kept or None


STRATEGIES = {
    "castles": Strategy("travel to a castle whenever possible", lambda _: _castles),
    "never-pass": Strategy("never pass while a journey is possible", lambda _: _never_pass),
    "hoard": Strategy("never use an advantage card (each scores at the end)", lambda _: _hoard),
}
