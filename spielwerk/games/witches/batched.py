"""Thousands of random-play Witches games stepped together with NumPy, for balance runs.

The same rules as `state.py`, one trick at a time for the whole batch: each seat plays a card
chosen uniformly from its hand, the trick winner keeps the trump or lays one of the trick's
cards uniformly at random, and the pile is drawn uniformly (a pile of unseen cards drawn one at
a time uniformly is a random permutation, so each game gets one up front). With `record=True`
every game's actions come back in the scalar engine's vocabulary, and the test suite replays
them through `WitchesState` to check that both engines agree game by game.

The pile shrinks by the same number of cards in every game (everybody draws each trick until it
is empty), so the end phase begins at the same trick for the whole batch; after that, games end
at different tricks and finished ones are masked out.
"""

from __future__ import annotations

import numpy as np

from spielwerk.core.batch import BatchResult
from spielwerk.games.witches.actions import CHANGE_TRUMP, DRAW, KEEP_TRUMP, NUM_CARDS
from spielwerk.games.witches.game import WitchesGame
from spielwerk.games.witches.params import PARAMS

VALUES = PARAMS.values
NOT_PLAYED = -1
OFF_RANK = 1000  # rank keys: trumps first, then the led colour, then the rest
OTHER_COLOUR = 100


def play_random_batch(
    game: WitchesGame,
    players: int,
    games: int,
    rng: np.random.Generator,
    record: bool = False,
) -> BatchResult:
    """Play `games` random games of `players` seats with `game`'s options."""
    if not game.min_players <= players <= game.max_players:
        raise ValueError(f"witches takes {game.min_players} to {game.max_players} players")
    batch = np.arange(games)
    rank_of = _rank_array(game)
    hand_size = PARAMS.hand_size
    deck = np.argsort(rng.random((games, NUM_CARDS)), axis=1).astype(np.int64)
    steps_log: list[np.ndarray] = []

    def log(ids: np.ndarray) -> None:
        if record:
            steps_log.append(ids.copy())

    # Set-up: the cards are dealt one at a time round the table, then trump is turned up.
    # A hand is an unordered row of up to `hand_size` cards (nobody ever holds more) and a count.
    hands = np.zeros((games, players, hand_size), dtype=np.int64)
    held = np.zeros((games, players), dtype=np.int64)
    for k in range(hand_size * players):
        hands[:, k % players, k // players] = deck[:, k]
        log(DRAW + deck[:, k])
    held[:] = hand_size
    dealt = hand_size * players
    trump_pile = np.full((games, NUM_CARDS + 1), NOT_PLAYED, dtype=np.int64)
    trump_pile[:, 0] = deck[:, dealt]
    pile_size = np.ones(games, dtype=np.int64)
    log(DRAW + deck[:, dealt])
    next_card = dealt + 1
    pool_left = NUM_CARDS - next_card
    end_phase = False

    scores = np.zeros((games, players), dtype=np.int64)
    decisions = np.zeros(games, dtype=np.int64)
    steps = np.full(games, next_card, dtype=np.int64)
    leader = np.full(games, int(game.options["start_player"]), dtype=np.int64)
    done = np.zeros(games, dtype=bool)

    while not done.all():
        active = ~done
        # The trick: from the leader round the table, every seat that still has cards plays.
        trick = np.full((games, players), NOT_PLAYED, dtype=np.int64)
        seats = np.full((games, players), NOT_PLAYED, dtype=np.int64)
        for k in range(players):
            seat = (leader + k) % players
            count = held[batch, seat]
            plays = active & (count > 0)
            pick = (rng.random(games) * count).astype(np.int64)
            card = np.where(plays, hands[batch, seat, pick], NOT_PLAYED)
            # The played card leaves; the hand's last card takes its place.
            last_card = hands[batch, seat, np.maximum(count - 1, 0)]
            hands[batch[plays], seat[plays], pick[plays]] = last_card[plays]
            held[batch, seat] = count - plays
            trick[:, k] = card
            seats[:, k] = np.where(plays, seat, NOT_PLAYED)
            log(np.where(plays, card, NOT_PLAYED))
        played = trick >= 0
        decisions += played.sum(axis=1)
        steps += played.sum(axis=1)

        # Highest trump wins; without trump, the highest card of the led colour.
        trump = trump_pile[batch, np.maximum(pile_size - 1, 0)]
        first = np.argmax(played, axis=1)
        led_colour = trick[batch, first] // VALUES
        colour = trick // VALUES
        value = trick % VALUES + 1
        rank = rank_of[(trump % VALUES + 1)[:, None], value]
        key = np.where(
            colour == (trump // VALUES)[:, None],
            rank,
            np.where(colour == led_colour[:, None], OTHER_COLOUR + rank, OFF_RANK + rank),
        )
        key = np.where(played, key, np.iinfo(np.int64).max)
        winner = seats[batch, np.argmin(key, axis=1)]

        # The last trick of the end phase: no trump change, the game is over.
        last = active & end_phase & (held.sum(axis=1) == 0)
        choosing = active & ~last
        options = played.sum(axis=1) + 1  # keep, or one of the trick's cards
        choice = np.floor(rng.random(games) * options).astype(np.int64)
        changes = choosing & (choice > 0)
        position = np.argmax(np.cumsum(played, axis=1) >= choice[:, None], axis=1)
        new_trump = np.where(changes, trick[batch, position], NOT_PLAYED)
        log(np.where(choosing, np.where(changes, CHANGE_TRUMP + new_trump, KEEP_TRUMP), NOT_PLAYED))
        decisions += choosing
        steps += choosing

        won = np.where(played, value, 0).sum(axis=1) - np.where(changes, new_trump % VALUES + 1, 0)
        if game.planted_double >= 0:  # the test-only planted imbalance: that card counts twice
            bonus = (played & (trick == game.planted_double)).any(axis=1) & (
                new_trump != game.planted_double
            )
            won += np.where(bonus, game.planted_double % VALUES + 1, 0)
        scores[batch[active], winner[active]] += won[active]
        trump_pile[batch[changes], pile_size[changes]] = new_trump[changes]
        pile_size += changes
        done |= last

        if not end_phase:
            # Refill: the winner first, then clockwise; from the trump pile once the pile is out.
            for k in range(players):
                seat = (winner + k) % players
                count = held[batch, seat]
                if pool_left > 0:
                    card = deck[:, next_card]
                    hands[batch[active], seat[active], count[active]] = card[active]
                    held[batch, seat] = count + active
                    log(np.where(active, DRAW + card, NOT_PLAYED))
                    steps += active
                    next_card += 1
                    pool_left -= 1
                else:
                    takes = active & (pile_size > 1)
                    top = trump_pile[batch, pile_size - 1]
                    hands[batch[takes], seat[takes], count[takes]] = top[takes]
                    held[batch, seat] = count + takes
                    pile_size -= takes
            end_phase = pool_left == 0
        leader = winner

    actions = None
    if record:
        log_matrix = np.stack(steps_log, axis=1)
        actions = [[int(a) for a in row if a >= 0] for row in log_matrix]
    return BatchResult(scores, decisions, steps, actions)


def _rank_array(game: WitchesGame) -> np.ndarray:
    """`ranks[trump_value, value]`: the value's place on the wheel (0 = highest)."""
    table = np.full((VALUES + 1, VALUES + 1), VALUES, dtype=np.int64)
    for trump_value in range(1, VALUES + 1):
        table[trump_value, :] = game.ranks[trump_value]
    return table
