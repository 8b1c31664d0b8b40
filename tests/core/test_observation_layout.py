"""ObservationLayout: named blocks of one flat vector; a block may be empty (its size comes
from content, e.g. a Tainted Grail scenario without flags), never negative or named twice."""

from __future__ import annotations

import pytest

from spielwerk.core.observation import ObservationLayout


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
