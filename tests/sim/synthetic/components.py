"""The synthetic game's declaration: each token, held (dealt to the seat)."""

from __future__ import annotations

from spielwerk.core.actions import Action
from spielwerk.core.components import BalanceDeclaration, Component, Exposures, param
from spielwerk.core.game import Game
from spielwerk.core.state import State

from . import TOKENS, SyntheticState


def _uses(action: Action) -> tuple[str, ...]:
    token = param(action, "token") if action.type == "play" else None
    return () if token is None else (token,)


def _exposures(state: State) -> Exposures:
    assert isinstance(state, SyntheticState)
    return [{f"{TOKENS[t]}/held": 1.0} for t in state.tokens]


def _running(state: State) -> list[float] | None:
    assert isinstance(state, SyntheticState)
    return state.strengths() if len(state.tokens) == state.num_players else None


def declare(game: Game) -> BalanceDeclaration:
    return BalanceDeclaration(
        components=tuple(Component(f"{t}/held", t, "token held", f"{t} held") for t in TOKENS),
        exposures=_exposures,
        uses=_uses,
        running_scores=_running,
    )
