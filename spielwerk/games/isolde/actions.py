"""The action vocabulary of Die Holde Isolde and its integer layout (24 card kinds, 7 boards).

0 .. 119    keep        {"type": "keep", "seat": 2, "card": "combat-3"}  draft pick of that seat
                        (the seat is part of the action: picks are simultaneous, so the text of
                        a pick names its picker without looking at anyone's hand)
120 .. 147  play        {"type": "play", "card": "combat-3", "board": "joust"}  card and board
148 .. 154  bonus_move  {"type": "bonus_move", "board": "king"}  an Isolde reward move
155 .. 160  go_on_top   {"type": "go_on_top", "board": "joust"}  advanced rule 1 (not the king)
161         keep_order  {"type": "keep_order"}  advanced rule 1: the start player declines
162 .. 185  deal        {"type": "deal", "card": "combat-3"}  chance: the card dealt next
"""

from __future__ import annotations

from spielwerk.core.actions import Action, ActionTable
from spielwerk.games.isolde.params import PARAMS

NUM_KINDS = PARAMS.num_kinds
NUM_BOARDS = len(PARAMS.boards)
KEEP = 0
PLAY = KEEP + PARAMS.max_players * NUM_KINDS

# (kind, board) of every play action, in id order; and back.
PLAY_PAIRS: tuple[tuple[int, int], ...] = tuple(
    (k, b) for k, kind in enumerate(PARAMS.kinds) for b in kind.boards
)
PLAY_ID: dict[tuple[int, int], int] = {pair: PLAY + i for i, pair in enumerate(PLAY_PAIRS)}

BONUS = PLAY + len(PLAY_PAIRS)
TOP_BOARDS: tuple[int, ...] = tuple(i for i, b in enumerate(PARAMS.boards) if b.order_matters)
"""Boards on which advanced rule 1 can change anything (not the king: it scores by space)."""
GO_ON_TOP = BONUS + NUM_BOARDS
KEEP_ORDER = GO_ON_TOP + len(TOP_BOARDS)
DEAL = KEEP_ORDER + 1
NUM_PLAYER_ACTIONS = DEAL


def keep_id(seat: int, kind: int) -> int:
    return KEEP + seat * NUM_KINDS + kind


def build_action_table() -> ActionTable:
    kinds = PARAMS.kinds
    boards = PARAMS.boards
    keeps = [
        Action(keep_id(s, k), "keep", (("seat", s), ("card", kinds[k].name)))
        for s in range(PARAMS.max_players)
        for k in range(NUM_KINDS)
    ]
    plays = [
        Action(PLAY_ID[k, b], "play", (("card", kinds[k].name), ("board", boards[b].id)))
        for k, b in PLAY_PAIRS
    ]
    bonus = [Action(BONUS + b, "bonus_move", (("board", boards[b].id),)) for b in range(NUM_BOARDS)]
    tops = [
        Action(GO_ON_TOP + i, "go_on_top", (("board", boards[b].id),))
        for i, b in enumerate(TOP_BOARDS)
    ]
    keep_order = [Action(KEEP_ORDER, "keep_order")]
    deals = [Action(DEAL + k, "deal", (("card", kinds[k].name),)) for k in range(NUM_KINDS)]
    return ActionTable(keeps + plays + bonus + tops + keep_order, deals)
