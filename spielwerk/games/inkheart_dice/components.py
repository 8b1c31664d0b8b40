"""Tintenherz's components for `spielwerk balance`: every character card, secured (under the
castle at the end, so it counts) and taken (taken or stolen at some time), and the castle
decision at scoring (kept or discarded). Restricted play forbids taking, stealing and
securing one card."""

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
from spielwerk.games.inkheart_dice.params import PARAMS

CARDS = tuple(PARAMS.names)
CASTLE = "castle"


def _card_action(action: Action) -> tuple[str, ...]:
    card = param(action, "card") if action.type in ("take", "steal", "secure") else None
    return () if card is None else (card,)


def _taken(action: Action) -> tuple[str, ...]:
    return _card_action(action) if action.type in ("take", "steal") else ()


def _exposures(state: State) -> Exposures:
    view = state.view(None)
    final: Exposures = [{f"{card}/secured": 1.0 for card in safe} for safe in view["safe"]]
    for seat, castle in enumerate(view["castle"]):
        final[seat][f"{CASTLE}/{castle}"] = 1.0
    return merge(tally_actions(state, "taken", _taken), final)


def _label(card: str) -> str:
    value = PARAMS.values[CARDS.index(card)]
    hearts = PARAMS.hearts[CARDS.index(card)]
    return f"{card} ({value:+d}{', heart' if hearts else ''})"


def _running_scores(state: State) -> list[float]:
    """The scores on the table now (read directly: a view per decision would cost more)."""
    return [float(score) for score in state.scores()]  # type: ignore[attr-defined]


def declare(game: Game) -> BalanceDeclaration:
    cards = tuple(
        Component(f"{card}/{way}", card, f"card {way}", f"{_label(card)} {way}")
        for way in ("secured", "taken")
        for card in CARDS
    )
    castle = (
        Component(f"{CASTLE}/kept", CASTLE, "castle decision", "castle kept at scoring"),
        Component(
            f"{CASTLE}/discarded",
            CASTLE,
            "castle decision",
            "castle discarded at scoring (with all negative cards)",
        ),
    )
    components = cards + castle
    return BalanceDeclaration(
        components=components,
        exposures=_exposures,
        uses=_card_action,
        running_scores=_running_scores,
        tune=("max_turns=20..60",),
        target="first_player<0.02",
    )
