"""Tintenherz - Das Würfelspiel: metadata, options and the action table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.actions import ActionTable
from spielwerk.core.errors import OptionError
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.games.inkheart_dice import observation
from spielwerk.games.inkheart_dice.actions import build_action_table
from spielwerk.games.inkheart_dice.params import PARAMS
from spielwerk.games.inkheart_dice.state import InkheartDiceState


class InkheartDiceGame(Game):
    name = "inkheart_dice"
    title = "Tintenherz – Das Würfelspiel"  # noqa: RUF001
    min_players = PARAMS.min_players
    max_players = PARAMS.max_players
    observation_layout = observation.LAYOUT
    option_specs = (
        OptionSpec(
            "start_player",
            int,
            PARAMS.start_player,
            "seat that rolls first (the rulebook's youngest player)",
            minimum=0,
            maximum=PARAMS.max_players - 1,
            seat=True,
        ),
        OptionSpec(
            "max_turns",
            int,
            PARAMS.max_turns,
            "the game ends after this many turns (against endless stealing)",
            minimum=1,
            maximum=10 * PARAMS.max_turns,  # a bound on a table's length (issue 15)
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.params = PARAMS

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        return observation.encode(view)

    def _build_actions(self) -> ActionTable:
        return build_action_table()

    def _new_state(self, num_players: int, seed: int) -> InkheartDiceState:
        if int(self.options["start_player"]) >= num_players:
            raise OptionError(
                f"start_player {self.options['start_player']} does not exist with "
                f"{num_players} players"
            )
        return InkheartDiceState(self, num_players, seed)
