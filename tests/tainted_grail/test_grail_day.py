"""Phase II, the day: the action order, joining as a group, group costs, travel and arrival,
passing. On the test table (`table.toml`).

Rulebook: shared/seeds/003_bd9d21eaf5298cf0.txt, "II) WÄHREND DES TAGES" (quoted in each
docstring); gaps settled in shared/rules/tainted_grail.md.
"""

from __future__ import annotations

import pytest
from grail_table import (
    ADA,
    BEN,
    CAI,
    act,
    character,
    choose,
    legal,
    legal_types,
    new_game,
    pending,
    roll,
    travel,
)

from spielwerk.core.errors import IllegalAction


def test_lowest_character_number_acts_first() -> None:
    """Seed: "Könnt ihr euch nicht einigen, beginnt der Charakter mit der niedrigsten
    Charakternummer." """
    state = new_game(3)
    assert state.to_move == ADA


def test_a_character_acts_again_only_after_every_other_acted_or_joined() -> None:
    """Seed: "Jeder Charakter darf erst dann erneut eine Aktion durchführen, wenn alle anderen
    Charaktere ebenfalls eine Aktion durchgeführt und/oder an mindestens 1 Aktion teilgenommen
    haben." Ada travels; Ben explores and Cai joins him: the round is complete, Ada again."""
    state = new_game(3)
    travel(state, "north")
    assert pending(state) == "join"  # Ben and Cai stood with her at Home
    act(state, "decline")
    act(state, "decline")
    assert state.to_move == BEN  # not Ada: the others have not acted yet
    act(state, "explore")
    assert pending(state) == "join" and state.to_move == CAI
    act(state, "join")
    choose(state, "Leave")
    assert state.to_move == ADA  # Ben acted and Cai joined since Ada's travel
    with pytest.raises(IllegalAction):
        state.apply({"type": "pass"}, player=BEN)
    act(state, "pass")
    # Ben may not act again before Cai took part in something after Ben's exploration; Cai only
    # joined, which is no action of his own, so he may begin one.
    assert state.to_move == CAI
    assert [character(state, c)["may_act"] for c in (ADA, BEN, CAI)] == [False, False, True]
    travel(state, "east")
    act(state, "decline")  # Ben stays
    choose(state, "Flee")  # Cai meets the Wolf
    assert state.to_move == BEN


def test_waiting_lets_the_party_choose_the_order() -> None:
    """Seed: "Die Reihenfolge dürft ihr dabei selbst bestimmen." A character may wait for the
    others [design]; after everyone waited, the lowest number is asked again."""
    state = new_game(3)
    act(state, "wait")
    assert state.to_move == BEN
    act(state, "wait")
    assert state.to_move == CAI
    assert {"type": "wait"} not in legal(state)  # nobody left to wait for
    act(state, "pass")
    assert state.to_move == ADA


def test_passed_characters_are_ignored_by_the_order_and_cannot_join() -> None:
    """Seed: "Dies geht so lange weiter, bis jeder gepasst hat." Rules file: "characters who
    have passed may not join and are ignored by the 'act again' rule"."""
    state = new_game(2)
    act(state, "wait")
    act(state, "pass")  # Ben passes
    assert state.to_move == ADA
    act(state, "explore")
    assert pending(state) == "choose"  # no join question for Ben
    choose(state, "Leave")
    assert state.to_move == ADA  # Ada acts again at once: Ben is out of the day
    act(state, "pass")
    assert state.view(None)["phase"] == "dusk"


def test_group_exploration_costs_one_energy_per_member_and_uses_the_best_attribute() -> None:
    """Seed, Erkunden: "In einer Gruppe: Die Kosten ändern sich zu: 1 pro Gruppenmitglied."
    Rules file: tests use the best attribute among those involved."""
    state = new_game(2)
    act(state, "explore")
    act(state, "join")
    assert [character(state, c)["energy"] for c in (ADA, BEN)] == [3, 3]
    choose(state, "Lift the hearthstone")
    roll(state, 3)  # Ada's might 1 + axe 1 + 3 = 5
    assert state.view(None)["counters"] == {"marks": 1}
    assert [character(state, c)["xp"] for c in (ADA, BEN)] == [2, 2]


