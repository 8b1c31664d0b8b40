"""Phase I, the dawn, step by step on the test table (`table.toml`).

Rulebook: shared/seeds/003_bd9d21eaf5298cf0.txt, "I) TAGESANBRUCH" (quoted in each docstring);
gaps settled in shared/rules/tainted_grail.md ("Where the seed stops").
"""

from __future__ import annotations

from grail_table import (
    ADA,
    BEN,
    CAI,
    act,
    character,
    choose,
    finish_day,
    legal,
    locations,
    log_lines,
    new_game,
    pending,
    travel,
)

from spielwerk.core.conformance import play_on
from spielwerk.games.tainted_grail import words
from spielwerk.games.tainted_grail.state import TaintedGrailState


def menhirs(state: TaintedGrailState) -> dict[str, int]:
    return {m["id"]: m["dial"] for m in state.view(None)["menhirs"]}


def test_day_one_starts_at_phase_two() -> None:
    """Rules file: "Day 1 starts at phase II (setup replaces the first dawn)"."""
    state = new_game(2)
    view = state.view(None)
    assert view["day"] == 1 and view["phase"] == "day"
    assert pending(state) == "act" and state.to_move == ADA
    assert not any("dawn step" in line for line in log_lines(state))


def test_the_eight_dawn_steps_run_in_order_and_are_logged() -> None:
    """Seed 003, l. 4-6, 14-70: "Am Tagesanbruch (Phase I) müsst ihr einige wenige
    Unterhaltsaufgaben erledigen" - the eight numbered steps 1) to 8), in that order."""
    state = new_game(1)
    start = len(state.log)
    finish_day(state, event="storm")
    steps = [line for line in log_lines(state)[start:] if line.startswith("dawn step")]
    names = [words.TEXTS.term("en", f"dawn_{i}") for i in range(1, 9)]
    assert steps == [f"dawn step {i}: {name}" for i, name in enumerate(names, start=1)]
    assert state.view(None)["day"] == 2


def test_menhir_dial_goes_down_and_a_dial_at_1_is_taken_out_while_the_menhir_stays() -> None:
    """Seed 003, l. 26-32 (step 3): "Reduziert den Wert der Scheibe jedes aktiven Menhirs um 1 ...
    Wenn der Wert einer Scheibe bereits 1 beträgt ..., entfernt die Scheibe ... Wichtig: Der Menhir
    selbst wird bis zum nächsten Tagesanbruch weder erlöschen noch entfernt!" Step 1: "Wenn ein
    Menhir keine Scheibe mehr enthält, wird er inaktiv und erlischt. Entfernt solche Menhire" - with
    no menhir left the demo's darkness loss follows."""
    state = new_game(1)
    assert menhirs(state) == {"home_stone": 2}
    finish_day(state, event="storm")
    assert menhirs(state) == {"home_stone": 1}
    finish_day(state, event="choice")
    choose(state, "Nothing")
    finish_day(state)
    # The dial is out, the menhir still stands and still holds its locations in range.
    assert menhirs(state) == {"home_stone": 0}
    assert "home" in locations(state) and "south" in locations(state)
    assert any("dial of the menhir at Home is taken out" in line for line in log_lines(state))
    finish_day(state, event="call")
    assert state.is_terminal()
    assert state.result()["reason"] == "darkness"
    assert "the menhir at Home is gone" in log_lines(state)


