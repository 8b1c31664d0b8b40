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
from spielwerk.games.tainted_grail.params import PARAMS
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


def _next_actor_by_may_act(state: TaintedGrailState) -> int | None:
    """Who acts next, spelled with `may_act`: the first character who may act and has not
    waited, else the first who may act (the rule `_next_actor` inlines for speed)."""
    ready = [c for c in range(state.num_players) if state.may_act(c)]
    for c in ready:
        if not state.deferred[c]:
            return c
    return ready[0] if ready else None


@settings(max_examples=30, deadline=None)
@given(
    scenario=st.sampled_from(["demo", TABLE]),
    players=st.integers(min_value=1, max_value=4),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
)
def test_the_fast_day_agrees_with_its_rules(scenario: str, players: int, seed: int) -> None:
    """Two rules the fast path writes out a second time give the same answers as their
    plain forms at every step of random games: who acts next (`_next_actor` against
    `may_act`, seed l. 90-92), and the travel moves offered to a character asked to act
    (`_act_ids` against `travel_targets`, whenever the character can pay for travel)."""
    state = spielwerk.load("tainted_grail", scenario=scenario).new_state(players, seed=seed)
    assert isinstance(state, TaintedGrailState)
    travel = state.game.layout.travel
    locations = len(state.game.scenario.locations)
    rng = random.Random(seed)
    while not state.is_terminal():
        if state.phase == "day":
            assert state._next_actor() == _next_actor_by_may_act(state)
            for c in range(state.num_players):
                if state.fallen[c] or state.energy[c] < PARAMS.travel_cost:
                    continue
                offered = [a - travel for a in state._act_ids(c) if 0 <= a - travel < locations]
                assert offered == sorted(state.travel_targets(c))
        to_move = state.to_move
        if to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), CHANCE)
        else:
            seat = min(to_move) if isinstance(to_move, frozenset) else int(to_move)
            ids = state.legal_ids(seat)
            state.apply_trusted(ids[rng.randrange(len(ids))], seat)
