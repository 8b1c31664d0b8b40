"""Build exact Tintenherz - Das Würfelspiel positions from chosen chance actions.

Every card turned up into the centre is a chance `draw` and every roll a chance `roll` (both
dice) or `roll_die` (the one re-rolled die), so a test fixes the whole game by choosing those
actions. All actions are applied through the public API in their JSON form.
"""

from __future__ import annotations

from typing import Any

import spielwerk
from spielwerk.core.state import State

POSITIVE = (
    "Darius",
    "Gwin",
    "Elinor",
    "Farid",
    "Staubfinger",
    "Fenoglio",
    "Resa",
    "Mo",
    "Meggie",
    "Zauberzunge",
)
NEGATIVE = ("Fulvio", "Cockerell", "Basta", "Flachnase", "Mortola", "Capricorn")
ALL_CARDS = POSITIVE + NEGATIVE


def new_game(centre: tuple[str, ...] | list[str], players: int = 2, **options: Any) -> State:
    """A game whose first four cards turned up are `centre`."""
    state = spielwerk.load("inkheart_dice", **options).new_state(players, seed=0)
    draw(state, *centre)
    return state


def draw(state: State, *cards: str) -> None:
    for card in cards:
        state.apply({"type": "draw", "card": card})


def roll(state: State, first: int, second: int) -> None:
    """Both dice: the roll at the start of a turn, or a re-roll of both."""
    state.apply({"type": "roll", "first": first, "second": second})


def roll_die(state: State, value: int) -> None:
    state.apply({"type": "roll_die", "value": value})


def take(state: State, card: str, refill: str | None = None) -> None:
    """Take a centre card; `refill` is the card then turned up from the pile."""
    state.apply({"type": "take", "card": card})
    if refill is not None:
        draw(state, refill)


def steal(state: State, card: str) -> None:
    state.apply({"type": "steal", "card": card})


def secure(state: State, card: str) -> None:
    state.apply({"type": "secure", "card": card})


def reroll(state: State, die: int | None = None) -> None:
    """Re-roll the die showing `die`, or both dice (None)."""
    if die is None:
        state.apply({"type": "reroll_both"})
    else:
        state.apply({"type": "reroll", "die": die})


def end_turn(state: State) -> None:
    state.apply({"type": "end_turn"})


def public(state: State) -> dict[str, Any]:
    return state.view(None)


def legal(state: State) -> list[dict[str, Any]]:
    """The legal actions of the seat to move, in JSON form."""
    return [a.to_json() for a in state.legal_actions()]


def card_actions(state: State) -> list[dict[str, Any]]:
    """The legal take / steal / secure actions."""
    return [a for a in legal(state) if a["type"] in ("take", "steal", "secure")]


REROLLS = {"reroll", "reroll_both"}


VALUES = dict(zip(ALL_CARDS, [*range(1, 11), *range(-1, -7, -1)], strict=True))


def dice_for(card: str) -> tuple[int, int]:
    """A roll that shows the card: a die with its value, or a sum for values over 6."""
    value = abs(VALUES[card])
    return (value, 1) if value <= 6 else (6, value - 6)


def take_with_roll(state: State, card: str, refill: str | None = None) -> None:
    """Roll dice showing a centre card, and take it."""
    roll(state, *dice_for(card))
    take(state, card, refill)


def pass_turn(state: State) -> None:
    """Roll dice that allow no action and end the turn."""
    for first in range(1, 7):
        for second in range(first, 7):
            trial = state.clone()
            roll(trial, first, second)
            if not card_actions(trial):
                roll(state, first, second)
                end_turn(state)
                return
    raise AssertionError("every roll allows an action here")
