"""The Tintenblut observation tensor: a seat's view as fixed-size floats (seats relative to the
viewer, padded to four). Locations, location cards, villain cards and advantage card types are
blocks in the data file's order; counts are divided by what the supply or deck holds at most.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.observation import ObservationLayout, put_to_move, relative, seat_order
from spielwerk.games.inkspell.actions import ROW_NAMES
from spielwerk.games.inkspell.params import PARAMS, PROVISION
from spielwerk.games.inkspell.state import PHASE_NAMES, STEPS

SEATS = PARAMS.max_players
LOCATIONS = PARAMS.num_locations
CARDS = PARAMS.num_location_cards
VILLAINS = PARAMS.num_villains
ADVANTAGES = PARAMS.num_advantage_types
KINDS = PARAMS.num_kinds
TRACK = PARAMS.track_length
SIZES = tuple(sorted(STEPS))
SCORE_SCALE = 50.0
"""Scores are divided by this (a good final score is in the forties or fifties)."""
VILLAIN_SUM_SCALE = 20.0
TILE_SCALE = max(PARAMS.tile_counts)
PROVISION_SCALE = PARAMS.provisions
ADVANTAGE_TOTAL = sum(PARAMS.advantage_counts)

_LOCATION = {key: i for i, key in enumerate(PARAMS.location_keys)}
_CARD = {PARAMS.location_card_key(c): c for c in range(CARDS)}
_VILLAIN = {key: i for i, key in enumerate(PARAMS.villain_keys)}
_ADVANTAGE = {key: i for i, key in enumerate(PARAMS.advantage_keys)}

LAYOUT = ObservationLayout(
    (
        ("seated", SEATS),
        ("to_move", SEATS + 2),  # a seat, then chance, then the end
        ("current", SEATS),  # whose turn it is (the seat to move may be a Natternkopf loser)
        ("start_player", SEATS),
        ("phase", len(PHASE_NAMES)),
        ("round", 1),  # divided by the round limit (option max_rounds)
        ("end_triggered", 1),
        ("final_round", 1),
        # The map.
        ("positions", SEATS * LOCATIONS),
        ("staubfinger", LOCATIONS),
        ("white_women", SEATS),
        # The victory track: the score, and the space on the loop (special spaces recur).
        ("scores", SEATS),  # divided by SCORE_SCALE
        ("track_space", SEATS * TRACK),
        # Possessions and the supply.
        ("tiles", SEATS * KINDS),  # divided by the tiles of a kind
        ("provisions", SEATS),  # divided by all provisions
        ("supply", KINDS + 1),  # tiles by kind, then provisions, scaled as above
        # Location cards: in hand, played; the villain number of the last one played.
        ("hands", SEATS * CARDS),
        ("played", SEATS * CARDS),
        ("last_played", SEATS),  # divided by the highest number
        ("passed", SEATS),
        ("setup_flipped", CARDS),
        # Villain cards.
        ("villains", SEATS * VILLAINS),
        ("villain_sums", SEATS),  # divided by VILLAIN_SUM_SCALE
        ("villain_deck", VILLAINS),  # cards still in the deck (the rest lie open)
        ("villain_discard", VILLAINS),
        ("villain_removed", VILLAINS),
        ("villain_rebuilt", 1),
        ("natternkopf_losses", SEATS),  # tiles still to give up, divided by the tiles of a kind
        # Advantage cards: counts by type, divided by the copies of that type.
        ("advantage_deck", 1),  # divided by the 27 cards
        ("advantage_counts", SEATS),  # cards each seat holds, divided by 27
        ("advantage", ADVANTAGES),  # the viewer's own cards
        ("playable_advantage", ADVANTAGES),  # held since the start of the viewer's turn
        ("advantage_used", ADVANTAGES),
        ("revealed_advantage", SEATS * ADVANTAGES),  # every seat's cards, at the end
        # This turn.
        ("turn_advantage_used", 1),
        ("turn_prince", 1),
        ("turn_speckfuerst", 1),
        ("turn_row_choice", len(ROW_NAMES)),
        ("turn_exchanged", 1),
        ("turn_converted", len(SIZES)),
    )
)

_HIGHEST_NUMBER = max(n for row in PARAMS.location_numbers for n in row)


def _count_by_type(tensor: list[float], name: str, keys: list[str], offset: int = 0) -> None:
    counts = PARAMS.advantage_counts
    start = LAYOUT.offsets[name] + offset
    for key in keys:
        card = _ADVANTAGE[key]
        tensor[start + card] += 1.0 / counts[card]


def encode(view: Mapping[str, Any]) -> list[float]:
    viewer, players = seat_order(view)
    tensor = LAYOUT.zeros()
    put = LAYOUT.put

    def seat(p: int) -> int:
        return relative(p, viewer, players)

    put_to_move(LAYOUT, tensor, view["to_move"], seat, SEATS)
    if view["current"] is not None:
        put(tensor, "current", seat(view["current"]))
    put(tensor, "start_player", seat(view["start_player"]))
    put(tensor, "phase", PHASE_NAMES.index(view["phase"]))
    put(tensor, "round", 0, view["round"] / view["max_rounds"])
    put(tensor, "end_triggered", 0, float(view["end_triggered"]))
    put(tensor, "final_round", 0, float(view["final_round"]))
    put(tensor, "staubfinger", _LOCATION[view["staubfinger"]])
    if view["white_women"] is not None:
        put(tensor, "white_women", seat(view["white_women"]))

    revealed = view["revealed_advantage"]
    for p in range(players):
        s = seat(p)
        put(tensor, "seated", s)
        if view["positions"][p] is not None:
            put(tensor, "positions", s * LOCATIONS + _LOCATION[view["positions"][p]])
        score = view["scores"][p]
        put(tensor, "scores", s, score / SCORE_SCALE)
        put(tensor, "track_space", s * TRACK + score % TRACK)
        tiles = view["tiles"][p]
        for k, key in enumerate(PARAMS.tile_keys):
            put(tensor, "tiles", s * KINDS + k, tiles[key] / TILE_SCALE)
        put(tensor, "provisions", s, view["provisions"][p] / PROVISION_SCALE)
        LAYOUT.put_all(tensor, "hands", (s * CARDS + _CARD[c] for c in view["hands"][p]))
        LAYOUT.put_all(tensor, "played", (s * CARDS + _CARD[c] for c in view["played"][p]))
        put(tensor, "last_played", s, view["last_played"][p] / _HIGHEST_NUMBER)
        put(tensor, "passed", s, float(view["passed"][p]))
        LAYOUT.put_all(
            tensor, "villains", (s * VILLAINS + _VILLAIN[v] for v in view["villains"][p])
        )
        put(tensor, "villain_sums", s, view["villain_sums"][p] / VILLAIN_SUM_SCALE)
        put(tensor, "advantage_counts", s, view["advantage_counts"][p] / ADVANTAGE_TOTAL)
        if revealed is not None:
            _count_by_type(tensor, "revealed_advantage", revealed[p], s * ADVANTAGES)

    for k, key in enumerate(PARAMS.tile_keys):
        put(tensor, "supply", k, view["supply"][key] / TILE_SCALE)
    put(tensor, "supply", KINDS, view["supply"][PROVISION] / PROVISION_SCALE)
    LAYOUT.put_all(tensor, "setup_flipped", (_CARD[c] for c in view["setup_flipped"]))

    open_villains = {
        _VILLAIN[v]
        for v in (
            *view["villain_discard"],
            *view["villain_removed"],
            *(v for front in view["villains"] for v in front),
        )
    }
    LAYOUT.put_all(tensor, "villain_deck", (v for v in range(VILLAINS) if v not in open_villains))
    LAYOUT.put_all(tensor, "villain_discard", (_VILLAIN[v] for v in view["villain_discard"]))
    LAYOUT.put_all(tensor, "villain_removed", (_VILLAIN[v] for v in view["villain_removed"]))
    put(tensor, "villain_rebuilt", 0, float(len(view["villain_deck"]) == 1))
    for loss in view["natternkopf_losses"]:
        put(tensor, "natternkopf_losses", seat(loss["seat"]), loss["tiles"] / TILE_SCALE)

    put(tensor, "advantage_deck", 0, view["advantage_deck"] / ADVANTAGE_TOTAL)
    _count_by_type(tensor, "advantage", view["advantage"] or [])
    _count_by_type(tensor, "playable_advantage", view["playable_advantage"] or [])
    _count_by_type(tensor, "advantage_used", view["advantage_used"])

    turn = view["turn"]
    put(tensor, "turn_advantage_used", 0, float(turn["advantage_used"]))
    put(tensor, "turn_prince", 0, float(turn["prince"]))
    put(tensor, "turn_speckfuerst", 0, float(turn["speckfuerst"]))
    if turn["row_choice"] is not None:
        put(tensor, "turn_row_choice", ROW_NAMES.index(turn["row_choice"]))
    put(tensor, "turn_exchanged", 0, float(turn["exchanged"]))
    LAYOUT.put_all(tensor, "turn_converted", (SIZES.index(size) for size in turn["converted"]))
    return tensor
