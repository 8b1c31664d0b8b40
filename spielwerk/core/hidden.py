"""Helpers for `State.resample`: rewriting the hidden part of a history consistently.

Games draw face-down cards as chance actions at the moment they come up, so a resample
re-deals those cards by rewriting the chance entries of the history (see docs/architecture.md,
"Hidden information").
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from spielwerk.core.state import CHANCE


def place_played_draws(
    history: list[tuple[int, int]],
    draw_slots: Sequence[int],
    plays: Iterable[tuple[int, int]],
    draw_action: int,
    rng: random.Random,
) -> list[int]:
    """One seat's face-down draws, for the cards it has since played face up.

    `draw_slots` are the history indices of the seat's hidden draws; `plays` gives, in the
    order played, (the history index before which the card must have been drawn, card). Each
    played card goes to a uniformly random free draw slot before its play (the true history
    shows one always exists), written as the chance action `draw_action + card`. Returns the
    slots left free: the draws of the cards the seat still holds, for the caller to deal.
    """
    free = list(draw_slots)
    for before, card in plays:
        earlier = [slot for slot in free if slot < before]
        slot = earlier[rng.randrange(len(earlier))]
        free.remove(slot)
        history[slot] = (CHANCE, draw_action + card)
    return free