def test_group_travel_costs_one_energy_per_member_and_moves_the_group() -> None:
    """Seed, Reisen: "In einer Gruppe: Die Kosten ändern sich zu: 1 pro Gruppenmitglied." """
    state = new_game(3)
    travel(state, "north")
    act(state, "join")
    act(state, "decline")
    assert [character(state, c)["energy"] for c in (ADA, BEN, CAI)] == [3, 3, 4]
    assert [character(state, c)["location"] for c in (ADA, BEN, CAI)] == [
        "north",
        "north",
        "home",
    ]


def test_a_location_action_costs_the_same_whatever_the_participants() -> None:
    """Seed, Ortsaktion: "Kosten: Je nach Ort (unabhängig von der Zahl der teilnehmenden
    Charaktere)." Rules file: the cost may be split [design: evenly, most energy pays first];
    everyone taking part gets the effect."""
    state = new_game(2)
    act(state, "location_action", action="fire")  # 3 energy
    act(state, "join")
    energy = [character(state, c)["energy"] for c in (ADA, BEN)]
    assert sum(energy) == 8 - 3 and energy == [2, 3]
    assert [character(state, c)["food"] for c in (ADA, BEN)] == [2, 2]


def test_a_character_needs_energy_to_join_travel_or_exploration() -> None:
    """Rules file: group costs - each member pays 1 of their own energy; without it, no join."""
    state = new_game(2)
    state.energy[BEN] = 0
    act(state, "explore")
    assert pending(state) == "choose"


def test_travel_only_to_orthogonal_neighbours_joined_by_an_arrow() -> None:
    """Seed, Reisen: "Bewegt eure Figur auf eine Ortskarte, die direkt waagrecht oder senkrecht
    an eure derzeitige Ortskarte angrenzt und durch einen Richtungspfeil mit ihr verbunden ist."
    West lies next to Home without an arrow; Corner is only diagonal."""
    state = new_game(1)
    targets = {a["to"] for a in legal(state) if a["type"] == "travel"}
    assert targets == {"north", "east", "south"}
    with pytest.raises(IllegalAction):
        travel(state, "west")
    with pytest.raises(IllegalAction):
        travel(state, "corner")


def test_arrival_reveals_then_meets_guardians_then_instant_effects() -> None:
    """Seed: "Bei der Ankunft prüft ihr zuerst, ob neue Orte enthüllt werden. Handelt dann ggf.
    Begegnungen mit Wächtern und zuletzt ggf. die Soforteffekte ab." """
    state = new_game(1)
    start = len(state.log)
    travel(state, "east")
    assert pending(state) == "choose"  # the Wolf, before the wind
    choose(state, "Flee")
    lines = state.log[start:]
    order = [
        lines.index("revealed: Far East"),
        lines.index("Ada meets the Wolf"),
        lines.index("A cold wind."),
    ]
    assert order == sorted(order)
    assert character(state, ADA)["terror"] == 2


def test_a_character_without_an_affordable_action_must_pass() -> None:
    """Rules file: "A character with no affordable action must pass." """
    state = new_game(1)
    state.energy[ADA] = 0
    assert legal(state) == [{"type": "pass"}]


def test_using_an_item_is_no_action() -> None:
    """[design] Using an equipped item exhausts it but is not an action: the character is
    still to act."""
    state = new_game(2)
    act(state, "explore")
    act(state, "decline")
    choose(state, "Find the salve")
    act(state, "pass")  # Ben
    state.health[ADA] = 2
    act(state, "use", item="salve")
    assert character(state, ADA)["health"] == 4
    assert state.to_move == ADA and legal_types(state) >= {"explore", "pass"}


def test_a_failed_test_applies_its_failure() -> None:
    """Rules file: encounters are tests defined in the scenario (a die roll against a
    character attribute)."""
    state = new_game(1)
    act(state, "explore")
    choose(state, "Lift the hearthstone")
    roll(state, 2)  # 2 + 2 = 4 < 5
    assert character(state, ADA)["health"] == 4
    assert state.view(None)["counters"] == {"marks": 0}
