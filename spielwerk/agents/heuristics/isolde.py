"""A Die Holde Isolde bot that plays from its view alone, greedily by board value.

It values a table position, board by board, as what the board would give it if it were scored
now (places, penalties, the king's spaces; Isolde places as their bonus steps), weighted by how
soon and how often that board is scored and whether progress there lasts:

- draft: keep the card whose best move gains most;
- play: play the card and board that gain most (the unplayed fifth is what is left);
- Isolde moves: the board where the steps gain most;
- advanced rule 1: go on top where that gains most, else keep the order.

Ties go to the bigger move, then to a random choice (seeded).
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action
from spielwerk.games.isolde.params import MOVES, PARAMS, PENALTIES, PLACES, SPACES

BOARDS = PARAMS.boards
BOARD_INDEX = {b.id: i for i, b in enumerate(BOARDS)}
STEP_VALUE = 0.8  # points an Isolde bonus step is worth, roughly
LATER_WEIGHT = 0.5  # weight of a board scored in a later round, not this one
LASTING_WEIGHT = 0.25  # extra weight per further scoring the progress still counts for
DISTANCE_BONUS = 0.02  # per space: prefer bigger moves when the gain is equal


class IsoldeHeuristic(Agent):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> Action:
        view = turn.view
        table = _Table(view, turn.player)
        scored: list[tuple[float, float, Action]] = []
        for action in turn.legal_actions:
            scored.append((self._value(table, action), self.rng.random(), action))
        return max(scored, key=lambda entry: (entry[0], entry[1]))[2]

    def _value(self, table: _Table, action: Action) -> float:
        params = dict(action.params)
        kind = action.type
        if kind == "keep":
            card = str(params["card"])
            value = int(card.rpartition("-")[2])
            boards = _boards_of(card)
            return max(table.gain(b, value) for b in boards)
        if kind == "play":
            card = str(params["card"])
            return table.gain(BOARD_INDEX[str(params["board"])], int(card.rpartition("-")[2]))
        if kind == "bonus_move":
            pending = table.view["pending_isolde_moves"]
            steps = int(pending[0]["steps"]) if pending else 1
            return table.gain(BOARD_INDEX[str(params["board"])], steps)
        if kind == "go_on_top":
            return table.on_top_gain(BOARD_INDEX[str(params["board"])])
        return 0.0  # keep_order


def _boards_of(card: str) -> tuple[int, ...]:
    kind = card.rpartition("-")[0]
    return next(k.boards for k in PARAMS.kinds if k.type == kind)


class _Table:
    """The boards of a view as (seat, distance) rankings, and what a change is worth to me."""

    def __init__(self, view: Mapping[str, Any], me: int) -> None:
        self.view = view
        self.me = me
        self.players = int(view["players"])
        self.round = int(view["round"])
        # Points by place (or penalties), as this game's options set them (the quest's first).
        self.tables: list[tuple[int, ...]] = [
            tuple(board["rewards"]) if board["scoring"] != SPACES else ()
            for board in view["boards"]
        ]
        # rear first, as the state orders them
        self.rankings: list[list[tuple[int, int]]] = [
            [(d["seat"], d["distance"]) for d in reversed(board["discs"])]
            for board in view["boards"]
        ]

    def gain(self, board: int, steps: int) -> float:
        ranking = self.rankings[board]
        now = dict(ranking)[self.me]
        spec = BOARDS[board]
        target = min(now + steps, spec.spaces) if spec.cap else now + steps
        if target == now:
            return 0.0
        moved = [(s, d) for s, d in ranking if s != self.me]
        place = len(moved)
        while place and moved[place - 1][1] > target:
            place -= 1
        moved.insert(place, (self.me, target))
        weight = self.weight(board)
        before = self.worth(board, ranking)
        after = self.worth(board, moved)
        return weight * (after - before) + DISTANCE_BONUS * (target - now)

    def on_top_gain(self, board: int) -> float:
        ranking = self.rankings[board]
        here = dict(ranking)[self.me]
        moved = [(s, d) for s, d in ranking if s != self.me]
        place = len(moved)
        while place and moved[place - 1][1] > here:
            place -= 1
        moved.insert(place, (self.me, here))
        return self.weight(board) * (self.worth(board, moved) - self.worth(board, ranking))

    def weight(self, board: int) -> float:
        """How much a board's value now counts: 1 if scored this round, less if later; more
        for the scorings still to come before a reset wipes the progress."""
        spec = BOARDS[board]
        rounds_left = range(self.round, PARAMS.rounds + 1)
        reset_round = PARAMS.reset_after_round
        lasting = [
            r
            for r in rounds_left
            if r in spec.scored_after
            and (spec.reset == "none" or (r <= reset_round) == (self.round <= reset_round))
        ]
        if not lasting:
            return 0.0
        first = lasting[0]
        base = 1.0 if first == self.round else LATER_WEIGHT
        return base + LASTING_WEIGHT * (len(lasting) - 1)

    def worth(self, board: int, ranking: Sequence[tuple[int, int]]) -> float:
        """What the board gives me if scored with this ranking (rear first)."""
        spec = BOARDS[board]
        me = self.me
        full = self.tables[board]
        limit = min(len(full), self.players - 1)
        placed = [s for s, d in reversed(ranking) if d > 0]  # front first
        if spec.scoring in (PLACES, MOVES):
            table = full[:limit]
            if me in placed and placed.index(me) < len(table):
                reward = table[placed.index(me)]
                return reward * STEP_VALUE if spec.scoring == MOVES else float(reward)
            return 0.0
        if spec.scoring == PENALTIES:
            table = full[:limit]
            on_start = [s for s, d in ranking if d == 0]
            moved = [s for s, d in ranking if d > 0]  # rear first
            if me in on_start:
                return float(table[0])
            rest = table[1:] if on_start else table
            index = moved.index(me)
            return float(rest[index]) if index < len(rest) else 0.0
        assert spec.scoring == SPACES
        return float(spec.points_on_space(dict(ranking)[me]))
