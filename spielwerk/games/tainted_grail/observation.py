"""The Tainted Grail observation tensor: a seat's view as fixed-size floats.

The blocks are sized from the scenario (one entry per location, item, event, ... of the file),
so the shape is fixed for one game object (one scenario) and the same for every player count.
Seats are relative to the viewer and padded to four. Everything is encoded from the view alone
(`TaintedGrailState.view`), never from the state.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial
from typing import Any

from spielwerk.core.observation import ObservationLayout, relative, seat_order
from spielwerk.games.tainted_grail.params import PARAMS
from spielwerk.games.tainted_grail.scenario import Scenario

SEATS = PARAMS.max_players
PHASES = ("day", "dawn", "dusk", "over")
DAWN_STEPS = 8
DECISIONS = ("act", "join", "choose", "equip", "rest", "improve", "event", "roll", "gdie")
GROUP_ACTIONS = ("travel", "exploration", "location action")
RESOURCES = ("health", "max_health", "energy", "max_energy", "terror", "terror_limit")
STATUS = ("seated", "passed", "fallen", "may_act", "wyrdness")
RESOURCE_SCALE = 10.0
"""Health, energy, terror, food and experience are divided by this (they stay below ~10)."""
COUNT_SCALE = 10.0
"""Time markers, counters (quest markers) and attributes are divided by this."""


class GrailObservation:
    """The layout for one scenario and the encoder of its views."""

    def __init__(self, scenario: Scenario) -> None:
        self.scenario = scenario
        self.location_index = {place.id: i for i, place in enumerate(scenario.locations)}
        self.action_index = {action.id: i for i, action in enumerate(scenario.actions)}
        self.item_index = {item.id: i for i, item in enumerate(scenario.items)}
        self.event_index = {event.id: i for i, event in enumerate(scenario.events)}
        self.menhir_index = {menhir.id: i for i, menhir in enumerate(scenario.menhirs)}
        self.guardian_index = {guardian.id: i for i, guardian in enumerate(scenario.guardians)}
        self.dial_index = {dial.id: i for i, dial in enumerate(scenario.dials)}
        self.section_index = {section.id: i for i, section in enumerate(scenario.sections)}
        self.improvement_index = {imp.id: i for i, imp in enumerate(scenario.improvements)}
        self.flag_index = {flag: i for i, flag in enumerate(scenario.flags)}
        self.max_dial = max((max(m.dial) for m in scenario.menhirs), default=1)
        limits = [o.day for o in scenario.losses if o.kind == "day_limit"]
        self.day_limit = float(max(limits, default=1))
        places = len(scenario.locations)
        items = len(scenario.items)
        events = len(scenario.events)
        self.layout = ObservationLayout(
            (
                ("on_grid", places),
                ("in_range", places),
                ("instant_markers", places),  # divided by COUNT_SCALE
                ("menhir_standing", len(scenario.menhirs)),
                ("menhir_dial", len(scenario.menhirs)),  # divided by the largest dial
                ("guardian_at", len(scenario.guardians) * places),
                ("action_markers", len(scenario.actions)),  # divided by COUNT_SCALE
                ("character_cell", SEATS * scenario.width * scenario.height),
                ("resources", SEATS * len(RESOURCES)),  # divided by RESOURCE_SCALE
                ("food_xp", SEATS * 2),  # divided by RESOURCE_SCALE
                ("attributes", SEATS * len(scenario.attributes)),  # by COUNT_SCALE
                ("status", SEATS * len(STATUS)),
                ("improvements", SEATS * len(scenario.improvements)),
                ("item_owner", items * SEATS),
                ("item_equipped", items),
                ("item_exhausted", items),
                ("event_deck", 1),  # divided by the number of events
                ("events_discarded", 1),  # divided by the number of events
                ("quest_pile", events),
                ("today", events),
                ("time_dial_running", len(scenario.dials)),
                ("time_dial", len(scenario.dials)),  # divided by the dial's start value
                ("counters", len(scenario.counters)),  # divided by COUNT_SCALE
                ("flags", len(scenario.flags)),
                ("day", 1),  # divided by the day limit
                ("phase", len(PHASES)),
                ("dawn_step", DAWN_STEPS),
                ("to_move", SEATS + 2),  # a seat, then chance, then the end
                ("decision", len(DECISIONS)),
                ("decider", SEATS),
                ("section", len(scenario.sections)),  # the story text being read
                ("group_action", len(GROUP_ACTIONS)),
                ("group_place", places),  # where a group travels or explores
                ("group_location_action", len(scenario.actions)),
                ("group_members", SEATS),
                ("outcome", 2),  # won, lost
            )
        )

    def encode(self, view: Mapping[str, Any]) -> list[float]:
        tensor = self.layout.zeros()
        viewer, players = seat_order(view)
        scenario = self.scenario
        places = len(scenario.locations)
        put = partial(self.layout.put, tensor)

        def seat(p: int) -> int:
            return relative(p, viewer, players)

        for place in view["locations"]:
            p = self.location_index[place["id"]]
            put("on_grid", p)
            put("in_range", p, float(place["in_range"]))
            put("instant_markers", p, place["instant_markers"] / COUNT_SCALE)
            for action in place["actions"]:
                a = self.action_index[action["id"]]
                put("action_markers", a, action["markers"] / COUNT_SCALE)
        for menhir in view["menhirs"]:
            m = self.menhir_index[menhir["id"]]
            put("menhir_standing", m)
            put("menhir_dial", m, menhir["dial"] / self.max_dial)
        for guardian in view["guardians"]:
            g = self.guardian_index[guardian["id"]]
            put("guardian_at", g * places + self.location_index[guardian["location"]])
        attributes = scenario.attributes
        improvements = len(scenario.improvements)
        cells = scenario.width * scenario.height
        for c, character in enumerate(view["characters"]):
            s = seat(c)
            if not character["fallen"]:
                cell = character["y"] * scenario.width + character["x"]
                put("character_cell", s * cells + cell)
            for r, resource in enumerate(RESOURCES):
                put("resources", s * len(RESOURCES) + r, character[resource] / RESOURCE_SCALE)
            put("food_xp", s * 2, character["food"] / RESOURCE_SCALE)
            put("food_xp", s * 2 + 1, character["xp"] / RESOURCE_SCALE)
            for a, name in enumerate(attributes):
                value = character["attributes"][name] / COUNT_SCALE
                put("attributes", s * len(attributes) + a, value)
            status = (
                True,
                character["passed"],
                character["fallen"],
                character["may_act"],
                character["location"] is None,
            )
            for k, flag in enumerate(status):
                put("status", s * len(STATUS) + k, float(flag))
            for imp in character["improvement_ids"]:
                put("improvements", s * improvements + self.improvement_index[imp])
            for item in character["items"]:
                i = self.item_index[item["id"]]
                put("item_owner", i * SEATS + s)
                put("item_equipped", i, float(item["equipped"]))
                put("item_exhausted", i, float(item["exhausted"]))
        events = max(1, len(scenario.events))
        put("event_deck", 0, view["event_deck"] / events)
        put("events_discarded", 0, view["events_discarded"] / events)
        for event in view["quest_pile_ids"]:
            put("quest_pile", self.event_index[event])
        for event in view["today_ids"]:
            put("today", self.event_index[event])
        for dial_id, value in view["time_dial_ids"].items():
            d = self.dial_index[dial_id]
            put("time_dial_running", d)
            put("time_dial", d, value / scenario.dials[d].value)
        for k, name in enumerate(scenario.counters):
            put("counters", k, view["counters"][name] / COUNT_SCALE)
        for flag in view["flags"]:
            put("flags", self.flag_index[flag])
        put("day", 0, view["day"] / self.day_limit)
        put("phase", PHASES.index(view["phase"]))
        if view["phase"] == "dawn" and view["dawn_step"]:
            put("dawn_step", int(view["dawn_step"]) - 1)
        result = view["result"]
        to_move = view["to_move"]
        if result is not None:
            put("to_move", SEATS + 1)
            put("outcome", 0 if result["outcome"] == "win" else 1)
        elif isinstance(to_move, int) and to_move >= 0:
            put("to_move", seat(to_move))
        else:
            put("to_move", SEATS)
        decision = view["decision"]
        if decision:
            put("decision", DECISIONS.index(decision["kind"]))
            if "character" in decision:
                put("decider", seat(decision["character"]))
            if decision["kind"] == "choose":
                put("section", self.section_index[decision["section"]])
            elif decision["kind"] == "join":
                put("group_action", GROUP_ACTIONS.index(decision["action"]))
                target = decision["target"]
                if decision["action"] == "location action":
                    put("group_location_action", self.action_index[target])
                else:
                    put("group_place", self.location_index[target])
                for member in decision["members"]:
                    put("group_members", seat(member))
        return tensor
