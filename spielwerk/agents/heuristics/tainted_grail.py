"""A cooperative heuristic team for Tainted Grail's day cycle, for any scenario.

Each seat plays its character with the same greedy plan, so the team agrees without talking:

- every effect gets a value (quest markers and win flags most, then items, lighting a menhir
  when the last one runs low, food when short, experience; health loss and terror count
  against, more so when the character is near falling);
- a test's value is weighed by its chance of success (d6 + the best attribute involved);
- by day, the character does the best thing here (explore, a location action) if it is worth
  it, else travels one step along the shortest joined path towards the location with the best
  value for the distance; it passes when nothing is worth its energy;
- it joins another's action when it would have chosen the same action itself;
- it always eats when it can, equips whatever fits, buys the dearest improvement it can.

Everything in the game is public, so the bot reads its `Turn.sample` (a state of the seat's
information set, i.e. the table as it is) for the scenario and the board.
"""

from __future__ import annotations

import random
from collections import deque

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action
from spielwerk.games.tainted_grail.params import PARAMS
from spielwerk.games.tainted_grail.scenario import Choice, Effect, Scenario, Test
from spielwerk.games.tainted_grail.state import (
    EXPLORE_KIND,
    TRAVEL_KIND,
    TaintedGrailState,
)

WORTH_ACTING = 0.6
"""The least value an action must promise to spend energy on it."""
MENHIR_URGENT = 2
"""Lighting a menhir is urgent once the best burning dial is this low."""
MENHIR_VALUE, MENHIR_URGENT_VALUE, MENHIR_VITAL = 3.5, 9.0, 40.0
"""What lighting a menhir is worth: normally, when urgent, when the game hangs on it."""
LAST_FOOD = 1.5
"""Extra cost of spending the last food (the character cannot rest tonight)."""
LEAVE_WYRDNESS = 5.0
"""Value of stepping out of the wyrdness (it costs terror at every dawn) or out of menhir range
(the card goes at dawn)."""


class TaintedGrailHeuristic(Agent):
    name = "heuristic"
    wants_sample = True
    needs_view = False  # it reads the sample, so a search's rollouts need not build a view

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> Action:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = turn.sample
        assert isinstance(state, TaintedGrailState), "the heuristic needs the seat's sample"
        by_type: dict[str, list[Action]] = {}
        for action in legal:
            by_type.setdefault(action.type, []).append(action)
        kind = state.pending[0]
        c = turn.player
        if kind == "rest":
            return by_type["eat"][0]
        if kind == "equip":
            return by_type.get("equip", by_type["equip_done"])[0]
        if kind == "improve":
            return self._improvement(state, by_type)
        if kind == "choose":
            return self._choice(state, by_type["choose"])
        if kind == "join":
            return self._join(state, c, by_type)
        plan = Planner(state, c).best()
        for action in legal:
            if action.to_json() == plan:
                return action
        return by_type["pass"][0]

    def _improvement(self, state: TaintedGrailState, by_type: dict[str, list[Action]]) -> Action:
        options = by_type.get("improve", [])
        if not options:
            return by_type["skip_improvement"][0]
        cost = {i.id: i.xp for i in state.game.scenario.improvements}
        return max(options, key=lambda a: (cost[str(a.to_json()["improvement"])], -a.id))

    def _choice(self, state: TaintedGrailState, options: list[Action]) -> Action:
        _, decider, s, involved, _ = state.pending
        section = state.game.scenario.sections[s]
        planner = Planner(state, decider)

        def value(action: Action) -> float:
            choice = section.choices[int(action.to_json()["option"])]  # type: ignore[arg-type]
            return planner.choice_value(choice, involved)

        return max(options, key=lambda a: (value(a), -a.id))

    def _join(self, state: TaintedGrailState, c: int, by_type: dict[str, list[Action]]) -> Action:
        _, _, kind, target, _, _ = state.pending
        mine = Planner(state, c).best()
        sc = state.game.scenario
        if kind == TRAVEL_KIND:
            wanted: dict[str, object] = {"type": "travel", "to": sc.locations[target].id}
        elif kind == EXPLORE_KIND:
            wanted = {"type": "explore"}
        else:
            wanted = {"type": "location_action", "action": sc.actions[target].id}
        return by_type["join"][0] if mine == wanted else by_type["decline"][0]


