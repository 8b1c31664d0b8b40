"""Observation tensors: a seat's view as a fixed-size vector of floats, for learning agents.

A game declares its layout once (named fields, each a flat block of floats) and encodes a
*view* into it, never the state: the tensor then holds exactly what the seat may know, and two
states a seat cannot tell apart give it the same tensor (the conformance suite checks this on
every resample). Seats are encoded relative to the viewer (block 0 is the viewer, block 1 the
next seat clockwise, ...) and padded to the game's maximum player count, so one shape serves
every player count; the spectator is encoded as if seated at 0.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any


class ObservationLayout:
    """Named blocks of a flat float vector: `(name, size)` in order."""

    __slots__ = ("fields", "offsets", "size")

    def __init__(self, fields: Sequence[tuple[str, int]]) -> None:
        self.fields = tuple(fields)
        self.offsets: dict[str, int] = {}
        offset = 0
        for name, size in self.fields:
            # A block may be empty: its size comes from the content (a scenario without flags).
            if name in self.offsets or size < 0:
                raise ValueError(f"bad observation field {name!r} (size {size})")
            self.offsets[name] = offset
            offset += size
        self.size = offset

    @property
    def shape(self) -> tuple[int]:
        return (self.size,)

    def zeros(self) -> list[float]:
        return [0.0] * self.size

    def slice(self, name: str) -> slice:
        start = self.offsets[name]
        return slice(start, start + dict(self.fields)[name])

    def put(self, tensor: list[float], name: str, index: int, value: float = 1.0) -> None:
        """Set position `index` of block `name` (a one-hot entry or a scalar at index 0)."""
        tensor[self.offsets[name] + index] = value

    def put_all(self, tensor: list[float], name: str, indices: Iterable[int]) -> None:
        """Set several positions of block `name` to 1 (a multi-hot set)."""
        start = self.offsets[name]
        for index in indices:
            tensor[start + index] = 1.0


def seat_order(view: Mapping[str, Any]) -> tuple[int, int]:
    """(viewer, players) of a view: the seat encoded first (0 for the spectator) and the count."""
    viewer = view.get("viewer")
    return (viewer if isinstance(viewer, int) else 0), int(view["players"])


def relative(seat: int, viewer: int, players: int) -> int:
    """Block index of `seat` for `viewer`: 0 for the viewer, then clockwise."""
    return (seat - viewer) % players


def put_to_move(
    layout: ObservationLayout,
    tensor: list[float],
    to_move: Any,
    seat: Callable[[int], int],
    seats: int,
) -> None:
    """The "to_move" block of `seats` + 2: the seat(s) to move (a view's int, or list for a
    simultaneous step) by their block index `seat(p)`, then chance, then the end."""
    if isinstance(to_move, int):
        layout.put(tensor, "to_move", seat(to_move))
    elif isinstance(to_move, list):
        layout.put_all(tensor, "to_move", (seat(p) for p in to_move))
    else:
        layout.put(tensor, "to_move", seats if to_move == "chance" else seats + 1)
