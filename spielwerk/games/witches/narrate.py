"""Narration of the Witches of Blackmore: events between two views of one seat, and the
breakdown of the final scores (see `spielwerk.core.narration`). Built from views only; the
templates are the ``narrate.*`` texts of texts.toml.

The log folds what belongs together (`folded`): the whole deal is one line ("Cards are dealt:
6 to each seat; your hand: …"), and so is each trick, from its first card to the refill after
it ("Trick 3: Ada Red 7, Bea Blue 3, Cai Green 9 → Bea takes 14 points, new trump Green 9;
you draw Grey 4"). The trump chosen by the winner is told there once, not again beside the
winner's own line."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.core.i18n import Lang
from spielwerk.core.narration import Event, event, folded
from spielwerk.games.witches import words
from spielwerk.games.witches.params import PARAMS

View = Mapping[str, Any]


def value_text(lang: Lang, name: str, value: Any) -> str | None:
    """Cards (``card``, ``trump``, a trick's ``play``; ``cards``: a list or "red-7, blue-3")
    and colours in `lang`."""
    if name in ("card", "trump") and isinstance(value, str):
        return words.card(lang, value)
    if name == "cards" and isinstance(value, list):
        return ", ".join(words.card(lang, c) for c in value)
    if name == "cards" and isinstance(value, str) and "-" in value:
        return ", ".join(words.card(lang, c) for c in value.split(", "))
    if name == "play" and isinstance(value, str):
        return words.card(lang, value)
    if name == "colour" and isinstance(value, str):
        return words.colour(lang, value)
    return None


def _plays(players: Sequence[int], cards: Sequence[str]) -> list[list[Any]]:
    return [[p, c] for p, c in zip(players, cards, strict=False)]


def events(before: View, after: View) -> list[Event]:
    found: list[Event] = []
    if before.get("trump") is None and after.get("trump") is not None:
        # the turned-up card's own line says it: only the highlight
        found.append(event("first_trump", quiet=True, card=after["trump"]))
    elif after.get("trump") is None and sum(after["hand_sizes"]) > sum(before["hand_sizes"]):
        found.append(_dealt(after))
    found += _trick(before, after)
    old_known = before.get("known_in_hands") or []
    for p, names in enumerate(after.get("known_in_hands") or []):
        previous = old_known[p] if p < len(old_known) else []
        for name in names:
            if name not in previous:
                found.append(
                    folded(
                        f"trick-{len(after['tricks'])}",
                        f"trump_drawn-{p}-{name}",
                        "trump_drawn",
                        quiet=False,
                        seat=p,
                        card=name,
                        trump=after.get("trump"),
                    )
                )
    if after.get("end_phase") and not before.get("end_phase"):
        found.append(event("end_phase"))
    return found


def _dealt(after: View) -> Event:
    """The deal so far, one line: how many cards each seat holds, and this seat's hand."""
    each = max(after["hand_sizes"])
    hand = after.get("hand")
    if hand:
        return folded("deal", "deal", "dealt_hand", n=each, cards=list(hand))
    return folded("deal", "deal", "dealt", n=each)


def _trick(before: View, after: View) -> list[Event]:
    """The trick this step belongs to, as its one line so far: the cards played, who took it,
    the trump chosen, and the refill after it (what this seat drew)."""
    done = after.get("tricks") or []
    playing = after.get("trick") or []
    if len(done) > len(before.get("tricks") or []):
        trick = done[-1]
        number = len(done)
        key = "trick_won_new_trump" if trick.get("new_trump") else "trick_won"
        taken = (
            []
            if before.get("trick_winner") is not None
            else [event("trick_taken", quiet=True, seat=trick["winner"], number=number)]
        )
        return [
            *taken,
            folded(
                f"trick-{number}",
                "trick",
                key,
                quiet=False,  # step by step, the trick's end is news
                seat=trick["winner"],
                number=number,
                plays=_plays(trick["players"], trick["cards"]),
                points=trick["points"],
                card=trick.get("new_trump") or after.get("trump"),
            ),
        ]
    if len(playing) > len(before.get("trick") or []):
        number = len(done) + 1
        plays = _plays([t["player"] for t in playing], [t["card"] for t in playing])
        winner = after.get("trick_winner")
        if winner is not None:
            return [
                event("trick_taken", quiet=True, seat=winner, number=number),
                folded(
                    f"trick-{number}", "trick", "trick_to", seat=winner, number=number, plays=plays
                ),
            ]
        return [folded(f"trick-{number}", "trick", "trick_played", number=number, plays=plays)]
    if done and sum(after["hand_sizes"]) > sum(before["hand_sizes"]):  # the refill
        group = f"trick-{len(done)}"
        new = [c for c in after.get("hand") or [] if c not in (before.get("hand") or [])]
        if new:
            return [folded(group, "draw", "you_draw", seat=after["viewer"], card=new[0])]
        return [folded(group)]
    return []


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
