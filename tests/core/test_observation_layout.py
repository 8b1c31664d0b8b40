"""ObservationLayout: named blocks of one flat vector; a block may be empty (its size comes
from content, e.g. a Tainted Grail scenario without flags), never negative or named twice."""

from __future__ import annotations

import pytest

from spielwerk.core.observation import ObservationLayout, put_to_move


def test_blocks_lie_one_after_another_and_an_empty_block_takes_no_room() -> None:
    layout = ObservationLayout([("a", 2), ("flags", 0), ("b", 3)])
    assert layout.shape == (5,)
    assert layout.slice("flags") == slice(2, 2)
    tensor = layout.zeros()
    layout.put(tensor, "b", 1, 0.5)
    layout.put_all(tensor, "a", [0, 1])
    assert tensor == [1.0, 1.0, 0.0, 0.5, 0.0]


@pytest.mark.parametrize("fields", [[("a", -1)], [("a", 1), ("a", 2)]])
def test_negative_sizes_and_repeated_names_are_refused(fields: list[tuple[str, int]]) -> None:
    with pytest.raises(ValueError, match="bad observation field"):
        ObservationLayout(fields)


@pytest.mark.parametrize(
    ("to_move", "hot"),
    [(2, [0]), ([1, 2], [3, 0]), ("chance", [4]), ("end", [5])],
    ids=["seat", "simultaneous", "chance", "end"],
)
def test_to_move_block(to_move: object, hot: list[int]) -> None:
    """Seats by their block index (here relative to seat 2 of 4), then chance, then the end."""
    layout = ObservationLayout([("to_move", 4 + 2)])
    tensor = layout.zeros()
    put_to_move(layout, tensor, to_move, lambda p: (p - 2) % 4, 4)
    assert [i for i, v in enumerate(tensor) if v] == sorted(hot)