def test_locations_beyond_the_eight_neighbours_are_discarded_with_what_lies_on_them() -> None:
    """Seed 003, l. 20-25 (step 2): "Auf jedem Ort muss sich ein aktiver Menhir befinden oder er
    muss mit einem Ort mit aktivem Menhir verbunden sein (horizontal, vertikal oder diagonal). Legt
    alle Ortskarten außerhalb der Reichweite eines aktiven Menhirs (und alles was sich ggf. darauf
    befindet) ab". Far (0,0) is two cells from Home (2,2); Corner (1,1) is a diagonal neighbour and
    stays. The Ghost and the time markers on Far go with it."""
    state = new_game(1)
    far_work = next(i for i, a in enumerate(state.game.scenario.actions) if a.id == "far_work")
    state.action_markers[far_work] = 3
    assert {"far", "corner"} <= locations(state)
    assert {g["name"] for g in state.view(None)["guardians"]} == {"the Wolf", "the Ghost"}
    finish_day(state, event="storm")
    assert "far" not in locations(state)
    assert "corner" in locations(state) and "west" in locations(state)
    assert {g["name"] for g in state.view(None)["guardians"]} == {"the Wolf"}
    assert state.action_markers[far_work] == 0
    # Discarded cards go back to the box (conservation of location cards).
    assert len(state.component_zones()["location_box"]) == 2  # Far and the unrevealed Far East


def test_a_character_on_a_discarded_location_stays_in_the_wyrdness() -> None:
    """Rules file: "characters on a discarded location stay on its empty cell (the wyrdness);
    from there they may only travel to an orthogonally adjacent location card, no arrow
    needed, and gain 1 terror at each dawn they start there"."""
    state = new_game(1)
    travel(state, "east")  # reveals Far East, meets the Wolf
    choose(state, "Flee")
    travel(state, "east2")
    assert character(state, ADA)["location"] == "east2"
    terror = character(state, ADA)["terror"]
    finish_day(state, event="storm")
    ada = character(state, ADA)
    assert ada["location"] is None and (ada["x"], ada["y"]) == (4, 2)
    assert ada["terror"] == terror - 1  # she ate; she did not start this dawn in the wyrdness
    assert legal(state) == [{"type": "pass"}, {"type": "travel", "to": "east"}]
    finish_day(state, event="call")
    assert character(state, ADA)["location"] is None
    assert character(state, ADA)["terror"] == terror - 1 + 1
    assert "Ada wakes in the wyrdness: +1 terror" in log_lines(state)


def test_time_dials_count_down_and_fire_when_removed_and_counters_stay() -> None:
    """Seed 003, l. 33-41 (step 4): "Wenn der Wert einer Zeitscheibe nicht mehr reduziert werden
    kann, entfernt die Scheibe aus dem Spiel ... Werte von Scheiben mit Questmarkern, die
    Zählscheiben, werden nicht reduziert." Rules file: a dial at 1 is removed and fires its expiry
    effect."""
    state = new_game(2)
    act(state, "pass")
    travel(state, "north")  # Ben keeps a menhir burning past day 3
    act(state, "location_action", action="light")
    finish_day(state, event="call")  # The Call: Doom 2, marks +1
    view = state.view(None)
    assert view["time_dials"] == {"Doom": 2} and view["counters"] == {"marks": 1}
    finish_day(state, event="storm")
    assert state.view(None)["time_dials"] == {"Doom": 1}
    assert [character(state, c)["health"] for c in (ADA, BEN)] == [5, 5]
    finish_day(state, event="choice")
    choose(state, "Nothing")
    finish_day(state)
    view = state.view(None)
    assert view["time_dials"] == {}
    assert "doom_done" in view["flags"]
    assert "time dial Doom runs out" in log_lines(state)
    assert [character(state, c)["health"] for c in (ADA, BEN)] == [4, 4]  # doom: -1 health
    assert view["counters"] == {"marks": 1}  # a counting dial is never lowered


def test_time_markers_block_a_location_action_until_dawns_remove_them() -> None:
    """Seed 003, l. 38-39 (step 4): "Entfernt ggf. 1 Zeitmarker von jeder Ortsaktion und jedem
    Soforteffekt." Rules file: "an action or instant effect with at least one time marker is
    unavailable". Tending the fire leaves 2 markers: unavailable on day 2, free again on day 3."""
    state = new_game(1)
    fire = {"type": "location_action", "action": "fire"}
    assert fire in legal(state)
    act(state, "location_action", action="fire")
    assert state.view(None)["locations"][0]["actions"][0]["markers"] == 2
    finish_day(state, event="storm")
    assert fire not in legal(state)
    finish_day(state, event="call")
    assert fire in legal(state)


