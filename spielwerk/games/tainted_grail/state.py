"""The rules of Tainted Grail's day cycle, in the order a day is played.

Rulebook: shared/seeds/003 (German, the chapter "Spielablauf"); gaps settled in
shared/rules/tainted_grail.md; the content comes from a scenario file (`scenario.py`).

One seat per character; every seat shares one outcome. A day is: I. dawn (eight steps, each
written to the game log), II. the day (characters act one action at a time, others at the same
location may join), III. the end of the day (rest, recover, dreams, deck improvement).

The engine is a small task machine. `tasks` is a stack of things still to do (dawn steps, an
arrival, a story section, an encounter, ...); `_advance` pops and carries them out until one
needs a decision (a seat's choice, or chance: the event card, the test die, the guardian die),
which becomes `pending`. In the day phase with nothing left to do, the next character to act
is asked. Every random event is a chance action; the event deck is an unordered pool.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from spielwerk.core.actions import Action
from spielwerk.core.compiled import mypyc_attr
from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.core.state import CHANCE, TERMINAL, State
from spielwerk.games.tainted_grail import words
from spielwerk.games.tainted_grail.actions import (
    DECLINE,
    EAT,
    EQUIP_DONE,
    EXPLORE,
    FAST,
    JOIN,
    PASS,
    SKIP_IMPROVEMENT,
    WAIT,
)
from spielwerk.games.tainted_grail.params import GUARDIAN_FACES, PARAMS, STAY, STEP
from spielwerk.games.tainted_grail.scenario import (
    Condition,
    Cost,
    Effect,
    describe_cost,
)

if TYPE_CHECKING:
    from spielwerk.games.tainted_grail.game import TaintedGrailGame

Task = tuple[Any, ...]

# Kinds of group action (for joining and performing).
TRAVEL_KIND, EXPLORE_KIND, LOCATION_KIND = range(3)
KIND_NAMES = ("travel", "exploration", "location action")
JOIN_ENERGY = (PARAMS.travel_cost, PARAMS.explore_cost, 0)
"""The energy each member needs to join a group action, by kind (a location action's cost is
shared instead)."""
KIND_KEYS = ("travel", "exploration", "location_action")
"""A group action's kind as a text key (``kind.<key>``)."""
SIMPLE_KEYS = {
    PASS: "pass",
    WAIT: "wait",
    EAT: "eat",
    FAST: "fast",
    EQUIP_DONE: "equip_done",
    SKIP_IMPROVEMENT: "skip_improvement",
}
"""The text keys of the actions without parameters (join and explore have their own)."""
LogEntry = tuple[str, tuple[tuple[str, Any], ...]]
"""A log entry: a text key (``narrate.<key>``) and its parameters (see `words.py`). The
frequent entries are appended as tuples where they arise, the rest through `_say`: the same
entry without the keyword dictionary (a game writes some three lines a step)."""
PLAYING, WON, LOST = 0, 1, -1
CHANCE_KINDS = ("event", "roll", "gdie")
"""The pending decisions that are chance's: the event card, the test die, the guardian die."""
DUSK_STEPS = ("rest", "recover", "dreams", "improve decks", "discard the day's events")
DUSK_TASKS: tuple[Task, ...] = tuple(("dusk", step) for step in range(len(DUSK_STEPS)))
DAWN_TASKS: tuple[Task, ...] = (*[("dawn", step) for step in range(1, 9)], ("start_day",))
"""The end of the day's steps, and dawn's eight steps followed by the day's start, as tasks."""
LOG_IN_VIEW = 40
"""How many of the latest log lines a view carries."""
DAWN_STEP_ENTRIES: tuple[LogEntry, ...] = tuple(
    ("dawn_step", (("step", step), ("step_name", step))) for step in range(9)
)
"""Each dawn step's log line (index: the step, 1 to 8), built once."""
_IMMUTABLE_FIELDS = (
    *("day", "phase", "step", "pending", "outcome", "outcome_text", "flags", "actions_today"),
)
_LIST_FIELDS = (
    *("tasks", "cell", "health", "max_health", "energy", "max_energy", "terror", "food", "xp"),
    *("fallen", "passed", "last_acted", "last_part", "deferred", "ate"),
    *("item_owner", "equipped", "exhausted", "toggled"),
    *("on_grid", "menhir_dial", "guardian_at", "action_markers", "instant_markers"),
    *("dial_values", "counters", "deck", "quest_pile", "today", "discard", "dreams_read", "log"),
)
"""State fields copied by `clone`: shared as they are (immutable), or as list copies."""


