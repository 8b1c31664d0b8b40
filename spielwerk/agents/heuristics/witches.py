"""A Witches of Blackmore bot that plays from its view alone, the way a careful beginner would.

- Last to play: win the trick if it can, with its weakest winning card (winning cheaply).
- Otherwise it wins only with a card that is hard to beat (a trump near the top of the wheel)
  and only when the trick holds points; else it throws its lowest-value card, keeping trumps.
- Leading: a top trump if it holds one, else a low, weak card of another colour.
- After winning a trick it changes trump when the new trump makes its hand clearly stronger
  than the points the changed card costs it.
"""

from __future__ import annotations

import random
from typing import Any

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action
from spielwerk.games.witches.params import PARAMS
from spielwerk.games.witches.state import winning_index

SAFE_RANK = 1  # wheel places 0 and 1 (the two highest values) count as hard to beat
POINTS_WORTH_A_TRUMP = 6  # a trick with this many points is worth spending a top trump on
STRENGTH_PER_POINT = 2.0  # hand strength (wheel places) one captured point is worth


class WitchesHeuristic(Agent):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> Action:
        view = turn.view
        if view["phase"] == "choose_trump":
            return self._choose_trump(view, turn.legal_actions)
        return self._play(view, turn.legal_actions)

    # ------------------------------------------------------------------ playing a card
    def _play(self, view: dict[str, Any], legal: list[Action]) -> Action:
        wheel = _Wheel(view)
        cards = {_card(a): a for a in legal}
        trick = [PARAMS.card_from_name(t["card"]) for t in view["trick"]]
        if not trick:
            return cards[self._lead(wheel, list(cards))]
        winning = [c for c in cards if wheel.winning_index([*trick, c]) == len(trick)]
        played = {t["player"] for t in view["trick"]}
        still_to_play = sum(
            1
            for p, size in enumerate(view["hand_sizes"])
            if size > 0 and p not in played and p != view["viewer"]
        )
        points = sum(PARAMS.value(c) for c in trick)
        if winning and still_to_play == 0:
            cheapest = min(winning, key=lambda c: (wheel.strength(c), -PARAMS.value(c)))
            return cards[cheapest]
        safe = [c for c in winning if wheel.is_trump(c) and wheel.rank(c) <= SAFE_RANK]
        if safe and points >= POINTS_WORTH_A_TRUMP:
            return cards[min(safe, key=lambda c: (wheel.strength(c), -PARAMS.value(c)))]
        return cards[self._throw_away(wheel, list(cards))]

    def _lead(self, wheel: _Wheel, hand: list[int]) -> int:
        top_trumps = [c for c in hand if wheel.is_trump(c) and wheel.rank(c) <= SAFE_RANK]
        if top_trumps:
            return max(top_trumps, key=PARAMS.value)
        return self._throw_away(wheel, hand)

    @staticmethod
    def _throw_away(wheel: _Wheel, hand: list[int]) -> int:
        """The card it misses least: not a trump, few points, weak on the wheel."""
        return min(hand, key=lambda c: (wheel.is_trump(c), PARAMS.value(c), wheel.strength(c)))

    # ------------------------------------------------------------------ the trump change
    def _choose_trump(self, view: dict[str, Any], legal: list[Action]) -> Action:
        hand = [PARAMS.card_from_name(name) for name in view["hand"]]
        keep = next(a for a in legal if a.type == "keep_trump")
        current = _hand_strength(hand, PARAMS.card_from_name(view["trump"]), view)
        best, best_gain = keep, 0.0
        for action in legal:
            if action.type != "change_trump":
                continue
            card = _card(action)
            gain = _hand_strength(hand, card, view) - current
            net = gain / STRENGTH_PER_POINT - PARAMS.value(card)
            if net > best_gain:
                best, best_gain = action, net
        return best


class _Wheel:
    """Ranking under the trump shown in a view."""

    def __init__(self, view: dict[str, Any], trump: int | None = None) -> None:
        self.top = PARAMS.card_from_name(view["trump"]) if trump is None else trump
        self.trump_colour = PARAMS.colour(self.top)
        self.ranks = PARAMS.rank_table(view["wheel"] == "descending")[PARAMS.value(self.top)]

    def rank(self, card: int) -> int:
        """Place on the wheel, 0 = highest."""
        return self.ranks[PARAMS.value(card)]

    def is_trump(self, card: int) -> bool:
        return PARAMS.colour(card) == self.trump_colour

    def strength(self, card: int) -> int:
        """Smaller is weaker: trumps above everything, then by wheel place."""
        return (PARAMS.values + 1 if self.is_trump(card) else 0) + PARAMS.values - self.rank(card)

    def winning_index(self, cards: list[int]) -> int:
        """Which of a trick's cards wins it: the rules' own answer."""
        return winning_index(cards, self.top, self.ranks)


def _hand_strength(hand: list[int], trump: int, view: dict[str, Any]) -> float:
    """How many tricks-worth of power the hand has under `trump` (wheel places above the floor)."""
    wheel = _Wheel(view, trump)
    total = 0.0
    for card in hand:
        above_floor = PARAMS.values - 1 - wheel.rank(card)
        total += above_floor if wheel.is_trump(card) else max(0, above_floor - 5) * 0.5
    return total


def _card(action: Action) -> int:
    return PARAMS.card_from_name(str(dict(action.params)["card"]))