def test_instant_effect_with_a_time_marker_does_not_fire_again_the_same_day() -> None:
    """Rules file: instant effects carry time markers like location actions; East's cold wind
    leaves 1 marker, which the next dawn removes."""
    state = new_game(1)
    travel(state, "east")
    choose(state, "Flee")  # terror +1, then the wind: +1
    assert character(state, ADA)["terror"] == 2
    travel(state, "east2")
    travel(state, "east")
    choose(state, "Flee")  # the Wolf again: +1, but no wind
    assert character(state, ADA)["terror"] == 3
    assert log_lines(state).count("A cold wind.") == 1


def test_a_dawn_takes_one_time_marker_off_an_instant_effect() -> None:
    """Seed 003, l. 38-39 (step 4): "Entfernt ggf. 1 Zeitmarker von jeder Ortsaktion und jedem
    Soforteffekt." East's cold wind leaves 1 marker; the next dawn takes it off, and the wind
    blows again at the next day's visit."""
    state = new_game(1)

    def east_markers() -> int:
        east = next(p for p in state.view(None)["locations"] if p["id"] == "east")
        return int(east["instant_markers"])

    travel(state, "east")
    choose(state, "Flee")
    assert east_markers() == 1 and log_lines(state).count("A cold wind.") == 1
    finish_day(state, event="storm")
    assert east_markers() == 0
    travel(state, "home")
    travel(state, "east")
    choose(state, "Flee")  # the Wolf is still there
    assert log_lines(state).count("A cold wind.") == 2


def test_a_quest_event_goes_to_the_quest_pile_and_others_are_discarded_at_day_end() -> None:
    """Seed 003, l. 42-50 (step 5): "Wenn auf der Karte ein Questetext und ein rotes
    Vorhängeschloss-Symbol abgebildet ist, legt ihr sie auf den Queststapel neben dem
    Ereignisstapel." Other events are "am Ende des Tages abgelegt"."""
    state = new_game(1)
    finish_day(state, event="call")
    view = state.view(None)
    assert view["quest_pile"] == ["The Call"] and view["today"] == []
    assert view["event_deck"] == 2
    finish_day(state, event="storm")
    view = state.view(None)
    assert view["today"] == ["Storm"]
    assert character(state, ADA)["energy"] == 3  # the storm cost 1 energy
    finish_day(state, event="choice")
    zones = state.component_zones()
    assert list(zones["event_discard"]) == [1]  # the storm, discarded at the end of day 3
    assert list(zones["quest_pile"]) == [0]


def test_an_event_with_a_choice_is_decided_by_the_lowest_character_for_everyone() -> None:
    """Seed 003, l. 42 (step 5): reveal the event "und lest sie"; rules file: events resolve for the
    party. The lowest character number decides (the seed's default order)."""
    state = new_game(2)
    finish_day(state, event="choice")
    assert pending(state) == "choose" and state.to_move == ADA
    food = [character(state, c)["food"] for c in (ADA, BEN)]
    choose(state, "Take food")
    assert [character(state, c)["food"] for c in (ADA, BEN)] == [f + 2 for f in food]


def test_an_empty_event_deck_skips_step_five() -> None:
    """Rules file: "With an empty event deck, step 5 is skipped"."""
    state = new_game(2)
    act(state, "pass")
    travel(state, "north")
    act(state, "location_action", action="light")
    state.deck.clear()
    state.discard.extend([0, 1, 2])
    finish_day(state)
    assert "the event deck is empty" in log_lines(state)


