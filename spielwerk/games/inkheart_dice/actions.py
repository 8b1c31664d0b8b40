"""The action vocabulary of Tintenherz - Das Würfelspiel and its integer layout.

0 .. 15     take         {"type": "take", "card": "Staubfinger"}  a face-up card from the centre
16 .. 25    steal        {"type": "steal", "card": "Darius"}  an opponent's unsafe positive card
26 .. 35    secure       {"type": "secure", "card": "Farid"}  make an own positive card safe
36 .. 41    reroll       {"type": "reroll", "die": 6}  re-roll the die showing 6 (keep the other)
42          reroll_both  {"type": "reroll_both"}
43          end_turn     {"type": "end_turn"}  only when the first roll allows no action
44 .. 79    roll         {"type": "roll", "first": 6, "second": 3}  chance: both dice, 1/36 each
80 .. 85    roll_die     {"type": "roll_die", "value": 4}  chance: the one re-rolled die, 1/6 each
86 .. 101   draw         {"type": "draw", "card": "Mo"}  chance: the card turned up into the centre
"""

from __future__ import annotations

from spielwerk.core.actions import Action, ActionTable
from spielwerk.games.inkheart_dice.params import PARAMS

NUM_CARDS = PARAMS.num_cards
NUM_POSITIVE = PARAMS.num_positive
FACES = PARAMS.faces

TAKE = 0
STEAL = TAKE + NUM_CARDS
SECURE = STEAL + NUM_POSITIVE
REROLL = SECURE + NUM_POSITIVE
REROLL_BOTH = REROLL + FACES
END_TURN = REROLL_BOTH + 1
ROLL = END_TURN + 1
ROLL_DIE = ROLL + FACES * FACES
DRAW = ROLL_DIE + FACES
NUM_ACTIONS = DRAW + NUM_CARDS


def roll_id(first: int, second: int) -> int:
    return ROLL + (first - 1) * FACES + (second - 1)


def build_action_table() -> ActionTable:
    name = PARAMS.card_name
    takes = [Action(TAKE + c, "take", (("card", name(c)),)) for c in range(NUM_CARDS)]
    steals = [Action(STEAL + c, "steal", (("card", name(c)),)) for c in range(NUM_POSITIVE)]
    secures = [Action(SECURE + c, "secure", (("card", name(c)),)) for c in range(NUM_POSITIVE)]
    rerolls = [Action(REROLL + v - 1, "reroll", (("die", v),)) for v in range(1, FACES + 1)]
    player = [
        *takes,
        *steals,
        *secures,
        *rerolls,
        Action(REROLL_BOTH, "reroll_both"),
        Action(END_TURN, "end_turn"),
    ]
    rolls = [
        Action(roll_id(a, b), "roll", (("first", a), ("second", b)))
        for a in range(1, FACES + 1)
        for b in range(1, FACES + 1)
    ]
    dice = [Action(ROLL_DIE + v - 1, "roll_die", (("value", v),)) for v in range(1, FACES + 1)]
    draws = [Action(DRAW + c, "draw", (("card", name(c)),)) for c in range(NUM_CARDS)]
    return ActionTable(player, rolls + dice + draws)
