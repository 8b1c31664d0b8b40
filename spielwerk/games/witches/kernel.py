"""The Witches of Blackmore as a compiled kernel (Numba): the hot path of search and self-play.

A state is one flat int64 array (`SIZE` entries; a copy is a `copy()`), every card set a 64-bit
mask (bit `c` = card `c`). The rules are those of `state.py`, which stays the reference: the
tests (`tests/kernels/test_kernel_equivalence.py`) step both engines side by side over thousands of
seeded games at every player count and option, comparing the legal actions, who is to move and
the scores at every step, and replay the kernel's own random games through `WitchesState`.

Action ids are the scalar engine's; `legal` lists them in the same order as `legal_ids`.
"""

from __future__ import annotations

import numpy as np

from spielwerk.core.kernel import inline_kernel, kernel
from spielwerk.core.kernel_game import KernelRules, seated
from spielwerk.core.kernel_ops import (
    lowest_bit,
    nth_bit,
    popcount,
    uniform,
)
from spielwerk.core.state import CHANCE, TERMINAL
from spielwerk.games.witches import observation
from spielwerk.games.witches.actions import CHANGE_TRUMP, DRAW, KEEP_TRUMP, NUM_CARDS
from spielwerk.games.witches.game import WitchesGame
from spielwerk.games.witches.params import PARAMS
from spielwerk.games.witches.state import (
    CHOOSE_TRUMP,
    DEAL,
    OVER,
    PHASE_NAMES,
    PLAY_CARDS,
    REFILL,
    TURN_UP,
    WitchesState,
)

VALUES = PARAMS.values
HAND = PARAMS.hand_size
SEATS = PARAMS.max_players
NUM_PHASES = len(PHASE_NAMES)
MAX_LEGAL = 64
"""Enough room for any legal list (at most the 54 cards of a draw)."""


def _ranks() -> np.ndarray:
    """`RANKS[descending, trump_value, value]`: the value's place on the wheel, 0 = highest."""
    ranks = np.full((2, VALUES + 1, VALUES + 1), VALUES, dtype=np.int64)
    for descending in (0, 1):
        table = PARAMS.rank_table(bool(descending))
        for trump_value in range(1, VALUES + 1):
            ranks[descending, trump_value] = table[trump_value]
    return ranks


RANKS = _ranks()

# Scalars, then blocks of SEATS entries, then the trump pile (bottom first).
(
    N,
    PHASE,
    TO_MOVE,
    DEALT,
    END_PHASE,
    LEADER,
    WINNER,
    TRICK_LEN,
    TRICK_SIZE,
    REFILL_NEXT,
    REFILL_LEFT,
    POOL,
    PILE,
    START,
    DESCENDING,
    STEPS,
    PLAYED,
) = range(17)
ORDER = 17
TRICK = ORDER + SEATS
HANDS = TRICK + SEATS
KNOWN = HANDS + SEATS
CAPTURED = KNOWN + SEATS
SCORES = CAPTURED + SEATS
TRUMPS = SCORES + SEATS
SIZE = TRUMPS + NUM_CARDS + 1

ALL_CARDS = (1 << NUM_CARDS) - 1


