"""Witches' components for `spielwerk balance`: every card, held (played from the hand) and
captured (won in a trick). Restricted play forbids playing a card while another is in hand."""

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
from spielwerk.games.witches.params import PARAMS

CARDS = tuple(PARAMS.card_name(card) for card in range(PARAMS.num_cards))


def _played(action: Action) -> tuple[str, ...]:
    card = param(action, "card") if action.type == "play" else None
    return () if card is None else (card,)


def _exposures(state: State) -> Exposures:
    captured: Exposures = [
        {f"{card}/captured": 1.0 for card in cards} for cards in state.view(None)["captured"]
    ]
    return merge(tally_actions(state, "held", _played), captured)


def _running_scores(state: State) -> list[float]:
    """The scores on the table now (read directly: a view per decision would cost more)."""
    return [float(score) for score in list(state.scores)]  # type: ignore[attr-defined]


def declare(game: Game) -> BalanceDeclaration:
    components = tuple(
        Component(f"{card}/{way}", card, f"card {way}", f"{card} {way}")
        for way in ("held", "captured")
        for card in CARDS
    )
    return BalanceDeclaration(
        components=components,
        exposures=_exposures,
        uses=_played,
        running_scores=_running_scores,
        tune=("wheel=descending,ascending",),
        target="first_player<0.02",
    )
