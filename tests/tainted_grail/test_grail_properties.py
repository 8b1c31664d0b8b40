"""Invariants of the day cycle over random games (hypothesis picks the scenario, the player
count, the seed and the choices)."""

from __future__ import annotations

import random

from grail_table import TABLE
from hypothesis import given, settings
from hypothesis import strategies as st

import spielwerk
from spielwerk.core.conformance import play_on
from spielwerk.core.state import CHANCE
from spielwerk.games.tainted_grail.state import TaintedGrailState

BEGIN = {"travel", "explore", "location_action"}


@settings(max_examples=40, deadline=None)
@given(
    scenario=st.sampled_from(["demo", TABLE]),
    players=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_random_days_keep_the_rules(scenario: str, players: int, seed: int) -> None:
    """At every step: resources stay within their bounds; after dawn step 2 (checked when
    step 5 reveals the event) every location on the grid lies in a menhir's range (seed
    l. 20-25); and a character begins an action
    only when every other character still in the day took part in an action since its own
    last one began (seed l. 90-92), tracked here from the actions alone."""
    state = spielwerk.load("tainted_grail", scenario=scenario).new_state(players, seed=seed)
    assert isinstance(state, TaintedGrailState)
    limits = state.game.scenario.characters
    rng = random.Random(seed)
    day = 0
    number = 0  # actions begun today
    began: dict[int, int] = {}  # character -> number of its last begun action today
    took_part: dict[int, int] = {}  # character -> number of the last action it was in
    out: set[int] = set()  # passed or fallen today
    for _ in play_on(state):
        for c in range(players):
            assert 0 <= state.energy[c] <= state.max_energy[c]
            assert 0 <= state.health[c] <= state.max_health[c]
            assert 0 <= state.terror[c] <= limits[c].terror
            assert state.food[c] >= 0 and state.xp[c] >= 0
        if state.phase == "day" and state.day != day:
            day, number, began, took_part, out = state.day, 0, {}, {}, set()
        if state.pending and state.pending[0] == "event":
            # Dawn step 5; nothing in these two scenarios reveals a card in steps 3-4.
            cells = state.in_menhir_range()
            for p, place in enumerate(state.game.scenario.locations):
                assert not state.on_grid[p] or (place.x, place.y) in cells
        if state.to_move == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        actor = state.to_move
        assert isinstance(actor, int)
        action = rng.choice(state.legal_actions(actor))
        kind = state.pending[0]
        if kind == "act" and action.type in BEGIN:
            if actor in began:
                others = [d for d in range(players) if d != actor and d not in out]
                assert all(took_part.get(d, 0) >= began[actor] for d in others)
            number += 1
            began[actor] = took_part[actor] = number
        elif kind == "join" and action.type == "join":
            took_part[actor] = number
        elif kind == "act" and action.type == "pass":
            out.add(actor)
        state.apply(action, player=actor)
        out.update(c for c in range(players) if state.fallen[c])
