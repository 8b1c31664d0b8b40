"""Scenario files: loading, the checks with field paths, and the demo scenario's content.

Issue #6: "Loading validates the file and reports every error with the field's path."
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from grail_table import TABLE

import spielwerk
from spielwerk.core.errors import OptionError
from spielwerk.games.tainted_grail.scenario import ScenarioError, load_scenario, parse_scenario

TABLE_TEXT = Path(TABLE).read_text(encoding="utf-8")


def problems(text: str) -> list[str]:
    """The errors of a scenario text, each as "field: message" (the "test.toml:LINE: " in
    front of each is checked in test_grail_lint.py)."""
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "test.toml")
    return [re.sub(r"^test\.toml(:\d+)?: ", "", problem) for problem in caught.value.problems]


def test_the_test_table_and_the_demo_load() -> None:
    assert parse_scenario(TABLE_TEXT).id == "table"
    demo = load_scenario("demo")
    assert demo.title == "The Ashen Spring"
    assert len(demo.characters) == 4
    assert 10 <= len(demo.locations) <= 14
    assert any(e.quest for e in demo.events) and len(demo.events) >= 10
    assert len(demo.guardians) == 1 and sum(m.active for m in demo.menhirs) == 1
    assert [m.dial for m in demo.menhirs if m.active] == [(7, 5, 5, 3)]
    assert any(a.markers for a in demo.actions) and demo.dreams and demo.improvements


def test_a_malformed_file_names_every_bad_field() -> None:
    text = (
        TABLE_TEXT.replace('arrows = ["north", "east", "south"]', 'arrows = ["north", "mill"]')
        .replace(
            "health = 5\nenergy = 4\nterror = 5\nfood = 1\nattributes = { might = 1,",
            "energy = 4\nterror = 5\nfood = 1\nattributes = { might = 1,",
        )
        .replace("dial = [2, 2, 2, 2]", "dial = [2, 2]")
        .replace(
            'test = { attribute = "might", target = 5 }',
            'test = { attribute = "luck", target = 5 }',
        )
        .replace('location = "east"\nencounter', 'location = "nowhere"\nencounter')
        .replace('name = "Axe"', 'name = "Axe"\ncolour = "red"')
    )
    found = problems(text)
    expected = [
        "locations[0] 'home'.arrows[1]: unknown location 'mill'",
        "characters[0] 'ada'.health: missing",
        "menhirs[0] 'home_stone'.dial: must list 4 dial values >= 1 (by player count 1..4)",
        "sections[0] 'home_explore'.choices[0].test.attribute: unknown attribute 'luck'",
        "guardians[0] 'wolf'.location: unknown location 'nowhere'",
        "items[0] 'axe'.colour: unknown field",
    ]
    for message in expected:
        assert message in found, f"{message!r} not in {found}"
    assert len(found) == len(expected)


def test_cross_checks_arrows_cells_gotos_and_end_conditions() -> None:
    text = (
        TABLE_TEXT.replace('arrows = ["west"]', 'arrows = ["home"]')  # corner: diagonal
        .replace('id = "far"\nname = "Far"\nx = 0\ny = 0', 'id = "far"\nname = "Far"\nx = 2\ny = 3')
        .replace('label = "Leave"', 'label = "Leave"\ngoto = "home_explore"')
        .replace('kind = "day_limit"\nday = 8', 'kind = "all_fallen"')
    )
    found = problems(text)
    assert (
        "locations[6] 'corner'.arrows[0]: 'home' is not orthogonally adjacent to 'corner'" in found
    )
    assert "locations[7] 'far': shares its cell with 'south'" in found
    assert (
        "sections[0] 'home_explore'.choices[3].goto: the goto chain loops: "
        "home_explore -> home_explore"
    ) in found
    assert "loss: a scenario needs a day_limit loss so that every game ends" in found


def test_the_error_is_an_option_error_with_one_line_for_the_cli(tmp_path: Path) -> None:
    """The CLI prints a SpielwerkError as one line; the message names the file and problems."""
    broken = tmp_path / "broken.toml"
    broken.write_text(TABLE_TEXT.replace('start = "home"', 'start = "attic"'), encoding="utf-8")
    with pytest.raises(OptionError) as caught:
        spielwerk.load("tainted_grail", scenario=str(broken))
    message = str(caught.value)
    assert f"broken.toml: 1 problem: {broken}:14: scenario.start: unknown location 'attic'" in (
        message
    )
    assert "\n" not in message


def test_invalid_toml_and_unknown_names_are_reported() -> None:
    assert problems("[scenario\n")[0].startswith("not valid TOML")
    with pytest.raises(ScenarioError, match="no built-in scenario of that name"):
        load_scenario("no-such-scenario")


def test_a_scenario_needs_one_character_per_seat(tmp_path: Path) -> None:
    small = tmp_path / "small.toml"
    text = TABLE_TEXT
    for name in ("ben", "cai", "dag"):
        start = text.index(f'[[characters]]\nid = "{name}"')
        end = text.index("[[", start + 5)
        text = text[:start] + text[end:]
    small.write_text(text, encoding="utf-8")
    game = spielwerk.load("tainted_grail", scenario=str(small))
    assert game.new_state(1, seed=0).num_players == 1
    with pytest.raises(OptionError, match="not enough for 2 players"):
        game.new_state(2, seed=0)


def test_the_action_vocabulary_follows_the_scenario() -> None:
    game = spielwerk.load("tainted_grail")
    travels = [a.to_json()["to"] for a in game.actions.actions if a.type == "travel"]
    assert travels == [place.id for place in load_scenario("demo").locations]
    table = spielwerk.load("tainted_grail", scenario=TABLE)
    assert game.num_distinct_actions != table.num_distinct_actions


def test_types_values_and_duplicates_are_named_by_their_path() -> None:
    """Issue #6: "a malformed scenario file gives clear errors naming the fields" - a wrong
    type, a bad value, a duplicate and a name that is not declared each get their own line."""
    text = (
        TABLE_TEXT.replace('counters = ["marks"]', 'counters = ["marks", "marks"]')
        .replace('id = "north_stone"\nlocation = "north"', 'id = "north_stone"\nlocation = "home"')
        .replace("cost = { energy = 3 }", 'cost = { energy = "three" }')
        .replace("effect = { food = 2, shared = true }", 'effect = { food = 2, shared = "yes" }')
        .replace('id = "spear"', 'id = "axe"')
        .replace("use = { health = 2 }", "use = { health = 2, luck = 1 }")
        .replace('kind = "all_fallen"', 'kind = "eaten"')
        .replace("instant_markers = 1", "instant_markers = -1")
    )
    found = problems(text)
    expected = [
        "scenario.counters[1]: 'marks' is listed twice",
        "menhirs[1] 'north_stone'.location: 'north_stone' stands where 'home_stone' stands",
        "actions[0] 'fire'.cost.energy: must be an integer, not 'three'",
        "actions[2] 'berries'.effect.shared: must be a boolean, not 'yes'",
        "items[1] 'axe'.id: duplicate item id 'axe'",
        "characters[0] 'ada'.items[1]: unknown item 'spear'",  # the spear's id is taken
        "items[3] 'salve'.use.luck: unknown field",
        "loss[0].kind: unknown kind 'eaten' (kinds: all_fallen, any_fallen, no_menhir, "
        "day_limit, condition)",
        "locations[2] 'east'.instant_markers: must be at least 0, not -1",
    ]
    for message in expected:
        assert message in found, f"{message!r} not in {found}"
    assert len(found) == len(expected), found


def test_every_field_is_checked_even_when_others_are_broken() -> None:
    """Wrong types anywhere give errors, never a crash, and the head of the file is checked
    as well as the rest."""
    text = (
        TABLE_TEXT.replace('id = "table"', "id = 3")
        .replace('arrows = ["north", "east", "south"]', "arrows = 3")
        .replace('reveals = ["east2"]', "reveals = [1.5]")
        .replace('location = "east"\nencounter', "encounter")
    )
    found = problems(text)
    expected = [
        "scenario.id: must be a string, not 3",
        "locations[0] 'home'.arrows: must be a list, not 3",
        "locations[2] 'east'.reveals[0]: must be a string, not 1.5",
        "guardians[0] 'wolf'.location: missing",
    ]
    for message in expected:
        assert message in found, f"{message!r} not in {found}"
    assert len(found) == len(expected), found
