"""Die Holde Isolde's simple strategies: rush one board (keep and play its cards first, give it
the Isolde moves), or always play the highest card."""

from __future__ import annotations

from collections.abc import Sequence

from spielwerk.agents.base import Turn
from spielwerk.agents.strategies import Rule, Strategy
from spielwerk.core.actions import Action
from spielwerk.games.isolde.params import PARAMS

BOARDS = tuple(board.id for board in PARAMS.boards)
FITS = {
    f"{kind.type}-{kind.value}": {PARAMS.boards[b].id for b in kind.boards} for kind in PARAMS.kinds
}


def _value(action: Action) -> int:
    card = str(action.to_json().get("card", "x-0"))
    return int(card.rpartition("-")[2])


def _rush(board: str | None) -> Rule:
    def rule(turn: Turn) -> Sequence[Action] | None:
        legal = turn.legal_actions
        plays = [a for a in legal if a.type == "play" and a.to_json().get("board") == board]
        if plays:
            return [max(plays, key=_value)]
        keeps = [a for a in legal if a.type == "keep" and board in FITS[str(a.to_json()["card"])]]
        if keeps:
            return [max(keeps, key=_value)]
        moves = [a for a in legal if a.type == "bonus_move" and a.to_json()["board"] == board]
        return moves or None

    return rule


def _highest(turn: Turn) -> Sequence[Action] | None:
    plays = [a for a in turn.legal_actions if a.type == "play"]
    if not plays:
        return None
    best = max(_value(a) for a in plays)
    return [a for a in plays if _value(a) == best]


STRATEGIES = {
    "rush": Strategy("rush one board: keep, play and move there first", _rush, BOARDS),
    "highest": Strategy("always play the highest card", lambda _: _highest),
}
