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
    """Seed 003, l. 72-76: "Könnt ihr euch nicht einigen, beginnt der Charakter mit der niedrigsten
    Charakternummer." """
    state = new_game(3)
    assert state.to_move == ADA


def test_a_character_acts_again_only_after_every_other_acted_or_joined() -> None:
    """Seed 003, l. 90-92: "Jeder Charakter darf erst dann erneut eine Aktion durchführen, wenn alle
    anderen Charaktere ebenfalls eine Aktion durchgeführt und/oder an mindestens 1 Aktion
    teilgenommen haben." Ada travels alone; Ben explores and Cai joins him: everyone took part
    since Ada's travel, so Ada may act again."""
    state = new_game(3)
    travel(state, "north")
    assert pending(state) == "join"  # Ben and Cai stood with her at Home
    act(state, "decline")
    act(state, "decline")
    assert state.to_move == BEN  # not Ada: the others have not acted yet
    assert [character(state, c)["may_act"] for c in (ADA, BEN, CAI)] == [False, True, True]
    act(state, "explore")
    assert pending(state) == "join" and state.to_move == CAI
    act(state, "join")
    choose(state, "Leave")
    assert state.to_move == ADA  # Ben acted and Cai joined since Ada's travel
    with pytest.raises(IllegalAction):
        state.apply({"type": "pass"}, player=BEN)
    act(state, "pass")


def test_joining_an_action_counts_as_taking_part_for_its_starter_too() -> None:
    """Seed 003, l. 83-92: those who join "führen dann die gewählte Aktion gemeinsam - als Gruppe -
    und zur gleichen Zeit durch", so they took part in an action as the rule for acting again
    asks [design: the reading]. Ben explores with Cai: Ben may act again at once; when Ben then
    travels alone, he must wait until Cai took part in something."""
    state = new_game(3)
    act(state, "pass")  # Ada is out of the day
    act(state, "explore")
    act(state, "join")  # Cai
    choose(state, "Leave")
    assert [character(state, c)["may_act"] for c in (ADA, BEN, CAI)] == [False, True, True]
    assert state.to_move == BEN
    travel(state, "east")
    act(state, "decline")  # Cai stays at Home
    choose(state, "Flee")  # Ben meets the Wolf
    assert [character(state, c)["may_act"] for c in (ADA, BEN, CAI)] == [False, False, True]
    assert state.to_move == CAI
    with pytest.raises(IllegalAction):
        state.apply({"type": "pass"}, player=BEN)
    act(state, "pass")  # Cai passes: Ben is the only one left, the rule no longer holds him
    assert state.to_move == BEN


def test_waiting_lets_the_party_choose_the_order() -> None:
    """Seed 003, l. 72-76: "Die Reihenfolge dürft ihr dabei selbst bestimmen." A character may wait
    for the others [design]; after everyone waited, the lowest number must act."""
    state = new_game(3)
    act(state, "wait")
    assert state.to_move == BEN
    act(state, "wait")
    assert state.to_move == CAI
    assert {"type": "wait"} not in legal(state)  # nobody left to wait for
    act(state, "pass")
    assert state.to_move == ADA
    # Everyone still in the day has waited: Ada must act now, or the day could go on for ever.
    assert {"type": "wait"} not in legal(state)
    travel(state, "north")
    act(state, "decline")
    assert state.to_move == BEN and {"type": "wait"} not in legal(state)  # Ada may not act


def test_passed_characters_are_ignored_by_the_order_and_cannot_join() -> None:
    """Seed 003, l. 93-94: "Dies geht so lange weiter, bis jeder gepasst hat." Rules file:
    "characters who have passed may not join and are ignored by the 'act again' rule"."""
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
    """Seed 003, l. 119-120 (Erkunden): "In einer Gruppe: Die Kosten ändern sich zu: 1 pro
    Gruppenmitglied." Rules file: tests use the best attribute among those involved."""
    state = new_game(2)
    act(state, "explore")
    act(state, "join")
    assert [character(state, c)["energy"] for c in (ADA, BEN)] == [3, 3]
    choose(state, "Lift the hearthstone")
    roll(state, 3)  # Ada's might 1 + axe 1 + 3 = 5
    assert state.view(None)["counters"] == {"marks": 1}
    assert [character(state, c)["xp"] for c in (ADA, BEN)] == [2, 2]


