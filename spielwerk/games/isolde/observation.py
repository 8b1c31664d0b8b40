"""The Die Holde Isolde observation tensor: a seat's view as fixed-size floats (seats relative to
the viewer, padded to five). Card sets are blocks of counts per card kind (24 kinds, in kind
order), divided by the most cards a kind has (3); boards are in scoring order (Isolde first).

Built from the view alone, so it carries exactly what the seat may know: its own packet, picks
and hand, the packets it was passed and passed on this round, and the public table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.core.observation import ObservationLayout, put_to_move, relative, seat_order
from spielwerk.games.isolde.params import PARAMS
from spielwerk.games.isolde.state import PHASE_NAMES

KINDS = PARAMS.num_kinds
KIND_INDEX = {kind.name: k for k, kind in enumerate(PARAMS.kinds)}
KIND_SCALE = float(max(kind.count for kind in PARAMS.kinds))
BOARDS = len(PARAMS.boards)
SEATS = PARAMS.max_players
HAND = PARAMS.hand_size
DISTANCE_SCALE = 16.0
"""Distances are divided by this (one lap of a looping board)."""
SCORE_SCALE = 30.0
"""Scores are divided by this (a strong 4-player score is around 30)."""
QUEST_SCALE = 17.0
"""The quest's first prize is divided by this (3 by the rulebook, 17 in public sources)."""
QUEST = PARAMS.board_index("quest")

LAYOUT = ObservationLayout(
    (
        ("hand", KINDS),  # the five cards to play from
        ("packet", KINDS),  # the cards to pick from now (dealt or passed)
        ("kept", KINDS),  # the cards picked so far this round
        ("received", HAND * KINDS),  # draft step t: the cards dealt (t=0) or passed to the seat
        ("passed", (HAND - 1) * KINDS),  # draft step t: the cards the seat passed on
        ("played", SEATS * KINDS),  # this round's plays of each seat
        ("distance", BOARDS * SEATS),  # divided by DISTANCE_SCALE
        ("place", BOARDS * SEATS),  # 0 for the front disc, 1 for the last of five
        ("on_start", BOARDS * SEATS),
        ("scored_this_round", BOARDS),
        ("scores", SEATS),  # divided by SCORE_SCALE
        ("seated", SEATS),
        ("to_move", SEATS + 2),  # the seat(s) to move, then chance, then the end
        ("picked", SEATS),  # in the draft: who has picked at this step
        ("kept_counts", SEATS),  # divided by the hand size
        ("hand_sizes", SEATS),  # divided by the hand size
        ("start_player", SEATS),
        ("isolde_moves_pending", SEATS),  # steps of each seat's pending Isolde move, / 3
        ("round", PARAMS.rounds),
        ("phase", len(PHASE_NAMES)),
        ("pass_left", 1),
        ("draft_step", 1),  # divided by the hand size
        ("deck", 1),  # cards left, divided by the deck size
        ("advanced", 3),  # start-player tiebreak, Isolde setback, reset
        ("quest_first_points", 1),  # divided by QUEST_SCALE
    )
)


def _counts(tensor: list[float], name: str, cards: Sequence[str], block: int = 0) -> None:
    """Add each card of `cards` to block `block` of field `name` (counts per kind, scaled)."""
    start = LAYOUT.offsets[name] + block * KINDS
    for card in cards:
        tensor[start + KIND_INDEX[card]] += 1.0 / KIND_SCALE


def encode(view: Mapping[str, Any]) -> list[float]:
    viewer, players = seat_order(view)
    tensor = LAYOUT.zeros()

    def seat(p: int) -> int:
        return relative(p, viewer, players)

    _counts(tensor, "hand", view["hand"] or ())
    _counts(tensor, "packet", view["packet"] or ())
    _counts(tensor, "kept", view["kept"] or ())
    for step, cards in enumerate(view["received"] or ()):
        _counts(tensor, "received", cards, step)
    for step, cards in enumerate(view["passed"] or ()):
        _counts(tensor, "passed", cards, step)
    for play in view["played"]:
        _counts(tensor, "played", (play["card"],), seat(play["seat"]))

    for b, board in enumerate(view["boards"]):
        for place, disc in enumerate(board["discs"]):  # front first
            index = b * SEATS + seat(disc["seat"])
            LAYOUT.put(tensor, "distance", index, disc["distance"] / DISTANCE_SCALE)
            LAYOUT.put(tensor, "place", index, place / (SEATS - 1))
            if disc["distance"] == 0:
                LAYOUT.put(tensor, "on_start", index)
        if board["scored_this_round"]:
            LAYOUT.put(tensor, "scored_this_round", b)
    quest_first = view["boards"][QUEST]["rewards"][0]
    LAYOUT.put(tensor, "quest_first_points", 0, quest_first / QUEST_SCALE)

    for p in range(players):
        LAYOUT.put(tensor, "scores", seat(p), view["scores"][p] / SCORE_SCALE)
        LAYOUT.put(tensor, "seated", seat(p))
        LAYOUT.put(tensor, "kept_counts", seat(p), view["kept_counts"][p] / HAND)
        LAYOUT.put(tensor, "hand_sizes", seat(p), view["hand_sizes"][p] / HAND)
        if view["picked"] is not None and view["picked"][p]:
            LAYOUT.put(tensor, "picked", seat(p))
    put_to_move(LAYOUT, tensor, view["to_move"], seat, SEATS)
    LAYOUT.put(tensor, "start_player", seat(view["start_player"]))
    for pending in view["pending_isolde_moves"]:
        LAYOUT.put(tensor, "isolde_moves_pending", seat(pending["seat"]), pending["steps"] / 3)
    LAYOUT.put(tensor, "round", view["round"] - 1)
    LAYOUT.put(tensor, "phase", PHASE_NAMES.index(view["phase"]))
    LAYOUT.put(tensor, "pass_left", 0, float(view["pass_direction"] == "left"))
    if view["draft_step"] is not None:
        LAYOUT.put(tensor, "draft_step", 0, view["draft_step"] / HAND)
    LAYOUT.put(tensor, "deck", 0, view["deck"] / PARAMS.deck_size)
    advanced = view["advanced"]
    for index, rule in enumerate(("start_player_tiebreak", "isolde_setback", "reset")):
        LAYOUT.put(tensor, "advanced", index, float(advanced[rule]))
    return tensor
