"""The scenario linter: can the scenario be won, and can every part of it come into play?

It works on a scenario that passed the format checks (`scenario.py`) and follows what can
happen from the start, as a fixpoint over everything the rules can reach:

- the characters stand on the start (the set-up is no arrival: the start's `reveals` and
  instant effect wait for someone to come back); they reach and arrive at a location joined
  by an arrow to one they reach if the card is ever on the grid (revealed at the start, by an
  arrival's `reveals`, by an effect's `reveal`, by lighting its menhir), or one an effect's
  `move_to` takes them to;
- at a location they arrive at, its cards are revealed and its instant effect is read; at a
  location they reach, its exploration is read and its location actions can be taken; every
  event is drawn some dawn; a guardian whose card is ever on the grid can be met; a started
  time dial expires; a gained item can be used; a dream can come;
- a condition (`requires`) can hold if every flag it needs is set by an effect that can
  happen, every counter it needs is raised by one, every item can be gained, every quest event
  it needs is a quest event, its day is not after the day limit, and it does not need a flag
  both set and not set; a choice, a location action, a dream whose condition can never hold
  never happens.

Errors: no `[[win]]` can ever hold (the scenario cannot be won), each win named with the root
reason. Warnings: a part that can never come into play (a win or a loss that can never hold
while another can; a location no arrow or effect reaches; an item that can never be gained; a
section nothing leads to; a menhir never lit; a time dial never started; a choice, location
action or dream that needs what never happens; a flag that is set but never tested, most often
a typo; improvements without any experience to buy them). Only the root of a dead chain is
reported: a part is not reported again because it lies on a location, or follows a section,
that is reported already.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field

from spielwerk.games.tainted_grail.scenario import Condition, Effect, Scenario
from spielwerk.games.tainted_grail.source_map import Diagnostic, parse_path


@dataclass
class _Reach:
    """What can happen, grown to a fixpoint."""

    locations: set[int] = field(default_factory=set)  # where characters can stand
    arrivals: set[int] = field(default_factory=set)  # where they can arrive (not set-up)
    on_grid: set[int] = field(default_factory=set)  # cards that can lie on the grid
    sections: set[int] = field(default_factory=set)  # sections that can be read
    actions: set[int] = field(default_factory=set)  # location actions that can be taken
    flags: set[str] = field(default_factory=set)
    items: set[int] = field(default_factory=set)
    counters: set[int] = field(default_factory=set)  # raised by some effect
    dials: set[int] = field(default_factory=set)  # started
    menhirs: set[int] = field(default_factory=set)  # burning or lit
    dreams: set[int] = field(default_factory=set)
    experience: bool = False  # some effect gives xp

    def size(self) -> int:
        return sum(
            len(part)
            for part in (
                self.locations,
                self.arrivals,
                self.on_grid,
                self.sections,
                self.actions,
                self.flags,
                self.items,
                self.counters,
                self.dials,
                self.menhirs,
                self.dreams,
            )
        ) + int(self.experience)


def lint_scenario(scenario: Scenario) -> list[Diagnostic]:
    """The linter's errors and warnings for a scenario that passed the format checks, with
    lines where the scenario knows its source (`scenario.source_map`)."""
    return _Linter(scenario).run()


class _Linter:
    def __init__(self, scenario: Scenario) -> None:
        self.sc = scenario
        self.reach = _Reach()
        self.day_limit = min(
            (o.day for o in scenario.losses if o.kind == "day_limit"), default=10**9
        )
        # Where every effect of the file is, for naming who sets a flag or gives an item.
        self.effects: list[tuple[str, Effect]] = list(self._all_effects())
        self.diagnostics: list[Diagnostic] = []
        self.read_this_round: set[int] = set()

    # ------------------------------------------------------------------ reporting
    def report(self, severity: str, path: str, message: str) -> None:
        source_map = self.sc.source_map
        if source_map is not None:
            self.diagnostics.append(source_map.diagnostic(severity, path, message))
        else:
            self.diagnostics.append(Diagnostic(severity, path, message))

    def name(self, path: str) -> str:
        """A path with the elements' ids, for use inside a message."""
        source_map = self.sc.source_map
        return path if source_map is None else source_map.name(parse_path(path))

    def section_path(self, s: int) -> str:
        raw = len(self.sc.sections) - len(self.sc.events)
        return f"sections[{s}]" if s < raw else f"events[{s - raw}]"

    # ------------------------------------------------------------------ the fixpoint
    def _all_effects(self) -> Iterator[tuple[str, Effect]]:
        sc = self.sc
        for a, action in enumerate(sc.actions):
            yield f"actions[{a}].effect", action.effect
        for s, section in enumerate(sc.sections):
            where = self.section_path(s)
            yield f"{where}.effect", section.effect
            for c, choice in enumerate(section.choices):
                for part in ("effect", "success", "failure"):
                    yield f"{where}.choices[{c}].{part}", getattr(choice, part)
        for i, item in enumerate(sc.items):
            if item.use is not None:
                yield f"items[{i}].use", item.use
        for d, dream in enumerate(sc.dreams):
            yield f"dreams[{d}].effect", dream.effect
        for d, dial in enumerate(sc.dials):
            yield f"time_dials[{d}].expire", dial.expire

    def can_hold(self, condition: Condition) -> bool:
        return self.why_not(condition, root_only=False) is None

    def why_not(self, condition: Condition, root_only: bool) -> str | None:
        """Why a condition can never hold (None if it can). With `root_only`, only reasons
        that are their own root: a flag, counter or item no effect of the file gives at all,
        not one given only by effects that can never happen (those are reported there)."""
        sc, reach = self.sc, self.reach
        both = set(condition.flags) & set(condition.not_flags)
        if both:
            return f"needs flag {sorted(both)[0]!r} both set and not set"
        for flag in condition.flags:
            if flag not in reach.flags:
                givers = [w for w, e in self.effects if flag in e.flags]
                if not givers:
                    return f"needs flag {flag!r}, which no effect sets"
                if not root_only:
                    return f"needs flag {flag!r}, {self._only(givers, 'set')}"
        for counter, least in condition.counters:
            if least > 0 and counter not in reach.counters:
                name = sc.counters[counter]
                givers = [
                    w for w, e in self.effects if any(c == counter and n > 0 for c, n in e.counters)
                ]
                if not givers:
                    return f"needs counter {name!r} at {least}, which no effect raises"
                if not root_only:
                    return f"needs counter {name!r} at {least}, {self._only(givers, 'raised')}"
        for item in condition.items:
            if item not in reach.items:
                name = sc.items[item].id
                givers = [w for w, e in self.effects if item in e.items]
                if not givers:
                    return (
                        f"needs item {name!r}, which no character starts with and no effect gives"
                    )
                if not root_only:
                    return f"needs item {name!r}, {self._only(givers, 'given')}"
        for event in condition.quests:
            if not sc.events[event].quest:
                name = sc.events[event].id
                return f"needs event {name!r} on the quest pile, but it is no quest event"
        if condition.day > self.day_limit:
            return f"needs day {condition.day}, after the day limit ({self.day_limit})"
        return None

    def _only(self, paths: list[str], verb: str) -> str:
        """ "set only by parts that never come into play (actions[3] 'claim'.effect)"."""
        named = ", ".join(self.name(p) for p in paths[:2])
        more = f" and {len(paths) - 2} more" if len(paths) > 2 else ""
        return f"{verb} only by parts that never come into play ({named}{more})"

    def apply(self, effect: Effect) -> None:
        reach = self.reach
        reach.flags.update(effect.flags)
        reach.items.update(effect.items)
        reach.counters.update(c for c, n in effect.counters if n > 0)
        reach.on_grid.update(effect.reveal)
        reach.dials.update(effect.start_dials)
        if dict(effect.deltas).get("xp", 0) > 0:
            reach.experience = True
        if effect.activate_menhir >= 0:
            reach.menhirs.add(effect.activate_menhir)
            reach.on_grid.add(self.sc.menhirs[effect.activate_menhir].location)
        if effect.move_to >= 0:
            reach.locations.add(effect.move_to)
            reach.arrivals.add(effect.move_to)
            reach.on_grid.add(effect.move_to)

    def read(self, s: int) -> None:
        """Section s can be read: its effect, and each choice that can be taken (once per round
        of the fixpoint: goto chains never loop, the format checks see to that)."""
        if s < 0 or s in self.read_this_round:
            return
        self.read_this_round.add(s)
        self.reach.sections.add(s)
        section = self.sc.sections[s]
        self.apply(section.effect)
        for choice in section.choices:
            if not self.can_hold(choice.requires):
                continue
            self.apply(choice.effect)
            if choice.test is not None:
                self.apply(choice.success)
                self.apply(choice.failure)
            self.read(choice.goto)

    def grow(self) -> None:
        sc, reach = self.sc, self.reach
        reach.locations.add(sc.start)
        reach.on_grid.update(sc.revealed)
        reach.on_grid.add(sc.start)
        reach.menhirs.update(m for m, menhir in enumerate(sc.menhirs) if menhir.active)
        for character in sc.characters:
            reach.items.update(character.items)
        while True:
            before = reach.size()
            self.read_this_round = set()
            for menhir in reach.menhirs:
                reach.on_grid.add(sc.menhirs[menhir].location)
            for place in list(reach.arrivals):
                # Arrival reveals and fires the instant effect; the set-up on the start is
                # no arrival [rules: day 1 starts at phase II].
                location = sc.locations[place]
                reach.on_grid.update(location.reveals)
                self.read(location.instant)
            for place in list(reach.locations):
                location = sc.locations[place]
                self.read(location.explore)
                for a in sc.actions_at[place]:
                    action = sc.actions[a]
                    if self.can_hold(action.requires):
                        reach.actions.add(a)
                        self.apply(action.effect)
                        self.read(action.section)
                for other in location.arrows:
                    if other in reach.on_grid:
                        reach.locations.add(other)
                        reach.arrivals.add(other)
            for event in sc.events:
                self.read(event.section)
            for guardian in sc.guardians:
                if guardian.location in reach.on_grid:
                    self.read(guardian.encounter)
            for item in list(reach.items):
                use = sc.items[item].use
                if use is not None:
                    self.apply(use)
            for dial in list(reach.dials):
                self.apply(sc.dials[dial].expire)
            for d, dream in enumerate(sc.dreams):
                if self.can_hold(dream.requires):
                    reach.dreams.add(d)
                    self.apply(dream.effect)
            if reach.size() == before:
                return

    # ------------------------------------------------------------------ the verdicts
    def run(self) -> list[Diagnostic]:
        self.grow()
        self.check_outcomes()
        self.check_locations()
        self.check_parts()
        errors = [d for d in self.diagnostics if d.severity == "error"]
        return errors + [d for d in self.diagnostics if d.severity == "warning"]

    def check_outcomes(self) -> None:
        sc = self.sc
        reasons = [self.why_not(win.requires, root_only=False) for win in sc.wins]
        winnable = any(reason is None for reason in reasons)
        for w, reason in enumerate(reasons):
            if reason is None:
                continue
            if winnable:
                self.report("warning", f"win[{w}].requires", f"this win can never happen: {reason}")
            else:
                self.report("error", f"win[{w}].requires", f"the scenario cannot be won: {reason}")
        for index, loss in enumerate(sc.losses):
            if loss.kind != "condition":
                continue
            reason = self.why_not(loss.requires, root_only=True)
            if reason is not None:
                self.report(
                    "warning", f"loss[{index}].requires", f"this loss can never happen: {reason}"
                )

    def check_locations(self) -> None:
        """Unreached locations, one warning per group of them joined by arrows."""
        sc, reach = self.sc, self.reach
        dead = [p for p in range(len(sc.locations)) if p not in reach.locations]
        seen: set[int] = set()
        for place in dead:
            if place in seen:
                continue
            group, queue = [place], [place]
            seen.add(place)
            while queue:
                for other in sc.locations[queue.pop()].arrows:
                    if other not in seen and other not in reach.locations:
                        seen.add(other)
                        group.append(other)
                        queue.append(other)
            group.sort()
            first = group[0]
            others = [repr(sc.locations[p].id) for p in group[1:]]
            joined = f" (nor {', '.join(others)}, joined to it by arrows)" if others else ""
            entries = [
                p for p in group if any(q in reach.locations for q in sc.locations[p].arrows)
            ]
            if entries:
                door = entries[0]
                via = next(q for q in sc.locations[door].arrows if q in reach.locations)
                start = sc.locations[sc.start]
                hint = (
                    f"; {start.id!r} reveals it on arrival, but the characters start there "
                    "without arriving"
                    if door in start.reveals and sc.start not in reach.arrivals
                    else ""
                )
                self.report(
                    "warning",
                    f"locations[{door}]",
                    f"never reached{joined}: the arrow from {sc.locations[via].id!r} leads "
                    "here, but nothing puts the card on the grid (it is not revealed at the "
                    f"start, and no arrival, effect or menhir reveals it{hint})",
                )
            else:
                self.report(
                    "warning",
                    f"locations[{first}]",
                    f"never reached{joined}: no arrow from a location the characters reach "
                    "and no effect's move_to brings a character here",
                )

    def check_parts(self) -> None:
        sc, reach = self.sc, self.reach
        for i in range(len(sc.items)):
            if i not in reach.items and not any(i in e.items for _, e in self.effects):
                self.report(
                    "warning",
                    f"items[{i}]",
                    "can never be gained: no character starts with it and no effect gives it",
                )
        referenced = self._referenced_sections()
        for s in range(len(sc.sections) - len(sc.events)):
            if s not in reach.sections and s not in referenced:
                self.report(
                    "warning",
                    f"sections[{s}]",
                    "never read: no location, location action, guardian, event or goto leads here",
                )
        for m, menhir in enumerate(sc.menhirs):
            lit = any(e.activate_menhir == m for _, e in self.effects)
            if not menhir.active and not lit:
                self.report("warning", f"menhirs[{m}]", "never lit: no effect activates it")
        for d in range(len(sc.dials)):
            if d not in reach.dials and not any(d in e.start_dials for _, e in self.effects):
                self.report("warning", f"time_dials[{d}]", "never started: no effect starts it")
        for a, action in enumerate(sc.actions):
            if action.location in reach.locations and a not in reach.actions:
                reason = self.why_not(action.requires, root_only=True)
                if reason is not None:
                    self.report("warning", f"actions[{a}].requires", f"never possible: {reason}")
        for s in sorted(reach.sections):
            for c, choice in enumerate(sc.sections[s].choices):
                reason = self.why_not(choice.requires, root_only=True)
                if reason is not None:
                    path = f"{self.section_path(s)}.choices[{c}].requires"
                    self.report("warning", path, f"never possible: {reason}")
        for d, dream in enumerate(sc.dreams):
            if d not in reach.dreams:
                reason = self.why_not(dream.requires, root_only=True)
                if reason is not None:
                    self.report("warning", f"dreams[{d}].requires", f"never read: {reason}")
        tested = {
            flag
            for condition in self._all_conditions()
            for flag in (*condition.flags, *condition.not_flags)
        }
        reported: set[str] = set()
        for where, effect in self.effects:
            for flag in effect.flags:
                if flag not in tested and flag not in reported:
                    reported.add(flag)
                    self.report(
                        "warning",
                        f"{where}.flags",
                        f"sets flag {flag!r}, which no condition tests (a typo?)",
                    )
        if sc.improvements and not reach.experience:
            givers = any(dict(e.deltas).get("xp", 0) > 0 for _, e in self.effects)
            if not givers:
                self.report(
                    "warning",
                    "improvements[0]",
                    "no improvement can ever be bought: no effect gives experience (xp)",
                )

    def _all_conditions(self) -> Iterator[Condition]:
        sc = self.sc
        for action in sc.actions:
            yield action.requires
        for section in sc.sections:
            for choice in section.choices:
                yield choice.requires
        for dream in sc.dreams:
            yield dream.requires
        for outcome in (*sc.wins, *sc.losses):
            yield outcome.requires

    def _referenced_sections(self) -> set[int]:
        """Sections some part of the file leads to (reached or not)."""
        sc = self.sc
        found: set[int] = set()
        for location in sc.locations:
            found.update((location.explore, location.instant))
        for action in sc.actions:
            found.add(action.section)
        for guardian in sc.guardians:
            found.add(guardian.encounter)
        for section in sc.sections:
            found.update(choice.goto for choice in section.choices)
        found.discard(-1)
        return found
