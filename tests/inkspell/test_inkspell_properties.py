"""Tintenblut invariants over random games: hypothesis picks the player count and the seed (the
choices follow from it); at every decision the actions offered are checked against the rules,
worked out here from the seat's view and the component data, independently of the engine.

Seed 000: journeys l. 110-121, rewards l. 125-126, advantage cards l. 147-149, conversions
l. 177-182, special spaces l. 196-201, the White Women l. 244-246.
"""

from __future__ import annotations

import random
from collections import deque
from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import spielwerk
from spielwerk.core.conformance import play_on, random_step
from spielwerk.core.state import State
from spielwerk.games.inkspell.params import PARAMS
from spielwerk.games.inkspell.state import InkspellState

LOCATIONS = PARAMS.location_keys
KINDS = PARAMS.tile_keys
STEPS = {2: 2, 3: 4, 4: 7}  # seed 000, l. 178-180
SPECIAL = {9: "castle", 19: "blue", 30: "green", 37: "castle"}  # rules file "Victory track"


def _road_steps() -> dict[tuple[str, str], int]:
    """Shortest road distances by breadth-first search over the data file's roads."""
    steps = {}
    for start in range(len(LOCATIONS)):
        seen = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in PARAMS.neighbours[here]:
                if nxt not in seen:
                    seen[nxt] = seen[here] + 1
                    queue.append(nxt)
        for target, count in seen.items():
            steps[LOCATIONS[start], LOCATIONS[target]] = count
    return steps


ROAD_STEPS = _road_steps()


def expected_plays(view: dict[str, Any], me: int) -> set[tuple[str, str]]:
    """(card, destination) of every location card the seat may play now."""
    here, money = view["positions"][me], view["provisions"][me]
    free = view["turn"]["prince"]
    plays = set()
    for card in view["hands"][me]:
        targets = LOCATIONS if card == PARAMS.tintenwelt_key else (card,)
        for target in targets:
            if free or max(0, ROAD_STEPS[here, target] - 1) <= money:
                plays.add((card, target))
    return plays


def expected_conversions(view: dict[str, Any], me: int) -> set[str]:
    """Sets of different kinds the seat holds, of a size not converted this turn, whose steps
    enter or cross only special spaces whose locations the figure is at (on every lap)."""
    tiles, score = view["tiles"][me], view["scores"][me]
    group = PARAMS.location_groups[LOCATIONS.index(view["positions"][me])]
    allowed = set()
    for size, steps in STEPS.items():
        if size in view["turn"]["converted"]:
            continue
        crossed = {SPECIAL.get(space % 40) for space in range(score + 1, score + steps + 1)}
        if crossed - {None, group}:
            continue
        for kinds in combinations(KINDS, size):
            if all(tiles[k] for k in kinds):
                allowed.add("".join(kinds))
    return allowed


def check_decision(state: State) -> None:
    public = state.view(None)
    me = public["current"]
    phase = public["phase"]
    view = state.view(me)
    actions = [a.to_json() for a in state.legal_actions()]
    kinds = {str(a["type"]) for a in actions}
    if phase == "choose_card":
        plays = {
            (str(a["card"]), str(a.get("to", a["card"]))) for a in actions if a["type"] == "play"
        }
        assert plays == expected_plays(view, me)
        assert ("pass" in kinds) == (not view["turn"]["prince"])
        assert {str(a["card"]) for a in actions if a["type"] == "advantage"} <= {"prinz"}
    elif phase == "arrived":
        here = view["positions"][me]
        others = [p for p, where in enumerate(view["positions"]) if p != me and where == here]
        company = bool(others) or view["staubfinger"] == here
        row = view["turn"]["row_choice"] or ("shared" if company else "solo")
        rewards = [a for a in actions if a["type"] == "reward"]
        entries = PARAMS.shared if row == "shared" else PARAMS.solo
        several = len(entries[LOCATIONS.index(here)]) > 1
        takes = ["first", "second"] if view["white_women"] == me and several else ["all"]
        assert rewards == [{"type": "reward", "row": row, "take": t} for t in takes]
        used = {str(a["card"]) for a in actions if a["type"] == "advantage"}
        assert used <= set(view["playable_advantage"])
        assert not used or not view["turn"]["advantage_used"]
        assert ("staubfinger" in kinds) == (view["provisions"][me] > 0)
    elif phase == "exchange_convert":
        converts = {str(a["tiles"]) for a in actions if a["type"] == "convert"}
        assert converts == expected_conversions(view, me)
        assert "end_turn" in kinds


@settings(max_examples=60, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(0, 2**31 - 1))
def test_every_decision_offers_what_the_rules_allow(players: int, seed: int) -> None:
    state = spielwerk.load("inkspell").new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in play_on(state):
        if isinstance(state.to_move, int) and state.to_move >= 0:
            check_decision(state)
        random_step(state, rng)


@settings(max_examples=30, deadline=None)
@given(players=st.integers(min_value=2, max_value=4), seed=st.integers(0, 2**31 - 1))
def test_every_natternkopf_halves_the_highest_sums_rounded_against_them(
    players: int, seed: int
) -> None:
    """Seed 000, l. 213-216: on a Natternkopf, every player with the highest sum of villain
    cards (the new card counting for its drawer) gives up half the tiles and half the
    provisions, rounded up against them, and discards the villain cards; the others keep
    everything. Checked at every Natternkopf of random games, the tiles chosen at random."""
    state = spielwerk.load("inkspell").new_state(players, seed=seed)
    assert isinstance(state, InkspellState)
    rng = random.Random(seed)
    for _ in play_on(state):
        if state.view(None)["phase"] != "villain":
            random_step(state, rng)
            continue
        draw = state.sample_chance(rng)
        card = PARAMS.villain_keys.index(str(draw.to_json()["card"]))
        if card not in PARAMS.natternkopf:
            state.apply(draw)
            continue
        before = state.view(None)
        sums = list(before["villain_sums"])
        sums[state.villain_drawer()] += PARAMS.villain_values[card]
        struck = {p for p in range(players) if sums[p] == max(sums)}
        state.apply(draw)
        for _ in play_on(state, 200, until=lambda s: s.view(None)["phase"] != "natternkopf_loss"):
            random_step(state, rng)
        after = state.view(None)
        for p in range(players):
            tiles = sum(before["tiles"][p].values())
            lost_tiles = tiles - sum(after["tiles"][p].values())
            lost_provisions = before["provisions"][p] - after["provisions"][p]
            if p in struck:
                assert (lost_tiles, lost_provisions) == (
                    (tiles + 1) // 2,
                    (before["provisions"][p] + 1) // 2,
                )
                assert after["villains"][p] == []
            else:
                assert (lost_tiles, lost_provisions) == (0, 0)
                assert after["villains"][p][: len(before["villains"][p])] == before["villains"][p]
