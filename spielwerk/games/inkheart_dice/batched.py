"""Thousands of random-play Tintenherz games stepped together with NumPy, for balance runs.

The same rules as `state.py`, one whole turn at a time for the whole batch: roll both dice,
choose uniformly among the legal actions (card actions, the re-rolls, and `end_turn` when the
roll shows nothing), re-roll if that was the choice and then take a card action uniformly if
one is shown, and refill the centre after a take. Every game completes exactly one turn per
step, so the turn count (and with it `max_turns`) is the same for the whole batch.

Every zone is a 16-bit card mask: the centre, each seat's unsafe and safe cards. A card lies in
exactly one zone, so the card actions of a roll are one bit each (`matched & (centre | unsafe)`:
a take, a steal or a secure, depending on where the card lies) and "the r-th legal card action"
is a table lookup. The legal ids' order does not matter: a uniform pick among them is a uniform
pick in any order. The pile is drawn uniformly one card at a time, which is a random
permutation, so each game gets one up front.

Finished games are left to play on (nothing reads them: their results are written out when
they finish, and with `record=True` nothing is logged for them) until enough have finished to
make compacting the arrays worth it.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from spielwerk.core.batch import BatchResult
from spielwerk.core.errors import OptionError
from spielwerk.games.inkheart_dice.actions import (
    DRAW,
    END_TURN,
    FACES,
    NUM_CARDS,
    REROLL,
    REROLL_BOTH,
    ROLL,
    ROLL_DIE,
    SECURE,
    STEAL,
    TAKE,
)
from spielwerk.games.inkheart_dice.game import InkheartDiceGame
from spielwerk.games.inkheart_dice.params import PARAMS

NO_ACTION = -1
_ROLLS = FACES * FACES
_MASKS = 1 << NUM_CARDS
_COMPACT_BELOW = 0.7  # compact the arrays once fewer than this share of their rows still play


@cache
def _tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(matched by roll offset, popcount, r-th set bit, best score, negative-card mask).

    `nth[mask * NUM_CARDS + r]` is the card of the r-th set bit of `mask`;
    `score[mask]` is `best_score` of the safe cards `mask` (the better castle option).
    """
    matched = np.array(
        [PARAMS.match_masks[o // FACES + 1][o % FACES + 1] for o in range(_ROLLS)], dtype=np.int64
    )
    masks = np.arange(_MASKS, dtype=np.int64)
    bits = (masks[:, None] >> np.arange(NUM_CARDS)) & 1
    count = bits.sum(axis=1)
    rows, cols = np.nonzero(bits)
    nth = np.zeros((_MASKS, NUM_CARDS), dtype=np.int64)
    nth[rows, np.cumsum(bits, axis=1)[rows, cols] - 1] = cols
    values = np.array(PARAMS.values, dtype=np.int64)
    hearts = np.array(PARAMS.hearts, dtype=np.int64)
    plus = bits * (values > 0)
    kept = (bits @ values) * (bits @ hearts + PARAMS.castle_hearts)
    discarded = (plus @ values) * (plus @ hearts)
    score = np.maximum(kept, discarded)
    negative = int(sum(1 << c for c, v in enumerate(PARAMS.values) if v < 0))
    return matched, count, nth.reshape(-1), score, np.array(negative, dtype=np.int64)


def play_random_batch(
    game: InkheartDiceGame,
    players: int,
    games: int,
    rng: np.random.Generator,
    record: bool = False,
) -> BatchResult:
    """Play `games` random games of `players` seats with `game`'s options."""
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"inkheart_dice takes {game.min_players} to {game.max_players} players")
    start_player = int(game.options["start_player"])
    if start_player >= players:
        raise OptionError(f"start_player {start_player} does not exist with {players} players")
    max_turns = int(game.options["max_turns"])
    matched, popcount, nth, score_of, negative = _tables()

    deck = np.argsort(rng.random((games, NUM_CARDS)), axis=1)
    scores = np.zeros((games, players), dtype=np.int64)
    decisions = np.zeros(games, dtype=np.int64)
    steps = np.zeros(games, dtype=np.int64)
    steps_log: list[np.ndarray] = []

    # The rows still stepped: `ids` are their games; `alive` says which still play.
    ids = np.arange(games)
    rows = np.arange(games)
    alive = np.ones(games, dtype=bool)

    def log(ids_now: np.ndarray) -> None:
        if record:
            full = np.full(games, NO_ACTION, dtype=np.int64)
            full[ids[alive]] = ids_now[alive]
            steps_log.append(full)

    # Set-up: four cards are turned up into the centre.
    centre = np.zeros(games, dtype=np.int64)
    for k in range(PARAMS.centre_size):
        centre |= 1 << deck[:, k]
        log(DRAW + deck[:, k])
    drawn = np.full(games, PARAMS.centre_size, dtype=np.int64)
    unsafe = np.zeros((games, players), dtype=np.int64)
    safe = np.zeros((games, players), dtype=np.int64)
    current = np.full(games, start_player, dtype=np.int64)
    row_decisions = np.zeros(games, dtype=np.int64)
    row_steps = np.full(games, PARAMS.centre_size, dtype=np.int64)
    turns = 0

    while True:
        n = len(ids)
        uniform = rng.random((4, n))
        loose = centre | np.bitwise_or.reduce(unsafe, axis=1)

        # The roll and the choice: a card action, a re-roll, or `end_turn` if nothing is shown.
        roll = (uniform[0] * _ROLLS).astype(np.int64)
        log(ROLL + roll)
        first, second = roll // FACES + 1, roll % FACES + 1
        shown = matched[roll] & loose
        k = popcount[shown]
        double = first == second
        options = k + 3 - double + (k == 0)
        choice = (uniform[1] * options).astype(np.int64)
        takes_card = choice < k
        # The other choices as 0 re-roll the lower die, 1 the higher, 2 both, 3 end the turn.
        extra = choice - k
        extra += double & (extra >= 1)
        single = ~takes_card & (extra <= 1)
        both = extra == 2
        rerolls = single | both
        low, high = np.minimum(first, second), np.maximum(first, second)
        rerolled_value = np.where(extra == 0, low, high)
        kept = np.where(extra == 0, high, low)
        card = nth[shown * NUM_CARDS + np.minimum(choice, NUM_CARDS - 1)]
        if record:
            decided = np.where(
                single,
                REROLL + rerolled_value - 1,
                np.where(both, REROLL_BOTH, END_TURN),
            )
            log(np.where(takes_card, _card_action(card, centre, unsafe, rows, current), decided))

        # The re-roll (the one die, or both), then a card action if the new roll shows one.
        new_die = (uniform[2] * FACES).astype(np.int64)
        new_roll = (uniform[2] * _ROLLS).astype(np.int64)
        if record:
            chance = np.where(single, ROLL_DIE + new_die, ROLL + new_roll)
            log(np.where(rerolls, chance, NO_ACTION))
        new_roll = np.where(single, (kept - 1) * FACES + new_die, new_roll)
        shown = matched[new_roll] & loose
        k = popcount[shown]
        forced = rerolls & (k > 0)
        forced_choice = (uniform[3] * k).astype(np.int64)
        card = np.where(takes_card, card, nth[shown * NUM_CARDS + forced_choice])
        if record:
            action = _card_action(card, centre, unsafe, rows, current)
            log(np.where(forced, action, NO_ACTION))

        # The card moves: out of whichever zone holds it, to the mover's unsafe or safe cards.
        moves = takes_card | forced
        bit = np.where(moves, 1 << card, 0)
        take = (centre & bit) != 0
        secure = (unsafe[rows, current] & bit) != 0
        to_safe = secure | (take & ((negative & bit) != 0))
        centre &= ~bit
        unsafe &= ~bit[:, None]
        unsafe[rows, current] |= np.where(to_safe, 0, bit)
        safe[rows, current] |= np.where(to_safe, bit, 0)

        # A take refills the centre; the 13th take finds the pile empty and ends the game.
        refill = take & (drawn < NUM_CARDS)
        new_card = deck[ids, np.minimum(drawn, NUM_CARDS - 1)]
        centre |= np.where(refill, 1 << new_card, 0)
        log(np.where(refill, DRAW + new_card, NO_ACTION))
        drawn += refill

        row_decisions += 1 + forced
        row_steps += 2 + rerolls + forced + refill
        turns += 1
        current = (current + 1) % players
        over = alive & ((take & ~refill) | (turns >= max_turns))
        if over.any():
            done = ids[over]
            scores[done] = score_of[safe[over]]
            decisions[done] = row_decisions[over]
            steps[done] = row_steps[over]
            alive &= ~over
            left = int(alive.sum())
            if left == 0:
                break
            if left < _COMPACT_BELOW * n:
                keep = alive
                ids, centre, drawn, current = ids[keep], centre[keep], drawn[keep], current[keep]
                unsafe, safe = unsafe[keep], safe[keep]
                row_decisions, row_steps = row_decisions[keep], row_steps[keep]
                rows = np.arange(left)
                alive = np.ones(left, dtype=bool)

    actions = None
    if record:
        log_matrix = np.stack(steps_log, axis=1)
        actions = [[int(a) for a in row if a >= 0] for row in log_matrix]
    return BatchResult(scores, decisions, steps, actions)


def _card_action(
    card: np.ndarray, centre: np.ndarray, unsafe: np.ndarray, rows: np.ndarray, current: np.ndarray
) -> np.ndarray:
    """The action id moving `card` for the seat to move: take, secure or steal, by where it lies."""
    bit = 1 << card
    return np.where(
        (centre & bit) != 0,
        TAKE + card,
        np.where((unsafe[rows, current] & bit) != 0, SECURE + card, STEAL + card),
    )
