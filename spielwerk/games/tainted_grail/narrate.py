"""Narration of Tainted Grail's day cycle: the game log's new entries (travels, dawn steps,
events, guardian dice, tests), guardians that move, menhir dials and what happens to each
character, and the team's result. Built from views only (everything is public here).

The templates are the ``narrate.*`` texts of texts.toml; a log entry is one of them with its
parameters. A view's texts of the scenario (names, story) are worded in every language when an
event is made (`words.both`: ``{"en": ..., "de": ...}``), since the view carries the
scenario's translations and `value_text` has only the value."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.i18n import LANGUAGES, Lang
from spielwerk.core.narration import Event, event
from spielwerk.games.tainted_grail import words

View = Mapping[str, Any]

STATS = ("health", "energy", "terror", "food", "xp")


def value_text(lang: Lang, name: str, value: Any) -> str | None:
    """A parameter worded in every language when the event was made: its text in `lang`."""
    if isinstance(value, dict) and lang in value:
        return str(value[lang])
    return None


def _place(view: View, place_id: str) -> str:
    for place in view["locations"]:
        if place["id"] == place_id:
            return str(place["name"])
    return place_id


def _in_all(view: View, text: str) -> dict[str, str]:
    table = view.get("translations") or {}
    return {lang: words.scene(lang, text, table) for lang in LANGUAGES}


def _changes(view: View, deltas: list[tuple[str, str]]) -> dict[str, str]:
    """Stat changes ("health +1, terror -2") in every language."""
    return {
        lang: ", ".join(
            words.TEXTS.say(lang, "stat_change", stat=words.TEXTS.say(lang, f"stat.{s}"), n=n)
            for s, n in deltas
        )
        for lang in LANGUAGES
    }


ECHOES = {
    "act": {
        "travel",
        "explore",
        "location_action",
        "location_action_paid",
        "passes",
        "uses",
        "equips",
        "turns_over",
    },
    "rest": {"eats", "hungry"},
    "choose": {"chooses"},
    "improve": {"improves"},
    "event": {"event", "event_quest"},
}
"""The chronicle's entries that a decision's own log line already says (with more: the cost,
the food eaten), by the kind of decision: the character who decided, alone."""


def _echoes(before: View, entry: Mapping[str, Any]) -> bool:
    """True if the chronicle `entry` only repeats the log line of the decision taken between
    the views ("Bryn travels to Mill (1 energy)", then "Bryn travels to Mill"): it is quiet.
    A travel others joined says who went, and stays."""
    decision = before.get("decision") or {}
    kind = decision.get("kind")
    if entry["key"] not in ECHOES.get(str(kind), set()):
        return False
    if kind == "event":
        return True
    characters = before["characters"]
    who = decision.get("character")
    if not isinstance(who, int) or not 0 <= who < len(characters):
        return False
    name = characters[who]["name"]
    params = entry["params"]
    return params.get("name") == name or list(params.get("names") or []) == [name]


STEPS = frozenset({"dawn", "dawn_step", "day_acts", "dusk_step"})
"""The chronicle's entries that announce a part of the day."""


def _idle_step(entry: Mapping[str, Any], following: Mapping[str, Any] | None) -> bool:
    """True for a step of the dawn or of the end of the day in which nothing happened (the
    next entry announces the next step): the log skips it."""
    return entry["key"] in ("dawn_step", "dusk_step") and (
        following is not None and following["key"] in STEPS
    )


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    table = after.get("translations") or {}
    start, end = int(before.get("log_size", 0)), int(after["log_size"])
    entries = list(after["log"])
    first = end - len(entries)
    new = entries[max(0, start - first) :]
    for entry, following in zip(new, [*new[1:], None], strict=False):
        params = words.both(entry["key"], entry["params"], table)
        quiet = _echoes(before, entry) or _idle_step(entry, following)
        found.append(event(entry["key"], quiet=quiet, **params))
    old_guardians = {g["id"]: g["location"] for g in before["guardians"]}
    for guardian in after["guardians"]:
        old = old_guardians.get(guardian["id"])
        if old is not None and old != guardian["location"]:
            found.append(
                event(
                    "guardian_moved",
                    guardian=_in_all(after, guardian["name"]),
                    source=_in_all(after, _place(after, old)),
                    target=_in_all(after, _place(after, guardian["location"])),
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
                    place=_in_all(after, _place(after, menhir["location"])),
                    dial=menhir["dial"],
                    mark_place=menhir["location"],
                )
            )
    old_characters = {c["id"]: c for c in before["characters"]}
    for character in after["characters"]:
        old = old_characters.get(character["id"])
        if old is None:
            continue
        deltas = [
            (stat, f"{character[stat] - old[stat]:+d}")
            for stat in STATS
            if character.get(stat) != old.get(stat)
        ]
        name = _in_all(after, character["name"])
        if deltas:
            found.append(
                event(
                    "character",
                    quiet=True,
                    character=name,
                    changes=_changes(after, deltas),
                    mark_character=character["id"],
                )
            )
        if character.get("fallen") and not old.get("fallen"):
            found.append(event("fallen", character=name, mark_character=character["id"]))
    return found


def explain(view: View) -> dict[str, Any]:
    """A co-operative game: the team wins or loses together, and why."""
    result = view.get("result") or {}
    rows = []
    for p, character in enumerate(view["characters"]):
        name = _in_all(view, character["name"])
        stats = [(stat, str(character[stat])) for stat in STATS]
        parts = [event("character", character=name, changes=_changes(view, stats))]
        if character.get("fallen"):
            parts.append(event("fallen", character=name))
        score = (result.get("scores") or [0] * (p + 1))[p]
        rows.append({"seat": p, "total": score, "parts": parts})
    key = "won" if result.get("outcome") == "win" else "lost"
    reason = _in_all(view, str(result.get("reason", "")))
    verdict = event(key, days=result.get("days", view.get("day")), reason=reason)
    return {"rows": rows, "verdict": verdict, "tie_break": None}