def test_guardians_move_with_the_die_along_joined_paths_and_attack_at_once() -> None:
    """Seed 003, l. 55-59 (step 6): "werft ihr für jeden einzelnen den Wächterwürfel und bewegt
    ihn". Rules file: "a guardian moves one location along a joined path in that direction if there
    is one, otherwise stays ... A guardian that enters a character's location starts an encounter at
    once". The Wolf at East: north of it is no location, so it stays; west is Home, joined by an
    arrow, where Ada stands."""
    state = new_game(1)
    finish_day(state, event="storm", guardian="N")
    stays = "The guardian die for the Wolf shows north, but no path leads north: it stays at East"
    assert stays in log_lines(state)
    finish_day(state, event="call", guardian="W")
    assert pending(state) == "choose"
    assert state.view(None)["guardians"] == [{"id": "wolf", "name": "the Wolf", "location": "home"}]
    assert "Ada meets the Wolf" in log_lines(state)
    choose(state, "Fight")
    act(state, "roll", value=3)  # might 1 + axe 1 + 3 = 5 >= 4
    assert state.view(None)["guardians"] == []


def test_a_guardian_does_not_move_to_a_neighbour_without_an_arrow() -> None:
    """Rules file l. 69-70: "a guardian moves one location along a joined path in that
    direction if there is one, otherwise stays". The Wolf stands at Home; West lies next to it
    on the grid but no arrow joins them: the die's W leaves it at Home."""
    state = new_game(1)
    state.guardian_at[0] = 0  # the Wolf at Home
    act(state, "pass")
    finish_day(state, event="storm", guardian="W")
    assert state.view(None)["guardians"][0]["location"] == "home"
    stays = "The guardian die for the Wolf shows west, but no path leads west: it stays at Home"
    assert stays in log_lines(state)


def test_a_guardian_does_not_move_onto_a_card_that_is_not_on_the_grid() -> None:
    """Rules file l. 69-70 ("along a joined path ... if there is one") and l. 55: the discarded
    card is gone with what lies on it. East and Far East are joined by an arrow, but Far East
    (two cells from Home's menhir) is discarded at dawn step 2, before the guardians move
    (step 6): the die's E leaves the Wolf at East. Before Far East is ever revealed, the same."""
    state = new_game(1)
    finish_day(state, event="storm", guardian="E")
    assert state.view(None)["guardians"][0]["location"] == "east"
    state = new_game(1)
    travel(state, "east")  # reveals Far East
    choose(state, "Flee")
    assert "east2" in locations(state)
    finish_day(state, event="storm", guardian="E")
    assert "east2" not in locations(state)
    assert state.view(None)["guardians"] == [{"id": "wolf", "name": "the Wolf", "location": "east"}]


def test_guardians_move_in_id_order() -> None:
    """Rules file l. 70: "several guardians move in id order". The Ghost is put on Corner so
    that both guardians are on the grid at step 6: the Wolf (file order 0) rolls first."""
    state = new_game(1)
    state.guardian_at[1] = 6  # the Ghost at Corner (1, 1), in Home's range
    act(state, "pass")
    act(state, "eat")
    act(state, "event", event="storm")
    assert pending(state) == "gdie" and state.pending[1] == 0
    roll = state.describe(state.legal_actions()[0], None)
    assert roll.startswith("the guardian die for the Wolf shows")
    act(state, "guardian_die", face="stay")
    assert pending(state) == "gdie" and state.pending[1] == 1
    act(state, "guardian_die", face="stay")
    dice = [line for line in log_lines(state) if line.startswith("The guardian die for")]
    assert dice == [
        "The guardian die for the Wolf says stay: it stays at East",
        "The guardian die for the Ghost says stay: it stays at Corner",
    ]


