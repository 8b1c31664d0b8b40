"""The action vocabulary of the Witches of Blackmore and its integer layout.

0 .. 53     play        {"type": "play", "card": "blue-4"}
54          keep_trump  {"type": "keep_trump"}          (trick winner leaves the trump)
55 .. 108   change_trump {"type": "change_trump", "card": "blue-4"}  (a card of the trick)
109 .. 162  draw        {"type": "draw", "card": "blue-4"}  chance: the card that comes up
                        (deal, the trump turned up at set-up, or a refill from the pile)
"""

from __future__ import annotations

from typing import Final

from spielwerk.core.actions import Action, ActionTable
from spielwerk.games.witches.params import PARAMS

# Final: the compiled rules (spielwerk.native) read these as C constants, not from a dict.
NUM_CARDS: Final = PARAMS.num_cards
PLAY: Final = 0
KEEP_TRUMP: Final = NUM_CARDS
CHANGE_TRUMP: Final = NUM_CARDS + 1
DRAW: Final = 2 * NUM_CARDS + 1


def build_action_table() -> ActionTable:
    name = PARAMS.card_name
    plays = [Action(PLAY + c, "play", (("card", name(c)),)) for c in range(NUM_CARDS)]
    keep = [Action(KEEP_TRUMP, "keep_trump")]
    changes = [
        Action(CHANGE_TRUMP + c, "change_trump", (("card", name(c)),)) for c in range(NUM_CARDS)
    ]
    draws = [Action(DRAW + c, "draw", (("card", name(c)),)) for c in range(NUM_CARDS)]
    return ActionTable(plays + keep + changes, draws)


# One table for every Witches game: the vocabulary does not depend on the options, so every
# game hands out the same interned objects, which the compiled rules read without the game.
ACTION_TABLE: Final = build_action_table()
ACTIONS: Final = ACTION_TABLE.actions
DRAW_OUTCOMES: Final = (
    (),
    *[
        tuple([(action, 1.0 / size) for action in ACTIONS[DRAW : DRAW + NUM_CARDS]])
        for size in range(1, NUM_CARDS + 1)
    ],
)
"""`DRAW_OUTCOMES[size][card]`: the chance outcome "draw `card`" when `size` cards are left in
the pile, with its probability (immutable pairs): `chance_outcomes` picks the pile's cards."""
