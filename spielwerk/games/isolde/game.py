"""Die Holde Isolde: metadata, options and the action table."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.actions import ActionTable
from spielwerk.core.errors import OptionError
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.games.isolde import observation
from spielwerk.games.isolde.actions import build_action_table
from spielwerk.games.isolde.params import PARAMS
from spielwerk.games.isolde.state import IsoldeState

QUEST = PARAMS.board_index("quest")
ACTIONS = build_action_table()
"""Immutable and the same for every option set: built once."""


class IsoldeGame(Game):
    name = "isolde"
    title = "Die Holde Isolde"
    min_players = PARAMS.min_players
    max_players = PARAMS.max_players
    observation_layout = observation.LAYOUT
    # `advanced` lists its values as choices, the three single rules do not: the conformance
    # suite runs every choice of every option at every player count, and the whole advanced
    # game covers the three rules together; each alone is checked in tests/isolde.
    option_specs = (
        OptionSpec(
            "start_player",
            int,
            PARAMS.start_player,
            "seat that holds Excalibur in round 1",
            minimum=0,
            maximum=PARAMS.max_players - 1,
            seat=True,
        ),
        OptionSpec(
            "advanced",
            bool,
            False,
            "all three rules of the advanced game at once",
            choices=(False, True),
        ),
        OptionSpec(
            "advanced_start_player_tiebreak",
            bool,
            False,
            "advanced rule 1: before scoring the start player may go on top of its stack",
        ),
        OptionSpec(
            "advanced_isolde_setback",
            bool,
            False,
            "advanced rule 2: who gets an Isolde move then steps back 1 on Isolde's board",
        ),
        OptionSpec(
            "advanced_reset",
            bool,
            False,
            "advanced rule 3: after round 3 the discs keep their order on spaces 0, 1, 2, ...",
        ),
        OptionSpec(
            "quest_first_points",
            int,
            PARAMS.boards[QUEST].table[0],
            "points for first place on the quest (the rulebook says 3; public sources 17)",
            minimum=0,
            maximum=100,
        ),
    )

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.params = PARAMS
        self.first_start_player = int(self.options["start_player"])
        every = bool(self.options["advanced"])
        self.tiebreak_rule = every or bool(self.options["advanced_start_player_tiebreak"])
        self.setback_rule = every or bool(self.options["advanced_isolde_setback"])
        self.reset_rule = every or bool(self.options["advanced_reset"])
        tables = [board.table for board in PARAMS.boards]
        quest = tables[QUEST]
        tables[QUEST] = (int(self.options["quest_first_points"]), *quest[1:])
        self.tables: tuple[tuple[int, ...], ...] = tuple(tables)
        """Points tables by board, with the quest's first place as configured."""

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        return observation.encode(view)

    def _build_actions(self) -> ActionTable:
        return ACTIONS

    def _new_state(self, num_players: int, seed: int) -> IsoldeState:
        if self.first_start_player >= num_players:
            raise OptionError(
                f"start_player {self.options['start_player']} does not exist with "
                f"{num_players} players"
            )
        return IsoldeState(self, num_players, seed)
