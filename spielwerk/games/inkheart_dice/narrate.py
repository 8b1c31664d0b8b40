"""Narration of Tintenherz - Das Würfelspiel: events between two views, and the breakdown of
the final scores (points x hearts, castle kept or discarded). Built from views only (every
card here is face up)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.narration import Event, event

View = Mapping[str, Any]

TEXTS: dict[str, str] = {
    "rolled": "{seat} rolls {first} and {second}",
    "rerolled": "{seat} re-rolls: the dice show {first} and {second}",
    "stolen": "{seat} steals {card} from {victim}",
    "secured": "{seat} makes {card} safe under the castle",
    "score_kept": "{seat} scores {points} points \u00d7 {hearts} ♥ = {score} now (castle kept)",
    "score_discarded": (
        "{seat} scores {points} points \u00d7 {hearts} ♥ = {score} now (castle and negative cards "
        "left out)"
    ),
    "option_kept": "castle kept: {points} points \u00d7 {hearts} ♥ = {score}",
    "option_discarded": (
        "castle discarded with the negative cards: {points} \u00d7 {hearts} ♥ = {score}"
    ),
    "chosen": "counts {score} (the better option)",
    "ended": "The game ended: {reason}",
    "winner": "{seats} wins with {score}",
    "shared_win": "{seats} share the win with {score} each",
}


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    dice, old_dice = after.get("dice"), before.get("dice")
    if dice and not after.get("rerolling") and (dice != old_dice or before.get("rerolling")):
        key = "rerolled" if after.get("rerolled") else "rolled"
        found.append(event(key, quiet=True, seat=after["current"], first=dice[0], second=dice[1]))
    players = range(int(after["players"]))
    for p in players:
        gained = [c for c in after["unsafe"][p] if c not in before["unsafe"][p]]
        for card in gained:
            victim = next((q for q in players if q != p and card in before["unsafe"][q]), None)
            if victim is not None:
                found.append(event("stolen", quiet=True, seat=p, card=card, victim=victim))
        secured = [c for c in after["safe"][p] if c in before["unsafe"][p]]
        for card in secured:
            found.append(event("secured", quiet=True, seat=p, card=card))
    for p in players:
        old, new = (before.get("scoring") or [None] * len(players))[p], after["scoring"][p]
        if old is not None and old["score"] == new["score"] and old["castle"] == new["castle"]:
            continue
        if old is None and not after["safe"][p]:
            continue
        chosen = new[new["castle"]]
        found.append(
            event(
                f"score_{new['castle']}",
                seat=p,
                points=chosen["points"],
                hearts=chosen["hearts"],
                score=chosen["score"],
            )
        )
    return found


def explain(view: View) -> dict[str, Any]:
    """Both castle options of every seat and the one that counts."""
    result = view.get("result") or {}
    rows = []
    for p, scoring in enumerate(result.get("scoring") or view["scoring"]):
        parts = [event(f"option_{option}", **scoring[option]) for option in ("kept", "discarded")]
        parts.append(event("chosen", score=scoring["score"]))
        rows.append(
            {"seat": p, "total": scoring["score"], "parts": parts, "best": scoring["castle"]}
        )
    scores = [row["total"] for row in rows]
    best = max(scores)
    winners = [p for p, s in enumerate(scores) if s == best]
    verdict = event("winner" if len(winners) == 1 else "shared_win", seats=winners, score=best)
    notes = [event("ended", reason=result["end"])] if result.get("end") else []
    return {"rows": rows, "verdict": verdict, "tie_break": None, "notes": notes}
