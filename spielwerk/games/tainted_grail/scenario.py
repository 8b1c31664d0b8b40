"""Scenario files: everything a Tainted Grail day-cycle game is played with, as TOML data.

A scenario holds the grid of locations (with their direction arrows, explorations, location
actions and instant effects), the menhirs with their dials per player count, the event deck
(quest events carry the red lock), guardians and the guardian die, characters, items and
secrets with keywords, dreams, deck improvements, time dials, quest counters, and the win and
loss conditions. The format is documented in docs/games/tainted_grail.md.

`load_scenario(name_or_path)` reads a built-in scenario (`scenarios/NAME.toml`) or a user's
file, `parse_scenario(text, source)` reads TOML text; both check every field and
cross-reference, then run the linter (`lint.py`: a scenario that cannot be won is an error, a
part that can never come into play a warning), and raise one `ScenarioError` listing every
error with its line and field, the element named by index and id
(`quest.toml:12: locations[3] 'mill'.arrows[0]: unknown location 'barn'`). One root mistake
gives one error: a field that could not be read is left out of the checks that build on it.
`check_scenario_text` returns the same diagnostics without raising (for
`spielwerk scenario check`). The result is an immutable `Scenario` whose parts refer to each
other by index; its `warnings` keep the linter's warnings.
"""

from __future__ import annotations

import difflib
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import Any, TypeVar

from spielwerk.core.errors import OptionError
from spielwerk.games.tainted_grail.params import GUARDIAN_FACES, PARAMS
from spielwerk.games.tainted_grail.source_map import Diagnostic, SourceMap, toml_error_line

RESOURCES = ("health", "energy", "terror", "food", "xp")
"""A character's resources; effects change them, costs spend them (terror is gained)."""
LOSS_KINDS = ("all_fallen", "any_fallen", "no_menhir", "day_limit", "condition")

T = TypeVar("T")


class ScenarioError(OptionError):
    """A scenario file that cannot be read, breaks the format or cannot be won; names every
    error with its line and field (`diagnostics`; `problems` holds them as text)."""

    def __init__(self, source: str, diagnostics: Sequence[Diagnostic | str]) -> None:
        self.diagnostics = [
            d if isinstance(d, Diagnostic) else Diagnostic("error", "", d) for d in diagnostics
        ]
        self.problems = [str(d) for d in self.diagnostics]
        count = len(self.problems)
        noun = "problem" if count == 1 else "problems"
        super().__init__(f"scenario {source}: {count} {noun}: " + "; ".join(self.problems))


