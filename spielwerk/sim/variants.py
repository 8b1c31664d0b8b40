"""Variants the tooling builds for its own checks (test only, never a rule): an imbalance
planted so that a test and a bench run can see `spielwerk balance` find it.

`plant=CARD` among the options of `spielwerk simulate` and `spielwerk balance` (Witches:
`plant=grey-9`) plays a variant of the game in which that card counts its points twice for
whoever captures it. The rules know nothing of it: the variant's state takes the capture from
the rules, then adds the card's points again. The game's own options never hold it, so no
table, record or game list can show it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.errors import OptionError
from spielwerk.core.game import Game
from spielwerk.core.registry import load
from spielwerk.games.witches.game import WitchesGame
from spielwerk.games.witches.params import PARAMS as WITCHES
from spielwerk.games.witches.state import WitchesState

PLANT = "plant"
"""The tooling's option naming the planted card."""
PLANTABLE = {"witches": ("grey-9",)}
"""The cards each game can plant (one is enough for the checks)."""


def load_variant(name: str, **options: Any) -> Game:
    """`spielwerk.load(name, **options)`, with a planted card if the options name one."""
    planted = options.pop(PLANT, None)
    game = load(name, **options)
    if planted is None:
        return game
    if str(planted) not in PLANTABLE.get(name, ()):
        cards = ", ".join(PLANTABLE.get(name, ())) or "none"
        raise OptionError(f"{name} cannot plant {planted!r} (plantable: {cards})")
    return PlantedWitches(WITCHES.card_from_name(str(planted)), **game.options)


def is_planted(options: Mapping[str, Any]) -> bool:
    return PLANT in options


class PlantedWitches(WitchesGame):
    """Witches in which the card `planted` scores double for whoever captures it."""

    def __init__(self, planted: int, **options: object) -> None:
        super().__init__(**options)
        self.planted = planted

    def _new_state(self, num_players: int, seed: int) -> WitchesState:
        super()._new_state(num_players, seed)  # the player-count checks of the options
        return PlantedWitchesState(self, num_players, seed)


class PlantedWitchesState(WitchesState):
    """The rules' capture, then the planted card's points once more for its captor."""

    def _capture(self, winner: int, new_trump: int) -> None:
        game = self.game
        assert isinstance(game, PlantedWitches)
        planted = game.planted in self.trick_cards and game.planted != new_trump
        super()._capture(winner, new_trump)
        if planted:
            self.scores[winner] += WITCHES.value(game.planted)
