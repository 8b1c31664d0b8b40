"""Terminal text for Tainted Grail's day cycle, built from view dicts only.

Everything here takes what `TaintedGrailState.view(player)` returns (or an action's
description) and returns text with rich console markup: no I/O, no rich import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang

View = Mapping[str, Any]
CELL = 14
"""Width of one grid cell in characters."""

RULES = """\
A cooperative day cycle for 1-4 characters (one seat each); all seats win or lose together.
The content (map, menhirs, events, guardians, characters, items, quest) comes from a scenario
file: option scenario=demo (built in: The Ashen Spring) or scenario=PATH.toml.
I. Dawn, eight steps: 1 remove menhirs without a dial; 2 discard locations that are neither a
menhir's site nor next to one (diagonals count), with what lies on them; 3 lower each menhir
dial (a dial at 1 is taken out, the menhir stays until the next dawn); 4 lower time dials
(a dial at 1 is removed and fires), take 1 time marker off each location action and instant
effect; 5 reveal an event (quest events with the red lock go to the quest pile); 6 roll the
guardian die for each guardian; 7 plan; 8 ready exhausted items, equip one item per keyword.
II. Day: one action at a time, lowest character first (or wait); others at the same place
may join. A character acts again only after every other one began or joined an action since
its own last one began (joining that very action counts; passed characters are ignored).
Explore (1 energy each), travel to an orthogonal neighbour joined by an arrow (1 energy each;
arrival: reveal, guardians - met together by a group -, instant effects), location actions
(printed cost, split among those taking part), use an item (free), pass.
III. End of day: eat 1 food (+1 health, -1 terror, full energy; without food energy stays,
at 0 energy lose 1 health), dreams, deck improvements with experience.
[design] (shared/rules/tainted_grail.md and docs/games/tainted_grail.md): resources and
passing, the wyrdness, time-marker and dial details, guardian die faces, tests as d6 +
attribute, falling at 0 health or the terror limit, the reading of the rule for acting again,
waiting, the even split of shared costs, effects for everyone involved unless `shared`, group
encounters on arrival, free item use, automatic equipping of new items, the demo scenario.\
"""
"""A short summary of the rules and of the gaps filled by design, for `spielwerk rules`."""

_NUMBER = re.compile(r"\b(\d+) (energy|food|health|xp)\b|([+-]\d+ terror)")


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """An action description with its costs highlighted."""
    escaped = _escape(text)
    return _NUMBER.sub(lambda m: f"[yellow]{m.group(0)}[/yellow]", escaped)


def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup."""
    viewer = view.get("viewer")
    who = "spectator" if viewer is None else f"seat {viewer}"
    lines = [
        f"[bold]{_escape(str(view['scenario']))}[/bold] - day {view['day']}, "
        f"{_phase(view)} - {who}'s view"
    ]
    lines += grid_lines(view)
    lines.append(
        "Legend: [green]green[/green] cells are in menhir range, [dim]dim[/dim] ones are not "
        "(! a location out of range: it goes at dawn); M<n> menhir with dial n (M- dial out), "
        "G guardian, digits: characters by seat (~ in the wyrdness), = and || paths joined by "
        "arrows"
    )
    lines.append("Characters:")
    for seat, ch in enumerate(view["characters"]):
        lines.append("  " + character_line(view, seat, ch, viewer))
    lines.append(
        f"Events: deck {view['event_deck']}, today "
        f"{_names(view['today'])}, quest pile {_names(view['quest_pile'])}"
    )
    if view["time_dials"]:
        dials = ", ".join(f"{_escape(k)} {v}" for k, v in view["time_dials"].items())
        lines.append(f"Time dials: {dials}")
    counters = ", ".join(f"{_escape(k)} {v}" for k, v in view["counters"].items())
    if counters:
        lines.append(f"Quest markers: {counters}")
    actions = [
        f"{_escape(place['name'])}: {_escape(action['label'])} ({_escape(action['cost'])}"
        + (f", {action['markers']} time marker(s)" if action["markers"] else "")
        + ")"
        for place in view["locations"]
        for action in place["actions"]
    ]
    if actions:
        lines.append("Location actions: " + "; ".join(actions))
    guardians = ", ".join(
        f"{_escape(g['name'])} at {_place_name(view, g['location'])}" for g in view["guardians"]
    )
    if guardians:
        lines.append(f"Guardians: {guardians}")
    decision = view.get("decision")
    if decision and decision.get("kind") == "choose":
        title = f"{decision['title']}: " if decision.get("title") else ""
        lines.append(f"[bold]{_escape(title + decision['text'])}[/bold]")
    result = view.get("result")
    if result:
        verdict = (
            "[bold green]won[/bold green]"
            if result["outcome"] == "win"
            else "[bold red]lost[/bold red]"
        )
        lines.append(
            f"Game over: the party has {verdict} on day {result['days']}: "
            f"{_escape(result['reason'])} (team score {result['scores'][0]})"
        )
    return "\n".join(lines)


