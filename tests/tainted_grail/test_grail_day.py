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
    finish_day,
    legal,
    legal_types,
    log_lines,
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
    teilnehmenden Charaktere)." Rules file l. 49-50: the group pays "in a documented order
    (starter first, then the others in seat order)"; everyone taking part gets the effect."""
    state = new_game(2)
    act(state, "location_action", action="fire")  # 3 energy
    act(state, "join")
    assert [character(state, c)["energy"] for c in (ADA, BEN)] == [4 - 3, 4]
    assert [character(state, c)["food"] for c in (ADA, BEN)] == [2, 2]


def test_a_location_action_is_offered_when_the_participants_together_can_pay() -> None:
    """Rules file l. 46-48: "a location action's cost may be split among participants as they
    like: the action is available when the participants together can pay it (not only the
    starter alone)". Ada and Ben have 2 energy each at Home: "Tend the fire" (3 energy) is
    offered to Ada. Ben's share is needed, so he cannot decline; Ada pays first (l. 50)."""
    state = new_game(2)
    state.energy[ADA], state.energy[BEN] = 2, 2
    assert {"type": "location_action", "action": "fire"} in legal(state)
    act(state, "location_action", action="fire")
    assert pending(state) == "join" and state.to_move == BEN
    assert legal(state) == [{"type": "join"}]
    with pytest.raises(IllegalAction):
        act(state, "decline")
    act(state, "join")
    assert [character(state, c)["energy"] for c in (ADA, BEN)] == [0, 1]
    assert "Ada and Ben: Tend the fire (3 energy; paid by Ada 2 energy, Ben 1 energy)" in (
        log_lines(state)
    )


def test_a_location_action_the_participants_cannot_pay_together_is_not_offered() -> None:
    """Rules file l. 47-48: available "when the participants together can pay it": 1 + 1
    energy is not 3. Nor do characters elsewhere or who passed count: only those who may join
    (l. 44-46)."""
    state = new_game(3)
    state.energy[ADA], state.energy[BEN], state.energy[CAI] = 1, 1, 4
    fire = {"type": "location_action", "action": "fire"}
    assert fire in legal(state)  # with Cai's energy
    state.passed[CAI] = True
    assert fire not in legal(state)
    state.passed[CAI] = False
    state.cell[CAI] = (2, 1)  # at North
    assert fire not in legal(state)


def test_a_helper_whose_share_is_not_needed_may_decline() -> None:
    """Rules file l. 48-50: the split is the group's choice, paid "starter first, then the
    others in seat order". Ben (1 energy) begins "Tend the fire" (3). Ada may decline, as
    Ben and Cai can pay without her; then Cai, asked last, must join: Ben pays 1, Cai 2."""
    state = new_game(3)
    state.energy[ADA], state.energy[BEN], state.energy[CAI] = 2, 1, 2
    act(state, "wait")  # Ada lets Ben act first
    act(state, "location_action", action="fire")
    assert state.to_move == ADA and legal(state) == [{"type": "join"}, {"type": "decline"}]
    act(state, "decline")
    assert state.to_move == CAI and legal(state) == [{"type": "join"}]
    act(state, "join")
    assert [character(state, c)["energy"] for c in (ADA, BEN, CAI)] == [2, 0, 0]


def test_a_group_pays_starter_first_then_in_seat_order() -> None:
    """Rules file l. 49-50: "starter first, then the others in seat order". Ben begins with
    1 energy and pays it; then Ada (seat 0) pays 2 before Cai (seat 2) pays anything. When Ben
    can pay alone, he pays everything."""
    state = new_game(3)
    state.energy[ADA], state.energy[BEN], state.energy[CAI] = 2, 1, 2
    act(state, "wait")
    act(state, "location_action", action="fire")
    act(state, "join")  # Ada
    act(state, "join")  # Cai
    assert [character(state, c)["energy"] for c in (ADA, BEN, CAI)] == [0, 0, 2]

    state = new_game(3)
    state.energy[ADA], state.energy[BEN], state.energy[CAI] = 2, 4, 3
    act(state, "wait")
    act(state, "location_action", action="fire")
    act(state, "join")
    act(state, "join")
    assert [character(state, c)["energy"] for c in (ADA, BEN, CAI)] == [2, 1, 3]


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
    lines = log_lines(state)[start:]
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
    assert "Ada and Ben meet the Wolf" in log_lines(state)
    choose(state, "Fight")
    roll(state, 1)  # 1 + might 2 (Ada 1, axe 1) = 3 < 4: both lose 2 health
    assert [character(state, c)["health"] for c in (ADA, BEN)] == [3, 3]
    assert [character(state, c)["terror"] for c in (ADA, BEN)] == [1, 1]  # the wind
    assert sum(line.startswith("The Wolf: A wolf.") for line in log_lines(state)) == 1
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