# ---------------------------------------------------------------------------- the model
@dataclass(frozen=True, slots=True)
class Condition:
    """All of its parts must hold; an empty condition always holds."""

    flags: tuple[str, ...] = ()
    not_flags: tuple[str, ...] = ()
    counters: tuple[tuple[int, int], ...] = ()  # (counter, at least)
    items: tuple[int, ...] = ()  # an involved character owns each of these
    quests: tuple[int, ...] = ()  # these events lie on the quest pile
    day: int = 0  # at least this day
    always: bool = field(default=False, init=False, compare=False, repr=False)
    """Whether the condition is empty (worked out once: `holds` asks it first)."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "always", self.empty)

    @property
    def empty(self) -> bool:
        return not (
            self.flags or self.not_flags or self.counters or self.items or self.quests or self.day
        )


@dataclass(frozen=True, slots=True)
class Cost:
    """Resources to spend: energy, food, health, xp are paid; terror is gained."""

    amounts: tuple[tuple[str, int], ...] = ()

    def get(self, resource: str) -> int:
        return dict(self.amounts).get(resource, 0)

    @property
    def empty(self) -> bool:
        return not self.amounts


@dataclass(frozen=True, slots=True)
class Effect:
    """What happens: resource changes for every character involved, and party-wide changes."""

    deltas: tuple[tuple[str, int], ...] = ()
    items: tuple[int, ...] = ()  # given to the deciding character, if still in the supply
    flags: tuple[str, ...] = ()
    clear_flags: tuple[str, ...] = ()
    counters: tuple[tuple[int, int], ...] = ()  # (counter, change)
    reveal: tuple[int, ...] = ()
    activate_menhir: int = -1
    start_dials: tuple[int, ...] = ()
    stop_dials: tuple[int, ...] = ()
    defeat_guardian: bool = False
    move_to: int = -1
    text: str = ""
    shared: bool = False  # resource changes go to the decider alone, not to everyone involved
    party_wide: bool = field(default=False, init=False, compare=False, repr=False)
    """Whether anything happens besides the text and the resource changes (worked out once:
    most effects of the story are only those)."""
    touches_outcome: bool = field(default=False, init=False, compare=False, repr=False)
    """Whether it changes what a win or loss can test: items, flags or counters."""

    def __post_init__(self) -> None:
        touches = bool(self.items or self.flags or self.clear_flags or self.counters)
        object.__setattr__(self, "touches_outcome", touches)
        party_wide = touches or bool(
            self.reveal
            or self.activate_menhir >= 0
            or self.start_dials
            or self.stop_dials
            or self.defeat_guardian
            or self.move_to >= 0
        )
        object.__setattr__(self, "party_wide", party_wide)


NO_EFFECT = Effect()


@dataclass(frozen=True, slots=True)
class Test:
    """Roll the test die, add the best attribute (with bonuses) among those involved; success
    if the total reaches the target."""

    attribute: str
    target: int


@dataclass(frozen=True, slots=True)
class Choice:
    label: str
    requires: Condition = Condition()
    cost: Cost = Cost()
    test: Test | None = None
    effect: Effect = NO_EFFECT
    success: Effect = NO_EFFECT
    failure: Effect = NO_EFFECT
    goto: int = -1  # the section that follows; -1 ends it


@dataclass(frozen=True, slots=True)
class Section:
    """A piece of story: text, an effect on entering, then a choice (if any)."""

    id: str
    title: str
    text: str
    effect: Effect = NO_EFFECT
    choices: tuple[Choice, ...] = ()


@dataclass(frozen=True, slots=True)
class Location:
    id: str
    name: str
    x: int
    y: int
    arrows: tuple[int, ...]  # locations joined by an arrow (both ways)
    reveals: tuple[int, ...]
    explore: int  # section, or -1
    instant: int  # section, or -1
    instant_markers: int  # time markers put on the instant effect after it fires


@dataclass(frozen=True, slots=True)
class Menhir:
    id: str
    location: int
    active: bool
    dial: tuple[int, ...]  # by player count 1..4


@dataclass(frozen=True, slots=True)
class LocationAction:
    id: str
    location: int
    label: str
    cost: Cost
    requires: Condition
    markers: int  # time markers put on the action after use
    effect: Effect
    section: int  # a section with choices that follows, or -1


@dataclass(frozen=True, slots=True)
class Event:
    id: str
    title: str
    quest: bool  # quest text and the red lock: goes to the quest pile
    section: int


@dataclass(frozen=True, slots=True)
class Guardian:
    id: str
    name: str
    location: int
    encounter: int  # section


@dataclass(frozen=True, slots=True)
class Character:
    id: str
    name: str
    health: int
    energy: int
    terror: int  # the terror limit: reaching it, the character falls
    food: int
    attributes: tuple[tuple[str, int], ...]
    items: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Item:
    id: str
    name: str
    kind: str  # "item" or "secret"
    keywords: tuple[str, ...]
    bonus: tuple[tuple[str, int], ...]
    use: Effect | None  # exhausts the item


@dataclass(frozen=True, slots=True)
class Dream:
    id: str
    text: str
    requires: Condition
    effect: Effect


@dataclass(frozen=True, slots=True)
class Improvement:
    id: str
    name: str
    xp: int
    bonus: tuple[tuple[str, int], ...]
    energy: int  # more maximum energy
    health: int  # more maximum health


@dataclass(frozen=True, slots=True)
class TimeDial:
    id: str
    name: str
    value: int
    expire: Effect


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str  # "condition" for wins; one of LOSS_KINDS for losses
    text: str
    requires: Condition = Condition()
    day: int = 0


@dataclass(frozen=True, slots=True)
class Scenario:
    id: str
    title: str
    intro: str
    width: int
    height: int
    start: int
    revealed: tuple[int, ...]
    attributes: tuple[str, ...]
    counters: tuple[str, ...]
    guardian_die: tuple[str, ...]
    characters: tuple[Character, ...]
    locations: tuple[Location, ...]
    menhirs: tuple[Menhir, ...]
    actions: tuple[LocationAction, ...]
    sections: tuple[Section, ...]
    events: tuple[Event, ...]
    guardians: tuple[Guardian, ...]
    items: tuple[Item, ...]
    dreams: tuple[Dream, ...]
    improvements: tuple[Improvement, ...]
    dials: tuple[TimeDial, ...]
    wins: tuple[Outcome, ...]
    losses: tuple[Outcome, ...]
    flags: tuple[str, ...] = ()  # every flag any condition or effect names, sorted
    cell_location: dict[tuple[int, int], int] = field(default_factory=dict)
    translations: dict[str, dict[str, str]] = field(default_factory=dict)
    """Its texts in other languages: `translations["de"]["Hollow Camp"]` (the file's own
    language is English); see `shown_texts` and `words.py`."""
    source_map: SourceMap | None = field(default=None, compare=False, repr=False)
    warnings: tuple[Diagnostic, ...] = field(default=(), compare=False, repr=False)

    actions_at: tuple[tuple[int, ...], ...] = ()  # location -> its location actions
    usable_items: tuple[int, ...] = ()  # items with a use effect
    arrows_in_order: tuple[tuple[int, ...], ...] = ()
    """location -> its arrows' locations in id order (the order of the travel actions)."""
    menhir_range: tuple[tuple[int, ...], ...] = ()
    """menhir -> the locations in its range: on its site's cell or a cell next to it, diagonals
    included."""
    anytime_losses: tuple[Outcome, ...] = ()
    """The losses that can come at any time (not `no_menhir` or `day_limit`, which are
    checked at dawn and at the end of the day)."""

    def __post_init__(self) -> None:
        at: list[list[int]] = [[] for _ in self.locations]
        for a, action in enumerate(self.actions):
            at[action.location].append(a)
        object.__setattr__(self, "actions_at", tuple(tuple(a) for a in at))
        usable = tuple(i for i, item in enumerate(self.items) if item.use is not None)
        object.__setattr__(self, "usable_items", usable)
        in_order = tuple(tuple(sorted(place.arrows)) for place in self.locations)
        object.__setattr__(self, "arrows_in_order", in_order)
        sites = [self.locations[m.location] for m in self.menhirs]
        ranges = tuple(
            tuple(
                p
                for p, place in enumerate(self.locations)
                if abs(place.x - site.x) <= 1 and abs(place.y - site.y) <= 1
            )
            for site in sites
        )
        object.__setattr__(self, "menhir_range", ranges)
        anytime = tuple(loss for loss in self.losses if loss.kind not in ("no_menhir", "day_limit"))
        object.__setattr__(self, "anytime_losses", anytime)

    @property
    def max_choices(self) -> int:
        return max((len(s.choices) for s in self.sections), default=0)

    def location_at(self, x: int, y: int) -> int:
        """The location whose card belongs on cell (x, y), or -1."""
        return self.cell_location.get((x, y), -1)


