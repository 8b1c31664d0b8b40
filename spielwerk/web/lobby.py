"""The lobby's table list: what state each table is in, how old and how long idle.

A table is *finished* once its game is over, *waiting* (for players) while a human seat is not
claimed yet, *playing* otherwise, and *abandoned* when it is unfinished and nothing happened at
it (no step stored, or none since it was created) for `abandon_after` seconds. Nothing is
deleted: an abandoned table still opens, and its first new step makes it *playing* again.
"""

from __future__ import annotations

import re
from typing import Any

DEFAULT_ABANDON_AFTER_HOURS = 24.0
"""Hours without a step after which the lobby calls an unfinished table abandoned."""
MAX_INCLUDED = 100
"""Table ids a browser may ask for besides the newest (its own tables)."""
TABLE_ID = re.compile(r"[A-Za-z0-9_-]{1,32}")

STATES = ("waiting", "playing", "finished", "abandoned")


def lobby_state(entry: dict[str, Any], now: float, abandon_after: float) -> str:
    """The state of a summed-up table (`table_summary`) at time `now`; `abandon_after` seconds
    (0: never) without a step make an unfinished table abandoned."""
    if entry["finished"]:
        return "finished"
    if abandon_after > 0 and idle_seconds(entry, now) >= abandon_after:
        return "abandoned"
    if any(s["kind"] == "human" and not s["claimed"] for s in entry["seats"]):
        return "waiting"
    return "playing"


def idle_seconds(entry: dict[str, Any], now: float) -> float:
    """Seconds since the table's last step (since it was created if it has none)."""
    last = entry.get("last_step_at") or entry["created_at"]
    return max(0.0, now - float(last))


def lobby_entry(entry: dict[str, Any], now: float, abandon_after: float) -> dict[str, Any]:
    """The summary with its lobby state, its age and how long it has been idle, in seconds
    by the server's clock (so a browser's wrong clock shows the right age)."""
    return {
        **entry,
        "state": lobby_state(entry, now, abandon_after),
        "age": max(0.0, now - float(entry["created_at"])),
        "idle": idle_seconds(entry, now),
    }


def included_ids(text: str | None) -> list[str]:
    """The table ids of an `include=ID,ID,...` query (well-formed ones only, at most
    MAX_INCLUDED)."""
    if not text:
        return []
    ids = [part for part in text.split(",") if TABLE_ID.fullmatch(part)]
    return list(dict.fromkeys(ids))[:MAX_INCLUDED]
