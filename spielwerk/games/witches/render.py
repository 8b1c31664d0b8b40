"""Terminal text for the Witches of Blackmore, built from view dicts only.

Everything here takes what `WitchesState.view(player)` returns (or an action's description) and
returns text with rich console markup (`[red]red-7[/red]`): no I/O, no rich import, and nothing
but what the view already shows, so a seat is never told more than it may know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.games.witches.params import PARAMS

View = Mapping[str, Any]

CARD_STYLES: dict[str, str] = {
    "red": "bold red",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
    "grey": "bold grey62",
}
"""Console style of each colour's cards (purple is magenta: it reads on every terminal)."""

_CARD_RE = re.compile(r"\b(" + "|".join(map(re.escape, PARAMS.colours)) + r")-([1-9])\b")

RULES = """\
54 cards: 6 colours (red, yellow, green, blue, purple, grey), values 1-9. 2 to 6 players.
Set-up: 6 cards each; the rest is the face-down draw pile. Its top card is turned up: it starts
the trump pile. Its colour is trump and its value sets the wheel.
The wheel ranks the values of every colour, highest first, starting at the trump value:
  descending side (first games):  t, t-1, ..., 1, 9, ..., t+1   (trump 7: 7 6 5 4 3 2 1 9 8)
  ascending side:                 t, t+1, ..., 9, 1, ..., t-1   (trump 7: 7 8 9 1 2 3 4 5 6)
A trick: the leader plays any card, then everybody in turn plays any card (no duty to follow).
The highest trump wins; without trumps, the highest card of the led colour.
The winner may lay one card of the trick on the trump pile: it becomes the new trump (colour and
wheel value) and is not captured. The other cards go face down before the winner.
Refill: everybody draws one card, winner first. With the draw pile empty, a player draws the
top card of the trump pile instead (changing trump to the card below); the last trump card is
never drawn. Once the draw pile is used up, the end phase begins: nobody draws any more.
The winner leads the next trick. The game ends when every card in hand has been played.
Score: the sum of the values of your captured cards. Highest total wins; ties share the win.
[design] decisions (shared/rules/witches.md): colour names; seat 0 leads first (option
start_player); the trump change is allowed in the end phase but not after the very last trick;
a card drawn back from the trump pile scores only where it is finally captured; the last trump
card is never drawn; a player without cards sits out later tricks.\
"""
"""A short summary of the rules and of the gaps filled by design, for `spielwerk rules`."""


# ---------------------------------------------------------------------- small pieces
def card(name: str | None) -> str:
    """A card name in its colour; `None` (no card) as a dash."""
    if name is None:
        return "-"
    colour = name.partition("-")[0]
    style = CARD_STYLES.get(colour)
    return f"[{style}]{name}[/{style}]" if style else _escape(name)


def cards(names: Sequence[str], sep: str = " ") -> str:
    return sep.join(card(n) for n in names) if names else "-"


def colourise(text: str) -> str:
    """Plain text (an action description) with every card name in it coloured."""
    return _CARD_RE.sub(lambda m: card(m.group(0)), _escape(text))


def sort_hand(names: Sequence[str]) -> list[str]:
    """Cards by colour (in the game's colour order), then by value."""
    return sorted(names, key=_card_key)


def seat(player: int, viewer: int | None) -> str:
    return f"seat {player} (you)" if player == viewer else f"seat {player}"


def wheel_text(view: View, label: str = "wheel") -> str:
    """The wheel's current order, highest first, the trump value marked."""
    order = view.get("wheel_order")
    if not order:
        return f"{label}: {view.get('wheel', '?')} side"
    values = [f"[bold]{v}[/bold]" if i == 0 else str(v) for i, v in enumerate(order)]
    return f"{label} ({view.get('wheel', '?')}, highest first): " + " > ".join(values)


def trick_points(trick: Mapping[str, Any]) -> int:
    """Points the winner captured with a completed trick (a new trump card is not captured)."""
    total = sum(_value(c) for c in trick["cards"])
    new = trick.get("new_trump")
    return total - (_value(new) if new else 0)


def render_trick(trick: Mapping[str, Any], title: str, viewer: int | None = None) -> str:
    """One completed trick (an entry of `view["tricks"]`) on one line, after `title`."""
    plays = ", ".join(
        f"{seat(p, viewer)} {card(c)}"
        for p, c in zip(trick["players"], trick["cards"], strict=False)
    )
    line = f"{title}: {plays} -> {seat(trick['winner'], viewer)} takes {trick_points(trick)} points"
    if trick.get("new_trump"):
        line += f"; new trump {card(trick['new_trump'])}"
    return line