def test_an_effect_that_moves_characters_to_where_they_stand_triggers_no_arrival() -> None:
    """Rules file l. 64-65: "Arrival effects fire only on coming to a *new* location: an effect
    that "moves" a character to where it already stands triggers nothing." (Seed 003, l. 126:
    "Immer wenn sich 1 oder mehrere Charaktere an einem neuen Ort befinden".) Ada travels to
    East and flees the Wolf; "Walk around the stones" moves her to East again: no encounter,
    no instant effect, no log line of an arrival."""
    state = new_game(1)
    travel(state, "east")
    choose(state, "Flee")
    state.instant_markers[2] = 0  # the cold wind could fire again (East is location 2)
    terror, start = character(state, ADA)["terror"], len(state.log)
    act(state, "location_action", action="circle")
    assert pending(state) == "act" and state.to_move == ADA
    assert character(state, ADA)["terror"] == terror
    assert not any("meets" in line or "wind" in line for line in log_lines(state)[start:])


def test_a_character_in_the_wyrdness_may_only_travel_not_use_items() -> None:
    """Rules file l. 65-66: "A character in the wyrdness may travel and nothing else (no item use
    either)." Ada owns the salve (equipped, ready) and wakes in the wyrdness where Far East
    was: she may pass or travel, not use it; back on a card, she may use it again."""
    state = new_game(1)
    act(state, "explore")
    choose(state, "Find the salve")
    travel(state, "east")
    choose(state, "Flee")
    travel(state, "east2")
    assert {"type": "use", "item": "salve"} in legal(state)
    finish_day(state, event="storm")
    assert character(state, ADA)["location"] is None
    assert legal(state) == [{"type": "pass"}, {"type": "travel", "to": "east"}]
    with pytest.raises(IllegalAction):
        act(state, "use", item="salve")
    travel(state, "east")
    choose(state, "Flee")  # the Wolf is still there
    assert {"type": "use", "item": "salve"} in legal(state)


def test_a_location_action_opens_its_section_even_the_first_of_the_file() -> None:
    """Scenario format (docs/games/tainted_grail.md, `[[actions]]`): `section`
    is "a section with choices that follows, read by the starter for the group". "Search the
    hearth" leads to `home_explore`, the file's first section (index 0)."""
    state = new_game(1)
    act(state, "location_action", action="search")
    assert pending(state) == "choose" and state.to_move == ADA
    decision = state.view(None)["decision"]
    assert decision["section"] == "home_explore"
    assert [o["label"] for o in decision["options"]][-1] == "Leave"


def test_a_menhir_is_lit_by_the_location_action_that_offers_it() -> None:
    """Rules file l. 75: "A menhir is activated at a location that offers it, by a location
    action." Ada lights the north menhir: it burns with its dial for one player (4), and the
    action is not offered again while that menhir stands."""
    state = new_game(1)
    travel(state, "north")
    light = {"type": "location_action", "action": "light"}
    assert light in legal(state)
    act(state, "location_action", action="light")
    menhirs = {m["id"]: m["dial"] for m in state.view(None)["menhirs"]}
    assert menhirs == {"home_stone": 2, "north_stone": 4}
    assert light not in legal(state)


def test_the_roll_line_says_the_outcome_the_rules_give() -> None:
    """Rules file: a test succeeds when the die plus the attribute reaches the target. Lifting
    the hearthstone tests might (3 with the axe) against 5: each die face's line says the total
    and the outcome, and the outcome is the one the rules then apply (success: 2 experience);
    a 3 reaches 5 exactly and succeeds."""
    state = new_game(1)
    act(state, "explore")
    choose(state, "Lift the hearthstone")
    lines = {a.to_json()["value"]: state.describe(a, ADA, "en") for a, _ in state.chance_outcomes()}
    assert lines[2] == "the die shows 2: might total 4 against 5, failure"
    assert lines[3] == "the die shows 3: might total 5 against 5, success"
    german = [state.describe(a, ADA, "de") for a, _ in state.chance_outcomes()]
    assert german[2] == "der Würfel zeigt 3: Kraft zusammen 5 gegen 5, Erfolg"
    for value, line in lines.items():
        branch = state.clone()
        xp = character(branch, ADA)["xp"]
        roll(branch, int(value))
        succeeded = character(branch, ADA)["xp"] >= xp + 2
        assert line.endswith("success" if succeeded else "failure"), (value, line)
        assert f"total {value + 2} against 5" in line
