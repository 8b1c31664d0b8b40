"""The scenario linter and the message format of every scenario error.

Issue #22: "An unreachable win (the win condition needs a flag that no effect sets; a location
that no arrow or effect can reach; an item that can never be gained) is reported: an error
where the scenario cannot be won, a warning where a part is dead." "Error messages name the
element by its id as well as its index, and give the line in the file
(`table.toml:42: locations[2] 'hut'.x: missing`); one root mistake gives one error, not a
knock-on cascade." Each case below is one mistake made in the test table (`table.toml`); it
must give exactly one error, word for word, on the line where the mistake is.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

import pytest
from grail_table import TABLE

import spielwerk
from spielwerk.cli.main import main
from spielwerk.games.tainted_grail.scenario import (
    ScenarioError,
    check_scenario_text,
    parse_scenario,
)
from spielwerk.games.tainted_grail.source_map import Diagnostic

TABLE_TEXT = Path(TABLE).read_text(encoding="utf-8")
KINDS = "all_fallen, any_fallen, no_menhir, day_limit, condition"


@dataclass(frozen=True)
class Mistake:
    """`edits` turn the table into a broken file; `expected` is the one error, with `{line}`
    standing for the line of `marker` in the broken file (shifted by `offset`)."""

    edits: tuple[tuple[str, str], ...]
    expected: str
    marker: str = ""
    offset: int = 0

    def text(self) -> str:
        text = TABLE_TEXT
        for old, new in self.edits:
            assert old in text, f"{old!r} is not in the table"
            text = text.replace(old, new, 1)
        return text

    def line(self, text: str) -> int:
        if not self.marker:
            return 0
        assert text.count(self.marker) >= 1, self.marker
        return text[: text.index(self.marker)].count("\n") + 1 + self.offset


FLEE = '[[sections.choices]]\nlabel = "Flee"'
WIN = '[[win]]\ntext = "victory"\nrequires = { flags = ["victory"] }'
MISTAKES = {
    # ---- the file and its tables
    "not TOML": Mistake(
        (("[scenario]\n", "[scenario\n"),), "test.toml:{line}: not valid TOML: ", "[scenario\n"
    ),
    "unknown field at the top": Mistake(
        (("[scenario]\n", 'colour = "red"\n[scenario]\n'),),
        "test.toml:{line}: colour: unknown field",
        'colour = "red"',
    ),
    "unknown field in a table": Mistake(
        (('name = "Axe"', 'name = "Axe"\ncolour = "red"'),),
        "test.toml:{line}: items[0] 'axe'.colour: unknown field",
        'colour = "red"',
    ),
    "an empty translation": Mistake(
        (("[scenario]\n", '[translations.de]\n"West" = ""\n\n[scenario]\n'),),
        "test.toml:{line}: translations.de.West: must be a non-empty string",
        '"West" = ""',
    ),
    "a misspelt field": Mistake(
        (('id = "west"\nname = "West"\nx = 1', 'id = "west"\nname = "West"\nX = 1'),),
        "test.toml:{line}: locations[5] 'west'.X: unknown field (did you mean 'x'?)",
        "X = 1",
    ),
    "a misspelt id": Mistake(
        (('[[guardians]]\nid = "wolf"', '[[guardians]]\nidd = "wolf"'),),
        "test.toml:{line}: guardians[0].idd: unknown field (did you mean 'id'?)",
        'idd = "wolf"',
    ),
    "no [scenario] table": Mistake(
        ((TABLE_TEXT[TABLE_TEXT.index("[scenario]") : TABLE_TEXT.index("[[characters]]")], ""),),
        "test.toml: scenario: missing (the [scenario] table)",
    ),
    "[scenario] not a table": Mistake(
        (
            (
                TABLE_TEXT[TABLE_TEXT.index("[scenario]") : TABLE_TEXT.index("[[characters]]")],
                'scenario = "table"\n\n',
            ),
        ),
        "test.toml:{line}: scenario: must be a table ([scenario])",
        'scenario = "table"',
    ),
    "an array of tables that is not one": Mistake(
        (("[[dreams]]", "[dreams]"),),
        "test.toml:{line}: dreams: must be an array of tables ([[dreams]])",
        "[dreams]",
    ),
    # ---- values
    "a missing field": Mistake(
        (
            (
                "health = 5\nenergy = 4\nterror = 5\nfood = 1\nattributes = { might = 1,",
                "energy = 4\nterror = 5\nfood = 1\nattributes = { might = 1,",
            ),
        ),
        "test.toml:{line}: characters[0] 'ada'.health: missing",
        "[[characters]]",
    ),
    "not an integer": Mistake(
        (("cost = { energy = 3 }", 'cost = { energy = "three" }'),),
        "test.toml:{line}: actions[0] 'fire'.cost.energy: must be an integer, not 'three'",
        'cost = { energy = "three" }',
    ),
    "not a boolean": Mistake(
        (("effect = { food = 2, shared = true }", 'effect = { food = 2, shared = "yes" }'),),
        "test.toml:{line}: actions[2] 'berries'.effect.shared: must be a boolean, not 'yes'",
        'shared = "yes"',
    ),
    "not a table": Mistake(
        (("requires = { counters = { marks = 2 } }", "requires = 3"),),
        "test.toml:{line}: actions[3] 'claim'.requires: must be a table, not 3",
        "requires = 3",
    ),
    "not a string in a list": Mistake(
        (('reveals = ["east2"]', "reveals = [1.5]"),),
        "test.toml:{line}: locations[2] 'east'.reveals[0]: must be a string, not 1.5",
        "reveals = [1.5]",
    ),
    "too small": Mistake(
        (("instant_markers = 1", "instant_markers = -1"),),
        "test.toml:{line}: locations[2] 'east'.instant_markers: must be at least 0, not -1",
        "instant_markers = -1",
    ),
    "listed twice": Mistake(
        (('counters = ["marks"]', 'counters = ["marks", "marks"]'),),
        "test.toml:{line}: scenario.counters[1]: 'marks' is listed twice",
        'counters = ["marks", "marks"]',
    ),
    "a duplicate id": Mistake(
        (("[[locations]]", '[[items]]\nid = "axe"\nname = "Second Axe"\n\n[[locations]]'),),
        "test.toml:{line}: items[4] 'axe'.id: duplicate item id 'axe'",
        'id = "axe"\nname = "Second Axe"',
    ),
    "an event id taken by a section": Mistake(
        (('id = "storm"', 'id = "east_wind"'),),
        "test.toml:{line}: events[1] 'east_wind'.id: 'east_wind' is already the id of a section",
        'id = "east_wind"\ntitle = "Storm"',
    ),
    # ---- references and names
    "an unknown location": Mistake(
        (('arrows = ["north", "east", "south"]', 'arrows = ["north", "mill"]'),),
        "test.toml:{line}: locations[0] 'home'.arrows[1]: unknown location 'mill'",
        'arrows = ["north", "mill"]',
    ),
    "an unknown section": Mistake(
        (('explore = "home_explore"', 'explore = "nowhere"'),),
        "test.toml:{line}: locations[0] 'home'.explore: unknown section 'nowhere'",
        'explore = "nowhere"',
    ),
    "an unknown attribute": Mistake(
        (("attributes = { might = 1, wits = 0 }", "attributes = { might = 1, luck = 0 }"),),
        "test.toml:{line}: characters[0] 'ada'.attributes.luck: unknown attribute "
        "(known: might, wits)",
        "luck = 0",
    ),
    "an unknown counter": Mistake(
        (("counters = { marks = 1 } }", "counters = { wards = 1 } }"),),
        "test.toml:{line}: events[0] 'call'.effect.counters.wards: unknown counter (known: marks)",
        "wards = 1",
    ),
    "an unknown resource": Mistake(
        (
            (
                'label = "Pick berries"\ncost = { energy = 1 }',
                'label = "Pick berries"\ncost = { gold = 1 }',
            ),
        ),
        "test.toml:{line}: actions[2] 'berries'.cost.gold: unknown resource "
        "(known: health, energy, terror, food, xp)",
        "cost = { gold = 1 }",
    ),
    "an unknown goto": Mistake(
        (('label = "Leave"', 'label = "Leave"\ngoto = "nowhere"'),),
        "test.toml:{line}: sections[0] 'home_explore'.choices[3].goto: unknown section 'nowhere'",
        'goto = "nowhere"',
    ),
    "an unknown guardian die face": Mistake(
        (('counters = ["marks"]', 'counters = ["marks"]\nguardian_die = ["N", "up"]'),),
        "test.toml:{line}: scenario.guardian_die[1]: unknown face 'up' (faces: N, E, S, W, stay)",
        "guardian_die",
    ),
    # ---- the map
    "a bad grid": Mistake(
        (("grid = [5, 5]", "grid = [5]"),),
        "test.toml:{line}: scenario.grid: must be [width, height] of positive integers: [5]",
        "grid = [5]",
    ),
    "a cell outside the grid": Mistake(
        (('id = "far"\nname = "Far"\nx = 0', 'id = "far"\nname = "Far"\nx = 9'),),
        "test.toml:{line}: locations[7] 'far': cell (9, 0) lies outside the 5x5 grid",
        'id = "far"',
        -1,
    ),
    "two locations on one cell": Mistake(
        (('id = "far"\nname = "Far"\nx = 0\ny = 0', 'id = "far"\nname = "Far"\nx = 1\ny = 1'),),
        "test.toml:{line}: locations[7] 'far': shares its cell with 'corner'",
        'id = "far"',
        -1,
    ),
    "a cell taken twice does not also break the arrows to it": Mistake(
        (
            (
                'id = "south"\nname = "South"\nx = 2\ny = 3',
                'id = "south"\nname = "South"\nx = 1\ny = 1',
            ),
        ),
        "test.toml:{line}: locations[6] 'corner': shares its cell with 'south'",
        'id = "corner"',
        -1,
    ),
    "a missing x does not also share a cell": Mistake(
        (
            ('id = "far"\nname = "Far"\nx = 0\ny = 0', 'id = "far"\nname = "Far"\nx = 0\ny = 2'),
            ('id = "west"\nname = "West"\nx = 1\n', 'id = "west"\nname = "West"\n'),
        ),
        "test.toml:{line}: locations[5] 'west'.x: missing",
        'id = "west"',
        -1,
    ),
    "an arrow to a location that is not next to it": Mistake(
        (('arrows = ["west"]', 'arrows = ["home"]'),),
        "test.toml:{line}: locations[6] 'corner'.arrows[0]: 'home' is not orthogonally "
        "adjacent to 'corner'",
        'arrows = ["home"]',
    ),
    "a dial list of the wrong length": Mistake(
        (("dial = [2, 2, 2, 2]", "dial = [2, 2]"),),
        "test.toml:{line}: menhirs[0] 'home_stone'.dial: must list 4 dial values >= 1 "
        "(by player count 1..4)",
        "dial = [2, 2]",
    ),
    "two menhirs on one location": Mistake(
        (('id = "north_stone"\nlocation = "north"', 'id = "north_stone"\nlocation = "home"'),),
        "test.toml:{line}: menhirs[1] 'north_stone'.location: 'north_stone' stands where "
        "'home_stone' stands",
        'location = "home"\ndial = [4',
    ),
    "no burning menhir": Mistake(
        (("active = true", "active = false"),),
        "test.toml:{line}: menhirs: at least one menhir must be active at the start",
        "[[menhirs]]",
    ),
    # ---- actions, sections, guardians, items
    "a free action without a time marker": Mistake(
        (
            (
                'label = "Light the north menhir"\ncost = { energy = 1 }',
                'label = "Light the north menhir"\ncost = { food = 1 }',
            ),
        ),
        "test.toml:{line}: actions[1] 'light': a location action must cost energy or leave a "
        "time marker",
        'id = "light"',
        -1,
    ),
    "a negative cost": Mistake(
        (("cost = { energy = 3 }", "cost = { energy = -3 }"),),
        "test.toml:{line}: actions[0] 'fire'.cost.energy: a cost must not be negative, not -3",
        "cost = { energy = -3 }",
    ),
    "a choice that is not a table": Mistake(
        (('text = "A cold wind."', 'text = "A cold wind."\nchoices = [1]'),),
        "test.toml:{line}: sections[1] 'east_wind'.choices[0]: must be a table",
        "choices = [1]",
    ),
    "no way out of a section": Mistake(
        (
            ('label = "Fight"', 'label = "Fight"\ncost = { energy = 1 }'),
            (
                'label = "Flee"\neffect = { terror = 1 }',
                'label = "Flee"\ncost = { energy = 1 }\neffect = { terror = 1 }',
            ),
        ),
        "test.toml:{line}: sections[2] 'wolf_meeting'.choices: needs at least one choice "
        "without requirements and cost",
        '[[sections.choices]]\nlabel = "Fight"',  # the first of the choices
    ),
    "success without a test": Mistake(
        (('label = "Flee"', 'label = "Flee"\nsuccess = { xp = 1 }'),),
        "test.toml:{line}: sections[2] 'wolf_meeting'.choices[1]: success and failure need a test",
        FLEE,
    ),
    "a goto chain that loops": Mistake(
        (('label = "Leave"', 'label = "Leave"\ngoto = "home_explore"'),),
        "test.toml:{line}: sections[0] 'home_explore'.choices[3].goto: the goto chain loops: "
        "home_explore -> home_explore",
        'goto = "home_explore"',
    ),
    "a guardian without an encounter": Mistake(
        (('location = "east"\nencounter = "wolf_meeting"', 'location = "east"'),),
        "test.toml:{line}: guardians[0] 'wolf'.encounter: missing",
        'id = "wolf"',
        -1,
    ),
    "an unknown item kind": Mistake(
        (('kind = "secret"', 'kind = "relic"'),),
        "test.toml:{line}: items[2] 'amulet'.kind: must be 'item' or 'secret', not 'relic'",
        'kind = "relic"',
    ),
    "an improvement for nothing": Mistake(
        (("xp = 2\nbonus", "xp = 0\nbonus"),),
        "test.toml:{line}: improvements[0] 'drill'.xp: must be at least 1, not 0",
        "xp = 0",
    ),
    "a time dial without a value": Mistake(
        (("value = 2\n", ""),),
        "test.toml:{line}: time_dials[0] 'doom'.value: missing",
        'id = "doom"',
        -1,
    ),
    "no character": Mistake(
        (
            (
                TABLE_TEXT[TABLE_TEXT.index("[[characters]]") : TABLE_TEXT.index("[[items]]")],
                "",
            ),
        ),
        "test.toml: characters: a scenario needs at least one character",
    ),
    # ---- wins and losses
    "a win of another kind": Mistake(
        ((WIN, WIN.replace("[[win]]", '[[win]]\nkind = "all_fallen"')),),
        "test.toml:{line}: win[0].kind: a win is always kind 'condition'",
        'kind = "all_fallen"\ntext = "victory"',
    ),
    "an unknown loss kind": Mistake(
        (('kind = "all_fallen"', 'kind = "eaten"'),),
        f"test.toml:{{line}}: loss[0].kind: unknown kind 'eaten' (kinds: {KINDS})",
        'kind = "eaten"',
    ),
    "a condition loss without requirements": Mistake(
        (('kind = "all_fallen"', 'kind = "condition"'),),
        "test.toml:{line}: loss[0].requires: a condition outcome needs requirements",
        'kind = "condition"',
        -1,
    ),
    "a day limit of 0": Mistake(
        (("day = 8", "day = 0"),),
        "test.toml:{line}: loss[2].day: a day_limit needs a day >= 1",
        "day = 0",
    ),
    "no win": Mistake(
        ((WIN, ""),),
        "test.toml: win: a scenario needs at least one win condition ([[win]])",
    ),
    "no day limit": Mistake(
        (('kind = "day_limit"\nday = 8', 'kind = "any_fallen"'),),
        "test.toml:{line}: loss: a scenario needs a day_limit loss so that every game ends",
        "[[loss]]",
    ),
    # ---- the linter: a scenario that cannot be won
    "a win flag that no effect sets": Mistake(
        (('effect = { flags = ["victory"] }', 'effect = { flags = ["victor"] }'),),
        "test.toml:{line}: win[0].requires: the scenario cannot be won: needs flag 'victory', "
        "which no effect sets",
        'requires = { flags = ["victory"] }',
    ),
    "a win flag set only where nobody can go": Mistake(
        (('id = "claim"\nlocation = "south"', 'id = "claim"\nlocation = "far"'),),
        "test.toml:{line}: win[0].requires: the scenario cannot be won: needs flag 'victory', "
        "set only by parts that never come into play (actions[3] 'claim'.effect)",
        'requires = { flags = ["victory"] }',
    ),
    "a win item that can never be gained": Mistake(
        (
            (WIN, WIN.replace('flags = ["victory"]', 'items = ["ring"]')),
            ("[[locations]]", '[[items]]\nid = "ring"\nname = "Ring"\n\n[[locations]]'),
        ),
        "test.toml:{line}: win[0].requires: the scenario cannot be won: needs item 'ring', "
        "which no character starts with and no effect gives",
        'requires = { items = ["ring"] }',
    ),
    "a win quest that is no quest event": Mistake(
        ((WIN, WIN.replace('flags = ["victory"]', 'quests = ["storm"]')),),
        "test.toml:{line}: win[0].requires: the scenario cannot be won: needs event 'storm' on "
        "the quest pile, but it is no quest event",
        'requires = { quests = ["storm"] }',
    ),
    "a win after the day limit": Mistake(
        ((WIN, WIN.replace('flags = ["victory"]', 'flags = ["victory"], day = 9')),),
        "test.toml:{line}: win[0].requires: the scenario cannot be won: needs day 9, after the "
        "day limit (8)",
        "day = 9",
    ),
    "a win flag both needed and forbidden": Mistake(
        (
            (
                WIN,
                WIN.replace('flags = ["victory"]', 'flags = ["victory"], not_flags = ["victory"]'),
            ),
        ),
        "test.toml:{line}: win[0].requires: the scenario cannot be won: needs flag 'victory' "
        "both set and not set",
        'not_flags = ["victory"]',
    ),
}


def errors_of(text: str) -> list[Diagnostic]:
    _, diagnostics = check_scenario_text(text, "test.toml")
    return [d for d in diagnostics if d.severity == "error"]


@pytest.mark.parametrize("case", list(MISTAKES), ids=list(MISTAKES))
def test_each_mistake_gives_one_error_with_its_line_index_and_id(case: str) -> None:
    """Issue #22: `table.toml:42: locations[2] 'hut'.x: missing` - the file and line, the
    element by index and id, the field, the message; one root mistake, one error (no
    cascade). Loading the file raises the same error."""
    mistake = MISTAKES[case]
    text = mistake.text()
    found = errors_of(text)
    assert len(found) == 1, "\n".join(str(d) for d in found)
    expected = mistake.expected.format(line=mistake.line(text))
    if case == "not TOML":
        assert str(found[0]).startswith(expected)
    else:
        assert str(found[0]) == expected
    with pytest.raises(ScenarioError) as caught:
        parse_scenario(text, "test.toml")
    assert caught.value.problems == [str(found[0])]


def test_every_error_kind_of_the_reader_is_in_the_cases() -> None:
    """Each error message the format checks can give (scenario.py) has a case above."""
    source = Path(spielwerk.games.tainted_grail.scenario.__file__).read_text(encoding="utf-8")
    kinds = set(re.findall(r'self\.error\(\s*[^,]+,\s*f?"([^"{]{6,})', source))
    covered = " ".join(MISTAKES[c].expected for c in MISTAKES)
    missing = [k for k in kinds if k.strip() not in covered]
    assert not missing, missing


def test_the_valid_scenarios_have_no_errors() -> None:
    """The demo and the second scenario are clean; the test table's dead corner (West, Corner
    and Far, which no arrow or effect reaches: they are there for the wyrdness and the dawn
    tests) and a flag only the tests look at give warnings only."""
    for name in ("demo", str(Path(TABLE).with_name("lantern_road.toml"))):
        scenario = spielwerk.games.tainted_grail.scenario.load_scenario(name)
        assert scenario.warnings == ()
    _, diagnostics = check_scenario_text(TABLE_TEXT, "table.toml")
    assert [str(d) for d in diagnostics] == [
        "table.toml:117: locations[5] 'west': never reached (nor 'corner', joined to it by "
        "arrows): no arrow from a location the characters reach and no effect's move_to brings "
        "a character here",
        "table.toml:130: locations[7] 'far': never reached: no arrow from a location the "
        "characters reach and no effect's move_to brings a character here",
        "table.toml:254: time_dials[0] 'doom'.expire.flags: sets flag 'doom_done', which no "
        "condition tests (a typo?)",
    ]
    assert all(d.severity == "warning" for d in diagnostics)


def warnings_of(*edits: tuple[str, str]) -> list[str]:
    """The warnings of the table with `edits` made, without "test.toml:LINE: " in front; the
    scenario must still load."""
    text = TABLE_TEXT
    for old, new in edits:
        assert old in text
        text = text.replace(old, new, 1)
    scenario, diagnostics = check_scenario_text(text, "test.toml")
    assert scenario is not None, [str(d) for d in diagnostics]
    assert all(d.severity == "warning" for d in diagnostics)
    return [re.sub(r"^test\.toml:\d+: ", "", str(d)) for d in diagnostics]


@pytest.mark.parametrize(
    ("edits", "warning"),
    [
        pytest.param(
            (("[[locations]]", '[[items]]\nid = "ring"\nname = "Ring"\n\n[[locations]]'),),
            "items[4] 'ring': can never be gained: no character starts with it and no effect "
            "gives it",
            id="an item nobody can gain",
        ),
        pytest.param(
            (('reveals = ["east2"]\n', ""),),
            "locations[3] 'east2': never reached: the arrow from 'east' leads here, but nothing "
            "puts the card on the grid (it is not revealed at the start, and no arrival, effect "
            "or menhir reveals it)",
            id="a location never put on the grid",
        ),
        pytest.param(
            (
                (
                    "[[sections]]",
                    '[[sections]]\nid = "lost"\ntext = "Nobody reads this."\n\n[[sections]]',
                ),
            ),
            "sections[0] 'lost': never read: no location, location action, guardian, event or "
            "goto leads here",
            id="a section nothing leads to",
        ),
        pytest.param(
            (('effect = { activate_menhir = "north_stone" }', "effect = { food = 1 }"),),
            "menhirs[1] 'north_stone': never lit: no effect activates it",
            id="a menhir never lit",
        ),
        pytest.param(
            (('effect = { start_dials = ["doom"], counters', "effect = { counters"),),
            "time_dials[0] 'doom': never started: no effect starts it",
            id="a time dial never started",
        ),
        pytest.param(
            (
                (
                    'label = "Flee"',
                    'label = "Flee"\n[[sections.choices]]\nlabel = "Tame it"\n'
                    'requires = { flags = ["whisperer"] }\n[[sections.choices]]\nlabel = "Run"',
                ),
            ),
            "sections[2] 'wolf_meeting'.choices[2].requires: never possible: needs flag "
            "'whisperer', which no effect sets",
            id="a choice that needs what never happens",
        ),
        pytest.param(
            ((WIN, WIN + '\n\n[[win]]\ntext = "peace"\nrequires = { flags = ["peace"] }'),),
            "win[1].requires: this win can never happen: needs flag 'peace', which no effect sets",
            id="a second win that can never happen",
        ),
        pytest.param(
            (
                (
                    "success = { counters = { marks = 1 }, xp = 2 }",
                    "success = { counters = { marks = 1 } }",
                ),
                ("effect = { xp = 1 }", "effect = { food = 1 }"),
            ),
            "improvements[0] 'drill': no improvement can ever be bought: no effect gives "
            "experience (xp)",
            id="improvements without experience",
        ),
        pytest.param(
            (
                (
                    "success = { defeat_guardian = true }",
                    'success = { defeat_guardian = true, flags = ["wolf_slain"] }',
                ),
            ),
            "sections[2] 'wolf_meeting'.choices[0].success.flags: sets flag 'wolf_slain', which "
            "no condition tests (a typo?)",
            id="a flag set but never tested",
        ),
    ],
)
def test_a_dead_part_is_a_warning(edits: tuple[tuple[str, str], ...], warning: str) -> None:
    """Issue #22: "a warning where a part is dead" - the scenario still loads and plays."""
    assert warning in warnings_of(*edits)


