"""Narration of Tintenblut: events between two views of one seat (moves on the victory track,
villains drawn, Natternkopf's strikes and what they cost, the White Women, Staubfinger, a new
round), and the breakdown of the final scores. Built from views only."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.narration import Event, event
from spielwerk.games.inkspell.params import PARAMS

View = Mapping[str, Any]

_VILLAIN = {k: i for i, k in enumerate(PARAMS.villain_keys)}
_PLACE = dict(zip(PARAMS.location_keys, PARAMS.location_names, strict=True))
_ADVANTAGE = dict(zip(PARAMS.advantage_keys, PARAMS.advantage_names, strict=True))

TEXTS: dict[str, str] = {
    "track": "{seat} moves {steps} to {score} on the victory track",
    "villain_drawn": "{seat} draws the villain {villain}",
    "natternkopf": "{villain} strikes {seats}: half their tiles and provisions lost",
    "natternkopf_nobody": "{villain} strikes, but nobody has anything to lose",
    "lost": "{seat} loses {tiles} tiles to Natternkopf",
    "white_women": "The White Women go to {seat}",
    "staubfinger": "Staubfinger goes to {place}",
    "new_round": "Round {round}: {seat} starts",
    "final_round": "The end is triggered: this is the final round",
    "on_track": "victory track {points}",
    "advantage": "advantage cards ({cards}) +{points}",
    "tiebreak_values": "tiles and provisions: {count}",
    "winner": "{seats} wins with {points} points",
    "shared_win": "{seats} share the win with {points} points each",
    "tie_tiles": "{seats} had {points} points each: {winner} wins with more tiles and provisions",
    "tie_shared": "{seats} had {points} points each and as many tiles and provisions: shared",
    "ended": "The game ended by the {reason} after round {round}",
}


def villain_label(key: str) -> str:
    return PARAMS.villain_label(_VILLAIN[key]) if key in _VILLAIN else key


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
                found.append(event("villain_drawn", seat=p, villain=villain_label(key)))
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
        label = villain_label(card)
        found.append(
            event("natternkopf", villain=label, seats=struck)
            if struck
            else event("natternkopf_nobody", villain=label)
        )
    for loss in after["natternkopf_losses"][len(before["natternkopf_losses"]) :]:
        found.append(event("lost", seat=loss["seat"], tiles=loss["tiles"]))
    if after.get("white_women") is not None and after.get("white_women") != before.get(
        "white_women"
    ):
        found.append(event("white_women", seat=after["white_women"]))
    if before.get("phase") != "setup" and after["staubfinger"] != before["staubfinger"]:
        place = _PLACE.get(after["staubfinger"], after["staubfinger"])
        found.append(event("staubfinger", place=place, mark_place=after["staubfinger"]))
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
        names = ", ".join(_ADVANTAGE.get(c, c) for c in cards[p]) or "none"
        parts.append(event("advantage", cards=names, points=bonus[p]))
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
