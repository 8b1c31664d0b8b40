"""Narration of Tintenherz - Das Würfelspiel: events between two views, and the breakdown of
the final scores (points x hearts, castle kept or discarded). Built from views only (every
card here is face up). The templates are the ``narrate.*`` texts of texts.toml. A turn's dice
are one log line (`folded`): the roll, the re-roll chosen and its result."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.i18n import Lang
from spielwerk.core.narration import Event, event, folded
from spielwerk.games.inkheart_dice import words

View = Mapping[str, Any]


def value_text(lang: Lang, name: str, value: Any) -> str | None:
    """Why the game ended (``reason``) in `lang`; every other value as it is."""
    if name == "reason" and isinstance(value, str):
        return words.end_reason(lang, value)
    return None


DIE = {"first": 0, "second": 1}


def _dice(before: View, after: View) -> Event | None:
    """The turn's dice so far, one log line: the roll, the re-roll chosen, its result ("seat 1
    rolls 5 and 4, keeps the 5 and re-rolls the 4: the dice show 5 and 1")."""
    group, seat = f"dice-{after.get('turn')}", after.get("current")
    dice: list[int] = list(after.get("dice") or [])
    old: list[int] = list(before.get("dice") or [])
    if before.get("phase") == "roll" and dice:
        return folded(group, "dice", "dice_rolled", seat=seat, first=dice[0], second=dice[1])
    choosing = after.get("rerolling") if not before.get("rerolling") else None
    rolled = before.get("rerolling") if not after.get("rerolling") and dice else None
    chosen = choosing or rolled
    if chosen not in ("both", *DIE) or not old:
        return None
    shown: dict[str, Any] = {"seat": seat, "first": old[0], "second": old[1]}
    if chosen == "both":
        if choosing:
            return folded(group, "dice", "dice_reroll_both", **shown)
        return folded(
            group, "dice", "dice_rerolled_both", new_first=dice[0], new_second=dice[1], **shown
        )
    die = DIE[chosen]
    shown |= {"kept": old[1 - die], "value": old[die]}
    if choosing:
        return folded(group, "dice", "dice_reroll_one", **shown)
    return folded(group, "dice", "dice_rerolled_one", new=dice[die], **shown)


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    told = _dice(before, after)
    if told is not None:
        found.append(told)
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
