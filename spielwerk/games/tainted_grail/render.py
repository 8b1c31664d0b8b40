"""Terminal text for Tainted Grail's day cycle, built from view dicts only.

Everything here takes what `TaintedGrailState.view(player)` returns (or an action's
description) and returns text with rich console markup: no I/O, no rich import.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang, seat_name
from spielwerk.games.tainted_grail import words

View = Mapping[str, Any]
CELL = 14
"""Width of one grid cell in characters."""
TEXTS = words.TEXTS


@cache
def _number_pattern(lang: Lang) -> re.Pattern[str]:
    """Costs in an action's text: "2 energy", "+1 terror" (in `lang`)."""
    names = "|".join(re.escape(words.resource(lang, r)) for r in words.RESOURCE_TERMS)
    terror = re.escape(words.resource(lang, "terror"))
    return re.compile(rf"\b(\d+) ({names})\b|([+-]\d+ {terror})")


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """An action description with its costs highlighted."""
    escaped = _escape(text)
    return _number_pattern(lang).sub(lambda m: f"[yellow]{m.group(0)}[/yellow]", escaped)


def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup in `lang`."""
    say = TEXTS.say
    viewer = view.get("viewer")

    def scene(text: str) -> str:
        return _escape(_scene(view, lang, text))

    who = say(lang, "spectator") if viewer is None else seat_name(lang, viewer)
    lines = [
        say(
            lang,
            "render.head",
            title=f"[bold]{scene(str(view['scenario']))}[/bold]",
            day=view["day"],
            phase=_phase(view, lang),
            who=who,
        )
    ]
    lines += grid_lines(view, lang)
    lines.append(say(lang, "render.legend"))
    lines.append(say(lang, "render.characters"))
    for seat, ch in enumerate(view["characters"]):
        lines.append("  " + character_line(view, seat, ch, viewer, lang))
    lines.append(
        say(
            lang,
            "render.events",
            deck=view["event_deck"],
            today=_names(view["today"], view, lang),
            quests=_names(view["quest_pile"], view, lang),
        )
    )
    if view["time_dials"]:
        dials = ", ".join(f"{scene(k)} {v}" for k, v in view["time_dials"].items())
        lines.append(say(lang, "render.time_dials", dials=dials))
    counters = ", ".join(f"{scene(k)} {v}" for k, v in view["counters"].items())
    if counters:
        lines.append(say(lang, "render.quest_markers", counters=counters))
    actions = [
        f"{scene(place['name'])}: {scene(action['label'])} "
        f"({_escape(words.cost(lang, action['amounts']))}"
        + (say(lang, "render.time_markers", n=action["markers"]) if action["markers"] else "")
        + ")"
        for place in view["locations"]
        for action in place["actions"]
    ]
    if actions:
        lines.append(say(lang, "render.location_actions", actions="; ".join(actions)))
    guardians = ", ".join(
        say(
            lang,
            "render.guardian_at",
            guardian=scene(g["name"]),
            place=_place_name(view, g["location"], lang),
        )
        for g in view["guardians"]
    )
    if guardians:
        lines.append(say(lang, "render.guardians", guardians=guardians))
    decision = view.get("decision")
    if decision and decision.get("kind") == "choose":
        title = f"{scene(decision['title'])}: " if decision.get("title") else ""
        lines.append(f"[bold]{title}{scene(decision['text'])}[/bold]")
    result = view.get("result")
    if result:
        key = "render.won" if result["outcome"] == "win" else "render.lost"
        lines.append(
            say(
                lang,
                key,
                day=result["days"],
                reason=scene(result["reason"]),
                score=result["scores"][0],
            )
        )
    return "\n".join(lines)


def grid_lines(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """The map: each cell shows its location (name, menhir, guardian, characters)."""
    width, height = view["grid"]
    by_cell = {(p["x"], p["y"]): p for p in view["locations"]}
    menhirs = {(m["x"], m["y"]): m["dial"] for m in view["menhirs"]}
    guardian_at = {g["location"] for g in view["guardians"]}
    people: dict[tuple[int, int], list[str]] = {}
    for seat, ch in enumerate(view["characters"]):
        if not ch["fallen"]:
            people.setdefault((ch["x"], ch["y"]), []).append(str(seat + 1))
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
            name = _scene(view, lang, place["name"])[: CELL - 1] if place else ""
            marks = []
            if (x, y) in menhirs:
                dial = menhirs[x, y]
                mark = TEXTS.term(lang, "menhir_abbr")
                marks.append(f"{mark}{dial}" if dial else f"{mark}-")
            if place and place["id"] in guardian_at:
                marks.append(TEXTS.term(lang, "guardian_abbr"))
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


def character_line(
    view: View, seat: int, ch: Mapping[str, Any], viewer: int | None, lang: Lang = DEFAULT_LANG
) -> str:
    say = TEXTS.say
    you = say(lang, "render.you") if seat == viewer else ""
    where = (
        _place_name(view, ch["location"], lang) if ch["location"] else TEXTS.term(lang, "wyrdness")
    )
    status = (
        f" [red]{TEXTS.term(lang, 'fallen')}[/red]"
        if ch["fallen"]
        else (f" {TEXTS.term(lang, 'passed')}" if ch["passed"] else "")
    )
    attributes = ", ".join(
        f"{_escape(_scene(view, lang, k))} {v}" for k, v in ch["attributes"].items()
    )
    items = ", ".join(
        _escape(_scene(view, lang, i["name"]))
        + ("" if i["equipped"] else f" ({TEXTS.term(lang, 'turned_over')})")
        + (f" ({TEXTS.term(lang, 'exhausted')})" if i["exhausted"] else "")
        for i in ch["items"]
    )
    return say(
        lang,
        "render.character",
        seat=seat,
        name=f"[bold]{_escape(_scene(view, lang, ch['name']))}[/bold]",
        you=you,
        where=where,
        energy=f"{ch['energy']}/{ch['max_energy']}",
        health=f"{ch['health']}/{ch['max_health']}",
        terror=f"{ch['terror']}/{ch['terror_limit']}",
        food=ch["food"],
        xp=ch["xp"],
        attributes=attributes,
        items=items or "-",
        status=status,
    )


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """What the table looks like when day 1 begins."""
    title = _escape(_scene(view, lang, str(view["scenario"])))
    return [TEXTS.say(lang, "narrate.setup", title=title)]


def render_changes(before: View, after: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """The game log's entries written between two views (dawn steps, arrivals, tests, ...)."""
    start = int(before.get("log_size", 0))
    end = int(after["log_size"])
    entries: Sequence[Mapping[str, Any]] = after["log"]
    first = end - len(entries)
    table = after.get("translations") or {}
    return [
        _escape(words.line(lang, entry["key"], entry["params"], table))
        for entry in entries[max(0, start - first) :]
    ]


