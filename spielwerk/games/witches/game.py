"""The Witches of Blackmore: metadata, options and the action table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from spielwerk.core.actions import ActionTable
from spielwerk.core.errors import OptionError
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec, OptionValue
from spielwerk.games.witches import observation
from spielwerk.games.witches.actions import ACTION_TABLE
from spielwerk.games.witches.params import PARAMS
from spielwerk.games.witches.state import WitchesState


class WitchesGame(Game):
    name = "witches"
    title = "The Witches of Blackmore"
    min_players = PARAMS.min_players
    max_players = PARAMS.max_players
    observation_layout = observation.LAYOUT
    option_specs = (
        OptionSpec(
            "wheel",
            str,
            "descending",
            "which side of the witches' wheel lies up (descending is for first games)",
            choices=("descending", "ascending"),
        ),
        OptionSpec(
            "start_player",
            int,
            PARAMS.start_player,
            "seat that leads the first trick",
            minimum=0,
            maximum=PARAMS.max_players - 1,
            seat=True,
        ),
    )

    retired_options: ClassVar[Mapping[str, OptionValue]] = {"planted_double": "none"}
    """Once a test-only switch (an imbalance for `spielwerk balance`, now planted by the
    tooling: `spielwerk.sim.variants`); older records and stored tables name it."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.params = PARAMS
        self.descending = self.options["wheel"] == "descending"
        self.ranks = PARAMS.rank_table(self.descending)

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        return observation.encode(view)

    def _build_actions(self) -> ActionTable:
        return ACTION_TABLE

    def _new_state(self, num_players: int, seed: int) -> WitchesState:
        if int(self.options["start_player"]) >= num_players:
            raise OptionError(
                f"start_player {self.options['start_player']} does not exist with "
                f"{num_players} players"
            )
        return WitchesState(self, num_players, seed)
