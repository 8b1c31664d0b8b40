"""Tintenblut's components for `spielwerk balance`: the nine locations (visited: a location
card played there, or Die Tintenwelt to it; counted), the eleven advantage cards (used,
counted) and the White Women (held at the end). Restricted play forbids travelling to a
location or using an advantage card."""

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
from spielwerk.games.inkspell.params import PARAMS

WHITE_WOMEN = "white_women"


def _visited(action: Action) -> tuple[str, ...]:
    if action.type != "play":
        return ()
    where = param(action, "to") or param(action, "card")
    return () if where is None else (where,)


def _advantage(action: Action) -> tuple[str, ...]:
    card = param(action, "card") if action.type == "advantage" else None
    return () if card is None else (card,)


def _uses(action: Action) -> tuple[str, ...]:
    return _visited(action) + _advantage(action)


def _exposures(state: State) -> Exposures:
    holder = state.view(None).get("white_women")
    final: Exposures = [{} for _ in range(state.num_players)]
    if isinstance(holder, int) and 0 <= holder < state.num_players:
        final[holder][f"{WHITE_WOMEN}/held"] = 1.0
    return merge(
        tally_actions(state, "visited", _visited, once=False),
        tally_actions(state, "used", _advantage, once=False),
        final,
    )


def _running_scores(state: State) -> list[float]:
    """The scores on the table now (read directly: a view per decision would cost more)."""
    return [float(score) for score in list(state.scores)]  # type: ignore[attr-defined]


def declare(game: Game) -> BalanceDeclaration:
    locations = tuple(
        Component(f"{key}/visited", key, "location", f"{name} ({key}) visited")
        for key, name in zip(PARAMS.location_keys, PARAMS.location_names, strict=True)
    )
    advantages = tuple(
        Component(f"{key}/used", key, "advantage card", f"advantage card {name} used")
        for key, name in zip(PARAMS.advantage_keys, PARAMS.advantage_names, strict=True)
    )
    women = Component(
        f"{WHITE_WOMEN}/held", WHITE_WOMEN, "White Women", "the White Women held at the end"
    )
    return BalanceDeclaration(
        components=locations + advantages + (women,),
        exposures=_exposures,
        uses=_uses,
        running_scores=_running_scores,
        tune=("max_rounds=10..30",),
        target="first_player<0.02",
    )