# ---------------------------------------------------------------------- helpers
def _range_cells(view: View) -> set[tuple[int, int]]:
    cells = set()
    for menhir in view["menhirs"]:
        for dx in (-1, 0, 1):
            for dy in (-1, 0, 1):
                cells.add((menhir["x"] + dx, menhir["y"] + dy))
    return cells


def _phase(view: View, lang: Lang) -> str:
    phase = str(view["phase"])
    if phase == "dawn" and view.get("dawn_step"):
        return TEXTS.say(lang, "render.dawn_step", step=view["dawn_step"])
    key = {"day": "phase_day", "dusk": "phase_dusk", "dawn": "phase_dawn"}.get(phase)
    if key is not None:
        return TEXTS.term(lang, key)
    return TEXTS.say(lang, "render.game_over") if phase == "over" else phase


def _scene(view: View, lang: Lang, text: str) -> str:
    """A text of the scenario in `lang` (the view carries its translations)."""
    return words.scene(lang, text, view.get("translations") or {})


def _names(names: Sequence[str], view: View, lang: Lang) -> str:
    return ", ".join(_escape(_scene(view, lang, n)) for n in names) if names else "-"


def _place_name(view: View, place_id: str, lang: Lang) -> str:
    for place in view["locations"]:
        if place["id"] == place_id:
            return _escape(_scene(view, lang, place["name"]))
    return _escape(place_id)


def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")
