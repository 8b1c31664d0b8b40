"""Tintenblut's action vocabulary and id layout, as documented in
docs/games/inkspell.md ("Action vocabulary"): the ids a record's actions encode
to, and bad JSON refused."""

from __future__ import annotations

import pytest

import spielwerk

LAYOUT = [
    (0, {"type": "play", "card": "grenze"}),
    (8, {"type": "play", "card": "nachtburg"}),
    (9, {"type": "play", "card": "tintenwelt", "to": "grenze"}),
    (17, {"type": "play", "card": "tintenwelt", "to": "nachtburg"}),
    (18, {"type": "pass"}),
    (19, {"type": "staubfinger", "to": "grenze"}),
    (27, {"type": "staubfinger", "to": "nachtburg"}),
    (28, {"type": "advantage", "card": "nessel"}),
    (29, {"type": "advantage", "card": "schleierkauz", "tile": "M"}),
    (33, {"type": "advantage", "card": "speckfuerst"}),
    (34, {"type": "advantage", "card": "prinz"}),
    (35, {"type": "advantage", "card": "farid", "to": "grenze"}),
    (44, {"type": "advantage", "card": "roxane", "row": "solo"}),
    (46, {"type": "advantage", "card": "orpheus", "villain": "schlitzer"}),
    (60, {"type": "advantage", "card": "orpheus", "villain": "natternkopf-III4"}),
    (61, {"type": "advantage", "card": "fenoglio", "tiles": "MS"}),
    (66, {"type": "advantage", "card": "fenoglio", "tiles": "KE"}),
    (67, {"type": "reward", "row": "solo", "take": "all"}),
    (69, {"type": "reward", "row": "solo", "take": "second"}),
    (72, {"type": "reward", "row": "shared", "take": "second"}),
    (73, {"type": "lose_tile", "tile": "M"}),
    (76, {"type": "lose_tile", "tile": "E"}),
    (77, {"type": "exchange", "give": "PP", "get": "M"}),
    (81, {"type": "exchange", "give": "P", "get": "M"}),
    (85, {"type": "exchange", "give": "MM", "get": "P"}),
    (94, {"type": "exchange", "give": "EE", "get": "P"}),
    (95, {"type": "exchange", "give": "M", "get": "P"}),
    (99, {"type": "convert", "tiles": "MS"}),
    (105, {"type": "convert", "tiles": "MSK"}),
    (109, {"type": "convert", "tiles": "MSKE"}),
    (110, {"type": "end_turn"}),
    (111, {"type": "start", "choice": "lead"}),
    (112, {"type": "start", "choice": "last"}),
    (113, {"type": "flip", "card": "grenze"}),
    (122, {"type": "flip", "card": "tintenwelt"}),
    (123, {"type": "draw_advantage", "card": "meggie"}),
    (133, {"type": "draw_advantage", "card": "fenoglio"}),
    (134, {"type": "draw_villain", "card": "schlitzer"}),
    (148, {"type": "draw_villain", "card": "natternkopf-III4"}),
]


@pytest.mark.parametrize(("action_id", "data"), LAYOUT)
def test_id_layout_as_documented(action_id: int, data: dict[str, object]) -> None:
    game = spielwerk.load("inkspell")
    assert game.decode(action_id).to_json() == data
    assert game.action_from_json(data).id == action_id


def test_action_counts() -> None:
    game = spielwerk.load("inkspell")
    assert game.num_distinct_actions == 113
    assert game.max_chance_outcomes == 10 + 11 + 15


@pytest.mark.parametrize(
    "data",
    [
        {"type": "play", "card": "atlantis"},
        {"type": "play", "card": "tintenwelt"},  # Die Tintenwelt needs a destination
        {"type": "advantage", "card": "meggie"},  # no effect: never played
        {"type": "exchange", "give": "MK", "get": "S"},  # tiles for tiles: not allowed
        {"type": "convert", "tiles": "MM"},  # a set of different kinds only
        {"type": "convert", "tiles": "M"},
    ],
)
def test_actions_the_game_does_not_have_are_refused(data: dict[str, object]) -> None:
    """Bad input gets a clear IllegalAction and changes nothing."""
    state = spielwerk.load("inkspell").new_state(2, seed=1)
    before = state.to_record()
    with pytest.raises(spielwerk.IllegalAction, match="no such action"):
        state.apply(data)
    assert state.to_record() == before
