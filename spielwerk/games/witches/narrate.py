"""Narration of the Witches of Blackmore: events between two views of one seat, and the
breakdown of the final scores (see `spielwerk.core.narration`). Built from views only; the
templates are the ``narrate.*`` texts of texts.toml."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.i18n import Lang
from spielwerk.core.narration import Event, event
from spielwerk.games.witches import words
from spielwerk.games.witches.params import PARAMS

View = Mapping[str, Any]


def value_text(lang: Lang, name: str, value: Any) -> str | None:
    """Cards (``card``, ``trump``, ``cards``: "red-7, blue-3") and colours in `lang`."""
    if name in ("card", "trump") and isinstance(value, str):
        return words.card(lang, value)
    if name == "cards" and isinstance(value, str) and "-" in value:
        return ", ".join(words.card(lang, c) for c in value.split(", "))
    if name == "colour" and isinstance(value, str):
        return words.TEXTS.term(lang, value)
    return None


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    if before.get("trump") is None and after.get("trump") is not None:
        found.append(event("first_trump", card=after["trump"]))
    if after.get("trick_winner") is not None and before.get("trick_winner") is None:
        number = len(after.get("tricks") or []) + 1
        found.append(event("trick_taken", quiet=True, seat=after["trick_winner"], number=number))
    old_tricks = before.get("tricks") or []
    new_tricks = after.get("tricks") or []
    for number in range(len(old_tricks), len(new_tricks)):
        trick = new_tricks[number]
        found.append(
            event(
                "trick_won",
                seat=trick["winner"],
                number=number + 1,
                points=trick["points"],
                cards=", ".join(trick["cards"]),
            )
        )
        if trick.get("new_trump"):
            found.append(event("trump_changed", seat=trick["winner"], card=trick["new_trump"]))
    old_known = before.get("known_in_hands") or []
    for p, names in enumerate(after.get("known_in_hands") or []):
        previous = old_known[p] if p < len(old_known) else []
        for name in names:
            if name not in previous:
                found.append(event("trump_drawn", seat=p, card=name, trump=after.get("trump")))
    if after.get("end_phase") and not before.get("end_phase"):
        found.append(event("end_phase"))
    return found


def explain(view: View) -> dict[str, Any]:
    """Every seat's captured cards, colour by colour, and who won."""
    scores = list(view["scores"])
    rows = []
    for p, captured in enumerate(view.get("captured") or []):
        parts = []
        for colour in PARAMS.colours:
            values = sorted(
                int(c.partition("-")[2]) for c in captured if c.startswith(colour + "-")
            )
            if values:
                parts.append(
                    event(
                        "colour_points",
                        colour=colour,
                        cards=" + ".join(map(str, values)),
                        points=sum(values),
                    )
                )
        rows.append({"seat": p, "total": scores[p], "parts": parts or [event("no_cards")]})
    return {"rows": rows, "verdict": verdict(scores), "tie_break": None}


def verdict(scores: list[int]) -> Event:
    best = max(scores)
    winners = [p for p, s in enumerate(scores) if s == best]
    key = "winner" if len(winners) == 1 else "shared_win"
    return event(key, seats=winners, points=best)
