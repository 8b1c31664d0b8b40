"""Build exact Witches of Blackmore positions from chosen cards.

Every card that comes up from the face-down pile is a chance `draw` action, so a test fixes the
whole game by choosing those actions: the deal goes round-robin from seat 0, 6 cards each, then
one card is turned up as the first trump; refills go to the trick winner first, then clockwise.
All actions are applied through the public API in their JSON form.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import spielwerk
from spielwerk.core.state import State

HAND_SIZE = 6
COLOURS = ("red", "yellow", "green", "blue", "purple", "grey")
ALL_CARDS = tuple(f"{colour}-{value}" for colour in COLOURS for value in range(1, 10))
FILLER_ORDER = tuple(
    f"{colour}-{value}"
    for colour in ("purple", "grey", "green", "red", "yellow", "blue")
    for value in range(1, 10)
)


def value(card: str) -> int:
    return int(card.rpartition("-")[2])


def in_card_order(cards: Iterable[str]) -> list[str]:
    """Cards sorted as views list them (by colour, then value)."""
    return sorted(cards, key=ALL_CARDS.index)


def filled(partial: Sequence[Sequence[str]], *reserved: str) -> list[list[str]]:
    """Hands of 6: the given cards first, then unused cards in FILLER_ORDER (never `reserved`)."""
    used = {c for hand in partial for c in hand} | set(reserved)
    spare = [c for c in FILLER_ORDER if c not in used]
    hands = []
    for hand in partial:
        extra = HAND_SIZE - len(hand)
        hands.append([*hand, *spare[:extra]])
        del spare[:extra]
    return hands


def draw(state: State, *cards: str) -> None:
    for card in cards:
        state.apply({"type": "draw", "card": card})


def deal(hands: Sequence[Sequence[str]], trump: str, **options: Any) -> State:
    """Deal `hands` (6 cards per seat) round-robin from seat 0 and turn up `trump`."""
    state = spielwerk.load("witches", **options).new_state(len(hands), seed=0)
    for round_ in range(HAND_SIZE):
        for hand in hands:
            draw(state, hand[round_])
    draw(state, trump)
    return state


def play(state: State, *cards: str) -> None:
    """Each card is played by whoever is to move."""
    for card in cards:
        state.apply({"type": "play", "card": card})


def keep(state: State) -> None:
    state.apply({"type": "keep_trump"})


def change(state: State, card: str) -> None:
    state.apply({"type": "change_trump", "card": card})


def public(state: State) -> dict[str, Any]:
    return state.view(None)


def hand(state: State, seat: int) -> list[str]:
    cards = state.view(seat)["hand"]
    assert isinstance(cards, list)
    return cards


def last_trick(state: State) -> Mapping[str, Any]:
    tricks = public(state)["tricks"]
    assert tricks, "no trick has been completed"
    trick: Mapping[str, Any] = tricks[-1]
    return trick
