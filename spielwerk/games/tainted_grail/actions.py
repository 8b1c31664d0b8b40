"""The action vocabulary of Tainted Grail's day cycle and its integer layout.

The layout depends on the scenario (one `travel` per location, one `location_action` per
location action, ...). In the demo scenario's order:

pass          {"type": "pass"}                         end this character's day
wait          {"type": "wait"}                         let another character act first
explore       {"type": "explore"}                      explore the location (1 energy)
join          {"type": "join"}                         take part in the action just begun
decline       {"type": "decline"}                      do not take part
eat           {"type": "eat"}                          rest: eat 1 food at the end of the day
fast          {"type": "fast"}                         rest without eating
equip_done    {"type": "equip_done"}                   finished equipping (dawn step 8)
skip_improvement {"type": "skip_improvement"}          buy no deck improvement tonight
travel        {"type": "travel", "to": "mill"}         move to a joined location (1 energy)
location_action {"type": "location_action", "action": "forage"}
choose        {"type": "choose", "option": 0}          pick an option of the story text shown
use           {"type": "use", "item": "salve"}         use (exhaust) an equipped item
equip         {"type": "equip", "item": "lantern"}     dawn step 8
unequip       {"type": "unequip", "item": "lantern"}   dawn step 8
improve       {"type": "improve", "improvement": "drills"}  deck improvement
-- chance --
event         {"type": "event", "event": "grey_rain"}  dawn step 5: the event card revealed
roll          {"type": "roll", "value": 4}             the test die
guardian_die  {"type": "guardian_die", "face": "N"}    dawn step 6
"""

from __future__ import annotations

from dataclasses import dataclass

from spielwerk.core.actions import Action, ActionTable
from spielwerk.games.tainted_grail.params import GUARDIAN_FACES, PARAMS
from spielwerk.games.tainted_grail.scenario import Scenario

SIMPLE = (
    "pass",
    "wait",
    "explore",
    "join",
    "decline",
    "eat",
    "fast",
    "equip_done",
    "skip_improvement",
)
PASS, WAIT, EXPLORE, JOIN, DECLINE, EAT, FAST, EQUIP_DONE, SKIP_IMPROVEMENT = range(len(SIMPLE))


@dataclass(frozen=True, slots=True)
class Layout:
    """First id of each parametrised action type for one scenario."""

    travel: int
    location_action: int
    choose: int
    use: int
    equip: int
    unequip: int
    improve: int
    event: int
    roll: int
    guardian_die: int
    end: int

    @classmethod
    def of(cls, scenario: Scenario) -> Layout:
        travel = len(SIMPLE)
        location_action = travel + len(scenario.locations)
        choose = location_action + len(scenario.actions)
        use = choose + scenario.max_choices
        items = len(scenario.items)
        equip = use + items
        unequip = equip + items
        improve = unequip + items
        event = improve + len(scenario.improvements)
        roll = event + len(scenario.events)
        guardian_die = roll + PARAMS.test_die_faces
        return cls(
            travel,
            location_action,
            choose,
            use,
            equip,
            unequip,
            improve,
            event,
            roll,
            guardian_die,
            guardian_die + len(GUARDIAN_FACES),
        )


def build_action_table(scenario: Scenario, layout: Layout) -> ActionTable:
    def named(start: int, kind: str, key: str, names: list[str]) -> list[Action]:
        return [Action(start + i, kind, ((key, name),)) for i, name in enumerate(names)]

    items = [item.id for item in scenario.items]
    player = [Action(i, name) for i, name in enumerate(SIMPLE)]
    player += named(layout.travel, "travel", "to", [loc.id for loc in scenario.locations])
    player += named(
        layout.location_action, "location_action", "action", [a.id for a in scenario.actions]
    )
    player += [
        Action(layout.choose + i, "choose", (("option", i),)) for i in range(scenario.max_choices)
    ]
    player += named(layout.use, "use", "item", items)
    player += named(layout.equip, "equip", "item", items)
    player += named(layout.unequip, "unequip", "item", items)
    player += named(layout.improve, "improve", "improvement", [i.id for i in scenario.improvements])
    chance = named(layout.event, "event", "event", [e.id for e in scenario.events])
    chance += [
        Action(layout.roll + v - 1, "roll", (("value", v),))
        for v in range(1, PARAMS.test_die_faces + 1)
    ]
    chance += named(layout.guardian_die, "guardian_die", "face", list(GUARDIAN_FACES))
    return ActionTable(player, chance)
