"""The Tintenherz observation tensor: the (public) table as fixed-size floats, seats relative to
the viewer and padded to four. Card sets are multi-hot blocks in card-id order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.observation import ObservationLayout, put_to_move, relative, seat_order
from spielwerk.games.inkheart_dice.params import PARAMS
from spielwerk.games.inkheart_dice.state import PHASE_NAMES, REROLL_NAMES

CARDS = PARAMS.num_cards
SEATS = PARAMS.max_players
DIE_FACES = 6
SCORE_SCALE = 20.0
"""Scores are divided by this (the winning score is usually in the teens)."""
HEART_SCALE = 10.0
REROLLING = tuple(REROLL_NAMES.values())

LAYOUT = ObservationLayout(
    (
        ("centre", CARDS),
        ("unsafe", SEATS * CARDS),  # cards in front of each seat's castle card
        ("safe", SEATS * CARDS),  # cards under each seat's castle card
        ("hearts", SEATS),  # divided by HEART_SCALE
        ("scores", SEATS),  # divided by SCORE_SCALE
        ("castle_discarded", SEATS),  # the better scoring discards the castle card
        ("seated", SEATS),
        ("to_move", SEATS + 2),  # a seat, then chance, then the end
        ("current", SEATS),
        ("dice", 2 * DIE_FACES),
        ("rerolled", 1),
        ("rerolling", len(REROLLING)),
        ("phase", len(PHASE_NAMES)),
        ("draw_pile", 1),  # divided by the number of cards
        ("turn", 1),  # turns played over the turn cap
    )
)


def encode(view: Mapping[str, Any]) -> list[float]:
    viewer, players = seat_order(view)
    tensor = LAYOUT.zeros()
    ids = PARAMS.card_from_name

    def seat(p: int) -> int:
        return relative(p, viewer, players)

    LAYOUT.put_all(tensor, "centre", (ids(c) for c in view["centre"]))
    for p in range(players):
        block = seat(p) * CARDS
        LAYOUT.put_all(tensor, "unsafe", (block + ids(c) for c in view["unsafe"][p]))
        LAYOUT.put_all(tensor, "safe", (block + ids(c) for c in view["safe"][p]))
        LAYOUT.put(tensor, "hearts", seat(p), view["hearts"][p] / HEART_SCALE)
        LAYOUT.put(tensor, "scores", seat(p), view["scores"][p] / SCORE_SCALE)
        LAYOUT.put(tensor, "castle_discarded", seat(p), float(view["castle"][p] == "discarded"))
        LAYOUT.put(tensor, "seated", seat(p))
    put_to_move(LAYOUT, tensor, view["to_move"], seat, SEATS)
    if view["current"] is not None:
        LAYOUT.put(tensor, "current", seat(view["current"]))
    for die, value in enumerate(view["dice"] or ()):
        LAYOUT.put(tensor, "dice", die * DIE_FACES + value - 1)
    LAYOUT.put(tensor, "rerolled", 0, float(view["rerolled"]))
    if view["rerolling"] is not None:
        LAYOUT.put(tensor, "rerolling", REROLLING.index(view["rerolling"]))
    LAYOUT.put(tensor, "phase", PHASE_NAMES.index(view["phase"]))
    LAYOUT.put(tensor, "draw_pile", 0, view["draw_pile"] / CARDS)
    LAYOUT.put(tensor, "turn", 0, view["turn"] / view["max_turns"])
    return tensor
