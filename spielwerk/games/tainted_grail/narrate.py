"""Narration of Tainted Grail's day cycle: the chronicle's new lines (travels, dawn steps,
events, guardian dice, tests), guardians that move, menhir dials and what happens to each
character, and the team's result. Built from views only (everything is public here)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.narration import Event, event

View = Mapping[str, Any]

STATS = ("health", "energy", "terror", "food", "xp")

TEXTS: dict[str, str] = {
    "chronicle": "{text}",
    "guardian_moved": "{guardian} moves from {source} to {target}",
    "menhir": "The menhir at {place} burns down to {dial}",
    "character": "{character}: {changes}",
    "fallen": "{character} has fallen",
    "team": "{characters}",
    "won": "The team wins after {days} days: {reason}",
    "lost": "The team loses after {days} days: {reason}",
}


def _place(view: View, place_id: str) -> str:
    for place in view["locations"]:
        if place["id"] == place_id:
            return str(place["name"])
    return place_id


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    start, end = int(before.get("log_size", 0)), int(after["log_size"])
    lines = list(after["log"])
    first = end - len(lines)
    for line in lines[max(0, start - first) :]:
        found.append(event("chronicle", text=line))
    old_guardians = {g["id"]: g["location"] for g in before["guardians"]}
    for guardian in after["guardians"]:
        old = old_guardians.get(guardian["id"])
        if old is not None and old != guardian["location"]:
            found.append(
                event(
                    "guardian_moved",
                    guardian=guardian["name"],
                    source=_place(after, old),
                    target=_place(after, guardian["location"]),
                    mark_place=guardian["location"],
                )
            )
    old_dials = {m["id"]: m["dial"] for m in before["menhirs"]}
    for menhir in after["menhirs"]:
        old = old_dials.get(menhir["id"])
        if old is not None and old != menhir["dial"]:
            found.append(
                event(
                    "menhir",
                    quiet=True,
                    place=_place(after, menhir["location"]),
                    dial=menhir["dial"],
                    mark_place=menhir["location"],
                )
            )
    old_characters = {c["id"]: c for c in before["characters"]}
    for character in after["characters"]:
        old = old_characters.get(character["id"])
        if old is None:
            continue
        changes = [
            f"{stat} {character[stat] - old[stat]:+d}"
            for stat in STATS
            if character.get(stat) != old.get(stat)
        ]
        if changes:
            found.append(
                event(
                    "character",
                    quiet=True,
                    character=character["name"],
                    changes=", ".join(changes),
                    mark_character=character["id"],
                )
            )
        if character.get("fallen") and not old.get("fallen"):
            found.append(
                event("fallen", character=character["name"], mark_character=character["id"])
            )
    return found


def explain(view: View) -> dict[str, Any]:
    """A co-operative game: the team wins or loses together, and why."""
    result = view.get("result") or {}
    rows = []
    for p, character in enumerate(view["characters"]):
        parts = [
            event(
                "character",
                character=character["name"],
                changes=", ".join(f"{stat} {character[stat]}" for stat in STATS),
            )
        ]
        if character.get("fallen"):
            parts.append(event("fallen", character=character["name"]))
        score = (result.get("scores") or [0] * (p + 1))[p]
        rows.append({"seat": p, "total": score, "parts": parts})
    key = "won" if result.get("outcome") == "win" else "lost"
    verdict = event(key, days=result.get("days", view.get("day")), reason=result.get("reason", ""))
    return {"rows": rows, "verdict": verdict, "tie_break": None}
