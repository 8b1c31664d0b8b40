"""Witches' learned rollout policy (`spielwerk.agents.rollouts`): each legal move of the seat
to move described by features of its own hand and what is public, the move drawn from the
softmax of the weights' dot product with them. What a card does to the trick is the kernel's
rule (`trick_standing`, `takes_the_lead`); the policy plays through the kernel's own steps."""

from __future__ import annotations

import numpy as np

from spielwerk.agents.rollouts import LearnedRollout
from spielwerk.core.kernel import inline_kernel, kernel
from spielwerk.core.kernel_ops import SOFTMAX_FLOOR, lowest_bit, popcount, uniform
from spielwerk.games.witches.actions import CHANGE_TRUMP, DRAW, KEEP_TRUMP, NUM_CARDS
from spielwerk.games.witches.kernel import (
    DESCENDING,
    HAND,
    HANDS,
    MAX_LEGAL,
    PHASE,
    PILE,
    POOL,
    RANKS,
    STEPS,
    TO_MOVE,
    TRICK,
    TRICK_LEN,
    TRICK_SIZE,
    TRUMPS,
    VALUES,
    choose_trump,
    draw_card,
    play_card,
    shuffle_pile,
    takes_the_lead,
    trick_standing,
)
from spielwerk.games.witches.state import CHOOSE_TRUMP, OVER, PLAY_CARDS

