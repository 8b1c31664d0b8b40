"""Tintenblut: metadata, options and the action table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.actions import ActionTable
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.games.inkspell import observation
from spielwerk.games.inkspell.actions import build_action_table
from spielwerk.games.inkspell.params import PARAMS
from spielwerk.games.inkspell.state import InkspellState


class InkspellGame(Game):
    name = "inkspell"
    title = "Tintenblut"
    min_players = PARAMS.min_players
    max_players = PARAMS.max_players
    observation_layout = observation.LAYOUT
    option_specs = (
        OptionSpec(
            "max_rounds",
            int,
            PARAMS.max_rounds,
            "safety bound, not a rule: the game is scored after this many rounds if the end "
            "was not triggered (bot games take 12-26)",
            minimum=1,
            maximum=10 * PARAMS.max_rounds,  # a bound on a table's length (issue 15)
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.params = PARAMS

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        return observation.encode(view)

    def _build_actions(self) -> ActionTable:
        return build_action_table()

    def _new_state(self, num_players: int, seed: int) -> InkspellState:
        return InkspellState(self, num_players, seed)