def grid_lines(view: View) -> list[str]:
    """The map: each cell shows its location (name, menhir, guardian, characters)."""
    width, height = view["grid"]
    by_cell = {(p["x"], p["y"]): p for p in view["locations"]}
    menhirs = {(m["x"], m["y"]): m["dial"] for m in view["menhirs"]}
    guardian_at = {g["location"] for g in view["guardians"]}
    people: dict[tuple[int, int], list[str]] = {}
    for seat, ch in enumerate(view["characters"]):
        if not ch["fallen"]:
            people.setdefault((ch["x"], ch["y"]), []).append(str(seat))
    in_range = _range_cells(view)
    cell_of = {p["id"]: (p["x"], p["y"]) for p in view["locations"]}
    joined = {
        frozenset({(p["x"], p["y"]), cell_of[t]}) for p in view["locations"] for t in p["arrows"]
    }

    def border(y: int) -> str:
        """The line above row y: a path to the row above shows as `||` in the cell's middle."""
        parts = []
        for x in range(width):
            if frozenset({(x, y - 1), (x, y)}) in joined:
                half = (CELL - 2) // 2
                parts.append("-" * half + "||" + "-" * (CELL - 2 - half))
            else:
                parts.append("-" * CELL)
        return "+" + "+".join(parts) + "+"

    lines = [border(0)]
    for y in range(height):
        top, bottom = [], []
        for x in range(width):
            place = by_cell.get((x, y))
            name = place["name"][: CELL - 1] if place else ""
            marks = []
            if (x, y) in menhirs:
                dial = menhirs[x, y]
                marks.append(f"M{dial}" if dial else "M-")
            if place and place["id"] in guardian_at:
                marks.append("G")
            if place and (x, y) not in in_range:
                marks.append("!")
            here = people.get((x, y))
            if here:
                marks.append(("~" if not place else "") + "".join(here))
            style = "green" if (x, y) in in_range else "dim"
            top.append(f"[{style}]{_escape(name.ljust(CELL))}[/{style}]")
            bottom.append(f"[{style}]{' '.join(marks).ljust(CELL)}[/{style}]")
        # A path to the right-hand neighbour shows as `=` instead of `|`.
        seps = ["=" if frozenset({(x, y), (x + 1, y)}) in joined else "|" for x in range(width)]
        lines.append("|" + "".join(cell + sep for cell, sep in zip(top, seps, strict=True)))
        lines.append("|" + "".join(cell + sep for cell, sep in zip(bottom, seps, strict=True)))
        lines.append(border(y + 1))
    return lines


def character_line(view: View, seat: int, ch: Mapping[str, Any], viewer: int | None) -> str:
    you = " (you)" if seat == viewer else ""
    where = _place_name(view, ch["location"]) if ch["location"] else "the wyrdness"
    status = " [red]fallen[/red]" if ch["fallen"] else (" passed" if ch["passed"] else "")
    attributes = ", ".join(f"{k} {v}" for k, v in ch["attributes"].items())
    items = ", ".join(
        _escape(i["name"])
        + ("" if i["equipped"] else " (turned over)")
        + (" (exhausted)" if i["exhausted"] else "")
        for i in ch["items"]
    )
    return (
        f"{seat} [bold]{_escape(ch['name'])}[/bold]{you} at {where}: "
        f"energy {ch['energy']}/{ch['max_energy']}, health {ch['health']}/{ch['max_health']}, "
        f"terror {ch['terror']}/{ch['terror_limit']}, food {ch['food']}, xp {ch['xp']}; "
        f"{attributes}; items: {items or '-'}{status}"
    )


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """What the table looks like when day 1 begins."""
    return [f"{_escape(str(view['scenario']))}: day 1 begins (the set-up replaces the first dawn)"]


def render_changes(before: View, after: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """The game log lines written between two views (dawn steps, arrivals, tests, ...)."""
    start = int(before.get("log_size", 0))
    end = int(after["log_size"])
    lines: Sequence[str] = after["log"]
    first = end - len(lines)
    return [_escape(line) for line in lines[max(0, start - first) :]]


# ---------------------------------------------------------------------- helpers
def _range_cells(view: View) -> set[tuple[int, int]]:
    cells = set()
    for menhir in view["menhirs"]:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                cells.add((menhir["x"] + dx, menhir["y"] + dy))
    return cells


def _phase(view: View) -> str:
    phase = str(view["phase"])
    if phase == "dawn" and view.get("dawn_step"):
        return f"dawn step {view['dawn_step']}"
    return {"day": "the day", "dusk": "end of the day", "over": "game over"}.get(phase, phase)


def _names(names: Sequence[str]) -> str:
    return ", ".join(_escape(n) for n in names) if names else "-"


def _place_name(view: View, place_id: str) -> str:
    for place in view["locations"]:
        if place["id"] == place_id:
            return _escape(place["name"])
    return _escape(place_id)


def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")
