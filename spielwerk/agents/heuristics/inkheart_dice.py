"""A Tintenherz - Das Würfelspiel bot that plays from its view alone, the way a careful player
would.

It values a seat's cards as the score its safe cards give (the better castle-card option) plus,
for each unsafe card, what that card would add once safe, weighted by the chance that no
opponent's roll shows it before the card comes round again (high cards, which only a sum can
show, are safer; at the very end, unsafe cards are worth little). Then:

- every possible card action is worth its change of that value for the bot, plus half of what
  a stolen card costs its owner; so it secures high cards at risk, takes good cards and avoids
  negative ones when it can;
- the take that ends the game is worth a lot if the bot then wins, and a large loss if not;
- a re-roll is worth the average, over the dice it may roll, of the best action the roll then
  forces (nothing, if none is possible): it re-rolls (the die that helps most, or both) when
  that beats the best action it has, and ends the turn when nothing is possible and re-rolling
  is worse than doing nothing.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from typing import Any

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action
from spielwerk.games.inkheart_dice.params import PARAMS
from spielwerk.games.inkheart_dice.state import best_score

FACES = PARAMS.faces
MASKS = PARAMS.match_masks
STEAL_DENIAL = 0.5  # a point an opponent loses is worth this much to the bot
END_STAKE = 100.0  # ending the game: won (+) or lost (-)
LAST_CARDS_KEEP = 0.3  # an unsafe card is worth this little once the pile is empty


@cache
def match_probability(card: int) -> float:
    """Chance that one roll of both dice shows the card (a die or the sum)."""
    hits = sum(
        1 for a in range(1, FACES + 1) for b in range(1, FACES + 1) if MASKS[a][b] >> card & 1
    )
    return hits / (FACES * FACES)


class InkheartDiceHeuristic(Agent):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> Action:
        board = _Board(turn.view)
        best: Action | None = None
        best_value = -float("inf")
        for action in turn.legal_actions:
            value = board.action_value(action)
            # Ties go to the earlier action: card actions come before re-rolls.
            if value > best_value + 1e-9:
                best, best_value = action, value
        assert best is not None
        return best


class _Board:
    """The public position from one seat's view, as card ids."""

    def __init__(self, view: dict[str, Any]) -> None:
        ids = PARAMS.card_from_name
        self.me: int = view["current"]
        self.players: int = view["players"]
        self.centre = [ids(n) for n in view["centre"]]
        self.unsafe = [[ids(n) for n in cards] for cards in view["unsafe"]]
        self.safe = [[ids(n) for n in cards] for cards in view["safe"]]
        self.pile: int = view["draw_pile"]
        dice = view["dice"] or (0, 0)
        self.dice: tuple[int, int] = (int(dice[0]), int(dice[1]))
        self.forced = view["phase"] == "forced"

    # ------------------------------------------------------------------ valuation
    def keep_chance(self, card: int) -> float:
        """Chance that the card survives one round of opponents' rolls (each with a re-roll)."""
        miss = (1.0 - match_probability(card)) ** 2
        keep = miss ** (self.players - 1)
        return keep * LAST_CARDS_KEEP if self.pile == 0 else keep

    def seat_value(self, safe: Sequence[int], unsafe: Sequence[int]) -> float:
        base = best_score(safe)[0]
        value = float(base)
        for card in unsafe:
            value += self.keep_chance(card) * (best_score([*safe, card])[0] - base)
        return value

    def action_value(self, action: Action) -> float:
        kind = action.type
        if kind == "end_turn":
            return 0.0
        if kind == "reroll":
            return self.reroll_value(int(str(dict(action.params)["die"])))
        if kind == "reroll_both":
            return self.reroll_value(None)
        card = PARAMS.card_from_name(str(dict(action.params)["card"]))
        return self.card_value(kind, card)

    def card_value(self, kind: str, card: int) -> float:
        me = self.me
        safe, unsafe = self.safe[me], self.unsafe[me]
        now = self.seat_value(safe, unsafe)
        if kind == "secure":
            rest = [c for c in unsafe if c != card]
            return self.seat_value([*safe, card], rest) - now
        if kind == "steal":
            owner = next(q for q, cards in enumerate(self.unsafe) if card in cards)
            theirs = self.unsafe[owner]
            loss = self.seat_value(self.safe[owner], theirs) - self.seat_value(
                self.safe[owner], [c for c in theirs if c != card]
            )
            return self.seat_value(safe, [*unsafe, card]) - now + STEAL_DENIAL * loss
        # A take from the centre.
        negative = PARAMS.values[card] < 0
        new_safe = [*safe, card] if negative else safe
        new_unsafe = unsafe if negative else [*unsafe, card]
        if self.pile == 0:  # this take ends the game
            mine = best_score(new_safe)[0]
            others = [best_score(self.safe[q])[0] for q in range(self.players) if q != me]
            return END_STAKE if mine > max(others) else -END_STAKE
        return self.seat_value(new_safe, new_unsafe) - now

    def best_card_action(self, a: int, b: int) -> float | None:
        """The best card action a roll allows (None: nothing is possible)."""
        mask = MASKS[a][b]
        me = self.me
        values = [self.card_value("take", c) for c in self.centre if mask >> c & 1]
        values += [
            self.card_value("steal", c)
            for q, cards in enumerate(self.unsafe)
            if q != me
            for c in cards
            if mask >> c & 1
        ]
        values += [self.card_value("secure", c) for c in self.unsafe[me] if mask >> c & 1]
        return max(values) if values else None

    def reroll_value(self, die: int | None) -> float:
        """Average over the re-roll of the best action it forces (0 if none is possible)."""
        a, b = self.dice
        total = 0.0
        if die is None:
            for x in range(1, FACES + 1):
                for y in range(1, FACES + 1):
                    total += self._forced(x, y)
            return total / (FACES * FACES)
        kept = b if a == die else a
        for x in range(1, FACES + 1):
            total += self._forced(kept, x)
        return total / FACES

    def _forced(self, a: int, b: int) -> float:
        best = self.best_card_action(a, b)
        return 0.0 if best is None else best
