"""Tainted Grail, the day cycle: metadata, the scenario option and the action table."""

from __future__ import annotations

from collections.abc import Mapping
from itertools import accumulate
from typing import Any

from spielwerk.core.actions import ActionTable
from spielwerk.core.errors import OptionError
from spielwerk.core.game import Game
from spielwerk.core.options import OptionSpec
from spielwerk.games.tainted_grail.actions import Layout, build_action_table
from spielwerk.games.tainted_grail.observation import GrailObservation
from spielwerk.games.tainted_grail.params import GUARDIAN_FACES, PARAMS
from spielwerk.games.tainted_grail.scenario import Scenario, load_scenario
from spielwerk.games.tainted_grail.state import TaintedGrailState
from spielwerk.games.tainted_grail.words import translation_table


class TaintedGrailGame(Game):
    name = "tainted_grail"
    title = "Tainted Grail – the day cycle"  # noqa: RUF001
    min_players = PARAMS.min_players
    max_players = PARAMS.max_players
    option_specs = (
        OptionSpec(
            "scenario",
            str,
            "demo",
            "a built-in scenario by name (demo) or the path of a scenario TOML file",
        ),
    )

    scenario: Scenario
    layout: Layout
    translations: dict[str, dict[str, str]]
    """The scenario's texts in other languages (`words.translation_table`), in every view."""
    observation: GrailObservation
    roll_outcomes: tuple[tuple[int, ...], tuple[float, ...]]
    guardian_outcomes: tuple[tuple[int, ...], tuple[float, ...]]
    """The test die's and the guardian die's outcome ids and probabilities (they never
    change during a game)."""
    roll_cum_weights: list[float]
    guardian_cum_weights: list[float]
    event_cum_weights: tuple[list[float], ...]
    """The cumulative weights `random.choices` would add up from those probabilities, for
    `sample_chance_id`: the dice's, and the event deck's for each number of cards left."""
    cheapest_improvement: float
    """The least experience any deck improvement costs (infinite without improvements)."""
    _out_of_reach: dict[int, tuple[int, ...]]
    """`out_of_reach`'s answers by set of active menhirs, filled as a game meets them."""

    def __init__(self, **options: object) -> None:
        super().__init__(**options)
        self.observation = GrailObservation(self.scenario)
        # The tensor's blocks are sized from the scenario: the layout belongs to the game object.
        self.observation_layout = self.observation.layout

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        return self.observation.encode(view)

    def _build_actions(self) -> ActionTable:
        # The scenario decides the vocabulary (one travel per location, ...), so it is read
        # here, where the options are already known; a bad file raises ScenarioError.
        self.scenario = load_scenario(str(self.options["scenario"]))
        self.layout = Layout.of(self.scenario)
        self.translations = translation_table(self.scenario)
        faces = PARAMS.test_die_faces
        self.roll_outcomes = (
            tuple(self.layout.roll + v for v in range(faces)),
            (1.0 / faces,) * faces,
        )
        die = self.scenario.guardian_die
        shown = [f for f, face in enumerate(GUARDIAN_FACES) if face in die]
        self.guardian_outcomes = (
            tuple(self.layout.guardian_die + f for f in shown),
            tuple(die.count(GUARDIAN_FACES[f]) / len(die) for f in shown),
        )
        self.roll_cum_weights = list(accumulate(self.roll_outcomes[1]))
        self.guardian_cum_weights = list(accumulate(self.guardian_outcomes[1]))
        self.event_cum_weights = tuple(
            list(accumulate([1.0 / left] * left)) if left else []
            for left in range(len(self.scenario.events) + 1)
        )
        improvements = self.scenario.improvements
        self.cheapest_improvement = min((i.xp for i in improvements), default=float("inf"))
        self._out_of_reach = {}
        return build_action_table(self.scenario, self.layout)

    def out_of_reach(self, active: int) -> tuple[int, ...]:
        """The locations in range of none of the menhirs in the bit set `active` (menhir m is
        bit m), in id order: what dawn's step 2 discards. Worked out once per set (a game
        meets a few), as every menhir's range is fixed by the scenario."""
        known = self._out_of_reach.get(active)
        if known is not None:
            return known
        sc = self.scenario
        reach: set[int] = set()
        for m, locations in enumerate(sc.menhir_range):
            if active >> m & 1:
                reach.update(locations)
        out = tuple(p for p in range(len(sc.locations)) if p not in reach)
        self._out_of_reach[active] = out
        return out

    def _new_state(self, num_players: int, seed: int) -> TaintedGrailState:
        characters = len(self.scenario.characters)
        if num_players > characters:
            raise OptionError(
                f"scenario {self.scenario.id!r} has {characters} characters, "
                f"not enough for {num_players} players (one character per seat)"
            )
        return TaintedGrailState(self, num_players, seed)