def test_several_characters_each_meet_an_entering_guardian_in_number_order() -> None:
    """Rules file l. 70-71: "A guardian that enters a character's location starts an encounter at
    once (characters in number order)." The Wolf enters Home where Ada, Ben and Cai stand: one
    encounter each, Ada's first, then Ben's, then Cai's."""
    state = new_game(3)
    finish_day(state, event="storm", guardian="W")
    deciders = []
    for _ in range(3):
        assert pending(state) == "choose"
        decision = state.view(None)["decision"]
        assert decision["involved"] == [decision["character"]]
        deciders.append(state.to_move)
        choose(state, "Flee")
    assert deciders == [ADA, BEN, CAI]
    meetings = [line for line in log_lines(state) if line.endswith("meets the Wolf")]
    assert meetings == ["Ada meets the Wolf", "Ben meets the Wolf", "Cai meets the Wolf"]


def test_guardian_die_probabilities_follow_the_faces() -> None:
    """Rules file: "Guardian die: faces N, E, S, W, stay, stay"."""
    state = new_game(1)
    act(state, "pass")
    for _ in play_on(state, 50, until=lambda s: pending(s) == "gdie"):
        if pending(state) == "rest":
            act(state, "eat")
        elif pending(state) == "event":
            act(state, "event", event="storm")
        else:
            act(state, "equip_done")
    odds = {a.to_json()["face"]: p for a, p in state.chance_outcomes()}
    assert odds == {"N": 1 / 6, "E": 1 / 6, "S": 1 / 6, "W": 1 / 6, "stay": 2 / 6}


def test_equip_at_most_one_item_per_keyword_others_are_turned_over_but_kept() -> None:
    """Seed 003, l. 64-70 (step 8): "Jeder Charakter darf höchstens 1 Gegenstand oder Geheimnis mit
    demselben Schlüsselwort gleichzeitig ausgerüstet haben. Dreht alle Gegenstände/Geheimnisse, die
    ihr aufgrund dieser Regel nicht ausrüsten möchtet oder könnt, um ... Sie sind weiterhin in eurem
    Besitz." Ada owns Axe and Spear (both weapons): only one can be equipped."""
    state = new_game(1)
    items = {i["id"]: i["equipped"] for i in character(state, ADA)["items"]}
    assert items == {"axe": True, "spear": False}
    act(state, "pass")
    act(state, "eat")
    act(state, "event", event="storm")
    act(state, "guardian_die", face="stay")
    assert pending(state) == "equip"
    assert legal(state) == [{"type": "equip_done"}, {"type": "unequip", "item": "axe"}]
    act(state, "unequip", item="axe")  # unequipping is always allowed
    assert legal(state) == [{"type": "equip_done"}, {"type": "equip", "item": "spear"}]
    act(state, "equip", item="spear")
    assert legal(state) == [{"type": "equip_done"}]
    act(state, "equip_done")
    items = {i["id"]: i["equipped"] for i in character(state, ADA)["items"]}
    assert items == {"axe": False, "spear": True}
    assert character(state, ADA)["attributes"]["might"] == 1 + 2


def test_an_item_with_two_keywords_counts_against_both() -> None:
    """Rules file: "an item with two keywords counts against both". The Amulet (charm, weapon)
    cannot be equipped beside the Axe."""
    state = new_game(1)
    act(state, "explore")
    choose(state, "Pray")
    items = {i["id"]: i["equipped"] for i in character(state, ADA)["items"]}
    assert items == {"axe": True, "spear": False, "amulet": False}


def test_exhausted_items_are_flipped_face_up_at_dawn() -> None:
    """Seed 003, l. 65-66 (step 8): "Dreht alle umgedrehten Gegenstände und Geheimnisse auf ihre
    Vorderseite." A used item is exhausted until then."""
    state = new_game(1)
    act(state, "explore")
    choose(state, "Find the salve")
    assert {"type": "use", "item": "salve"} in legal(state)
    act(state, "use", item="salve")
    salve = next(i for i in character(state, ADA)["items"] if i["id"] == "salve")
    assert salve["exhausted"]
    assert {"type": "use", "item": "salve"} not in legal(state)
    finish_day(state, event="storm")
    salve = next(i for i in character(state, ADA)["items"] if i["id"] == "salve")
    assert not salve["exhausted"]
    assert {"type": "use", "item": "salve"} in legal(state)
