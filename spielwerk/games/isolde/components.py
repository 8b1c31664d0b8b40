"""Die Holde Isolde's components for `spielwerk balance`: the seven boards (cards played onto
each, counted) and the 24 card kinds (played, counted). Restricted play forbids playing onto a
board, or playing a kind."""

from __future__ import annotations

from spielwerk.core.actions import Action
from spielwerk.core.components import (
    BalanceDeclaration,
    Component,
    Exposures,
    merge,
    param,
    tally_actions,
)
from spielwerk.core.game import Game
from spielwerk.core.state import State
from spielwerk.games.isolde.params import PARAMS

BOARDS = tuple(board.id for board in PARAMS.boards)
KINDS = tuple(f"{kind.type}-{kind.value}" for kind in PARAMS.kinds)


def _board(action: Action) -> tuple[str, ...]:
    board = param(action, "board") if action.type == "play" else None
    return () if board is None else (board,)


def _kind(action: Action) -> tuple[str, ...]:
    card = param(action, "card") if action.type == "play" else None
    return () if card is None else (card,)


def _uses(action: Action) -> tuple[str, ...]:
    return _board(action) + _kind(action)


def _exposures(state: State) -> Exposures:
    return merge(
        tally_actions(state, "played on", _board, once=False),
        tally_actions(state, "played", _kind, once=False),
    )


def _running_scores(state: State) -> list[float]:
    """The scores on the table now (read directly: a view per decision would cost more)."""
    return [float(score) for score in list(state.scores)]  # type: ignore[attr-defined]


def declare(game: Game) -> BalanceDeclaration:
    names = {board.id: board.name for board in PARAMS.boards}
    components = tuple(
        Component(f"{board}/played on", board, "board", f"board {names[board]} ({board}): cards")
        for board in BOARDS
    ) + tuple(Component(f"{kind}/played", kind, "card kind", f"{kind} played") for kind in KINDS)
    return BalanceDeclaration(
        components=components,
        exposures=_exposures,
        uses=_uses,
        running_scores=_running_scores,
        tune=("quest_first_points=1..17",),
        target="first_player<0.02",
    )