# ---------------------------------------------------------------------- set-up and conversion
@kernel
def new(players: int, start_player: int, descending: bool) -> np.ndarray:
    """The state before the deal (a chance node)."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[N] = players
    s[PHASE] = DEAL
    s[TO_MOVE] = CHANCE
    s[POOL] = ALL_CARDS
    s[START] = start_player
    s[DESCENDING] = 1 if descending else 0
    s[LEADER] = -1
    s[WINNER] = -1
    return s


def initial(game: WitchesGame, players: int) -> np.ndarray:
    """The kernel array of `game.new_state(players)` (options read from the game)."""
    game.new_state(players, seed=0)  # checks the player count against the options
    return new(players, int(game.options["start_player"]), game.descending)


def mask(cards: object) -> int:
    out = 0
    for card in cards:  # type: ignore[attr-defined]
        out |= 1 << card
    return out


def from_state(state: WitchesState) -> np.ndarray:
    """The kernel array of a scalar state (the same game from here on)."""
    s = np.zeros(SIZE, dtype=np.int64)
    n = state.num_players
    s[N] = n
    s[PHASE] = state.phase
    to_move = state.to_move
    assert isinstance(to_move, int)
    s[TO_MOVE] = to_move
    s[DEALT] = state.dealt
    s[END_PHASE] = int(state.end_phase)
    s[LEADER] = state.leader
    s[WINNER] = state.trick_winner
    s[TRICK_LEN] = len(state.trick_cards)
    s[TRICK_SIZE] = len(state.trick_order)
    queue = state.refill_queue
    s[REFILL_NEXT] = queue[0] if queue else 0
    s[REFILL_LEFT] = len(queue)
    s[POOL] = mask(state.pool)
    s[PILE] = len(state.trump_pile)
    s[START] = int(state.game.options["start_player"])
    s[DESCENDING] = int(state.game.descending)
    s[STEPS] = len(state.history)
    s[PLAYED] = mask(c for _, cards, _, _, _ in state.tricks for c in cards)
    for i, seat in enumerate(state.trick_order):
        s[ORDER + i] = seat
    for i, card in enumerate(state.trick_cards):
        s[TRICK + i] = card
    for p in range(n):
        s[HANDS + p] = mask(state.hands[p])
        s[KNOWN + p] = mask(state.known[p])
        s[CAPTURED + p] = mask(state.captured[p])
        s[SCORES + p] = state.scores[p]
    for i, card in enumerate(state.trump_pile):
        s[TRUMPS + i] = card
    return s


# ---------------------------------------------------------------------- legal actions
@inline_kernel
def legal(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal action ids (of whoever is to move, or the chance outcomes) into `out`;
    returns how many. The order is `WitchesState.legal_ids`'s."""
    phase = s[PHASE]
    count = 0
    if phase == PLAY_CARDS:
        cards = s[HANDS + s[TO_MOVE]]  # no duty to follow colour [seed]
    elif phase == CHOOSE_TRUMP:
        out[0] = KEEP_TRUMP
        for i in range(s[TRICK_LEN]):
            out[1 + i] = CHANGE_TRUMP + s[TRICK + i]
        return 1 + s[TRICK_LEN]
    elif phase == OVER:
        return 0
    else:
        cards = s[POOL]
    offset = 0 if phase == PLAY_CARDS else DRAW
    while cards:
        out[count] = offset + lowest_bit(cards)
        cards &= cards - 1
        count += 1
    return count


@inline_kernel
def chance_from(s: np.ndarray, u: float) -> int:
    """The pending chance draw for a uniform number `u` in [0, 1): a card from the pool."""
    pool = s[POOL]
    return DRAW + nth_bit(pool, int(u * popcount(pool)))


