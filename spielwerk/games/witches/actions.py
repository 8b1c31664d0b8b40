"""The action vocabulary of the Witches of Blackmore and its integer layout.

0 .. 53     play        {"type": "play", "card": "blue-4"}
54          keep_trump  {"type": "keep_trump"}          (trick winner leaves the trump)
55 .. 108   change_trump {"type": "change_trump", "card": "blue-4"}  (a card of the trick)
109 .. 162  draw        {"type": "draw", "card": "blue-4"}  chance: the card that comes up
                        (deal, the trump turned up at set-up, or a refill from the pile)
"""

from __future__ import annotations

from spielwerk.core.actions import Action, ActionTable
from spielwerk.games.witches.params import PARAMS

NUM_CARDS = PARAMS.num_cards
PLAY = 0
KEEP_TRUMP = NUM_CARDS
CHANGE_TRUMP = NUM_CARDS + 1
DRAW = 2 * NUM_CARDS + 1


def build_action_table() -> ActionTable:
    name = PARAMS.card_name
    plays = [Action(PLAY + c, "play", (("card", name(c)),)) for c in range(NUM_CARDS)]
    keep = [Action(KEEP_TRUMP, "keep_trump")]
    changes = [
        Action(CHANGE_TRUMP + c, "change_trump", (("card", name(c)),)) for c in range(NUM_CARDS)
    ]
    draws = [Action(DRAW + c, "draw", (("card", name(c)),)) for c in range(NUM_CARDS)]
    return ActionTable(plays + keep + changes, draws)
