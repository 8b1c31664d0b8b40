"""Narration of Die Holde Isolde: events between two views of one seat (Isolde's reward moves,
every board's scoring each round, the reset, a new round), and the breakdown of the final
shields board by board. Built from views only; the templates are the ``narrate.*`` texts of
texts.toml. A round's deal is one log line and so is its draft (`folded`): the cards this seat
was dealt and kept, not a line for every card passed round the table."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.core.i18n import Lang
from spielwerk.core.narration import Event, event, folded
from spielwerk.games.isolde import words
from spielwerk.games.isolde.params import PARAMS

View = Mapping[str, Any]


def value_text(lang: Lang, name: str, value: Any) -> str | None:
    """Boards (``board``: its id), cards (``cards``: a list of ids), passing directions and a
    board's rounds in `lang`."""
    if name == "cards" and isinstance(value, list):
        return ", ".join(words.card(lang, c) for c in value)
    if name == "board" and isinstance(value, str):
        return words.board(lang, value)
    if name == "direction" and isinstance(value, str):
        return words.direction(lang, value)
    if name == "detail" and isinstance(value, list):
        return ", ".join(
            words.TEXTS.say(lang, "narrate.round_detail", round=r, points=f"{p:+d}")
            for r, p in value
        )
    return None


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    if before["phase"] == "deal" and sum(after["hand_sizes"]) > sum(before["hand_sizes"]):
        found.append(_dealt(after))
    if before["phase"] == "draft":
        found.append(_draft(before, after))
    for move in after["isolde_moves"][len(before["isolde_moves"]) :]:
        found.append(
            event(
                "isolde_move",
                quiet=True,  # the move's own line says it
                seat=move["seat"],
                place=move["place"],
                steps=f"+{move['steps']}",
                board=move["board"],
                mark_board=move["board"],
            )
        )
    ended = after.get("result") is not None and before.get("result") is None
    if after["round"] != before["round"] or ended:
        scored_round = before["round"]
        new_awards = [a for a in after["awards"][len(before["awards"]) :]]
        for board in before["boards"]:
            if scored_round not in board["scored_after"] or board["scoring"] == "moves":
                continue
            gains = [
                {"seat": a["seat"], "points": a["points"]}
                for a in new_awards
                if a["board"] == board["board"] and a["round"] == scored_round
            ]
            found.append(
                event(
                    "board_scored",
                    round=scored_round,
                    board=board["board"],
                    gains=gains,
                    mark_board=board["board"],
                )
            )
        if not ended:
            if scored_round == PARAMS.reset_after_round and after["advanced"].get("reset", True):
                found.append(event("reset", round=scored_round))
            found.append(
                event(
                    "new_round",
                    round=after["round"],
                    seat=after["start_player"],
                    direction=after["pass_direction"],
                )
            )
    return found


def _dealt(after: View) -> Event:
    """A round's deal so far, one log line: how many cards each seat has, and this seat's."""
    group, each = f"deal-{after['round']}", max(after["hand_sizes"])
    packet = after.get("packet")
    if packet:
        return folded(group, "deal", "dealt_hand", round=after["round"], n=each, cards=packet)
    return folded(group, "deal", "dealt", round=after["round"], n=each)


def _draft(before: View, after: View) -> Event:
    """A round's draft so far, one log line: the cards this seat kept (the others' picks are
    hidden), and once it is over the hand it holds."""
    group, number = f"draft-{before['round']}", before["round"]
    if after["phase"] != "draft":
        hand = after.get("hand")
        if hand:
            return folded(group, "draft", "draft_over_hand", round=number, cards=hand)
        return folded(group, "draft", "draft_over", round=number)
    kept = after.get("kept")
    if kept:
        return folded(group, "draft", "draft_kept", round=number, cards=kept)
    return folded(group, "draft", "draft_running", round=number)


def explain(view: View) -> dict[str, Any]:
    """Every seat's shields board by board, with the rounds they came in; the tie-break if it
    decided the winner."""
    scores = list(view["scores"])
    rows = []
    for p in range(int(view["players"])):
        parts = []
        for board in view["boards"]:
            won = [a for a in view["awards"] if a["seat"] == p and a["board"] == board["board"]]
            if won:
                detail = [[a["round"], a["points"]] for a in won]
                total = sum(a["points"] for a in won)
                parts.append(
                    event("board_total", board=board["board"], detail=detail, points=total)
                )
        rows.append({"seat": p, "total": scores[p], "parts": parts or [event("no_shields")]})
    result = view.get("result") or {}
    best = max(scores)
    winners = list(result.get("winners") or [p for p, s in enumerate(scores) if s == best])
    key = "winner" if len(winners) == 1 else "shared_win"
    return {
        "rows": rows,
        "verdict": event(key, seats=winners, points=best),
        "tie_break": tie_break(scores, winners),
    }


def tie_break(scores: Sequence[int], winners: Sequence[int]) -> Event | None:
    """How equal top points were parted (seed 004 l. 310: the seat furthest ahead on Isolde's
    board wins; where that parts nobody, the win is shared), or None if no two seats tied on
    top."""
    if not scores:
        return None
    best = max(scores)
    tied = [p for p, points in enumerate(scores) if points == best]
    if len(tied) < 2:
        return None
    if len(winners) == 1:
        return event("tie_isolde", seats=tied, points=best, seat=winners[0])
    return event("tie_shared", seats=tied, points=best)