@inline_kernel
def sample_chance(s: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random card from the pool (the pending chance draw)."""
    return chance_from(s, uniform(rng))


# ---------------------------------------------------------------------- applying actions
@inline_kernel
def apply(s: np.ndarray, action: int) -> None:
    """Apply a legal action of whoever is to move (chance included)."""
    s[STEPS] += 1
    phase = s[PHASE]
    if phase == PLAY_CARDS:
        play_card(s, s[TO_MOVE], action)
    elif phase == CHOOSE_TRUMP:
        choose_trump(s, action)
    else:
        draw_card(s, action - DRAW)


@inline_kernel
def draw_card(s: np.ndarray, card: int) -> None:
    bit = 1 << card
    s[POOL] &= ~bit
    phase = s[PHASE]
    n = s[N]
    if phase == DEAL:
        s[HANDS + s[DEALT] % n] |= bit  # one at a time round the table [seed]
        s[DEALT] += 1
        if s[DEALT] == HAND * n:
            s[PHASE] = TURN_UP
    elif phase == TURN_UP:
        s[TRUMPS] = card  # the card turned up sets trump [seed]
        s[PILE] = 1
        _start_trick(s, s[START])
    else:
        s[HANDS + s[REFILL_NEXT]] |= bit
        s[REFILL_NEXT] = (s[REFILL_NEXT] + 1) % n
        s[REFILL_LEFT] -= 1
        _continue_refill(s)


@inline_kernel
def _start_trick(s: np.ndarray, first: int) -> None:
    """`first` leads, or the next player clockwise who still has cards. [design]"""
    n = s[N]
    size = 0
    for k in range(n):
        p = (first + k) % n
        if s[HANDS + p]:
            s[ORDER + size] = p
            size += 1
    if size == 0:
        s[PHASE] = OVER
        s[TO_MOVE] = TERMINAL
        return
    s[TRICK_SIZE] = size
    s[TRICK_LEN] = 0
    s[LEADER] = s[ORDER]
    s[PHASE] = PLAY_CARDS
    s[TO_MOVE] = s[ORDER]


@inline_kernel
def play_card(s: np.ndarray, player: int, card: int) -> None:
    bit = 1 << card
    s[HANDS + player] &= ~bit
    s[KNOWN + player] &= ~bit
    length = s[TRICK_LEN]
    s[TRICK + length] = card
    length += 1
    s[TRICK_LEN] = length
    if length < s[TRICK_SIZE]:
        s[TO_MOVE] = s[ORDER + length]
        return
    winner = s[ORDER + _winning_index(s)]
    s[WINNER] = winner
    if s[END_PHASE]:
        empty = True
        for p in range(s[N]):
            if s[HANDS + p]:
                empty = False
        if empty:  # the last card is played: the game ends, no trump change [seed][design]
            _capture(s, winner, -1)
            s[PHASE] = OVER
            s[TO_MOVE] = TERMINAL
            return
    s[PHASE] = CHOOSE_TRUMP
    s[TO_MOVE] = winner


@inline_kernel
def takes_the_lead(
    colour: int, rank: int, trump_colour: int, led: int, best_rank: int, best_is_trump: bool
) -> bool:
    """Whether a card (its colour and place on the wheel, 0 = highest) beats the trick's best
    card so far (its place, whether it is trump): highest trump wins; without trump, the
    highest card of the led colour. [seed]"""
    if colour == trump_colour:
        return not best_is_trump or rank < best_rank
    return colour == led and not best_is_trump and rank < best_rank


@inline_kernel
def trick_standing(s: np.ndarray) -> tuple[int, int, bool, int]:
    """The trick so far: the index of the card that wins it as it stands, that card's place on
    the wheel and whether it is trump, and the trick's points (`takes_the_lead`)."""
    top = s[TRUMPS + s[PILE] - 1]
    trump_colour = top // VALUES
    row = top % VALUES + 1
    descending = s[DESCENDING]
    led = s[TRICK] // VALUES
    best, best_rank, best_is_trump, points = 0, VALUES + 1, False, 0
    for index in range(s[TRICK_LEN]):
        card = s[TRICK + index]
        colour, value = card // VALUES, card % VALUES + 1
        points += value
        rank = RANKS[descending, row, value]
        if takes_the_lead(colour, rank, trump_colour, led, best_rank, best_is_trump):
            best, best_rank, best_is_trump = index, rank, colour == trump_colour
    return best, best_rank, best_is_trump, points


@inline_kernel
def _winning_index(s: np.ndarray) -> int:
    """Which card of the complete trick wins it (`trick_standing`)."""
    return trick_standing(s)[0]


@inline_kernel
def choose_trump(s: np.ndarray, action: int) -> None:
    new_trump = -1
    if action != KEEP_TRUMP:
        new_trump = action - CHANGE_TRUMP
        s[TRUMPS + s[PILE]] = new_trump
        s[PILE] += 1
    winner = s[WINNER]
    _capture(s, winner, new_trump)
    if s[END_PHASE]:
        _start_trick(s, winner)  # in the end phase nobody draws [seed]
        return
    s[REFILL_NEXT] = winner  # everybody draws, the winner first, then clockwise [seed]
    s[REFILL_LEFT] = s[N]
    s[PHASE] = REFILL
    _continue_refill(s)


@inline_kernel
def _capture(s: np.ndarray, winner: int, new_trump: int) -> None:
    for i in range(s[TRICK_LEN]):
        card = s[TRICK + i]
        s[PLAYED] |= 1 << card
        if card != new_trump:
            s[CAPTURED + winner] |= 1 << card
            s[SCORES + winner] += card % VALUES + 1
    s[TRICK_LEN] = 0


@inline_kernel
def _continue_refill(s: np.ndarray) -> None:
    n = s[N]
    while s[REFILL_LEFT] > 0:
        if s[POOL]:
            s[TO_MOVE] = CHANCE
            return
        player = s[REFILL_NEXT]
        s[REFILL_NEXT] = (player + 1) % n
        s[REFILL_LEFT] -= 1
        if s[PILE] > 1:  # the trump pile's top is taken face up; its last card stays [seed]
            s[PILE] -= 1
            bit = 1 << s[TRUMPS + s[PILE]]
            s[HANDS + player] |= bit
            s[KNOWN + player] |= bit
    if s[POOL] == 0:
        s[END_PHASE] = 1
    _start_trick(s, s[WINNER])


# ---------------------------------------------------------------------- outcome
@kernel
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """1 shared equally among the top scorers at the end, 0 for everybody before it."""
    n = s[N]
    out[:n] = 0.0
    if s[TO_MOVE] != TERMINAL:
        return
    best = s[SCORES]
    for p in range(1, n):
        best = max(best, s[SCORES + p])
    winners = 0
    for p in range(n):
        if s[SCORES + p] == best:
            winners += 1
    for p in range(n):
        if s[SCORES + p] == best:
            out[p] = 1.0 / winners


# ---------------------------------------------------------------------- search
@kernel
def determinize(s: np.ndarray, seat: int, rng: np.ndarray) -> None:
    """Deal everything `seat` has not seen afresh, in place: the pile and the cards other seats
    drew face down and still hold, uniformly, each hand keeping its size and its face-up cards
    (the distribution of `WitchesState.resample` over the cards in play)."""
    n = s[N]
    unseen = s[POOL]
    counts = np.zeros(SEATS, dtype=np.int64)
    for q in range(n):
        if q != seat:
            hidden = s[HANDS + q] & ~s[KNOWN + q]
            counts[q] = popcount(hidden)
            unseen |= hidden
            s[HANDS + q] &= ~hidden
    cards = np.empty(NUM_CARDS, dtype=np.int64)
    total = 0
    while unseen:
        cards[total] = lowest_bit(unseen)
        unseen &= unseen - 1
        total += 1
    for i in range(total - 1, 0, -1):  # Fisher-Yates
        j = int(uniform(rng) * (i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    k = 0
    for q in range(n):
        for _ in range(counts[q]):
            s[HANDS + q] |= 1 << cards[k]
            k += 1
    pool = 0
    for i in range(k, total):
        pool |= 1 << cards[i]
    s[POOL] = pool


@inline_kernel
def shuffle_pile(pool: int, order: np.ndarray, rng: np.ndarray) -> int:
    """The face-down pile's cards into `order`, shuffled (Fisher-Yates); returns how many. A
    rollout draws from its end: every card as likely as drawing each uniformly from what is
    left."""
    left = 0
    while pool:
        order[left] = lowest_bit(pool)
        pool &= pool - 1
        left += 1
    for i in range(left - 1, 0, -1):
        j = int(uniform(rng) * (i + 1))
        order[i], order[j] = order[j], order[i]
    return left


@kernel
def rollout(s: np.ndarray, rng: np.ndarray) -> int:
    """Play uniformly at random to the end, in place; returns the number of player decisions.

    The same choices as drawing from `legal` (a card of the hand, keep or a card of the trick,
    each uniformly), without building the lists; the pile is shuffled once and drawn in that
    order, which deals every card as likely as drawing each uniformly from what is left."""
    order = np.empty(64, dtype=np.int64)
    left = shuffle_pile(s[POOL], order, rng)
    decisions = 0
    while True:
        phase = s[PHASE]
        s[STEPS] += 1
        if phase == PLAY_CARDS:
            seat = s[TO_MOVE]
            hand = s[HANDS + seat]
            play_card(s, seat, nth_bit(hand, int(uniform(rng) * popcount(hand))))
            decisions += 1
        elif phase == CHOOSE_TRUMP:
            pick = int(uniform(rng) * (s[TRICK_LEN] + 1))
            choose_trump(s, KEEP_TRUMP if pick == 0 else CHANGE_TRUMP + s[TRICK + pick - 1])
            decisions += 1
        elif phase == OVER:
            s[STEPS] -= 1
            return decisions
        else:
            left -= 1
            draw_card(s, order[left])


# ---------------------------------------------------------------------- scores
@kernel
def scores(s: np.ndarray, out: np.ndarray) -> None:
    """Each seat's points so far."""
    for p in range(s[N]):
        out[p] = s[SCORES + p]


def max_game_steps(game: WitchesGame) -> int:
    """More actions than any game has: every card drawn, played and chosen as trump once."""
    return 4 * NUM_CARDS


# ---------------------------------------------------------------------- observations
# Offsets of the observation tensor's blocks (spielwerk/games/witches/observation.py).
_AT = observation.LAYOUT.offsets
O_HAND, O_KNOWN, O_CAPTURED, O_TRICK = (
    _AT["hand"],
    _AT["known_in_hands"],
    _AT["captured"],
    _AT["trick"],
)
O_PLAYED, O_TRUMP, O_TRUMP_PILE = _AT["played"], _AT["trump"], _AT["trump_pile"]
O_SIZES, O_SCORES, O_SEATED, O_TO_MOVE = (
    _AT["hand_sizes"],
    _AT["scores"],
    _AT["seated"],
    _AT["to_move"],
)
O_LEADER, O_WINNER, O_PHASE = _AT["leader"], _AT["trick_winner"], _AT["phase"]
O_PILE, O_END, O_WHEEL = _AT["draw_pile"], _AT["end_phase"], _AT["descending_wheel"]
OBSERVATION_SIZE = observation.LAYOUT.size
SCORE_SCALE = observation.SCORE_SCALE


@kernel
def _put_cards(out: np.ndarray, at: int, cards: int) -> None:
    while cards:
        out[at + lowest_bit(cards)] = 1.0
        cards &= cards - 1


@kernel
def observe(s: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """The observation tensor of seat `viewer` (exactly `WitchesState.observation_tensor`,
    which encodes the seat's view: only what it may know), written into `out`."""
    n = s[N]
    out[:] = 0.0
    _put_cards(out, O_HAND, s[HANDS + viewer])
    for p in range(n):
        rel = (p - viewer) % n
        _put_cards(out, O_KNOWN + rel * NUM_CARDS, s[KNOWN + p])
        _put_cards(out, O_CAPTURED + rel * NUM_CARDS, s[CAPTURED + p])
        out[O_SIZES + rel] = popcount(s[HANDS + p]) / HAND
        out[O_SCORES + rel] = s[SCORES + p] / SCORE_SCALE
        out[O_SEATED + rel] = 1.0
    phase = s[PHASE]
    if phase == PLAY_CARDS or phase == CHOOSE_TRUMP:  # noqa: SIM109 - plain ints for Numba
        for i in range(s[TRICK_LEN]):
            rel = (s[ORDER + i] - viewer) % n
            out[O_TRICK + rel * NUM_CARDS + s[TRICK + i]] = 1.0
        out[O_LEADER + (s[LEADER] - viewer) % n] = 1.0
    if phase == CHOOSE_TRUMP:
        out[O_WINNER + (s[WINNER] - viewer) % n] = 1.0
    _put_cards(out, O_PLAYED, s[PLAYED])
    for i in range(s[PILE]):
        out[O_TRUMP_PILE + s[TRUMPS + i]] = 1.0
    if s[PILE]:
        out[O_TRUMP + s[TRUMPS + s[PILE] - 1]] = 1.0
    to_move = s[TO_MOVE]
    if to_move >= 0:
        out[O_TO_MOVE + (to_move - viewer) % n] = 1.0
    elif to_move == CHANCE:
        out[O_TO_MOVE + SEATS] = 1.0
    else:
        out[O_TO_MOVE + SEATS + 1] = 1.0
    out[O_PHASE + phase] = 1.0
    out[O_PILE] = popcount(s[POOL]) / NUM_CARDS
    out[O_END] = 1.0 if s[END_PHASE] else 0.0
    out[O_WHEEL] = 1.0 if s[DESCENDING] else 0.0


RULES = KernelRules(
    name="witches",
    size=SIZE,
    to_move_at=TO_MOVE,
    steps_at=STEPS,
    first_chance_id=DRAW,
    max_legal=MAX_LEGAL,
    legal=seated(legal),
    apply=apply,
    sample_chance=sample_chance,
    scores=scores,
    returns=returns,
    determinize=determinize,
    rollout=rollout,
    initial=initial,
    from_state=from_state,
    max_game_steps=max_game_steps,
    observe=observe,
    observation_size=OBSERVATION_SIZE,
)
