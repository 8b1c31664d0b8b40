"""The Witches observation tensor: a seat's view as fixed-size floats (seats relative to the
viewer, padded to six). Card sets are 54-wide multi-hot blocks in card-id order."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.observation import ObservationLayout, put_to_move, relative, seat_order
from spielwerk.games.witches.params import PARAMS
from spielwerk.games.witches.state import PHASE_NAMES

CARDS = PARAMS.num_cards
SEATS = PARAMS.max_players
SCORE_SCALE = 100.0
"""Scores are divided by this (a strong 4-player score is around 100)."""

LAYOUT = ObservationLayout(
    (
        ("hand", CARDS),
        ("known_in_hands", SEATS * CARDS),  # cards each seat is known to hold (taken face up)
        ("captured", SEATS * CARDS),
        ("trick", SEATS * CARDS),  # the card each seat played to the current trick
        ("played", CARDS),  # every card seen played in completed tricks
        ("trump", CARDS),
        ("trump_pile", CARDS),
        ("hand_sizes", SEATS),  # divided by the hand size
        ("scores", SEATS),  # divided by SCORE_SCALE
        ("seated", SEATS),
        ("to_move", SEATS + 2),  # a seat, then chance, then the end
        ("leader", SEATS),
        ("trick_winner", SEATS),
        ("phase", len(PHASE_NAMES)),
        ("draw_pile", 1),  # cards left, divided by the deck size
        ("end_phase", 1),
        ("descending_wheel", 1),
    )
)


def encode(view: Mapping[str, Any]) -> list[float]:
    viewer, players = seat_order(view)
    tensor = LAYOUT.zeros()
    ids = PARAMS.card_from_name

    def seat(p: int) -> int:
        return relative(p, viewer, players)

    LAYOUT.put_all(tensor, "hand", (ids(c) for c in view["hand"] or ()))
    for p in range(players):
        block = seat(p) * CARDS
        LAYOUT.put_all(
            tensor, "known_in_hands", (block + ids(c) for c in view["known_in_hands"][p])
        )
        LAYOUT.put_all(tensor, "captured", (block + ids(c) for c in view["captured"][p]))
        LAYOUT.put(tensor, "hand_sizes", seat(p), view["hand_sizes"][p] / PARAMS.hand_size)
        LAYOUT.put(tensor, "scores", seat(p), view["scores"][p] / SCORE_SCALE)
        LAYOUT.put(tensor, "seated", seat(p))
    for played in view["trick"]:
        LAYOUT.put(tensor, "trick", seat(played["player"]) * CARDS + ids(played["card"]))
    LAYOUT.put_all(tensor, "played", (ids(c) for trick in view["tricks"] for c in trick["cards"]))
    if view["trump"] is not None:
        LAYOUT.put(tensor, "trump", ids(view["trump"]))
    LAYOUT.put_all(tensor, "trump_pile", (ids(c) for c in view["trump_pile"]))
    put_to_move(LAYOUT, tensor, view["to_move"], seat, SEATS)
    if view["leader"] is not None:
        LAYOUT.put(tensor, "leader", seat(view["leader"]))
    if view["trick_winner"] is not None:
        LAYOUT.put(tensor, "trick_winner", seat(view["trick_winner"]))
    LAYOUT.put(tensor, "phase", PHASE_NAMES.index(view["phase"]))
    LAYOUT.put(tensor, "draw_pile", 0, view["draw_pile"] / CARDS)
    LAYOUT.put(tensor, "end_phase", 0, float(view["end_phase"]))
    LAYOUT.put(tensor, "descending_wheel", 0, float(view["wheel"] == "descending"))
    return tensor