# ---------------------------------------------------------------------------- loading
def builtin_path(name: str) -> Path | None:
    """The file of built-in scenario `name`, if there is one."""
    resource = files(__package__).joinpath("scenarios", f"{name}.toml")
    return Path(str(resource)) if resource.is_file() else None


def builtin_names() -> list[str]:
    folder = files(__package__).joinpath("scenarios")
    return sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml"))


@cache
def load_scenario(name_or_path: str) -> Scenario:
    """A built-in scenario by name, or a scenario file by path, checked and linted (see
    `parse_scenario`); cached (scenarios are immutable)."""
    path, text = _read_source(name_or_path)
    return parse_scenario(text, str(path))


def _read_source(name_or_path: str) -> tuple[Path, str]:
    """The file of a built-in scenario or a path, and its text (ScenarioError if neither)."""
    path = builtin_path(name_or_path)
    if path is None:
        path = Path(name_or_path)
        if not path.is_file():
            known = ", ".join(builtin_names())
            raise ScenarioError(
                repr(name_or_path),
                [f"no built-in scenario of that name ({known}) and no such file"],
            )
    try:
        return path, path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ScenarioError(str(path), [f"cannot read the file: {error}"]) from None


TRANSLATED = ("de",)
"""The languages a scenario may be translated into (its file is written in English)."""


def effect_texts(effect: Effect | None) -> list[str]:
    return [effect.text] if effect is not None and effect.text else []


def shown_texts(sc: Scenario) -> list[str]:
    """Every text of the scenario a player may see, in its file's language (English): its
    title and introduction, the names of characters, locations, items (and their keywords),
    guardians, time dials, improvements, attributes and counters, location actions, story
    sections with their options and effects, events, dreams, and the outcomes."""
    found: list[str] = [sc.title, sc.intro, *sc.attributes, *sc.counters]
    for group in (sc.characters, sc.locations, sc.items, sc.guardians, sc.dials, sc.improvements):
        found += [thing.name for thing in group]
    for item in sc.items:
        found += [*item.keywords, *effect_texts(item.use)]
    for action in sc.actions:
        found += [action.label, *effect_texts(action.effect)]
    for section in sc.sections:
        found += [section.title, section.text, *effect_texts(section.effect)]
        for choice in section.choices:
            found.append(choice.label)
            for effect in (choice.effect, choice.success, choice.failure):
                found += effect_texts(effect)
    found += [event.title for event in sc.events]
    for dream in sc.dreams:
        found += [dream.text, *effect_texts(dream.effect)]
    for dial in sc.dials:
        found += effect_texts(dial.expire)
    found += [outcome.text for outcome in (*sc.wins, *sc.losses)]
    return list(dict.fromkeys(text for text in found if text))


def parse_scenario(text: str, source: str = "<text>") -> Scenario:
    """Read, check and lint a scenario from TOML text. ScenarioError lists every error (a
    broken field, or a scenario that cannot be won); the linter's warnings (dead parts) are
    kept in the scenario's `warnings`."""
    scenario, diagnostics = check_scenario_text(text, source)
    errors = [d for d in diagnostics if d.severity == "error"]
    if errors or scenario is None:
        raise ScenarioError(source, errors)
    return scenario