def test_a_dead_location_hides_the_parts_on_it() -> None:
    """Only the root of a dead chain is reported: Far's location action and the Ghost that
    stands there are not reported again; the location is."""
    _, diagnostics = check_scenario_text(TABLE_TEXT, "table.toml")
    text = " ".join(str(d) for d in diagnostics)
    assert "'far'" in text and "far_work" not in text and "ghost" not in text


def test_loading_runs_the_linter(tmp_path: Path) -> None:
    """Issue #22: the linter also runs on load: a scenario that cannot be won is refused with
    its error (one line for the CLI); one with dead parts loads and keeps the warnings."""
    broken = tmp_path / "unwinnable.toml"
    broken.write_text(MISTAKES["a win flag that no effect sets"].text(), encoding="utf-8")
    with pytest.raises(spielwerk.OptionError) as caught:
        spielwerk.load("tainted_grail", scenario=str(broken))
    assert "the scenario cannot be won: needs flag 'victory', which no effect sets" in str(
        caught.value
    )
    game = spielwerk.load("tainted_grail", scenario=TABLE)
    assert [d.path for d in game.scenario.warnings] == [
        "locations[5] 'west'",
        "locations[7] 'far'",
        "time_dials[0] 'doom'.expire.flags",
    ]


def test_scenario_check_prints_each_problem_and_fails_on_errors(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`spielwerk scenario check FILE`: one line per problem, errors and warnings marked, a
    summary; exit 1 on errors (and on warnings with --strict), 0 otherwise, 2 for a file that
    cannot be read."""
    with pytest.raises(SystemExit) as done:
        main(["scenario", "check", "demo"])
    assert done.value.code == 0
    assert "0 errors, 0 warnings: The Ashen Spring can be played" in capsys.readouterr().out

    with pytest.raises(SystemExit) as done:
        main(["scenario", "check", TABLE])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert f"warning: {TABLE}:130: locations[7] 'far': never reached" in out
    assert "0 errors, 3 warnings: Test Table can be played" in out
    with pytest.raises(SystemExit) as done:
        main(["scenario", "check", "--strict", TABLE])
    assert done.value.code == 1
    capsys.readouterr()

    broken = tmp_path / "broken.toml"
    mistake = MISTAKES["a missing x does not also share a cell"]
    broken.write_text(mistake.text(), encoding="utf-8")
    with pytest.raises(SystemExit) as done:
        main(["scenario", "check", str(broken)])
    out = capsys.readouterr().out
    assert done.value.code == 1
    line = mistake.line(mistake.text())
    assert f"error: {broken}:{line}: locations[5] 'west'.x: missing" in out
    assert "1 error, 0 warnings: the scenario cannot be played" in out

    with pytest.raises(SystemExit) as done:
        main(["scenario", "check", str(tmp_path / "none.toml")])
    assert done.value.code == 2
    assert "no such file" in capsys.readouterr().err


GUIDE = Path(__file__).parents[2] / "docs" / "games" / "tainted_grail.md"


def test_the_authoring_guide_shows_what_the_check_prints(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The guide in docs/games/tainted_grail.md ("Writing a scenario"): its
    example loads clean, and each common mistake it shows gives exactly the output printed there."""
    text = GUIDE.read_text(encoding="utf-8")
    guide = text[text.index("## Writing a scenario") : text.index("## The scenario format")]
    example = re.search(r"```toml\n(.*?)```", guide, re.S)
    assert example is not None
    base = example.group(1)
    monkeypatch.chdir(tmp_path)

    def check(scenario: str) -> str:
        Path("hollow_oak.toml").write_text(scenario, encoding="utf-8")
        with pytest.raises(SystemExit):
            main(["scenario", "check", "hollow_oak.toml"])
        return capsys.readouterr().out.rstrip("\n")

    clean = re.search(r"\$ spielwerk scenario check hollow_oak.toml\n(.*?)\n", guide)
    assert clean is not None and check(base) == clean.group(1)
    shown = 0
    for old, new, output in re.findall(
        r"Change `(.+?)` to `(.+?)`:\n\n```text\n(.*?)\n```", guide, re.S
    ):
        assert old in base, old
        assert check(base.replace(old, new, 1)) == output, (old, new)
        shown += 1
    for anchor, block, output in re.findall(
        r"Add before `(.+?)`:\n\n```toml\n(.*?)```\n\n```text\n(.*?)\n```", guide, re.S
    ):
        assert check(base.replace(anchor, block + "\n" + anchor, 1)) == output
        shown += 1
    assert shown >= 6
