"""The hindsight column ("with everything open"): where the game's compiled search can play on
the true table with every hidden card open, each move gets that chance too, labelled as
hindsight; it never changes a chance judged from the seat's information, nor a mark."""

from __future__ import annotations

import pytest
from test_review_hidden import GAMES, SMALL, finished_game

from spielwerk.review.engine import review_game


@pytest.mark.parametrize("name", sorted(GAMES))
def test_hindsight_adds_a_column_and_changes_no_mark(name: str) -> None:
    final = finished_game(name, GAMES[name], seed=8)
    plain = review_game(final, 1, seed=4, plan=SMALL[name])
    opened = review_game(final, 1, seed=4, plan=SMALL[name], hindsight=True)
    if name in ("inkheart_dice", "tainted_grail"):  # nothing hidden but chance: no column
        assert not opened.hindsight
        assert all(m.hindsight is None for d in opened.decisions for m in d.moves)
        return
    assert opened.hindsight and opened.decisions
    assert all(m.hindsight is not None for d in opened.decisions for m in d.moves)
    for mine, theirs in zip(plain.decisions, opened.decisions, strict=True):
        assert mine.mark == theirs.mark and mine.drop == theirs.drop
        assert [m.chance for m in mine.moves] == [m.chance for m in theirs.moves]
    # Somewhere the open cards change a judgement: it is a view of its own.
    assert any(
        abs((m.hindsight or 0.0) - m.chance) > 0.01 for d in opened.decisions for m in d.moves
    )