class Planner:
    """Values of effects, choices and places for character `c` in one state."""

    def __init__(self, state: TaintedGrailState, c: int) -> None:
        self.state = state
        self.sc: Scenario = state.game.scenario
        self.c = c
        self.win_flags = {f for w in self.sc.wins for f in w.requires.flags}
        self.win_counters = {i: n for w in self.sc.wins for i, n in w.requires.counters}
        for action in self.sc.actions:
            if self.wins(action.effect):
                self.win_counters.update(dict(action.requires.counters))

    def wins(self, effect: Effect) -> bool:
        """Sets a flag a win needs, at once or when a time dial it starts runs out."""
        if set(effect.flags) & self.win_flags:
            return True
        return any(set(self.sc.dials[d].expire.flags) & self.win_flags for d in effect.start_dials)

    # ------------------------------------------------------------------ values
    def effect_value(self, effect: Effect, involved: tuple[int, ...]) -> float:
        state, c = self.state, self.c
        value = 0.0
        if self.wins(effect):
            value += 100.0
        for counter, amount in effect.counters:
            need = self.win_counters.get(counter, 0)
            if amount > 0 and state.counters[counter] < need:
                value += 12.0 * amount
        value += 4.0 * sum(1 for i in effect.items if state.item_owner[i] < 0)
        if effect.activate_menhir >= 0 and state.menhir_dial[effect.activate_menhir] < 0:
            value += self.menhir_value()
        if effect.defeat_guardian:
            value += 3.0
        value += 0.3 * len([p for p in effect.reveal if not state.on_grid[p]])
        people = 1 if effect.shared else (len(involved) or 1)
        for resource, amount in effect.deltas:
            if resource == "food":
                value += self.food_weight() * amount * people
            elif resource == "xp":
                value += 0.4 * amount * people
            elif resource == "health":
                room = state.health[c]
                value += (3.0 if room + amount <= 2 else 1.0) * amount * people
                if room + amount <= 0:
                    value -= 50.0
            elif resource == "terror":
                limit = self.sc.characters[c].terror
                danger = state.terror[c] + amount >= limit - 1
                value -= (4.0 if danger else 0.8) * amount * people
                if state.terror[c] + amount >= limit:
                    value -= 50.0
            elif resource == "energy":
                value += 0.3 * amount * people
        return value

    def success_chance(self, test: Test, involved: tuple[int, ...]) -> float:
        best = max(self.state.attribute(i, test.attribute) for i in involved)
        faces = PARAMS.test_die_faces
        wins = sum(1 for v in range(1, faces + 1) if v + best >= test.target)
        return wins / faces

    def choice_value(self, choice: Choice, involved: tuple[int, ...]) -> float:
        value = self.effect_value(choice.effect, involved)
        if choice.test is not None:
            p = self.success_chance(choice.test, involved)
            value += p * self.effect_value(choice.success, involved)
            value += (1 - p) * self.effect_value(choice.failure, involved)
        value -= self.cost_value(choice.cost.amounts)
        if choice.goto >= 0:
            section = self.sc.sections[choice.goto]
            value += self.section_value(section.id, involved, depth=1)
        return value

    def section_value(self, section_id: str, involved: tuple[int, ...], depth: int = 0) -> float:
        """The best choice the section offers now (0 if only leaving)."""
        index = next(i for i, s in enumerate(self.sc.sections) if s.id == section_id)
        section = self.sc.sections[index]
        value = self.effect_value(section.effect, involved)
        if depth > 3 or not section.choices:
            return value
        state = self.state
        options = [
            self.choice_value(choice, involved)
            for choice in section.choices
            if state.holds(choice.requires, involved) and state.affords(self.c, choice.cost)
        ]
        return value + max([0.0, *options])

    def menhir_value(self) -> float:
        """Lighting a menhir: vital when the last standing one goes out within two dawns or
        before a running winning dial (a rite) has run out; urgent when the best burning dial
        is low, or too low to outlast a winning time dial (a rite that wins when it runs out
        needs a menhir until then)."""
        best = max((d for d in self.state.menhir_dial if d >= 0), default=0)
        running = [v for d, v in enumerate(self.state.dial_values) if v >= 0 and self.wins_by(d)]
        if best <= 1 or (running and best < max(running)):
            return MENHIR_VITAL
        if best <= MENHIR_URGENT:
            return MENHIR_URGENT_VALUE
        waits = [
            self.sc.dials[d].value
            for action in self.sc.actions
            for d in action.effect.start_dials
            if self.wins_by(d)
        ]
        need = max(running) if running else max(waits, default=0)
        return MENHIR_URGENT_VALUE if best <= need else MENHIR_VALUE

    def food_weight(self) -> float:
        """Food is worth more while the character has little: without it, no rest."""
        return 1.5 if self.state.food[self.c] < 3 else 0.5

    def cost_value(self, amounts: tuple[tuple[str, int], ...]) -> float:
        """What paying a cost is worth (positive: a loss). Food is dear when it runs short,
        and the last food more so (the next rest needs it)."""
        state, c = self.state, self.c
        value = 0.0
        for resource, amount in amounts:
            if resource == "food":
                value += self.food_weight() * amount
                if state.food[c] - amount < PARAMS.food_eaten:
                    value += LAST_FOOD
            elif resource == "terror":
                value += 1.0 * amount
            else:
                value += 0.5 * amount
        return value

    def wins_by(self, dial: int) -> bool:
        return bool(set(self.sc.dials[dial].expire.flags) & self.win_flags)

    def place_value(self, place: int) -> tuple[float, dict[str, object] | None]:
        """The best thing to do at `place` (as if standing there) and its action."""
        state, sc, c = self.state, self.sc, self.c
        best: tuple[float, dict[str, object] | None] = (0.0, None)
        location = sc.locations[place]
        if location.explore >= 0:
            value = self.section_value(sc.sections[location.explore].id, (c,))
            value -= 0.5 * PARAMS.explore_cost
            if value > best[0]:
                best = (value, {"type": "explore"})
        for a in sc.actions_at[place]:
            action = sc.actions[a]
            if not state.action_available(a, c):
                continue
            value = self.effect_value(action.effect, (c,))
            value -= self.cost_value(action.cost.amounts)
            if value > best[0]:
                best = (value, {"type": "location_action", "action": action.id})
        return best

    # ------------------------------------------------------------------ the day
    def best(self) -> dict[str, object]:
        state, sc, c = self.state, self.sc, self.c
        here = state.location_of(c)
        energy = state.energy[c]
        if energy <= 0:
            return {"type": "pass"}
        hungry = state.food[c] < PARAMS.food_eaten
        best_score, best_action = 0.0, None
        if here >= 0:
            value, action = self.place_value(here)
            if action is not None and value >= WORTH_ACTING:
                # A hungry character keeps its last energy point unless the action feeds it.
                spare = not hungry or energy > self.energy_cost(here, action)
                if spare or self.gives_food(action):
                    best_score, best_action = value, action
        distances, first_step = self.paths()
        escape = self.escape(distances, first_step)
        if escape is not None and energy <= escape[0]:
            # The wyrdness costs terror at every dawn, and a card out of range goes at dawn:
            # with just enough energy left to reach a safe location, go now.
            return {"type": "travel", "to": sc.locations[escape[1]].id}
        if hungry and energy <= 1:
            # Without food a character at 0 energy never recovers: keep the last point.
            return best_action or {"type": "pass"}
        # Or travel towards a better place, its value divided by 1 + the distance. A place
        # out of menhir range is discarded at dawn: only worth it if reachable and usable today.
        in_range = state.in_menhir_range()
        for place, distance in distances.items():
            if distance == 0:
                continue
            value, action = self.place_value(place)
            if action is None or value < WORTH_ACTING:
                continue
            location = sc.locations[place]
            if (location.x, location.y) not in in_range and energy < distance + self.energy_cost(
                place, action
            ):
                continue
            score = value / (1 + distance)
            if score > best_score:
                best_score = score
                best_action = {"type": "travel", "to": sc.locations[first_step[place]].id}
        if best_action is None and escape is not None:
            best_action = {"type": "travel", "to": sc.locations[escape[1]].id}
        return best_action or {"type": "pass"}

    def escape(
        self, distances: dict[int, int], first_step: dict[int, int]
    ) -> tuple[int, int] | None:
        """If character c stands in the wyrdness or on a card that goes at the next dawn:
        (distance, first step) to the nearest location that stays; else None (or if there is
        none to reach)."""
        state, sc = self.state, self.sc
        safe = state.in_menhir_range(least_dial=1)  # still in range after the next dawn
        here = state.location_of(self.c)
        if here >= 0 and (sc.locations[here].x, sc.locations[here].y) in safe:
            return None
        reachable = [
            (distance, place)
            for place, distance in distances.items()
            if distance > 0 and (sc.locations[place].x, sc.locations[place].y) in safe
        ]
        if not reachable:
            return None
        distance, place = min(reachable)
        return distance, first_step[place]

    def gives_food(self, action: dict[str, object]) -> bool:
        if action["type"] != "location_action":
            return False
        chosen = next(a for a in self.sc.actions if a.id == action["action"])
        return dict(chosen.effect.deltas).get("food", 0) > 0

    def energy_cost(self, place: int, action: dict[str, object]) -> int:
        if action["type"] == "explore":
            section = self.sc.sections[self.sc.locations[place].explore]
            extra = max((ch.cost.get("energy") for ch in section.choices), default=0)
            return PARAMS.explore_cost + extra
        chosen = next(a for a in self.sc.actions if a.id == action["action"])
        return chosen.cost.get("energy")

    def paths(self) -> tuple[dict[int, int], dict[int, int]]:
        """Shortest joined paths from character c: the first step to a location card on the
        grid, then over the whole map (cards not yet revealed are revealed on the way)."""
        state = self.state
        here = state.location_of(self.c)
        distances: dict[int, int] = {}
        first: dict[int, int] = {}
        queue: deque[int] = deque()
        if here >= 0:
            distances[here] = 0
        for place in state.travel_targets(self.c):
            if place not in distances:
                distances[place] = 1
                first[place] = place
                queue.append(place)
        while queue:
            place = queue.popleft()
            for nxt in self.sc.locations[place].arrows:
                if nxt not in distances:
                    distances[nxt] = distances[place] + 1
                    first[nxt] = first[place]
                    queue.append(nxt)
        return distances, first