# Compiled by mypyc (spielwerk.native); open to Python subclasses, whose clone() makes them too.
@mypyc_attr(allow_interpreted_subclasses=True)
class TaintedGrailState(State):
    __slots__ = (
        "action_markers",
        "actions_today",
        "ate",
        "bought",
        "cell",
        "counters",
        "day",
        "deck",
        "deferred",
        "dial_values",
        "discard",
        "dreams_read",
        "energy",
        "equipped",
        "exhausted",
        "fallen",
        "flags",
        "food",
        "guardian_at",
        "health",
        "instant_markers",
        "item_owner",
        "last_acted",
        "last_part",
        "log",
        "max_energy",
        "max_health",
        "menhir_dial",
        "on_grid",
        "outcome",
        "outcome_text",
        "passed",
        "pending",
        "phase",
        "quest_pile",
        "step",
        "tasks",
        "terror",
        "today",
        "toggled",
        "xp",
    )

    game: TaintedGrailGame

    def __init__(self, game: TaintedGrailGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        sc = game.scenario
        n = num_players
        chars = sc.characters[:n]
        start = sc.locations[sc.start]
        self.day = 1
        self.phase = "day"  # day 1 starts at phase II: the set-up replaces the first dawn
        self.step = 0
        self.tasks: list[Task] = []
        self.pending: Task = ()
        self.outcome = PLAYING
        self.outcome_text = ""
        # Characters (seat p plays character p).
        self.cell = [(start.x, start.y)] * n
        self.health = [c.health for c in chars]
        self.max_health = [c.health for c in chars]
        self.energy = [c.energy for c in chars]
        self.max_energy = [c.energy for c in chars]
        self.terror = [0] * n
        self.food = [c.food for c in chars]
        self.xp = [0] * n
        self.fallen = [False] * n
        self.passed = [False] * n
        # The "act again" rule: the number of the action each character last began, and of the
        # action it last began or joined (-1: none today); actions are numbered per day.
        self.last_acted = [-1] * n
        self.last_part = [-1] * n
        self.actions_today = 0
        self.deferred = [False] * n  # chose to wait for the others
        self.ate = [False] * n
        self.bought: list[list[int]] = [[] for _ in range(n)]
        # Items and secrets: owner -1 is the supply.
        self.item_owner = [-1] * len(sc.items)
        self.equipped = [False] * len(sc.items)
        self.exhausted = [False] * len(sc.items)
        self.toggled = [False] * len(sc.items)  # equipped or unequipped in this dawn's step 8
        # The map.
        self.on_grid = [i in sc.revealed for i in range(len(sc.locations))]
        self.menhir_dial = [m.dial[n - 1] if m.active else -1 for m in sc.menhirs]
        self.guardian_at = [g.location for g in sc.guardians]
        self.action_markers = [0] * len(sc.actions)
        self.instant_markers = [0] * len(sc.locations)
        self.dial_values = [-1] * len(sc.dials)  # -1: not running
        self.counters = [0] * len(sc.counters)
        self.flags: frozenset[str] = frozenset()
        # Events.
        self.deck = list(range(len(sc.events)))  # face down, unordered
        self.quest_pile: list[int] = []
        self.today: list[int] = []  # revealed today, discarded at the end of the day
        self.discard: list[int] = []
        self.dreams_read = [False] * len(sc.dreams)
        self.log: list[LogEntry] = [("setup", (("title", sc.title),))]
        for c, character in enumerate(chars):
            for item in character.items:
                self._gain_item(c, item)
        self._check_outcome()
        self._advance()

    # ================================================================== the task machine
    def _advance(self) -> None:
        """Carry out tasks until a decision is needed or the game ends. (The win and loss
        conditions are checked wherever what they test changes: `_check_outcome`.)"""
        tasks = self.tasks
        while True:
            if self.outcome != PLAYING:
                self._finish()
                return
            pending = self.pending
            if pending:
                kind = pending[0]
                self.to_move = CHANCE if kind in CHANCE_KINDS else pending[1]
                return
            if tasks:
                self._run_task(tasks.pop())
                continue
            actor = self._next_actor()
            if actor is None:
                self._schedule(DUSK_TASKS)
                self.phase = "dusk"
                continue
            self.pending = ("act", actor)
            self.to_move = actor
            return

    def _schedule(self, tasks: Sequence[Task]) -> None:
        """Put tasks on top of the stack so that they run in the order given."""
        self.tasks.extend(reversed(tasks))

    def _run_task(self, task: Task) -> None:
        # The most frequent kinds first (in random play: dawn, dusk, rest, section, gmove, ...).
        kind = task[0]
        if kind == "dawn":
            self._dawn_step(task[1])
        elif kind == "dusk":
            self._dusk_step(task[1])
        elif kind == "rest":
            self.pending = task  # ("rest", c): the task is the decision itself
        elif kind == "section":
            self._section(task[1], task[2], task[3], task[4])
        elif kind == "gmove":
            if self._guardian_location(task[1]) >= 0:
                self.pending = ("gdie", task[1])
        elif kind == "start_day":
            self._start_day()
        elif kind == "improve" or kind == "equip":
            self.pending = task  # as rest
        elif kind == "encounter":
            self._encounter(task[1], task[2])
        elif kind == "instant":
            self._instant(task[1], task[2])
        elif kind == "test":
            self.pending = ("roll", *task[1:])
        elif kind == "arrive":
            self._arrive(task[1], task[2])
        elif kind == "expire":
            self._expire(task[1])
        else:  # pragma: no cover - a task kind is always one of the above
            raise AssertionError(f"unknown task {task!r}")

    # ================================================================== II. the day
    def may_act(self, c: int) -> bool:
        """A character may act again only when every other character has acted or taken part
        in at least one action [seed] since its own last action began; whoever joined that
        very action took part in it, "gemeinsam ... zur gleichen Zeit" [seed; design: the
        reading]. Characters who passed (or fell) are ignored [rules file]. Joining is taking
        part, not acting: a character who only joined may still begin an action of its own."""
        if self.passed[c] or self.fallen[c]:
            return False
        last = self.last_acted[c]
        if last < 0:
            return True
        last_part, passed, fallen = self.last_part, self.passed, self.fallen
        for d in range(self.num_players):
            if d != c and not passed[d] and not fallen[d] and last_part[d] < last:
                return False
        return True

    def _next_actor(self) -> int | None:
        """Who acts next: the lowest-numbered character who may act [seed], unless it chose to
        wait for the others [design]. When everyone who may act has chosen to wait, the
        lowest-numbered one must act now (it is not offered `wait` again: the day stays finite).
        Someone always may act: of those who acted, the one whose last action began first has
        seen everyone take part since (each action has its own number)."""
        # `may_act` inlined: this runs after nearly every decision of the day.
        passed, fallen, last_acted, last_part = (
            self.passed,
            self.fallen,
            self.last_acted,
            self.last_part,
        )
        deferred = self.deferred
        seats = range(self.num_players)
        first_ready = None
        for c in seats:
            if passed[c] or fallen[c]:
                continue
            last = last_acted[c]
            someone_to_wait_for = False
            if last >= 0:
                for d in seats:
                    if d != c and not passed[d] and not fallen[d] and last_part[d] < last:
                        someone_to_wait_for = True
                        break
            if someone_to_wait_for:
                continue
            if not deferred[c]:
                return c
            if first_ready is None:
                first_ready = c
        return first_ready

    def location_of(self, c: int) -> int:
        """The location card character c stands on, or -1 in the wyrdness (an empty cell)."""
        place = self.game.scenario.cell_location.get(self.cell[c], -1)
        return place if place >= 0 and self.on_grid[place] else -1

    def travel_targets(self, c: int) -> list[int]:
        """Orthogonally adjacent locations joined by an arrow [seed]; from the wyrdness any
        orthogonally adjacent location card, no arrow needed [design]."""
        return self._travel_targets(c, self.location_of(c))

    def _travel_targets(self, c: int, here: int) -> list[int]:
        """`travel_targets` of character c, who stands on location `here` (-1: wyrdness)."""
        sc = self.game.scenario
        on_grid = self.on_grid
        if here >= 0:
            return [t for t in sc.locations[here].arrows if on_grid[t]]
        x, y = self.cell[c]
        targets = []
        for dx, dy in STEP.values():
            place = sc.location_at(x + dx, y + dy)
            if place >= 0 and on_grid[place]:
                targets.append(place)
        return sorted(targets)

    def _act_ids(self, c: int) -> list[int]:
        """The legal ids of character c asked to act, in id order: pass, wait if offered, then
        every action it can afford now (explore, travel, location actions, item uses: the
        layout's order, each in id order, so nothing needs sorting)."""
        game = self.game
        sc = game.scenario
        on_grid = self.on_grid
        here = sc.cell_location.get(self.cell[c], -1)  # `location_of`, inlined
        if here >= 0 and not on_grid[here]:
            here = -1
        energy = self.energy[c]
        ids = [PASS]
        if here < 0:
            # In the wyrdness a character may only travel, no item use [rules file].
            if energy >= PARAMS.travel_cost:
                travel = game.layout.travel
                ids += [travel + t for t in self._travel_targets(c, here)]
        else:
            lay = game.layout
            if sc.locations[here].explore >= 0 and energy >= PARAMS.explore_cost:
                ids.append(EXPLORE)
            if energy >= PARAMS.travel_cost:
                travel = lay.travel
                for t in sc.arrows_in_order[here]:
                    if on_grid[t]:
                        ids.append(travel + t)
            for a in sc.actions_at[here]:
                if self.action_available(a, c):
                    ids.append(lay.location_action + a)
            owner, equipped, exhausted = self.item_owner, self.equipped, self.exhausted
            for item in sc.usable_items:
                if owner[item] == c and equipped[item] and not exhausted[item]:
                    ids.append(lay.use + item)
        if len(ids) > 1:
            # `wait` is offered only if another character who has not waited yet may act.
            deferred = self.deferred
            for d in range(self.num_players):
                if d != c and not deferred[d] and self.may_act(d):
                    ids.insert(1, WAIT)
                    break
        return ids

    def action_available(self, a: int, c: int) -> bool:
        """A location action with a time marker is unavailable [rules file]; its requirements
        must hold for character c, and the participants together must be able to pay its cost
        [rules file]: c and everyone who may join it (on c's cell, not passed, not fallen)."""
        action = self.game.scenario.actions[a]
        if self.action_markers[a] > 0:
            return False
        if (
            action.effect.activate_menhir >= 0
            and self.menhir_dial[action.effect.activate_menhir] >= 0
        ):
            return False  # that menhir already stands
        if not self.holds(action.requires, (c,)):
            return False
        group = (c, *self._others_who_may_join(c, LOCATION_KIND))
        return self.group_affords(group, action.cost)

    def affords(self, c: int, cost: Cost) -> bool:
        """Character c alone can pay `cost` (a story choice's cost is the decider's)."""
        return self.group_affords((c,), cost)

    def group_affords(self, members: Sequence[int], cost: Cost) -> bool:
        """The characters in `members` together can pay `cost`, each unit by one of them."""
        for resource, amount in cost.amounts:
            payable = 0
            for c in members:
                payable += self._payable(c, resource)
            if payable < amount:
                return False
        return True

    def _payable(self, c: int, resource: str) -> int:
        """How much of `resource` character c can give towards a cost: nobody pays with their
        life (health stays above 0) or takes terror up to its limit."""
        if resource == "terror":
            return max(0, self.game.scenario.characters[c].terror - 1 - self.terror[c])
        if resource == "health":
            return max(0, self.health[c] - 1)
        values: list[int] = getattr(self, resource)
        return values[c]

    def _others_who_may_join(self, c: int, kind: int) -> tuple[int, ...]:
        """Characters at the same location who have not passed may join, whether or not they
        acted before [seed]; travel and exploration cost each member 1 energy [seed]."""
        need = JOIN_ENERGY[kind]
        passed, fallen, cell, energy = self.passed, self.fallen, self.cell, self.energy
        here = cell[c]
        others: list[int] = []
        for d in range(self.num_players):
            if d != c and not passed[d] and not fallen[d] and cell[d] == here and energy[d] >= need:
                others.append(d)
        return tuple(others)

    def _begin_group_action(self, c: int, kind: int, target: int) -> None:
        self.actions_today += 1
        self.last_acted[c] = self.last_part[c] = self.actions_today
        self.deferred = [False] * self.num_players
        candidates = self._others_who_may_join(c, kind)
        if candidates:
            self.pending = ("join", candidates[0], kind, target, (c,), candidates[1:])
        else:
            self.pending = ()
            self._perform(kind, target, (c,))  # nobody else may join: at once

    def _may_decline(self) -> bool:
        """A character asked to join a location action may decline unless the others (those
        in, and those still to be asked) could not pay it without it: the action was offered
        because the participants together can pay [rules file]."""
        _, _, kind, target, members, remaining = self.pending
        if kind != LOCATION_KIND:
            return True
        cost = self.game.scenario.actions[target].cost
        return self.group_affords((*members, *remaining), cost)

    def _answer_join(self, joins: bool) -> None:
        _, d, kind, target, members, remaining = self.pending
        if joins:
            members = (*members, d)
            self.last_part[d] = self.actions_today
        if remaining:
            self.pending = ("join", remaining[0], kind, target, members, remaining[1:])
        else:
            self.pending = ()
            self._perform(kind, target, members)  # everyone was asked

    def _perform(self, kind: int, target: int, members: tuple[int, ...]) -> None:
        sc = self.game.scenario
        names = self._names(members)
        n = len(members)
        if kind == TRAVEL_KIND:
            # Travel: 1 energy, in a group 1 per member [seed]; arrival follows [seed].
            for c in members:
                self.energy[c] -= PARAMS.travel_cost
            place = sc.locations[target]
            self.log.append(("travel", (("names", names), ("n", n), ("place", place.name))))
            self._arrive(target, members)
        elif kind == EXPLORE_KIND:
            for c in members:
                self.energy[c] -= PARAMS.explore_cost
            place = sc.locations[self.location_of(members[0])]
            self.log.append(("explore", (("names", names), ("n", n), ("place", place.name))))
            self._schedule([("section", place.explore, members, members[0], -1)])
        else:
            action = sc.actions[target]
            paid = self._pay_shared(members, action.cost)
            self.action_markers[target] = action.markers
            cost = tuple(action.cost.amounts)
            if paid:
                self._say(
                    "location_action_paid", names=names, label=action.label, cost=cost, paid=paid
                )
            else:
                self._say("location_action", names=names, label=action.label, cost=cost)
            if action.section >= 0:
                self._schedule([("section", action.section, members, members[0], -1)])
            self._apply_effect(action.effect, members, members[0], -1)

    def _group_target(self, kind: int, target: int) -> str:
        """The id of what a group action is about: the destination, the location explored,
        or the location action."""
        sc = self.game.scenario
        return sc.actions[target].id if kind == LOCATION_KIND else sc.locations[target].id

    def _pay_shared(self, members: tuple[int, ...], cost: Cost) -> tuple[Any, ...]:
        """A location action costs the same whatever the number of participants [seed]; the
        group pays it in the documented order [rules file]: the starter (members[0]) as much
        as it can, then the others in seat order. Returns who paid what (for the log) when
        more than the starter paid."""
        order = (members[0], *sorted(members[1:]))
        shares: list[tuple[str, int, str]] = []
        for resource, amount in cost.amounts:
            left = amount
            for c in order:
                part = min(left, self._payable(c, resource))
                if part:
                    self._change(c, resource, part if resource == "terror" else -part)
                    shares.append((self._name(c), part, resource))
                left -= part
        if self._check_falls(members):
            self._check_outcome()
        return tuple(shares) if len(members) > 1 and shares else ()

    # ------------------------------------------------------------------ arrival
    def _arrive(self, place: int, members: tuple[int, ...]) -> None:
        """Arrival, whenever characters come to a new location by any means [seed, design]:
        first reveal new locations, then guardian encounters, then instant effects. [seed]"""
        sc = self.game.scenario
        location = sc.locations[place]
        # Only coming to a *new* location is an arrival: an effect that "moves" a character to
        # where it stands triggers nothing [rules file].
        movers_list = []
        for c in self._standing(members):
            if self.location_of(c) != place:
                movers_list.append(c)
        if not movers_list:
            return
        movers = tuple(movers_list)
        cell = (location.x, location.y)
        for c in movers:
            self.cell[c] = cell
        if location.reveals:
            self._reveal(location.reveals)
        # Those who arrive together (a group that travelled) meet a guardian together, as
        # they perform the arrival together [seed: "1 oder mehrere Charaktere"; design].
        tasks: list[Task] = []
        for g, at in enumerate(self.guardian_at):
            if at == place:
                tasks.append(("encounter", g, movers))
        if not tasks:
            self._instant(place, movers)  # no guardian here: the instant effect at once
            return
        tasks.append(("instant", place, movers))
        self._schedule(tasks)

    def _reveal(self, places: Sequence[int]) -> None:
        if not places:
            return
        sc = self.game.scenario
        shown = [p for p in places if not self.on_grid[p]]
        for p in shown:
            self.on_grid[p] = True
        if shown:
            self.log.append(
                ("revealed", (("places", tuple([sc.locations[p].name for p in shown])),))
            )

    def _encounter(self, g: int, members: tuple[int, ...]) -> None:
        """A guardian encounter of the characters who still stand where the guardian is (the
        first of them decides), if the guardian has not been defeated meanwhile."""
        place = self._guardian_location(g)
        here = tuple(c for c in members if not self.fallen[c] and self.location_of(c) == place)
        if place < 0 or not here:
            return
        guardian = self.game.scenario.guardians[g]
        self._say("meet", names=self._names(here), n=len(here), guardian=guardian.name)
        self._schedule([("section", guardian.encounter, here, here[0], g)])

    def _instant(self, place: int, members: tuple[int, ...]) -> None:
        """An instant effect fires unless it carries a time marker [design]."""
        location = self.game.scenario.locations[place]
        if location.instant < 0 or self.instant_markers[place] > 0 or not self.on_grid[place]:
            return
        here = tuple(c for c in members if not self.fallen[c] and self.location_of(c) == place)
        if not here:
            return
        self.instant_markers[place] = location.instant_markers
        self._schedule([("section", location.instant, here, here[0], -1)])

    def _guardian_location(self, g: int) -> int:
        """Where guardian g stands, if on a location card of the grid; else -1."""
        place = self.guardian_at[g]
        return place if place >= 0 and self.on_grid[place] else -1

    # ------------------------------------------------------------------ story sections
    def _section(self, s: int, involved: tuple[int, ...], decider: int, guardian: int) -> None:
        """Read a section: its effect, then its choice (if any) for the deciding character."""
        sc = self.game.scenario
        section = sc.sections[s]
        involved = self._standing(involved)
        if not involved:
            return
        if section.title:
            self.log.append(("section", (("title", section.title), ("text", section.text))))
        else:
            self.log.append(("text", (("text", section.text),)))
        self._apply_effect(section.effect, involved, decider, guardian)
        involved = self._standing(involved)
        if not section.choices or not involved:
            return
        if self.fallen[decider]:
            decider = involved[0]
        self.pending = ("choose", decider, s, involved, guardian)

    def _choices(self) -> list[int]:
        _, decider, s, involved, _ = self.pending
        section = self.game.scenario.sections[s]
        return [
            i
            for i, choice in enumerate(section.choices)
            if self.holds(choice.requires, involved) and self.affords(decider, choice.cost)
        ]

    def _choose(self, option: int) -> None:
        _, decider, s, involved, guardian = self.pending
        self.pending = ()
        choice = self.game.scenario.sections[s].choices[option]
        self.log.append(("chooses", (("name", self._name(decider)), ("label", choice.label))))
        self._pay_shared((decider,), choice.cost)
        follow: list[Task] = []
        if choice.test is not None:
            follow.append(("test", s, option, involved, decider, guardian))
        if choice.goto >= 0:
            follow.append(("section", choice.goto, involved, decider, guardian))
        self._schedule(follow)
        self._apply_effect(choice.effect, involved, decider, guardian)

    def _test_total(self, involved: tuple[int, ...], attribute: str) -> int:
        """The best attribute among those involved, with equipped items and improvements."""
        alive = [c for c in involved if not self.fallen[c]] or list(involved)
        return max(self.attribute(c, attribute) for c in alive)

    def _roll(self, value: int) -> None:
        _, s, option, involved, decider, guardian = self.pending
        self.pending = ()
        choice = self.game.scenario.sections[s].choices[option]
        assert choice.test is not None
        test = choice.test
        total = value + self._test_total(involved, test.attribute)
        success = total >= test.target
        self._say(
            "test_success" if success else "test_failure",
            attribute=test.attribute,
            value=value,
            total=total,
            target=test.target,
        )
        self._apply_effect(
            choice.success if success else choice.failure, involved, decider, guardian
        )

    # ------------------------------------------------------------------ effects
    def _apply_effect(
        self, effect: Effect, involved: tuple[int, ...], decider: int, guardian: int
    ) -> None:
        """Resource changes for every character involved (for the decider alone if the effect
        is `shared`); the rest once for the party."""
        sc = self.game.scenario
        if effect.text:
            self.log.append(("text", (("text", effect.text),)))
        alive = self._standing(involved)
        receiver = decider if not self.fallen[decider] else (alive[0] if alive else -1)
        # Resource changes go to each character involved, or once, to the deciding character,
        # for a `shared` effect (a static reward such as the food in one store). [design]
        takers = (receiver,) if effect.shared and receiver >= 0 else alive
        for resource, amount in effect.deltas:
            for c in takers:
                self._change(c, resource, amount)
        # Only a change can make anyone fall: nobody standing is at a limit between rules
        # (a character starts with 1 health or more, below its terror limit, and every
        # loss of health or gain of terror is followed by this check).
        fell = self._check_falls(takers) if effect.deltas else False
        if effect.party_wide:
            for item in effect.items:
                if receiver >= 0 and self.item_owner[item] < 0:
                    self._gain_item(receiver, item)
            if effect.flags or effect.clear_flags:
                self.flags = (self.flags | set(effect.flags)) - set(effect.clear_flags)
            for counter, amount in effect.counters:
                self.counters[counter] = max(0, self.counters[counter] + amount)
                self._say("counter", counter=sc.counters[counter], value=self.counters[counter])
            if effect.reveal:
                self._reveal(effect.reveal)
            if effect.activate_menhir >= 0 and self.menhir_dial[effect.activate_menhir] < 0:
                menhir = sc.menhirs[effect.activate_menhir]
                self.menhir_dial[effect.activate_menhir] = menhir.dial[self.num_players - 1]
                self.on_grid[menhir.location] = True
                self._say(
                    "menhir_lit",
                    place=sc.locations[menhir.location].name,
                    dial=menhir.dial[self.num_players - 1],
                )
            for dial in effect.start_dials:
                self.dial_values[dial] = sc.dials[dial].value
                self._say("time_dial", dial=sc.dials[dial].name, value=sc.dials[dial].value)
            for dial in effect.stop_dials:
                self.dial_values[dial] = -1
            if effect.defeat_guardian and guardian >= 0 and self.guardian_at[guardian] >= 0:
                self.guardian_at[guardian] = -1
                self._say("defeated", guardian=sc.guardians[guardian].name)
            if effect.move_to >= 0 and alive:
                movers = self._standing(alive)
                self._reveal((effect.move_to,))
                self._schedule([("arrive", effect.move_to, movers)])
        if fell or effect.touches_outcome:
            self._check_outcome()

    def _change(self, c: int, resource: str, amount: int) -> None:
        if resource == "health":
            self.health[c] = min(self.max_health[c], max(0, self.health[c] + amount))
        elif resource == "energy":
            self.energy[c] = min(self.max_energy[c], max(0, self.energy[c] + amount))
        elif resource == "terror":
            limit = self.game.scenario.characters[c].terror
            self.terror[c] = min(limit, max(0, self.terror[c] + amount))
        else:
            values: list[int] = getattr(self, resource)
            values[c] = max(0, values[c] + amount)

    def _check_falls(self, involved: Sequence[int]) -> bool:
        """A character at 0 health or at the terror limit falls: out for the rest of the game.
        [design] Returns whether anyone fell."""
        limits = self.game.scenario.characters
        fell = False
        for c in involved:
            if not self.fallen[c] and (self.health[c] <= 0 or self.terror[c] >= limits[c].terror):
                self.fallen[c] = True
                self.passed[c] = True
                self._say("falls", name=self._name(c))
                fell = True
        return fell

    def _gain_item(self, c: int, item: int) -> None:
        """A new item is equipped at once if no equipped item of the character shares a
        keyword with it, else kept turned over until the next dawn. [design]"""
        sc = self.game.scenario
        self.item_owner[item] = c
        self.equipped[item] = not self._keyword_clash(c, item)
        key = "gains_equipped" if self.equipped[item] else "gains_turned_over"
        self.log.append((key, (("name", self._name(c)), ("item", sc.items[item].name))))

    def _keyword_clash(self, c: int, item: int) -> bool:
        items = self.game.scenario.items
        words = set(items[item].keywords)
        return any(
            owner == c
            and self.equipped[other]
            and other != item
            and words & set(items[other].keywords)
            for other, owner in enumerate(self.item_owner)
        )

    def _use(self, c: int, item: int) -> None:
        """Using an item exhausts it until the next dawn's step 8; it is no action. [design]"""
        sc = self.game.scenario
        use = sc.items[item].use
        assert use is not None
        self.exhausted[item] = True
        self.log.append(("uses", (("name", self._name(c)), ("item", sc.items[item].name))))
        self._apply_effect(use, (c,), c, -1)

    # ------------------------------------------------------------------ conditions
    def holds(self, condition: Condition, involved: Sequence[int]) -> bool:
        """Every part of the condition holds; an item counts if any character involved owns
        it (one member meeting a requirement opens the choice for the group [design])."""
        if condition.always:
            return True
        if condition.day and self.day < condition.day:
            return False
        flags = self.flags
        for flag in condition.flags:
            if flag not in flags:
                return False
        for flag in condition.not_flags:
            if flag in flags:
                return False
        for counter, least in condition.counters:
            if self.counters[counter] < least:
                return False
        for item in condition.items:
            if self.item_owner[item] not in involved:
                return False
        quests = condition.quests
        return not quests or all(event in self.quest_pile for event in quests)

    def attribute(self, c: int, name: str) -> int:
        """Base value + equipped items' bonuses + bought improvements' bonuses."""
        sc = self.game.scenario
        total = dict(sc.characters[c].attributes).get(name, 0)
        for item, owner in enumerate(self.item_owner):
            if owner == c and self.equipped[item]:
                total += dict(sc.items[item].bonus).get(name, 0)
        for bought in self.bought[c]:
            total += dict(sc.improvements[bought].bonus).get(name, 0)
        return total

    def _check_outcome(self) -> None:
        """The scenario's wins, then its losses that can come at any time. Called wherever
        what they test changes (flags, counters, items, the quest pile, the day, a fall), and
        only there: with nothing of it changed since the last check, the answer is the same
        (a payment or a recovery without a fall, an effect that touches none of it, an event
        that is no quest: no check)."""
        if self.outcome != PLAYING:
            return
        sc = self.game.scenario
        everyone = range(self.num_players)
        for win in sc.wins:
            if self.holds(win.requires, everyone):
                self.outcome, self.outcome_text = WON, win.text
                return
        for loss in sc.anytime_losses:
            lost = (
                (loss.kind == "all_fallen" and all(self.fallen))
                or (loss.kind == "any_fallen" and any(self.fallen))
                or (loss.kind == "condition" and self.holds(loss.requires, everyone))
            )
            if lost:
                self.outcome, self.outcome_text = LOST, loss.text
                return

    def _finish(self) -> None:
        self.phase = "over"
        self.pending = ()
        self.tasks = []
        self.to_move = TERMINAL
        key = "party_won" if self.outcome == WON else "party_lost"
        self._say(key, day=self.day, reason=self.outcome_text)

    # ================================================================== I. dawn
    def _start_dawn(self) -> None:
        self.day += 1
        self.phase = "dawn"
        self.log.append(("dawn", (("day", self.day),)))
        self._check_outcome()
        self._schedule(DAWN_TASKS)

    def _dawn_step(self, step: int) -> None:
        self.step = step
        self.log.append(DAWN_STEP_ENTRIES[step])
        if step == 1:
            self._remove_extinguished()
        elif step == 2:
            self._discard_out_of_range()
        elif step == 3:
            self._lower_menhir_dials()
        elif step == 4:
            self._lower_time_dials()
        elif step == 5:
            self._reveal_event()
        elif step == 6:
            self._move_guardians()
        elif step == 7:
            self._plan()
        else:
            self._equip_step()

    def _remove_extinguished(self) -> None:
        """Step 1: a menhir without a dial is removed; the rest are the active menhirs. [seed]"""
        sc = self.game.scenario
        for m, dial in enumerate(self.menhir_dial):
            if dial == 0:
                self.menhir_dial[m] = -1
                self._say("menhir_gone", place=sc.locations[sc.menhirs[m].location].name)
        if all(d < 0 for d in self.menhir_dial):
            for loss in sc.losses:
                if loss.kind == "no_menhir":
                    self.outcome, self.outcome_text = LOST, loss.text
                    return

    def in_menhir_range(self, least_dial: int = 0) -> set[tuple[int, int]]:
        """Cells with an active menhir or next to one, diagonals included [seed]; with
        `least_dial` 1, only menhirs whose dial is not out: the range left after the next dawn."""
        sc = self.game.scenario
        cells = set()
        for m, dial in enumerate(self.menhir_dial):
            if dial >= least_dial:
                site = sc.locations[sc.menhirs[m].location]
                for dx in (-1, 0, 1):
                    for dy in (-1, 0, 1):
                        cells.add((site.x + dx, site.y + dy))
        return cells

    def _discard_out_of_range(self) -> None:
        """Step 2: every location out of range is discarded with what lies on it [seed];
        characters there stay on the empty cell, the wyrdness, and whoever starts a dawn there
        gains terror [design]."""
        sc = self.game.scenario
        lost = []
        for c in range(self.num_players):
            if not self.fallen[c] and self.location_of(c) < 0:
                lost.append(c)
                self._change(c, "terror", PARAMS.wyrdness_terror)
                self._say("wyrdness", name=self._name(c), n=PARAMS.wyrdness_terror)
        # Only those in the wyrdness gained terror (see `_apply_effect` on falls).
        if lost and self._check_falls(lost):
            self._check_outcome()
        active = 0  # the menhirs still active, as a bit set
        for m, dial in enumerate(self.menhir_dial):
            if dial >= 0:
                active |= 1 << m
        gone = []
        on_grid = self.on_grid
        for p in self.game.out_of_reach(active):
            if not on_grid[p]:
                continue
            place = sc.locations[p]
            on_grid[p] = False
            self.instant_markers[p] = 0
            for a in sc.actions_at[p]:
                self.action_markers[a] = 0
            for g, at in enumerate(self.guardian_at):
                if at == p:
                    self.guardian_at[g] = -1
                    self._say("guardian_discarded", guardian=sc.guardians[g].name, place=place.name)
            gone.append(place.name)
        if gone:
            self.log.append(("discarded", (("places", tuple(gone)),)))

    def _lower_menhir_dials(self) -> None:
        """Step 3: every active menhir's dial goes down by 1; a dial at 1 is taken out, the
        menhir itself stays until the next dawn. [seed]"""
        sc = self.game.scenario
        for m, dial in enumerate(self.menhir_dial):
            if dial == 1:
                self.menhir_dial[m] = 0
                self._say("menhir_dial_out", place=sc.locations[sc.menhirs[m].location].name)
            elif dial > 1:
                self.menhir_dial[m] = dial - 1
                name = sc.locations[sc.menhirs[m].location].name
                self.log.append(("menhir_dial", (("place", name), ("dial", dial - 1))))

    def _lower_time_dials(self) -> None:
        """Step 4: every time dial goes down by 1 and is removed when it cannot; counting dials
        (quest markers) stay [seed]; a removed dial fires its expiry effect [design]. One time
        marker comes off every location action and instant effect. [seed]"""
        sc = self.game.scenario
        expired: list[Task] = []
        for d, value in enumerate(self.dial_values):
            if value == 1:
                self.dial_values[d] = -1
                expired.append(("expire", d))
            elif value > 1:
                self.dial_values[d] = value - 1
                self._say("time_dial", dial=sc.dials[d].name, value=value - 1)
        if any(self.action_markers):
            for a, markers in enumerate(self.action_markers):
                if markers:
                    self.action_markers[a] = markers - 1
        if any(self.instant_markers):
            for p, markers in enumerate(self.instant_markers):
                if markers:
                    self.instant_markers[p] = markers - 1
        self._schedule(expired)

    def _expire(self, d: int) -> None:
        dial = self.game.scenario.dials[d]
        self._say("time_dial_out", dial=dial.name)
        everyone = self._standing(range(self.num_players))
        if everyone:
            self._apply_effect(dial.expire, everyone, everyone[0], -1)

    def _reveal_event(self) -> None:
        """Step 5: reveal 1 event and resolve it (skipped with an empty deck [design])."""
        if self.deck:
            self.pending = ("event",)
        else:
            self._say("event_deck_empty")

    def _draw_event(self, e: int) -> None:
        """A quest event (quest text and red lock) goes to the quest pile; the others are
        discarded at the end of the day. [seed]"""
        self.pending = ()
        event = self.game.scenario.events[e]
        self.deck.remove(e)
        if event.quest:
            self.quest_pile.append(e)
        else:
            self.today.append(e)
        self.log.append(("event_quest" if event.quest else "event", (("title", event.title),)))
        if event.quest:
            self._check_outcome()
        everyone = self._standing(range(self.num_players))
        if everyone:
            self._schedule([("section", event.section, everyone, everyone[0], -1)])

    def _move_guardians(self) -> None:
        """Step 6: each guardian on the grid moves with the guardian die, in id order."""
        self._schedule([("gmove", g) for g in range(len(self.guardian_at))])

    def _guardian_face(self, g: int, face: str) -> None:
        """The guardian moves one location along a joined path in the die's direction, if
        there is one, else stays; entering a character's location starts an encounter at
        once, characters in number order. [design]"""
        self.pending = ()
        sc = self.game.scenario
        guardian = sc.guardians[g]
        here = self.guardian_at[g]
        place = sc.locations[here]
        target = -1
        if face != STAY:
            dx, dy = STEP[face]
            target = sc.location_at(place.x + dx, place.y + dy)
            if target < 0 or not self.on_grid[target] or target not in place.arrows:
                target = -1
        if target < 0:
            if face == STAY:
                self._say("guardian_stays", guardian=guardian.name, place=place.name)
            else:
                self._say("guardian_blocked", guardian=guardian.name, face=face, place=place.name)
            return
        self.guardian_at[g] = target
        self._say(
            "guardian_moves", guardian=guardian.name, face=face, place=sc.locations[target].name
        )
        met = [c for c in range(self.num_players) if self.location_of(c) == target]
        self._schedule([("encounter", g, (c,)) for c in met])

    def _plan(self) -> None:
        """Step 7: the party discusses its plans; no game effect. [seed]"""

    def _equip_step(self) -> None:
        """Step 8: exhausted items and secrets are flipped face up; each character equips at
        most one per keyword, the others are turned over and stay owned. [seed]"""
        self.exhausted = [False] * len(self.exhausted)
        self.toggled = [False] * len(self.toggled)
        # Only characters with a choice are asked; whether one has a choice cannot change
        # before its turn comes, as the others equip and unequip only their own items.
        standing = self._standing(range(self.num_players))
        self._schedule([("equip", c) for c in standing if self._has_equip_choice(c)])

    def _has_equip_choice(self, c: int) -> bool:
        """Asked only of characters who own an item that is not equipped. [design]"""
        return (c, False) in zip(self.item_owner, self.equipped, strict=True)

    def _equip_ids(self, c: int) -> list[int]:
        lay = self.game.layout
        ids = [EQUIP_DONE]
        for item, owner in enumerate(self.item_owner):
            if owner != c or self.toggled[item]:
                continue
            if self.equipped[item]:
                ids.append(lay.unequip + item)  # unequipping is always allowed [seed]
            elif not self._keyword_clash(c, item):
                ids.append(lay.equip + item)
        return sorted(ids)

    def _start_day(self) -> None:
        self.phase = "day"
        self.step = 0
        for c in range(self.num_players):
            self.passed[c] = self.fallen[c]
            self.last_acted[c] = self.last_part[c] = -1
            self.deferred[c] = False
        self.actions_today = 0
        self.log.append(("day_acts", (("day", self.day),)))

    # ================================================================== III. end of day
    def _dusk_step(self, step: int) -> None:
        sc = self.game.scenario
        self.log.append(("dusk_step", (("day", self.day), ("dusk_name", step))))
        if step == 4:
            self.discard += self.today
            self.today = []
            for loss in sc.losses:
                if loss.kind == "day_limit" and self.day >= loss.day:
                    self.outcome, self.outcome_text = LOST, loss.text
                    return
            self._start_dawn()
            return
        alive = self._standing(range(self.num_players))
        if step == 0:
            # Rest: a character who eats 1 food gains 1 health and loses 1 terror. [design]
            for c in alive:
                self.ate[c] = False
            self._schedule([("rest", c) for c in alive if self.food[c] >= PARAMS.food_eaten])
        elif step == 1:
            self._recover(alive)
        elif step == 2:
            everyone = tuple(alive)
            for d, dream in enumerate(sc.dreams):
                if not self.dreams_read[d] and everyone and self.holds(dream.requires, everyone):
                    self.dreams_read[d] = True
                    self._say("dream", text=dream.text)
                    self._apply_effect(dream.effect, everyone, everyone[0], -1)
        else:
            self._schedule([("improve", c) for c in alive if self._may_improve(c)])

    def _rest(self, c: int, eats: bool) -> None:
        self.pending = ()
        if eats:
            self.food[c] -= PARAMS.food_eaten
            self._change(c, "health", PARAMS.rest_health)
            self._change(c, "terror", -PARAMS.rest_terror)
            self.ate[c] = True
            self.log.append(("eats", (("name", self._name(c)),)))
        else:
            self.log.append(("hungry", (("name", self._name(c)),)))

    def _recover(self, alive: Sequence[int]) -> None:
        """Who ate goes back to maximum energy; who did not and has 1 or more energy keeps it
        (it goes up to at least 1: no change in practice); who did not and has 0 energy loses
        1 health and gets 1 energy back, so it is never stuck at 0 for good. [rules file]"""
        starving = []
        for c in alive:
            if self.ate[c]:
                self.energy[c] = self.max_energy[c]
            elif self.energy[c] == 0:
                starving.append(c)
                self._change(c, "health", -PARAMS.starving_health)
                self._change(c, "energy", PARAMS.hungry_energy)
                self.log.append(
                    (
                        "starving",
                        (
                            ("name", self._name(c)),
                            ("health", PARAMS.starving_health),
                            ("energy", PARAMS.hungry_energy),
                        ),
                    )
                )
            else:
                self.energy[c] = max(self.energy[c], PARAMS.hungry_energy)
        # Only those who starved lost health (see `_apply_effect` on falls).
        if starving and self._check_falls(starving):
            self._check_outcome()

    def _improvements(self, c: int) -> list[int]:
        """Improvements character c can buy with its experience (each once). [design]"""
        sc = self.game.scenario
        return [
            i
            for i, imp in enumerate(sc.improvements)
            if i not in self.bought[c] and imp.xp <= self.xp[c]
        ]

    def _may_improve(self, c: int) -> bool:
        """Whether `_improvements(c)` lists anything (without listing them)."""
        xp, bought = self.xp[c], self.bought[c]
        if xp < self.game.cheapest_improvement:
            return False
        for i, imp in enumerate(self.game.scenario.improvements):
            if imp.xp <= xp and i not in bought:
                return True
        return False

    def _improve(self, c: int, i: int) -> None:
        self.pending = ()
        imp = self.game.scenario.improvements[i]
        self.xp[c] -= imp.xp
        self.bought[c].append(i)
        self.max_energy[c] += imp.energy
        self.max_health[c] += imp.health
        self.health[c] += imp.health
        self._say("improves", name=self._name(c), improvement=imp.name)

    # ================================================================== legal actions
    def legal_ids(self, player: int | None = None) -> list[int]:
        # `to_move` is one seat, CHANCE or TERMINAL (never a set: nobody decides at once).
        to_move = self.to_move
        if to_move == TERMINAL or (player is not None and player != to_move):
            return []
        if to_move == CHANCE:
            return list(self._chance_table()[0])
        pending = self.pending
        kind, c = pending[0], pending[1]
        if kind == "act":
            return self._act_ids(c)
        lay = self.game.layout
        if kind == "join":
            return [JOIN, DECLINE] if self._may_decline() else [JOIN]
        if kind == "choose":
            return [lay.choose + i for i in self._choices()]
        if kind == "equip":
            return self._equip_ids(c)
        if kind == "rest":
            return [EAT, FAST]
        if kind == "improve":
            return [SKIP_IMPROVEMENT] + [lay.improve + i for i in self._improvements(c)]
        return []  # pragma: no cover

    def is_legal_id(self, actor: int, action_id: int) -> bool:
        """The check of `apply`, without listing where the answer is plain: pass is always
        offered to the character to act, rest is eat or fast, a chance outcome is one of the
        pending event's; anything else is looked up in `legal_ids`."""
        kind = self.pending[0] if self.pending and actor == self.to_move else ""
        if kind == "act" and action_id == PASS:
            return True
        if kind == "rest":
            return action_id in (EAT, FAST)
        if kind in CHANCE_KINDS:
            return action_id in self._chance_table()[0]
        return action_id in self.legal_ids(actor)

    def chance_ids(self) -> list[tuple[int, float]]:
        ids, weights = self._chance_table()
        return list(zip(ids, weights, strict=True))

    def sample_chance_id(self, rng: random.Random) -> int:
        # The draw of `State.sample_chance_id` (`rng.choices` over the outcomes' weights),
        # without pairing the outcomes up first, and with the cumulative weights `choices`
        # would add up from them, listed once per game.
        game = self.game
        kind = self.pending[0] if self.pending else ""
        if kind == "roll":
            return rng.choices(game.roll_outcomes[0], cum_weights=game.roll_cum_weights)[0]
        if kind == "gdie":
            faces = game.guardian_outcomes[0]
            return rng.choices(faces, cum_weights=game.guardian_cum_weights)[0]
        if kind == "event":
            deck = sorted(self.deck)
            cum_weights = game.event_cum_weights[len(deck)]
            # The card drawn from the cards themselves, then its id: the same pick.
            return game.layout.event + rng.choices(deck, cum_weights=cum_weights)[0]
        outcomes, weights = self._chance_table()  # no chance event pending: `choices` fails
        return rng.choices(outcomes, weights)[0]

    def _chance_table(self) -> tuple[Sequence[int], Sequence[float]]:
        """The pending chance event's outcome ids and their probabilities (none without one):
        an event card drawn from the unordered deck, the test die, or the guardian die."""
        game = self.game
        kind = self.pending[0] if self.pending else ""
        if kind == "event":
            first, deck = game.layout.event, sorted(self.deck)
            return [first + e for e in deck], [1.0 / len(deck)] * len(deck)
        if kind == "roll":
            return game.roll_outcomes
        if kind == "gdie":
            return game.guardian_outcomes
        return (), ()

    # ================================================================== applying actions
    def _apply_id(self, actor: int, action_id: int) -> None:
        # The id ranges in the layout's order (`actions.py`): the actions without parameters,
        # then travel, location actions, ..., the guardian die.
        lay = self.game.layout
        if action_id < lay.travel:
            if action_id == PASS:
                self.passed[actor] = True
                self.pending = ()
                self.log.append(("passes", (("name", self._name(actor)),)))
            elif action_id == WAIT:
                self.deferred[actor] = True
                self.pending = ()
            elif action_id == EXPLORE:
                self._begin_group_action(actor, EXPLORE_KIND, self.location_of(actor))
            elif action_id in (JOIN, DECLINE):
                self._answer_join(action_id == JOIN)
            elif action_id in (EAT, FAST):
                self._rest(actor, action_id == EAT)
            else:  # EQUIP_DONE, SKIP_IMPROVEMENT
                self.pending = ()
        elif action_id < lay.location_action:
            self._begin_group_action(actor, TRAVEL_KIND, action_id - lay.travel)
        elif action_id < lay.choose:
            self._begin_group_action(actor, LOCATION_KIND, action_id - lay.location_action)
        elif action_id < lay.use:
            self._choose(action_id - lay.choose)
        elif action_id < lay.equip:
            self._use(actor, action_id - lay.use)
            self.pending = ()  # a free action: ask again who acts
        elif action_id < lay.unequip:
            item = action_id - lay.equip
            self.equipped[item] = True
            self.toggled[item] = True
            self._say("equips", name=self._name(actor), item=self.game.scenario.items[item].name)
        elif action_id < lay.improve:
            item = action_id - lay.unequip
            self.equipped[item] = False
            self.toggled[item] = True
            self._say(
                "turns_over", name=self._name(actor), item=self.game.scenario.items[item].name
            )
        elif action_id < lay.event:
            self._improve(actor, action_id - lay.improve)
        elif action_id < lay.roll:
            self._draw_event(action_id - lay.event)
        elif action_id < lay.guardian_die:
            self._roll(action_id - lay.roll + 1)
        else:
            self._guardian_face(self.pending[1], GUARDIAN_FACES[action_id - lay.guardian_die])
        self._advance()

    # ================================================================== copies and views
    def clone(self) -> Self:
        cls = type(self)  # a compiled class refuses object.__new__
        new = cls.__new__(cls)
        new.game = self.game
        new.num_players = self.num_players
        new.seed = self.seed
        new.history = self.history.copy()
        new.to_move = self.to_move
        for name in _IMMUTABLE_FIELDS:
            setattr(new, name, getattr(self, name))
        for name in _LIST_FIELDS:
            setattr(new, name, getattr(self, name).copy())
        new.bought = [b.copy() for b in self.bought]
        return new

    def resample(self, player: int | None, rng: random.Random) -> Self:
        """Nothing is hidden from any seat: the event deck is an unordered pool whose contents
        everyone can work out (the scenario lists the events, the revealed ones are known) and
        each draw is a chance action. So every information set is this state itself; the
        sample is a copy with a fresh seed from `rng` (the true seed would predict the default
        chance draws)."""
        new = self.clone()
        new.seed = rng.randrange(2**31)
        return new

    def returns(self) -> list[float]:
        """1 for every seat on a win, 0 on a loss: all seats share one outcome. [seed]"""
        if self.to_move != TERMINAL:
            return [0.0] * self.num_players
        value = 1.0 if self.outcome == WON else 0.0
        return [value] * self.num_players

    def team_score(self) -> int:
        """Quest markers (all counters) plus a bonus on a win. [design]"""
        return sum(self.counters) + (PARAMS.win_bonus if self.outcome == WON else 0)

    def result(self) -> dict[str, Any]:
        won = self.outcome == WON
        return {
            "outcome": "win" if won else "loss",
            "reason": self.outcome_text,
            "days": self.day,
            "scores": [self.team_score()] * self.num_players,
            "winners": list(range(self.num_players)) if won else [],
            "cooperative": True,
        }

    def view(self, player: int | None) -> dict[str, Any]:
        """Everything is public; the view differs between seats only in "viewer"."""
        sc = self.game.scenario
        items = sc.items
        pending = self.pending
        decision: dict[str, Any] | None = None
        if pending:
            decision = {"kind": pending[0]}
            if pending[0] == "choose":
                section = sc.sections[pending[2]]
                decision.update(
                    character=pending[1],
                    section=section.id,
                    title=section.title,
                    text=section.text,
                    involved=list(pending[3]),
                    options=[
                        {"option": i, "label": section.choices[i].label} for i in self._choices()
                    ],
                )
            elif pending[0] == "join":
                decision.update(
                    character=pending[1],
                    action=KIND_NAMES[pending[2]],
                    target=self._group_target(pending[2], pending[3]),
                    members=list(pending[4]),
                )
            elif pending[0] not in CHANCE_KINDS:
                decision["character"] = pending[1]
        range_cells = self.in_menhir_range()
        locations = []
        for p, place in enumerate(sc.locations):
            if not self.on_grid[p]:
                continue
            locations.append(
                {
                    "id": place.id,
                    "name": place.name,
                    "x": place.x,
                    "y": place.y,
                    "arrows": [sc.locations[t].id for t in place.arrows if self.on_grid[t]],
                    "in_range": (place.x, place.y) in range_cells,
                    "explore": place.explore >= 0,
                    "instant_markers": self.instant_markers[p],
                    "actions": [
                        {
                            "id": sc.actions[a].id,
                            "label": sc.actions[a].label,
                            "cost": describe_cost(sc.actions[a].cost),
                            "amounts": [list(x) for x in sc.actions[a].cost.amounts],
                            "markers": self.action_markers[a],
                        }
                        for a in sc.actions_at[p]
                    ],
                }
            )
        characters = []
        for c in range(self.num_players):
            character = sc.characters[c]
            characters.append(
                {
                    "id": character.id,
                    "name": character.name,
                    "x": self.cell[c][0],
                    "y": self.cell[c][1],
                    "location": (
                        sc.locations[self.location_of(c)].id if self.location_of(c) >= 0 else None
                    ),
                    "health": self.health[c],
                    "max_health": self.max_health[c],
                    "energy": self.energy[c],
                    "max_energy": self.max_energy[c],
                    "terror": self.terror[c],
                    "terror_limit": character.terror,
                    "food": self.food[c],
                    "xp": self.xp[c],
                    "attributes": {a: self.attribute(c, a) for a in sc.attributes},
                    "items": [
                        {
                            "id": items[i].id,
                            "name": items[i].name,
                            "kind": items[i].kind,
                            "keywords": list(items[i].keywords),
                            "equipped": self.equipped[i],
                            "exhausted": self.exhausted[i],
                        }
                        for i, owner in enumerate(self.item_owner)
                        if owner == c
                    ],
                    "improvements": [sc.improvements[i].name for i in self.bought[c]],
                    "improvement_ids": [sc.improvements[i].id for i in self.bought[c]],
                    "passed": self.passed[c],
                    "may_act": self.phase == "day" and self.may_act(c),
                    "fallen": self.fallen[c],
                }
            )
        return {
            "viewer": player,
            "players": self.num_players,
            "scenario": sc.title,
            "scenario_id": sc.id,
            "grid": [sc.width, sc.height],
            "day": self.day,
            "phase": self.phase,
            "dawn_step": self.step,
            "to_move": self.to_move if isinstance(self.to_move, int) else None,
            "decision": decision,
            "locations": locations,
            "menhirs": [
                {
                    "id": m.id,
                    "location": sc.locations[m.location].id,
                    "x": sc.locations[m.location].x,
                    "y": sc.locations[m.location].y,
                    "dial": self.menhir_dial[i],
                }
                for i, m in enumerate(sc.menhirs)
                if self.menhir_dial[i] >= 0
            ],
            "guardians": [
                {"id": g.id, "name": g.name, "location": sc.locations[self.guardian_at[i]].id}
                for i, g in enumerate(sc.guardians)
                if self._guardian_location(i) >= 0
            ],
            "characters": characters,
            "event_deck": len(self.deck),
            "quest_pile": [sc.events[e].title for e in self.quest_pile],
            "today": [sc.events[e].title for e in self.today],
            "quest_pile_ids": [sc.events[e].id for e in self.quest_pile],
            "today_ids": [sc.events[e].id for e in self.today],
            "events_discarded": len(self.discard),
            "time_dials": {sc.dials[d].name: v for d, v in enumerate(self.dial_values) if v >= 0},
            "time_dial_ids": {sc.dials[d].id: v for d, v in enumerate(self.dial_values) if v >= 0},
            "counters": dict(zip(sc.counters, self.counters, strict=True)),
            "flags": sorted(self.flags),
            "log_size": len(self.log),
            "log": [
                {"key": key, "params": {name: _plain(v) for name, v in params}}
                for key, params in self.log[-LOG_IN_VIEW:]
            ],
            "translations": self.game.translations,
            "result": self.result() if self.to_move == TERMINAL else None,
        }

    def describe(self, action: Action, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
        """Everything is public: the text is the same for every viewer (in `lang`)."""
        return self._text("describe", action.id, lang)

    def label(self, action: Action, seat: int, lang: Lang = DEFAULT_LANG) -> str:
        """The button of a character's own decision, speaking to the player ("Pass")."""
        if action.id >= self.game.layout.event:
            return self.describe(action, seat, lang)
        return self._text("button", action.id, lang)

    def _text(self, kind: str, aid: int, lang: Lang) -> str:
        """An action's text of `kind` (describe: a log line; button: the player's button)."""
        game = self.game
        sc, lay = game.scenario, game.layout
        table = game.translations
        say = words.TEXTS.say

        def scene(text: str) -> str:
            return words.scene(lang, text, table)

        pending = self.pending
        if aid >= lay.guardian_die:
            name = (
                scene(sc.guardians[pending[1]].name)
                if pending
                else say(lang, "describe.a_guardian")
            )
            face = GUARDIAN_FACES[aid - lay.guardian_die]
            shows = words.value(lang, "face", face, table)
            return say(lang, "describe.guardian_die", guardian=name, face=shows)
        if aid >= lay.roll:
            value = aid - lay.roll + 1
            if pending and pending[0] == "roll":
                test = sc.sections[pending[1]].choices[pending[2]].test
                if test is not None:
                    total = value + self._test_total(pending[3], test.attribute)
                    key = "success" if total >= test.target else "failure"
                    return say(
                        lang,
                        f"describe.roll_{key}",
                        value=value,
                        attribute=scene(test.attribute),
                        total=total,
                        target=test.target,
                    )
            return say(lang, "describe.roll", value=value)
        if aid >= lay.event:
            event = sc.events[aid - lay.event]
            key = "describe.event_quest" if event.quest else "describe.event"
            return say(lang, key, title=scene(event.title))
        who = (
            scene(self._name(int(pending[1])))
            if pending and pending[0] not in CHANCE_KINDS
            else "?"
        )
        params: dict[str, object] = {"name": who}
        if aid >= lay.improve:
            imp = sc.improvements[aid - lay.improve]
            bonus = "".join(
                say(lang, "bonus", attribute=scene(name), n=f"{amount:+d}")
                for name, amount in imp.bonus
            )
            key = "improve"
            params.update(improvement=scene(imp.name), xp=imp.xp, bonus=bonus)
        elif aid >= lay.unequip:
            key, params["item"] = "unequip", scene(sc.items[aid - lay.unequip].name)
        elif aid >= lay.equip:
            key, params["item"] = "equip", scene(sc.items[aid - lay.equip].name)
        elif aid >= lay.use:
            key, params["item"] = "use", scene(sc.items[aid - lay.use].name)
        elif aid >= lay.choose:
            option = aid - lay.choose
            if pending and pending[0] == "choose":
                choice = sc.sections[pending[2]].choices[option]
                extra = []
                if not choice.cost.empty:
                    extra.append(words.cost(lang, choice.cost.amounts))
                if choice.test is not None:
                    extra.append(
                        say(
                            lang,
                            "describe.test",
                            attribute=scene(choice.test.attribute),
                            target=choice.test.target,
                        )
                    )
                tail = f" ({'; '.join(extra)})" if extra else ""
                key = "choose"
                params.update(label=scene(choice.label), details=tail)
            else:
                key, params["option"] = "choose_option", option + 1
        elif aid >= lay.location_action:
            act = sc.actions[aid - lay.location_action]
            key = "location_action"
            params.update(label=scene(act.label), cost=words.cost(lang, act.cost.amounts))
        elif aid >= lay.travel:
            place = sc.locations[aid - lay.travel]
            key = "travel"
            params.update(place=scene(place.name), cost=words.cost(lang, self._travel_cost()))
        elif aid == EXPLORE:
            here = self.location_of(int(pending[1])) if pending else -1
            key = "explore"
            params.update(
                place=scene(sc.locations[here].name)
                if here >= 0
                else say(lang, "describe.the_location"),
                cost=words.cost(lang, self._explore_cost()),
            )
        elif aid in (JOIN, DECLINE):
            joining = pending and pending[0] == "join"
            key = "join" if aid == JOIN else "decline"
            params.update(
                first=scene(self._name(pending[4][0])) if joining else "?",
                what=say(lang, f"kind.{KIND_KEYS[pending[2]] if joining else 'action'}"),
            )
        else:
            key = SIMPLE_KEYS[aid]
            params["food"] = PARAMS.food_eaten
        return say(lang, f"{kind}.{key}", **params)

    @staticmethod
    def _travel_cost() -> tuple[tuple[str, int], ...]:
        return (("energy", PARAMS.travel_cost),)

    @staticmethod
    def _explore_cost() -> tuple[tuple[str, int], ...]:
        return (("energy", PARAMS.explore_cost),)

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        """Event cards, items/secrets and location cards, each in one zone."""
        events = len(self.game.scenario.events)
        items_base = events
        places_base = events + len(self.item_owner)
        zones: dict[str, list[int]] = {
            "event_deck": self.deck,
            "quest_pile": self.quest_pile,
            "today": self.today,
            "event_discard": self.discard,
            "item_supply": [items_base + i for i, o in enumerate(self.item_owner) if o < 0],
            "grid": [places_base + p for p, on in enumerate(self.on_grid) if on],
            "location_box": [places_base + p for p, on in enumerate(self.on_grid) if not on],
        }
        for c in range(self.num_players):
            zones[f"items_{c}"] = [items_base + i for i, o in enumerate(self.item_owner) if o == c]
        return zones

    # ================================================================== small helpers
    def _standing(self, members: Iterable[int]) -> tuple[int, ...]:
        """Those of `members` who have not fallen, in their order."""
        fallen = self.fallen
        if True not in fallen:
            return tuple(members)  # nobody has fallen (the common case)
        return tuple([c for c in members if not fallen[c]])

    def _name(self, c: int) -> str:
        return self.game.scenario.characters[c].name

    def _names(self, members: Sequence[int]) -> tuple[str, ...]:
        characters = self.game.scenario.characters
        if len(members) == 1:  # the common case: a character travelling alone
            return (characters[members[0]].name,)
        return tuple([characters[c].name for c in members])

    def _say(self, key: str, **params: Any) -> None:
        """A log entry: a text key (``narrate.<key>``) and its parameters (`words.line`)."""
        self.log.append((key, tuple(params.items())))


def _plain(value: Any) -> Any:
    """A log parameter as JSON has it: tuples as lists."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value
