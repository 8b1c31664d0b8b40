"""Narration of Tintenblut: events between two views of one seat (moves on the victory track,
villains drawn, Natternkopf's strikes and what they cost, the White Women, Staubfinger, a new
round), and the breakdown of the final scores. Built from views only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.i18n import Lang
from spielwerk.core.narration import Event, event
from spielwerk.games.inkspell import words
from spielwerk.games.inkspell.params import PARAMS

View = Mapping[str, Any]

_VILLAIN = {k: i for i, k in enumerate(PARAMS.villain_keys)}
_PLACES = {*PARAMS.location_keys, PARAMS.tintenwelt_key}


def value_text(lang: Lang, name: str, value: Any) -> str | None:
    """Villain cards, places, advantage cards (a list of keys) and the end's reason in
    `lang`; None for values shown as they are."""
    if name == "villain" and value in _VILLAIN:
        return words.villain(lang, value)
    if name == "place" and value in _PLACES:
        return words.location(lang, value)
    if name == "cards" and isinstance(value, list):
        names = [words.advantage(lang, c) for c in value]
        return ", ".join(names) or words.TEXTS.say(lang, "none")
    if name == "reason" and isinstance(value, str):
        return words.TEXTS.say(lang, f"reason.{value.replace(' ', '_')}")
    return None


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    players = range(int(after["players"]))
    for p in players:
        old, new = before["scores"][p], after["scores"][p]
        if new != old:
            found.append(event("track", seat=p, steps=f"{new - old:+d}", score=new))
        old_v, new_v = before["villains"][p], after["villains"][p]
        if len(new_v) > len(old_v) and new_v[: len(old_v)] == old_v:
            for key in new_v[len(old_v) :]:
                # the draw's own line names the card: only the highlight
                found.append(event("villain_drawn", quiet=True, seat=p, villain=key))
    seen = {*before["villain_discard"], *(v for front in before["villains"] for v in front)}
    now = [*after["villain_discard"], *(v for front in after["villains"] for v in front)]
    for card in now:
        if card in seen or _VILLAIN.get(card) not in PARAMS.natternkopf:
            continue
        struck = [
            p
            for p in players
            if not after["villains"][p]
            and (
                before["villains"][p]
                or before["provisions"][p] > after["provisions"][p]
                or sum(before["tiles"][p].values()) > sum(after["tiles"][p].values())
            )
        ]
        found.append(
            event("natternkopf", villain=card, seats=struck)
            if struck
            else event("natternkopf_nobody", villain=card)
        )
    for loss in after["natternkopf_losses"][len(before["natternkopf_losses"]) :]:
        found.append(event("lost", seat=loss["seat"], n=loss["tiles"]))
    if after.get("white_women") is not None and after.get("white_women") != before.get(
        "white_women"
    ):
        found.append(event("white_women", seat=after["white_women"]))
    if before.get("phase") != "setup" and after["staubfinger"] != before["staubfinger"]:
        place = after["staubfinger"]
        # only a seat's action moves him, and its line says where to
        found.append(event("staubfinger", quiet=True, place=place, mark_place=place))
    if after["final_round"] and not before["final_round"]:
        found.append(event("final_round"))
    if after["round"] != before["round"] and after["round"] and after.get("result") is None:
        found.append(event("new_round", round=after["round"], seat=after["start_player"]))
    return found


def explain(view: View) -> dict[str, Any]:
    """Track position and advantage cards of every seat; tiles and provisions only if they
    decided between equal scores."""
    result = view.get("result") or {}
    scores = list(view["scores"])
    bonus = list(result.get("advantage_points") or [0] * len(scores))
    cards = view.get("revealed_advantage") or [[] for _ in scores]
    rows = []
    for p, score in enumerate(scores):
        parts = [event("on_track", points=score - bonus[p])]
        parts.append(event("advantage", cards=list(cards[p]), points=bonus[p]))
        rows.append({"seat": p, "total": score, "parts": parts})
    best = max(scores)
    tied = [p for p, s in enumerate(scores) if s == best]
    winners = list(result.get("winners") or tied)
    tie_break = None
    if len(tied) > 1:
        values = result.get("tiles_and_provisions") or []
        for p in tied:
            if p < len(values):
                rows[p]["parts"].append(event("tiebreak_values", count=values[p]))
        if len(winners) == 1:
            tie_break = event("tie_tiles", seats=tied, points=best, winner=winners[0])
        else:
            tie_break = event("tie_shared", seats=tied, points=best)
    key = "winner" if len(winners) == 1 else "shared_win"
    notes = []
    if result.get("end"):
        notes.append(event("ended", reason=result["end"], round=result.get("rounds", "?")))
    return {
        "rows": rows,
        "verdict": event(key, seats=winners, points=best),
        "tie_break": tie_break,
        "notes": notes,
    }