def test_group_travel_costs_one_energy_per_member_and_moves_the_group() -> None:
    """Seed 003, l. 135-136 (Reisen): "In einer Gruppe: Die Kosten ändern sich zu: 1 pro
    Gruppenmitglied." """
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
    """Seed 003, l. 141-143 (Ortsaktion): "Kosten: Je nach Ort (unabhängig von der Zahl der
    teilnehmenden Charaktere)." Rules file: the cost may be split [design: evenly, most energy pays
    first]; everyone taking part gets the effect."""
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
    """Seed 003, l. 123-125 (Reisen): "Bewegt eure Figur auf eine Ortskarte, die direkt waagrecht
    oder senkrecht an eure derzeitige Ortskarte angrenzt und durch einen Richtungspfeil mit ihr
    verbunden ist." West lies next to Home without an arrow; Corner is only diagonal."""
    state = new_game(1)
    targets = {a["to"] for a in legal(state) if a["type"] == "travel"}
    assert targets == {"north", "east", "south"}
    with pytest.raises(IllegalAction):
        travel(state, "west")
    with pytest.raises(IllegalAction):
        travel(state, "corner")


def test_arrival_reveals_then_meets_guardians_then_instant_effects() -> None:
    """Seed 003, l. 126-131: "Bei der Ankunft prüft ihr zuerst, ob neue Orte enthüllt werden.
    Handelt dann ggf. Begegnungen mit Wächtern und zuletzt ggf. die Soforteffekte ab." """
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


def test_a_group_that_arrives_together_meets_a_guardian_together() -> None:
    """Seed 003, l. 126-131: "Immer wenn sich 1 oder mehrere Charaktere an einem neuen Ort befinden,
    müssen sie dort die Ankunft durchführen ... Handelt dann ggf. Begegnungen mit Wächtern und
    zuletzt ggf. die Soforteffekte ab." Ada and Ben travel to East as a group: one encounter
    with the Wolf for both (Ada, who began the travel, decides; the best might counts), then
    the cold wind for both."""
    state = new_game(2)
    travel(state, "east")
    act(state, "join")
    assert pending(state) == "choose" and state.to_move == ADA
    assert state.view(None)["decision"]["involved"] == [ADA, BEN]
    assert "Ada and Ben meet the Wolf" in state.log
    choose(state, "Fight")
    roll(state, 1)  # 1 + might 2 (Ada 1, axe 1) = 3 < 4: both lose 2 health
    assert [character(state, c)["health"] for c in (ADA, BEN)] == [3, 3]
    assert [character(state, c)["terror"] for c in (ADA, BEN)] == [1, 1]  # the wind
    assert sum(line.startswith("The Wolf: A wolf.") for line in state.log) == 1
    assert state.to_move == ADA  # Ben took part in Ada's travel


def test_a_shared_reward_goes_once_to_the_character_who_began() -> None:
    """Seed 003, l. 141-143: a location action costs the same "unabhängig von der Zahl der
    teilnehmenden Charaktere". [design] A `shared` effect is a static reward (the berries of
    one bush): it goes once, to the character who began the action, however many join."""
    state = new_game(2)
    travel(state, "north")
    act(state, "join")
    act(state, "location_action", action="berries")
    act(state, "join")
    assert [character(state, c)["food"] for c in (ADA, BEN)] == [1 + 2, 1]
    assert sum(character(state, c)["energy"] for c in (ADA, BEN)) == 3 + 3 - 1
