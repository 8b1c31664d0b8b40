"""All constants of Die Holde Isolde in one place, read from `data.toml`.

Cards are small ints, one per *kind* (type and value: "combat-3"): the two or three cards of
a kind are indistinguishable, so a hand is a sorted list of kind ints and the face-down deck a
count per kind. Boards are indexed in scoring order (Isolde first).
"""

from __future__ import annotations

from dataclasses import dataclass

from spielwerk.core.data import read_toml

MOVES, PLACES, PENALTIES, SPACES = "moves", "places", "penalties", "spaces"
RESET_START, RESET_SPREAD, RESET_NONE = "start", "spread", "none"


@dataclass(frozen=True, slots=True)
class Board:
    id: str
    name: str
    scoring: str
    """MOVES (Isolde), PLACES (points to the front), PENALTIES (rear loses), SPACES (king)."""
    table: tuple[int, ...]
    """Rewards by place, front first (MOVES, PLACES) or penalties, last first (PENALTIES)."""
    space_points: tuple[tuple[int, int], ...]
    """SPACES only: (from space, points), ascending."""
    scored_after: frozenset[int]
    spaces: int
    cap: bool
    """True: no disc moves beyond the last space (the king); False: the board loops."""
    reset: str
    advanced_reset: str

    @property
    def loop(self) -> int:
        """Squares in one lap of a looping board: the start square and the spaces after it."""
        return self.spaces + 1

    @property
    def order_matters(self) -> bool:
        """Whether the order of a stack can ever count (the king scores by space alone)."""
        return self.scoring != SPACES

    def points_on_space(self, distance: int) -> int:
        points = 0
        for start, value in self.space_points:
            if distance >= start:
                points = value
        return points


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of card: its type, value, the boards it may move on and how many there are."""

    type: str
    value: int
    boards: tuple[int, ...]
    count: int

    @property
    def name(self) -> str:
        return f"{self.type}-{self.value}"


@dataclass(frozen=True, slots=True)
class IsoldeParams:
    min_players: int
    max_players: int
    rounds: int
    hand_size: int
    cards_played: int
    start_player: int
    pass_directions: tuple[int, ...]
    """+1 (left, clockwise) or -1 (right), for rounds 1, 2, ... cycling."""
    reset_after_round: int
    boards: tuple[Board, ...]
    kinds: tuple[Kind, ...]

    @property
    def num_kinds(self) -> int:
        return len(self.kinds)

    @property
    def deck(self) -> tuple[int, ...]:
        """The count of each kind in the full deck."""
        return tuple(kind.count for kind in self.kinds)

    @property
    def deck_size(self) -> int:
        return sum(self.deck)

    def board_index(self, board_id: str) -> int:
        return next(i for i, b in enumerate(self.boards) if b.id == board_id)

    def pass_direction(self, round_number: int) -> int:
        return self.pass_directions[(round_number - 1) % len(self.pass_directions)]


def _load() -> IsoldeParams:
    data = read_toml(__package__)
    setup = data["setup"]
    boards = []
    for entry in data["boards"]:
        spaces_table = entry["scoring"] == SPACES
        boards.append(
            Board(
                id=entry["id"],
                name=entry["name"],
                scoring=entry["scoring"],
                table=() if spaces_table else tuple(int(v) for v in entry["table"]),
                space_points=(
                    tuple((int(a), int(b)) for a, b in entry["table"]) if spaces_table else ()
                ),
                scored_after=frozenset(int(r) for r in entry["scored_after"]),
                spaces=int(entry["spaces"]),
                cap=bool(entry["cap"]),
                reset=entry["reset"],
                advanced_reset=entry["advanced_reset"],
            )
        )
    board_ids = [b.id for b in boards]
    kinds = []
    for entry in data["cards"]:
        on = tuple(board_ids.index(b) for b in entry["boards"])
        values = [int(v) for v in entry["values"]]
        for value in sorted(set(values)):
            kinds.append(Kind(entry["type"], value, on, values.count(value)))
    directions = {"left": 1, "right": -1}
    return IsoldeParams(
        min_players=int(setup["min_players"]),
        max_players=int(setup["max_players"]),
        rounds=int(setup["rounds"]),
        hand_size=int(setup["hand_size"]),
        cards_played=int(setup["cards_played"]),
        start_player=int(setup["start_player"]),
        pass_directions=tuple(directions[d] for d in setup["pass_directions"]),
        reset_after_round=int(setup["reset_after_round"]),
        boards=tuple(boards),
        kinds=tuple(kinds),
    )


PARAMS = _load()
"""Read once when the game package is imported; immutable."""