def check_scenario_text(
    text: str, source: str = "<text>"
) -> tuple[Scenario | None, list[Diagnostic]]:
    """Every diagnostic of a scenario text, errors first, each with its line: the format
    checks, then (if the format holds) the linter's. The scenario is None if the format is
    broken."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        return None, [
            Diagnostic("error", "", f"not valid TOML: {error}", source, toml_error_line(str(error)))
        ]
    source_map = SourceMap(source, text, data)
    reader = _Reader(data)
    scenario = reader.scenario()
    if reader.errors or scenario is None:
        found = [source_map.diagnostic("error", path, msg) for path, msg in reader.errors]
        return None, sorted(found, key=lambda d: d.line or 10**9)  # in file order
    scenario = replace(scenario, source_map=source_map)
    from spielwerk.games.tainted_grail.lint import lint_scenario  # lint builds on this module

    found = lint_scenario(scenario)
    warnings = tuple(d for d in found if d.severity == "warning")
    errors = [d for d in found if d.severity == "error"]
    return replace(scenario, warnings=warnings), [*errors, *warnings]


def check_scenario_file(name_or_path: str) -> tuple[Scenario | None, list[Diagnostic]]:
    """`check_scenario_text` of a built-in scenario or a file (ScenarioError if unreadable)."""
    path, text = _read_source(name_or_path)
    return check_scenario_text(text, str(path))


class _Reader:
    """Reads the TOML tables into the model, collecting every problem with its field path."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.errors: list[tuple[str, str]] = []  # (field path, message)
        self.ids: dict[str, dict[str, int]] = {}
        self.attributes: tuple[str, ...] = ()
        self.counters: tuple[str, ...] = ()
        self.sections: list[Section] = []
        self.section_ids: dict[str, int] = {}
        self.flag_names: set[str] = set()
        self.section_paths: list[str] = []  # where each section was read: "sections[3]"
        self.unplaced: set[int] = set()  # locations whose cell could not be read
        self.misspelt: set[str] = set()  # fields whose key is misspelt: not also "missing"
        self.grid_known = True

    # ------------------------------------------------------------------ primitives
    def error(self, path: str, message: str) -> None:
        self.errors.append((path, message))

    def clean_since(self, mark: int) -> bool:
        """No error was found since `len(self.errors)` was `mark`: the checks that build on
        what was read since then may run (one root mistake, one error)."""
        return len(self.errors) == mark

    def value(
        self,
        table: Mapping[str, Any],
        key: str,
        path: str,
        kind: type[T],
        default: T | None = None,
    ) -> T | None:
        """`table[key]` if it has the right type; a missing key gives `default` (an error if
        the default is None)."""
        where = f"{path}.{key}" if path else key
        if key not in table:
            if default is None and where not in self.misspelt:
                self.error(where, "missing")
            return default
        found = table[key]
        if kind is int and (isinstance(found, bool) or not isinstance(found, int)):
            self.error(where, f"must be an integer, not {found!r}")
            return default
        if not isinstance(found, kind):
            self.error(where, f"must be a {_kind_name(kind)}, not {found!r}")
            return default
        return found

    def text(
        self, table: Mapping[str, Any], key: str, path: str, default: str | None = None
    ) -> str:
        return self.value(table, key, path, str, default) or ""

    def number(
        self,
        table: Mapping[str, Any],
        key: str,
        path: str,
        default: int | None = None,
        low: int = 0,
    ) -> int:
        found = self.value(table, key, path, int, default)
        if found is None:
            return low
        if found < low:
            self.error(f"{path}.{key}" if path else key, f"must be at least {low}, not {found}")
            return low
        return found

    def strings(self, table: Mapping[str, Any], key: str, path: str) -> list[str]:
        found = self.value(table, key, path, list, [])
        result: list[str] = []
        for index, item in enumerate(found or []):
            if isinstance(item, str):
                result.append(item)
            else:
                self.error(f"{path}.{key}[{index}]", f"must be a string, not {item!r}")
        return result

    def names(self, head: Mapping[str, Any], key: str) -> tuple[str, ...]:
        """A list of distinct names in `[scenario]` (attributes, counters)."""
        found = self.strings(head, key, "scenario")
        for index, name in enumerate(found):
            if name in found[:index]:
                self.error(f"scenario.{key}[{index}]", f"{name!r} is listed twice")
        return tuple(dict.fromkeys(found))

    def ref(self, kind: str, name: str, where: str) -> int:
        """The index of `name` among the ids of `kind` (an error names the field if unknown)."""
        index = self.ids.get(kind, {}).get(name)
        if index is None:
            self.error(where, f"unknown {kind} {name!r}")
            return -1
        return index

    def required_ref(self, kind: str, table: Mapping[str, Any], key: str, path: str) -> int:
        """`table[key]`, a required id of `kind`, as an index (-1 after an error)."""
        name = self.value(table, key, path, str)
        return -1 if name is None else self.ref(kind, name, f"{path}.{key}")

    def refs(self, kind: str, table: Mapping[str, Any], key: str, path: str) -> tuple[int, ...]:
        names = self.strings(table, key, path)
        found = [self.ref(kind, n, f"{path}.{key}[{i}]") for i, n in enumerate(names)]
        return tuple(i for i in found if i >= 0)

    def opt_ref(self, kind: str, table: Mapping[str, Any], key: str, path: str) -> int:
        name = self.value(table, key, path, str, "")
        return self.ref(kind, name, f"{path}.{key}") if name else -1

    def tables(self, key: str) -> list[dict[str, Any]]:
        found = self.data.get(key, [])
        if not isinstance(found, list) or not all(isinstance(t, dict) for t in found):
            self.error(key, "must be an array of tables ([[" + key + "]])")
            return []
        return found

    def sub(self, table: Mapping[str, Any], key: str, path: str) -> dict[str, Any]:
        found = self.value(table, key, path, dict, {})
        return found or {}

    def unknown_keys(self, table: Mapping[str, Any], allowed: Sequence[str], path: str) -> None:
        """An unknown key is an error; one that looks like a misspelt field the table lacks
        names it, and the field is then not reported missing too (one mistake, one error)."""
        absent = [name for name in allowed if name not in table]
        for key in table:
            if key not in allowed:
                guess = _misspelling(key, absent)
                hint = f" (did you mean {guess!r}?)" if guess else ""
                if guess:
                    self.misspelt.add(f"{path}.{guess}" if path else guess)
                self.error(f"{path}.{key}" if path else key, f"unknown field{hint}")

    def collect_ids(self, kind: str, key: str, tables: list[dict[str, Any]]) -> None:
        ids: dict[str, int] = {}
        for index, table in enumerate(tables):
            if "id" not in table and any(_misspelling(k, ["id"]) for k in table):
                continue  # reported as a misspelt field when the table is read
            name = self.value(table, "id", f"{key}[{index}]", str)
            if name is None:
                continue
            if name in ids:
                self.error(f"{key}[{index}].id", f"duplicate {kind} id {name!r}")
            else:
                ids[name] = index
        self.ids[kind] = ids

    # ------------------------------------------------------------------ composite fields
    def pairs(
        self, table: Mapping[str, Any], key: str, path: str, names: Sequence[str], what: str
    ) -> tuple[tuple[str, int], ...]:
        """A small table of name = integer, names from `names`."""
        found = self.sub(table, key, path)
        result = []
        for name, amount in found.items():
            where = f"{path}.{key}.{name}"
            if name not in names:
                self.error(where, f"unknown {what} (known: {', '.join(names)})")
            elif isinstance(amount, bool) or not isinstance(amount, int):
                self.error(where, f"must be an integer, not {amount!r}")
            else:
                result.append((name, amount))
        return tuple(result)

    def condition(self, table: Mapping[str, Any], key: str, path: str) -> Condition:
        found = self.sub(table, key, path)
        where = f"{path}.{key}"
        self.unknown_keys(
            found, ("flags", "not_flags", "counters", "items", "quests", "day"), where
        )
        counters = tuple(
            (self.counters.index(name), amount)
            for name, amount in self.pairs(found, "counters", where, self.counters, "counter")
        )
        flags = tuple(self.strings(found, "flags", where))
        not_flags = tuple(self.strings(found, "not_flags", where))
        self.flag_names.update(flags, not_flags)
        return Condition(
            flags=flags,
            not_flags=not_flags,
            counters=counters,
            items=self.refs("item", found, "items", where),
            quests=self.refs("event", found, "quests", where),
            day=self.number(found, "day", where, 0),
        )

    def cost(self, table: Mapping[str, Any], key: str, path: str) -> Cost:
        amounts = self.pairs(table, key, path, RESOURCES, "resource")
        for name, amount in amounts:
            if amount < 0:
                self.error(f"{path}.{key}.{name}", f"a cost must not be negative, not {amount}")
        return Cost(tuple((n, a) for n, a in amounts if a > 0))

    def effect(self, table: Mapping[str, Any], key: str, path: str) -> Effect:
        found = self.sub(table, key, path)
        return self.effect_table(found, f"{path}.{key}")

    def effect_table(self, found: Mapping[str, Any], where: str) -> Effect:
        allowed = (
            *RESOURCES,
            "items",
            "flags",
            "clear_flags",
            "counters",
            "reveal",
            "activate_menhir",
            "start_dials",
            "stop_dials",
            "defeat_guardian",
            "move_to",
            "text",
            "shared",
        )
        self.unknown_keys(found, allowed, where)
        deltas = []
        for resource in RESOURCES:
            if resource in found:
                amount = self.value(found, resource, where, int, 0) or 0
                if amount:
                    deltas.append((resource, amount))
        counters = tuple(
            (self.counters.index(name), amount)
            for name, amount in self.pairs(found, "counters", where, self.counters, "counter")
        )
        flags = tuple(self.strings(found, "flags", where))
        clear_flags = tuple(self.strings(found, "clear_flags", where))
        self.flag_names.update(flags, clear_flags)
        return Effect(
            deltas=tuple(deltas),
            items=self.refs("item", found, "items", where),
            flags=flags,
            clear_flags=clear_flags,
            counters=counters,
            reveal=self.refs("location", found, "reveal", where),
            activate_menhir=self.opt_ref("menhir", found, "activate_menhir", where),
            start_dials=self.refs("time dial", found, "start_dials", where),
            stop_dials=self.refs("time dial", found, "stop_dials", where),
            defeat_guardian=bool(self.value(found, "defeat_guardian", where, bool, False)),
            move_to=self.opt_ref("location", found, "move_to", where),
            text=self.text(found, "text", where, ""),
            shared=bool(self.value(found, "shared", where, bool, False)),
        )

    def section_table(self, table: Mapping[str, Any], path: str, extra: Sequence[str]) -> Section:
        allowed = ("id", "title", "text", "effect", "choices", *extra)
        self.unknown_keys(table, allowed, path)
        choices = []
        mark = len(self.errors)
        found = self.value(table, "choices", path, list, [])
        for index, item in enumerate(found or []):
            where = f"{path}.choices[{index}]"
            if not isinstance(item, dict):
                self.error(where, "must be a table")
                continue
            choices.append(self.choice(item, where))
        if (
            choices
            and self.clean_since(mark)
            and not any(c.requires.empty and c.cost.empty for c in choices)
        ):
            self.error(f"{path}.choices", "needs at least one choice without requirements and cost")
        return Section(
            id=self.text(table, "id", path, ""),
            title=self.text(table, "title", path, ""),
            text=self.text(table, "text", path),
            effect=self.effect(table, "effect", path),
            choices=tuple(choices),
        )

    def choice(self, table: Mapping[str, Any], path: str) -> Choice:
        allowed = ("label", "requires", "cost", "test", "effect", "success", "failure", "goto")
        self.unknown_keys(table, allowed, path)
        test = None
        if "test" in table:
            found = self.sub(table, "test", path)
            where = f"{path}.test"
            self.unknown_keys(found, ("attribute", "target"), where)
            attribute = self.text(found, "attribute", where)
            if attribute and attribute not in self.attributes:
                self.error(f"{where}.attribute", f"unknown attribute {attribute!r}")
            test = Test(attribute, self.number(found, "target", where, low=1))
        elif "success" in table or "failure" in table:
            self.error(path, "success and failure need a test")
        goto = -1
        if "goto" in table:
            name = self.text(table, "goto", path)
            goto = self.section_ids.get(name, -1)
            if goto < 0:
                self.error(f"{path}.goto", f"unknown section {name!r}")
        return Choice(
            label=self.text(table, "label", path),
            requires=self.condition(table, "requires", path),
            cost=self.cost(table, "cost", path),
            test=test,
            effect=self.effect(table, "effect", path),
            success=self.effect(table, "success", path),
            failure=self.effect(table, "failure", path),
            goto=goto,
        )

    # ------------------------------------------------------------------ the whole file
    def scenario(self) -> Scenario | None:
        data = self.data
        self.unknown_keys(
            data,
            (
                "scenario",
                "characters",
                "locations",
                "menhirs",
                "actions",
                "sections",
                "events",
                "guardians",
                "items",
                "dreams",
                "improvements",
                "time_dials",
                "win",
                "loss",
                "translations",
            ),
            "",
        )
        if not isinstance(data.get("scenario"), dict):
            # Everything else builds on the head (attributes, counters, the grid, the start):
            # report this one root mistake alone.
            if "scenario" in data:
                self.error("scenario", "must be a table ([scenario])")
            else:
                self.error("scenario", "missing (the [scenario] table)")
            return None
        head = self.sub(data, "scenario", "")
        self.unknown_keys(
            head,
            (
                "id",
                "title",
                "intro",
                "grid",
                "start",
                "revealed",
                "attributes",
                "counters",
                "guardian_die",
            ),
            "scenario",
        )
        self.attributes = self.names(head, "attributes")
        self.counters = self.names(head, "counters")
        kinds = (
            ("character", "characters"),
            ("location", "locations"),
            ("menhir", "menhirs"),
            ("action", "actions"),
            ("section", "sections"),
            ("event", "events"),
            ("guardian", "guardians"),
            ("item", "items"),
            ("dream", "dreams"),
            ("improvement", "improvements"),
            ("time dial", "time_dials"),
        )
        raw = {key: self.tables(key) for _, key in kinds}
        for kind, key in kinds:
            self.collect_ids(kind, key, raw[key])
        # Sections are referred to by id from many places; events get a section of their own.
        section_tables: list[tuple[dict[str, Any], str, tuple[str, ...]]] = [
            (t, f"sections[{i}]", ()) for i, t in enumerate(raw["sections"])
        ]
        section_tables += [(t, f"events[{i}]", ("quest",)) for i, t in enumerate(raw["events"])]
        for index, (table, path, _) in enumerate(section_tables):
            name = table.get("id")
            if not isinstance(name, str):
                continue
            if name in self.section_ids and path.startswith("events"):
                self.error(f"{path}.id", f"{name!r} is already the id of a section")
            self.section_ids.setdefault(name, index)
        self.section_paths = [path for _, path, _ in section_tables]
        for table, path, extra in section_tables:
            self.sections.append(self.section_table(table, path, extra))
        self.check_goto_cycles()

        mark = len(self.errors)
        grid = self.value(head, "grid", "scenario", list, [5, 5]) or [5, 5]
        if len(grid) != 2 or not all(
            isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in grid
        ):
            self.error("scenario.grid", f"must be [width, height] of positive integers: {grid!r}")
            grid = [0, 0]  # unknown: no location is checked against it
        width, height = int(grid[0]), int(grid[1])
        self.grid_known = self.clean_since(mark)

        items = [self.item(t, f"items[{i}]") for i, t in enumerate(raw["items"])]
        mark = len(self.errors)
        characters = [
            self.character(t, f"characters[{i}]") for i, t in enumerate(raw["characters"])
        ]
        if not characters and self.clean_since(mark):
            self.error("characters", "a scenario needs at least one character")
        locations = [
            self.location(t, f"locations[{i}]", width, height)
            for i, t in enumerate(raw["locations"])
        ]
        cells: dict[tuple[int, int], int] = {}
        for index, place in enumerate(locations):
            if index in self.unplaced:
                continue  # its cell could not be read: reported once, where it was read
            if (place.x, place.y) in cells:
                other = locations[cells[place.x, place.y]].id
                self.error(f"locations[{index}]", f"shares its cell with {other!r}")
                # Either may be the misplaced one: neither's arrows are checked against it.
                self.unplaced.update((index, cells[place.x, place.y]))
            cells.setdefault((place.x, place.y), index)
        locations = self.join_arrows(locations, raw["locations"])
        mark = len(self.errors)
        menhirs = [self.menhir(t, f"menhirs[{i}]") for i, t in enumerate(raw["menhirs"])]
        menhirs_read = self.clean_since(mark)
        sites: dict[int, str] = {}
        for index, menhir in enumerate(menhirs):
            if menhir.location >= 0 and menhir.location in sites:
                self.error(
                    f"menhirs[{index}].location",
                    f"{menhir.id!r} stands where {sites[menhir.location]!r} stands",
                )
            sites.setdefault(menhir.location, menhir.id)
        actions = [self.action(t, f"actions[{i}]") for i, t in enumerate(raw["actions"])]
        events = [
            Event(
                id=str(t.get("id", "")),
                title=self.text(t, "title", f"events[{i}]", str(t.get("id", ""))),
                quest=bool(self.value(t, "quest", f"events[{i}]", bool, False)),
                section=len(raw["sections"]) + i,
            )
            for i, t in enumerate(raw["events"])
        ]
        guardians = [self.guardian(t, f"guardians[{i}]") for i, t in enumerate(raw["guardians"])]
        dreams = [self.dream(t, f"dreams[{i}]") for i, t in enumerate(raw["dreams"])]
        improvements = [
            self.improvement(t, f"improvements[{i}]") for i, t in enumerate(raw["improvements"])
        ]
        dials = [self.dial(t, f"time_dials[{i}]") for i, t in enumerate(raw["time_dials"])]
        mark = len(self.errors)
        wins = [self.outcome(t, f"win[{i}]", win=True) for i, t in enumerate(self.tables("win"))]
        if not wins and self.clean_since(mark):
            self.error("win", "a scenario needs at least one win condition ([[win]])")
        mark = len(self.errors)
        losses = [
            self.outcome(t, f"loss[{i}]", win=False) for i, t in enumerate(self.tables("loss"))
        ]
        if self.clean_since(mark) and not any(o.kind == "day_limit" for o in losses):
            self.error("loss", "a scenario needs a day_limit loss so that every game ends")
        die = tuple(self.strings(head, "guardian_die", "scenario")) or PARAMS.guardian_die
        for index, face in enumerate(die):
            if face not in GUARDIAN_FACES:
                self.error(
                    f"scenario.guardian_die[{index}]",
                    f"unknown face {face!r} (faces: {', '.join(GUARDIAN_FACES)})",
                )
        start = self.required_ref("location", head, "start", "scenario")
        revealed = set(self.refs("location", head, "revealed", "scenario"))
        if start >= 0:
            revealed.add(start)
        if menhirs_read and not any(m.active for m in menhirs):
            self.error("menhirs", "at least one menhir must be active at the start")
        scenario_id = self.text(head, "id", "scenario")
        title = self.text(head, "title", "scenario")
        intro = self.text(head, "intro", "scenario", "")
        translations = self.translations()
        if self.errors:
            return None
        return Scenario(
            id=scenario_id,
            title=title,
            intro=intro,
            width=width,
            height=height,
            start=start,
            revealed=tuple(sorted(revealed)),
            attributes=self.attributes,
            counters=self.counters,
            guardian_die=die,
            characters=tuple(characters),
            locations=tuple(locations),
            menhirs=tuple(menhirs),
            actions=tuple(actions),
            sections=tuple(self.sections),
            events=tuple(events),
            guardians=tuple(guardians),
            items=tuple(items),
            dreams=tuple(dreams),
            improvements=tuple(improvements),
            dials=tuple(dials),
            wins=tuple(wins),
            losses=tuple(losses),
            flags=tuple(sorted(self.flag_names)),
            cell_location=cells,
            translations=translations,
        )

    def translations(self) -> dict[str, dict[str, str]]:
        """`[translations.de]`: the scenario's English texts (names, story text, labels) and
        their German, `"Hollow Camp" = "Senkenlager"`; a text without one is shown as it is
        written (a name of the game's glossary is translated by the glossary)."""
        found = self.sub(self.data, "translations", "")
        self.unknown_keys(found, TRANSLATED, "translations")
        result: dict[str, dict[str, str]] = {}
        for lang in TRANSLATED:
            table = self.sub(found, lang, "translations")
            for english, text in table.items():
                if not isinstance(text, str) or not text.strip():
                    self.error(f"translations.{lang}.{english}", "must be a non-empty string")
                else:
                    result.setdefault(lang, {})[english] = text
        return result

    def check_goto_cycles(self) -> None:
        """A chain of `goto`s must end: an exploration always comes to "the exploration ends"."""
        state: dict[int, int] = {}  # 1 on the current path, 2 finished

        def visit(index: int, path: list[str]) -> None:
            state[index] = 1
            for number, choice in enumerate(self.sections[index].choices):
                target = choice.goto
                if target < 0:
                    continue
                if state.get(target) == 1:
                    names = " -> ".join([*path, self.sections[target].id])
                    where = f"{self.section_paths[index]}.choices[{number}].goto"
                    self.error(where, f"the goto chain loops: {names}")
                elif target not in state:
                    visit(target, [*path, self.sections[target].id])
            state[index] = 2

        for index in range(len(self.sections)):
            if index not in state:
                visit(index, [self.sections[index].id])

    def item(self, table: Mapping[str, Any], path: str) -> Item:
        self.unknown_keys(table, ("id", "name", "kind", "keywords", "bonus", "use"), path)
        kind = self.text(table, "kind", path, "item")
        if kind not in ("item", "secret"):
            self.error(f"{path}.kind", f"must be 'item' or 'secret', not {kind!r}")
        return Item(
            id=self.text(table, "id", path, ""),
            name=self.text(table, "name", path),
            kind=kind,
            keywords=tuple(self.strings(table, "keywords", path)),
            bonus=self.pairs(table, "bonus", path, self.attributes, "attribute"),
            use=self.effect(table, "use", path) if "use" in table else None,
        )

    def character(self, table: Mapping[str, Any], path: str) -> Character:
        self.unknown_keys(
            table,
            ("id", "name", "health", "energy", "terror", "food", "attributes", "items"),
            path,
        )
        attributes = dict(self.pairs(table, "attributes", path, self.attributes, "attribute"))
        return Character(
            id=self.text(table, "id", path, ""),
            name=self.text(table, "name", path),
            health=self.number(table, "health", path, low=1),
            energy=self.number(table, "energy", path, PARAMS.default_max_energy, low=1),
            terror=self.number(table, "terror", path, low=1),
            food=self.number(table, "food", path, 0),
            attributes=tuple((a, attributes.get(a, 0)) for a in self.attributes),
            items=self.refs("item", table, "items", path),
        )

    def location(self, table: Mapping[str, Any], path: str, width: int, height: int) -> Location:
        self.unknown_keys(
            table,
            ("id", "name", "x", "y", "arrows", "reveals", "explore", "instant", "instant_markers"),
            path,
        )
        mark = len(self.errors)
        x = self.number(table, "x", path)
        y = self.number(table, "y", path)
        if not self.clean_since(mark) or "x" not in table or "y" not in table:
            self.unplaced.add(int(path[path.index("[") + 1 : path.index("]")]))
        elif self.grid_known and not (0 <= x < width and 0 <= y < height):
            self.error(path, f"cell ({x}, {y}) lies outside the {width}x{height} grid")
        return Location(
            id=self.text(table, "id", path, ""),
            name=self.text(table, "name", path),
            x=x,
            y=y,
            arrows=self.refs("location", table, "arrows", path),
            reveals=self.refs("location", table, "reveals", path),
            explore=self.opt_ref("section", table, "explore", path),
            instant=self.opt_ref("section", table, "instant", path),
            instant_markers=self.number(table, "instant_markers", path, 0),
        )

    def join_arrows(
        self, locations: list[Location], tables: list[dict[str, Any]]
    ) -> list[Location]:
        """An arrow joins two orthogonally adjacent locations, both ways."""
        joined: list[set[int]] = [set() for _ in locations]
        known = self.ids.get("location", {})
        for index, place in enumerate(locations):
            listed = tables[index].get("arrows")
            for position, name in enumerate(listed if isinstance(listed, list) else []):
                target = known.get(name) if isinstance(name, str) else None
                if target is None or index in self.unplaced or target in self.unplaced:
                    continue  # reported when the location or its cell was read
                other = locations[target]
                if abs(other.x - place.x) + abs(other.y - place.y) != 1:
                    self.error(
                        f"locations[{index}].arrows[{position}]",
                        f"{other.id!r} is not orthogonally adjacent to {place.id!r}",
                    )
                    continue
                joined[index].add(target)
                joined[target].add(index)
        return [
            Location(
                place.id,
                place.name,
                place.x,
                place.y,
                tuple(sorted(joined[i])),
                place.reveals,
                place.explore,
                place.instant,
                place.instant_markers,
            )
            for i, place in enumerate(locations)
        ]

    def menhir(self, table: Mapping[str, Any], path: str) -> Menhir:
        self.unknown_keys(table, ("id", "location", "active", "dial"), path)
        dial_raw = self.value(table, "dial", path, list, list(PARAMS.default_menhir_dial)) or []
        if len(dial_raw) != PARAMS.max_players or not all(
            isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in dial_raw
        ):
            self.error(
                f"{path}.dial",
                f"must list {PARAMS.max_players} dial values >= 1 (by player count 1..4)",
            )
            dial_raw = list(PARAMS.default_menhir_dial)
        return Menhir(
            id=self.text(table, "id", path, ""),
            location=self.required_ref("location", table, "location", path),
            active=bool(self.value(table, "active", path, bool, False)),
            dial=tuple(int(v) for v in dial_raw),
        )

    def action(self, table: Mapping[str, Any], path: str) -> LocationAction:
        self.unknown_keys(
            table,
            ("id", "location", "label", "cost", "requires", "markers", "effect", "section"),
            path,
        )
        mark = len(self.errors)
        cost = self.cost(table, "cost", path)
        markers = self.number(table, "markers", path, 0)
        if self.clean_since(mark) and cost.get("energy") < 1 and markers < 1:
            # Otherwise a day could go on for ever with a free, always available action.
            self.error(path, "a location action must cost energy or leave a time marker")
        return LocationAction(
            id=self.text(table, "id", path, ""),
            location=self.required_ref("location", table, "location", path),
            label=self.text(table, "label", path),
            cost=cost,
            requires=self.condition(table, "requires", path),
            markers=markers,
            effect=self.effect(table, "effect", path),
            section=self.opt_ref("section", table, "section", path),
        )

    def guardian(self, table: Mapping[str, Any], path: str) -> Guardian:
        self.unknown_keys(table, ("id", "name", "location", "encounter"), path)
        encounter = self.opt_ref("section", table, "encounter", path)
        if encounter < 0 and "encounter" not in table:
            self.error(f"{path}.encounter", "missing")
        return Guardian(
            id=self.text(table, "id", path, ""),
            name=self.text(table, "name", path),
            location=self.required_ref("location", table, "location", path),
            encounter=encounter,
        )

    def dream(self, table: Mapping[str, Any], path: str) -> Dream:
        self.unknown_keys(table, ("id", "text", "requires", "effect"), path)
        return Dream(
            id=self.text(table, "id", path, ""),
            text=self.text(table, "text", path),
            requires=self.condition(table, "requires", path),
            effect=self.effect(table, "effect", path),
        )

    def improvement(self, table: Mapping[str, Any], path: str) -> Improvement:
        self.unknown_keys(table, ("id", "name", "xp", "bonus", "energy", "health"), path)
        return Improvement(
            id=self.text(table, "id", path, ""),
            name=self.text(table, "name", path),
            xp=self.number(table, "xp", path, low=1),
            bonus=self.pairs(table, "bonus", path, self.attributes, "attribute"),
            energy=self.number(table, "energy", path, 0),
            health=self.number(table, "health", path, 0),
        )

    def dial(self, table: Mapping[str, Any], path: str) -> TimeDial:
        self.unknown_keys(table, ("id", "name", "value", "expire"), path)
        return TimeDial(
            id=self.text(table, "id", path, ""),
            name=self.text(table, "name", path),
            value=self.number(table, "value", path, low=1),
            expire=self.effect(table, "expire", path),
        )

    def outcome(self, table: Mapping[str, Any], path: str, win: bool) -> Outcome:
        self.unknown_keys(table, ("kind", "text", "requires", "day"), path)
        kind = self.text(table, "kind", path, "condition")
        if win and kind != "condition":
            self.error(f"{path}.kind", "a win is always kind 'condition'")
        elif kind not in LOSS_KINDS:
            self.error(f"{path}.kind", f"unknown kind {kind!r} (kinds: {', '.join(LOSS_KINDS)})")
        mark = len(self.errors)
        requires = self.condition(table, "requires", path)
        if kind == "condition" and requires.empty and self.clean_since(mark):
            self.error(f"{path}.requires", "a condition outcome needs requirements")
        day = self.number(table, "day", path, 0 if kind != "day_limit" else None, low=0)
        if kind == "day_limit" and day < 1:
            self.error(f"{path}.day", "a day_limit needs a day >= 1")
        return Outcome(kind, self.text(table, "text", path), requires, day)


def _misspelling(found: str, wanted: Sequence[str]) -> str | None:
    """The field of `wanted` that `found` looks like a misspelling of (a different case, or
    nearly the same letters), if any."""
    same = [name for name in wanted if name.lower() == found.lower()]
    close = same or difflib.get_close_matches(found, list(wanted), n=1, cutoff=0.8)
    return close[0] if close else None


def _kind_name(kind: type) -> str:
    return {str: "string", int: "integer", bool: "boolean", list: "list", dict: "table"}.get(
        kind, kind.__name__
    )


def describe_cost(cost: Cost) -> str:
    """ "2 energy, 1 food" (terror is gained)."""
    parts = [f"+{n} terror" if r == "terror" else f"{n} {r}" for r, n in cost.amounts]
    return ", ".join(parts) or "free"