ROLLOUT_FEATURES = (
    "wins",  # following: the card would win the trick as it stands
    "wins_last",  # ... and the mover is the trick's last player (the win is certain)
    "wins_points",  # ... times the points already in the trick / 18
    "value",  # the card's face value / 9 (the points it hands to whoever wins the trick)
    "wins_value",  # wins x value: its own points come back to the mover
    "trump",  # the card is trump
    "strength",  # its place on the wheel: 1 highest, 0 lowest
    "lead_strength",  # leading: strength
    "lead_trump",  # leading: trump
    "lead_value",  # leading: value
    "wins_strength",  # wins x strength (spending a strong card on the win)
    "wins_trump",  # wins with a trump
    "keep",  # trump choice: keep the trump
    "trump_count",  # the mover's cards of the (new) trump colour / 6
    "trump_power",  # their summed strength under the (new) trump / 6
    "change_cost",  # changing: the face value / 9 of the card laid on the pile (not captured)
)
"""What the rollout policy sees of each legal move: the mover's own hand and what is public
(the trick, the trump, the wheel), never another hand; `rollout_features` writes them and
`rollout_logits` is their dot product with the weights, computed in one pass."""
NUM_ROLLOUT_FEATURES = len(ROLLOUT_FEATURES)
STRENGTH = (VALUES - 1 - RANKS) / (VALUES - 1)
"""`STRENGTH[descending, trump_value, value]`: 1 for the wheel's top value, 0 for its lowest."""
COLOUR_CARDS = np.array(
    [((1 << VALUES) - 1) << (VALUES * colour) for colour in range(NUM_CARDS // VALUES)],
    dtype=np.int64,
)
"""The card mask of each colour."""


@kernel
def rollout_features(s: np.ndarray, actions: np.ndarray, out: np.ndarray) -> None:
    """`out[i]` = the `ROLLOUT_FEATURES` of `actions[i]`, legal for the seat to move in `s` (a
    card play or a trump choice). The reference the learning reads; `rollout_logits` is the
    same dot product, faster."""
    top = s[TRUMPS + s[PILE] - 1]
    descending = s[DESCENDING]
    hand = s[HANDS + s[TO_MOVE]]
    out[:] = 0.0
    length = s[TRICK_LEN]
    for i in range(actions.shape[0]):
        f = out[i]
        action = actions[i]
        if s[PHASE] == PLAY_CARDS:
            trump_colour, row = top // VALUES, top % VALUES + 1
            value = action % VALUES + 1
            rank = RANKS[descending, row, value]
            trump = action // VALUES == trump_colour
            f[3] = value / VALUES
            f[5] = 1.0 if trump else 0.0
            f[6] = STRENGTH[descending, row, value]
            if length == 0:
                f[7] = f[6]
                f[8] = f[5]
                f[9] = f[3]
                continue
            _, best_rank, best_trump, points = trick_standing(s)
            led = s[TRICK] // VALUES
            if takes_the_lead(action // VALUES, rank, trump_colour, led, best_rank, best_trump):
                f[0] = 1.0
                f[1] = 1.0 if length == s[TRICK_SIZE] - 1 else 0.0
                f[2] = points / 18.0
                f[4] = f[3]
                f[10] = f[6]
                f[11] = f[5]
        else:
            trump = top
            if action == KEEP_TRUMP:
                f[12] = 1.0
            else:
                trump = action - CHANGE_TRUMP
                f[15] = (trump % VALUES + 1) / VALUES
            cards = hand & COLOUR_CARDS[trump // VALUES]
            f[13] = popcount(cards) / HAND
            while cards:
                f[14] += STRENGTH[descending, trump % VALUES + 1, lowest_bit(cards) % VALUES + 1]
                cards &= cards - 1
            f[14] /= HAND


@inline_kernel
def rollout_logits(s: np.ndarray, w: np.ndarray, ids: np.ndarray, logits: np.ndarray) -> int:
    """The legal moves of the seat to move into `ids` (hand order, keep first) and each one's
    logit `w . rollout_features` into `logits`; returns how many. One pass: the trick's
    standing is worked out once, not once a card (a rollout makes some 60 of these calls)."""
    top = s[TRUMPS + s[PILE] - 1]
    descending = s[DESCENDING]
    hand = s[HANDS + s[TO_MOVE]]
    length = s[TRICK_LEN]
    count = 0
    if s[PHASE] == PLAY_CARDS:
        trump_colour, row = top // VALUES, top % VALUES + 1
        strength = STRENGTH[descending, row]
        if length == 0:
            per_value = (w[3] + w[9]) / VALUES
            per_strength = w[6] + w[7]
            per_trump = w[5] + w[8]
            while hand:
                card = lowest_bit(hand)
                hand &= hand - 1
                value = card % VALUES + 1
                z = per_value * value + per_strength * strength[value]
                if card // VALUES == trump_colour:
                    z += per_trump
                ids[count] = card
                logits[count] = z
                count += 1
            return count
        ranks = RANKS[descending, row]
        led = s[TRICK] // VALUES
        _, best_rank, best_trump, points = trick_standing(s)
        win = w[0] + w[2] * points / 18.0
        if length == s[TRICK_SIZE] - 1:
            win += w[1]
        per_value, per_won_value = w[3] / VALUES, w[4] / VALUES
        while hand:
            card = lowest_bit(hand)
            hand &= hand - 1
            colour, value = card // VALUES, card % VALUES + 1
            z = per_value * value + w[6] * strength[value]
            trump = colour == trump_colour
            if trump:
                z += w[5]
            if takes_the_lead(colour, ranks[value], trump_colour, led, best_rank, best_trump):
                won = win + per_won_value * value + w[10] * strength[value]
                if trump:
                    won += w[11]
                z += won
            ids[count] = card
            logits[count] = z
            count += 1
        return count
    for k in range(length + 1):
        if k == 0:
            trump = top
            ids[0] = KEEP_TRUMP
            z = w[12]
        else:
            trump = s[TRICK + k - 1]
            ids[k] = CHANGE_TRUMP + trump
            z = w[15] * (trump % VALUES + 1) / VALUES
        cards = hand & COLOUR_CARDS[trump // VALUES]
        strength = STRENGTH[descending, trump % VALUES + 1]
        z += w[13] * popcount(cards) / HAND
        power = 0.0
        while cards:
            power += strength[lowest_bit(cards) % VALUES + 1]
            cards &= cards - 1
        logits[k] = z + w[14] * power / HAND
    return length + 1


@inline_kernel
def _play_policy(s: np.ndarray, rng: np.ndarray, w: np.ndarray, actions: np.ndarray) -> int:
    """Play to the end with the rollout policy `w`, in place; every action (chance included)
    goes into `actions` while it has room. Returns the number of actions. Chance as in
    `rollout`: the pile shuffled once and drawn in that order.

    Each move is drawn from the softmax of its logit, with e^x taken as (1 + x/64)^64: within
    4% of it down to x = -3, below which moves are hardly chosen, six multiplications instead
    of a call to `exp` (a fifth of a rollout's time). The loop is written out in full, as
    `rollout` is: nested helpers and the generic `apply` made it half as fast again (and
    `kernel_ops.softmax_draw`, the draw Isolde and Tintenblut call, measured some 5% slower
    here in place of the written-out draw, at load 2.5, 2026-11-28)."""
    order = np.empty(64, dtype=np.int64)
    left = shuffle_pile(s[POOL], order, rng)
    ids = np.empty(MAX_LEGAL, dtype=np.int64)
    odds = np.empty(MAX_LEGAL, dtype=np.float64)
    steps = 0
    while True:
        phase = s[PHASE]
        if phase == OVER:
            return steps
        s[STEPS] += 1
        if phase == PLAY_CARDS or phase == CHOOSE_TRUMP:  # noqa: SIM109 - plain ints for Numba
            count = rollout_logits(s, w, ids, odds)
            action = ids[0]
            if count > 1:
                top = odds[0]
                for i in range(1, count):
                    if odds[i] > top:
                        top = odds[i]
                total = 0.0
                for i in range(count):
                    y = 1.0 + (odds[i] - top) / -SOFTMAX_FLOOR
                    if y < 0.0:
                        y = 0.0
                    y *= y
                    y *= y
                    y *= y
                    y *= y
                    y *= y
                    y *= y
                    odds[i] = y
                    total += y
                u = uniform(rng) * total
                action = ids[count - 1]
                for i in range(count - 1):
                    u -= odds[i]
                    if u < 0.0:
                        action = ids[i]
                        break
            if phase == PLAY_CARDS:
                play_card(s, s[TO_MOVE], action)
            else:
                choose_trump(s, action)
        else:
            left -= 1
            action = DRAW + order[left]
            draw_card(s, order[left])
        if steps < actions.shape[0]:
            actions[steps] = action
        steps += 1


@kernel
def rollout_policy(s: np.ndarray, rng: np.ndarray, weights: np.ndarray) -> int:
    """`rollout` with the learned rollout policy instead of uniform play (AlphaGo's fast
    rollout policy: Silver et al. 2016): each move drawn from the softmax of `weights .
    rollout_features` over the legal moves. Returns the number of actions (chance included)."""
    return _play_policy(s, rng, weights, np.empty(0, dtype=np.int64))


@kernel
def policy_game(s: np.ndarray, weights: np.ndarray, actions: np.ndarray, rng: np.ndarray) -> int:
    """Play `s` to the end with the rollout policy, writing every action id into `actions`
    (as `random_game` does); returns the number of actions."""
    return _play_policy(s, rng, weights, actions)


POLICY = LearnedRollout(ROLLOUT_FEATURES, rollout_features, rollout_policy)