# ---------------------------------------------------------------------- the whole table
def render(view: View) -> str:
    """Everything this view shows, as console markup: the table as its seat sees it."""
    viewer = view.get("viewer")
    players = int(view["players"])
    who = "spectator" if viewer is None else f"seat {viewer}"
    lines = [f"[bold]The Witches of Blackmore[/bold] - {who}'s view"]

    trump = view.get("trump")
    lines.append(f"Trump: {card(trump)}   {wheel_text(view)}")
    pile = view.get("trump_pile") or []
    lines.append(f"Trump pile (bottom to top): {cards(pile)}")
    draw = f"Draw pile: {_count(view['draw_pile'], 'card')}"
    if view.get("end_phase"):
        draw += "   [bold]end phase: nobody draws any more[/bold]"
    lines.append(draw)

    lines.append("Seats:")
    known = view.get("known_in_hands") or [[] for _ in range(players)]
    for p in range(players):
        marks = []
        if p == view.get("to_move"):
            marks.append("to move")
        if p == view.get("leader"):
            marks.append("leads")
        row = (
            f"  {seat(p, viewer)}: {_count(view['hand_sizes'][p], 'card')} in hand, "
            f"{_count(view['scores'][p], 'point')} captured"
        )
        if known[p] and p != viewer:
            row += f" (holds {cards(sort_hand(known[p]))}, taken face up)"
        if marks:
            row += f"  <- {', '.join(marks)}"
        lines.append(row)

    tricks = view.get("tricks") or []
    if tricks:
        lines.append(render_trick(tricks[-1], f"Last trick ({len(tricks)})", viewer))
    trick = view.get("trick") or []
    if view.get("leader") is not None or trick:
        played = ", ".join(f"{seat(t['player'], viewer)} {card(t['card'])}" for t in trick)
        lines.append(f"Trick {len(tricks) + 1} so far: {played or 'nothing played yet'}")
    if view.get("trick_winner") is not None:
        lines.append(f"{seat(view['trick_winner'], viewer)} won the trick and may change trump")

    if viewer is not None:
        hand = sort_hand(view.get("hand") or [])
        lines.append(f"Your hand: {_hand_markup(hand, trump)}")

    result = view.get("result")
    if result:
        winners = ", ".join(seat(w, viewer) for w in result.get("winners", []))
        lines.append(f"[bold]Game over.[/bold] Winner: {winners}")
    return "\n".join(lines)


def render_setup(view: View) -> list[str]:
    """What the set-up did, once it is over (the deal is summarised, not told card by card)."""
    players = int(view["players"])
    lines = [
        f"Dealt {PARAMS.hand_size} cards to each of {players} seats; "
        f"{view['draw_pile']} cards stay in the draw pile."
    ]
    trump = view.get("trump")
    if trump:
        lines.append(f"{card(trump)} is turned up as the first trump.")
        lines.append(wheel_text(view, "Wheel"))
    return lines


def render_changes(before: View, after: View) -> list[str]:
    """Public events between two views of the same seat: completed tricks, trump cards taken
    from the trump pile, the start of the end phase."""
    viewer = after.get("viewer")
    lines: list[str] = []
    old_tricks = before.get("tricks") or []
    new_tricks = after.get("tricks") or []
    for number in range(len(old_tricks), len(new_tricks)):
        lines.append(render_trick(new_tricks[number], f"Trick {number + 1}", viewer))
    old_known = before.get("known_in_hands") or []
    old_pile = list(before.get("trump_pile") or [])
    taken: list[tuple[int, int, str]] = []  # (place in the old trump pile, seat, card)
    for p, names in enumerate(after.get("known_in_hands") or []):
        previous = old_known[p] if p < len(old_known) else []
        for name in names:
            if name not in previous:
                place = old_pile.index(name) if name in old_pile else len(old_pile)
                taken.append((place, p, name))
    if taken:
        takes = ", ".join(
            f"{seat(p, viewer)} takes {card(name)}" for _, p, name in sorted(taken, reverse=True)
        )
        lines.append(f"From the trump pile: {takes}; trump is now {card(after.get('trump'))}")
    if after.get("end_phase") and not before.get("end_phase"):
        lines.append("[bold]The draw pile is used up: end phase, nobody draws any more.[/bold]")
    return lines


# ---------------------------------------------------------------------- helpers
def _hand_markup(hand: Sequence[str], trump: str | None) -> str:
    if not hand:
        return "(no cards)"
    trump_colour = trump.partition("-")[0] if trump else None
    shown = [card(n) + ("*" if n.partition("-")[0] == trump_colour else "") for n in hand]
    note = "   (* trump)" if trump_colour and any(s.endswith("*") for s in shown) else ""
    return " ".join(shown) + note


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _card_key(name: str) -> tuple[int, int]:
    colour, _, value = name.partition("-")
    index = PARAMS.colours.index(colour) if colour in PARAMS.colours else len(PARAMS.colours)
    return index, int(value) if value.isdigit() else 0


def _value(name: str) -> int:
    value = name.rpartition("-")[2]
    return int(value) if value.isdigit() else 0


def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")
