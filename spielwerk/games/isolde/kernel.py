"""Die Holde Isolde as a compiled kernel (Numba): the hot path of search and self-play.

A state is one flat int64 array (`SIZE` entries): the deck still to deal as a mask of card
ids (bit `c` = card `c`, the cards of a kind next to each other), each seat's packet, picks and
hand as one int64 of counts per kind (2 bits a kind: no kind has more than three cards), each
board's distances and stack order, the scores and the Isolde moves still to make, and this
round's record: the packet dealt to each seat, each seat's pick at each draft step and the cards
each has played (what a determinization reads, and only that). The kinds a
seat holds are then a bit mask, so listing or drawing a move visits only the kinds held, and a
card is dealt by drawing a card id (no scan over the kinds). The rules are those of `state.py`,
which stays the reference: `tests/kernels/test_kernel_equivalence.py` steps both engines side
by side over thousands of seeded games at every player count and every option, comparing the
legal actions (same order as `legal_ids`), who is to move and the scores at every step.

A search deals what its seat cannot know afresh in the kernel array, with `determinize` in
`kernel_hidden.py` (the reference sampler `hidden.py` on the round's record kept here).
"""

from __future__ import annotations

import numpy as np

from spielwerk.core.kernel import inline_kernel, kernel
from spielwerk.core.kernel_game import SIMULTANEOUS
from spielwerk.core.kernel_ops import (
    lowest_bit,
    nth_bit,
    popcount,
    uniform,
    uniform_index,
)
from spielwerk.core.state import CHANCE, TERMINAL
from spielwerk.games.isolde.actions import (
    BONUS,
    DEAL,
    GO_ON_TOP,
    KEEP,
    KEEP_ORDER,
    NUM_BOARDS,
    NUM_KINDS,
    PLAY,
    PLAY_ID,
    PLAY_PAIRS,
    TOP_BOARDS,
)
from spielwerk.games.isolde.game import IsoldeGame
from spielwerk.games.isolde.params import (
    MOVES,
    PARAMS,
    PENALTIES,
    PLACES,
    RESET_SPREAD,
    RESET_START,
    SPACES,
)
from spielwerk.games.isolde.state import (
    BONUS_MOVES,
    DEALING,
    DRAFTING,
    OVER,
    PLAYING,
    TIEBREAK,
    IsoldeState,
)

SEATS = PARAMS.max_players
HAND = PARAMS.hand_size
DECK_SIZE = PARAMS.deck_size
DRAFT_PICKS = HAND - 1
ROUNDS = PARAMS.rounds
RESET_AFTER = PARAMS.reset_after_round
CARDS_KEPT = HAND - PARAMS.cards_played
BOARDS = PARAMS.boards
ISOLDE = next(i for i, b in enumerate(BOARDS) if b.scoring == MOVES)
QUEST = PARAMS.board_index("quest")
MAX_LEGAL = 64

_SCORING = {MOVES: 0, PLACES: 1, PENALTIES: 2, SPACES: 3}
SCORING = np.array([_SCORING[b.scoring] for b in BOARDS], dtype=np.int64)
TABLE = np.zeros((NUM_BOARDS, 4), dtype=np.int64)
TABLE_LEN = np.array([len(b.table) for b in BOARDS], dtype=np.int64)
SPACE_FROM = np.zeros((NUM_BOARDS, 4), dtype=np.int64)
SPACE_POINTS = np.zeros((NUM_BOARDS, 4), dtype=np.int64)
SPACE_LEN = np.array([len(b.space_points) for b in BOARDS], dtype=np.int64)
for _b, _board in enumerate(BOARDS):
    TABLE[_b, : len(_board.table)] = _board.table
    for _i, (_from, _points) in enumerate(_board.space_points):
        SPACE_FROM[_b, _i] = _from
        SPACE_POINTS[_b, _i] = _points
AWARD = np.zeros((SEATS + 1, NUM_BOARDS, SEATS + 1), dtype=np.int64)
"""`AWARD[n, board, place]`: a place's points at n players, 0 past the rewarded places (the
last place never is), so a scoring loop adds them without a branch."""
for _n in range(SEATS + 1):
    for _b, _board in enumerate(BOARDS):
        for _place in range(min(len(_board.table), _n - 1)):
            AWARD[_n, _b, _place] = _board.table[_place]
SCORED_AFTER = np.array([sum(1 << r for r in b.scored_after) for b in BOARDS], dtype=np.int64)
BOARD_SPACES = np.array([b.spaces for b in BOARDS], dtype=np.int64)
CAPPED = np.array([int(b.cap) for b in BOARDS], dtype=np.int64)
LIMIT = np.where(CAPPED == 1, BOARD_SPACES, 1 << 40)
"""How far a disc may go on each board: the king's last space, else (as good as) no limit."""
_RESET = {RESET_START: 0, RESET_SPREAD: 1}
RESET = np.array([_RESET.get(b.reset, 2) for b in BOARDS], dtype=np.int64)
ADVANCED_RESET = np.array([_RESET.get(b.advanced_reset, 2) for b in BOARDS], dtype=np.int64)
VALUE = np.array([kind.value for kind in PARAMS.kinds], dtype=np.int64)

# A seat's card set: 2 bits of count per kind, kind k at bits 2k and 2k+1 (one card: 1 << 2k).
LOW_BITS = sum(1 << 2 * k for k in range(NUM_KINDS))
"""The low bit of every kind's count."""
assert max(PARAMS.deck) <= 3  # a kind's count fits its 2 bits, in any set of one round
# The deck: one bit per card, card ids grouped by kind (kind 0's cards first).
KIND_OF_CARD = np.array(
    [k for k, count in enumerate(PARAMS.deck) for _ in range(count)], dtype=np.int64
)
KIND_CARDS = np.array(
    [sum(1 << c for c, kind in enumerate(KIND_OF_CARD) if kind == k) for k in range(NUM_KINDS)],
    dtype=np.int64,
)
FULL_DECK = (1 << DECK_SIZE) - 1
assert DECK_SIZE < 63
PLAYS_OF = np.full((NUM_KINDS, 2), -1, dtype=np.int64)
for _k, _kind in enumerate(PARAMS.kinds):
    for _i, _board_index in enumerate(_kind.boards):
        PLAYS_OF[_k, _i] = PLAY_ID[_k, _board_index]
WAYS = np.array([len(kind.boards) for kind in PARAMS.kinds], dtype=np.int64)
"""The play actions of a card of each kind: one per board it may move on."""
SECOND_WAY = sum(1 << 2 * k for k in range(NUM_KINDS) if WAYS[k] == 2)
"""The low bit of every kind that may move on two boards (combat: joust or tourney)."""
PLAY_OF_BIT = PLAYS_OF.reshape(-1).copy()
"""The play action of bit `2k + w` of a hand's plays (`_plays`): kind k on its w-th board."""
PLAY_KIND = np.array([k for k, _ in PLAY_PAIRS], dtype=np.int64)
PLAY_BOARD = np.array([b for _, b in PLAY_PAIRS], dtype=np.int64)
TOP = np.array(TOP_BOARDS, dtype=np.int64)
DIRECTIONS = np.array(PARAMS.pass_directions, dtype=np.int64)
assert set(PARAMS.pass_directions) <= {1, -1}

(
    N,
    PHASE,
    TO_MOVE,
    DECIDING,
    ROUND,
    START_PLAYER,
    FIRST_START,
    DECK_LEFT,
    DRAFT_STEP,
    TIEBREAK_RULE,
    SETBACK_RULE,
    RESET_RULE,
    QUEST_FIRST,
    STEPS,
    BONUS_LEFT,
    SETBACK_LEFT,
    POOL,
    DEAL_TO,
) = range(18)
"""`POOL`: the cards still to deal (a mask of card ids); `DEAL_TO`: who gets the next one."""
PACKETS = 18  # per seat, a card set (counts per kind)
KEPT = PACKETS + SEATS
HANDS = KEPT + SEATS
DIST = HANDS + SEATS  # per board, per seat
ORDER = DIST + NUM_BOARDS * SEATS  # per board, rearmost first
SCORES = ORDER + NUM_BOARDS * SEATS
BONUS_QUEUE = SCORES + SEATS  # (seat, place, steps) x 3, next first
SETBACK = BONUS_QUEUE + 3 * SEATS  # seats, front first
# This round's draft and play, as the determinization reads them (`kernel_hidden.py`); zero
# while the round's deal lasts and once the game is over.
DEALT = SETBACK + SEATS  # per seat, the card set dealt to it, from the end of the deal on
PICKS = DEALT + SEATS  # step * SEATS + seat: the kind that seat kept at that draft step
PLAYED = PICKS + DRAFT_PICKS * SEATS  # per seat, the card set it has played this round
SIZE = PLAYED + SEATS


@kernel
def new(
    players: int,
    start_player: int,
    tiebreak: bool,
    setback: bool,
    reset: bool,
    quest_first: int,
) -> np.ndarray:
    """The state before the first deal (a chance node)."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[N] = players
    s[FIRST_START] = start_player
    s[TIEBREAK_RULE] = tiebreak
    s[SETBACK_RULE] = setback
    s[RESET_RULE] = reset
    s[QUEST_FIRST] = quest_first
    for b in range(NUM_BOARDS):
        for p in range(players):
            s[ORDER + b * SEATS + p] = p  # at the start the order does not matter: seat order
    _begin_round(s)
    return s


def initial(game: IsoldeGame, players: int) -> np.ndarray:
    """The kernel array of `game.new_state(players)` (options read from the game)."""
    game.new_state(players, seed=0)  # checks the player count against the options
    return new(
        players,
        game.first_start_player,
        game.tiebreak_rule,
        game.setback_rule,
        game.reset_rule,
        game.tables[QUEST][0],
    )


def from_state(state: IsoldeState) -> np.ndarray:
    """The kernel array of a scalar state."""
    game = state.game
    n = state.num_players
    s = np.zeros(SIZE, dtype=np.int64)
    s[N] = n
    s[PHASE] = state.phase
    to_move = state.to_move
    if isinstance(to_move, frozenset):
        s[TO_MOVE] = SIMULTANEOUS
        s[DECIDING] = sum(1 << p for p in to_move)
    else:
        s[TO_MOVE] = to_move
    s[ROUND] = state.round
    s[START_PLAYER] = state.start_player
    s[FIRST_START] = game.first_start_player
    s[DECK_LEFT] = state.deck_left
    s[DRAFT_STEP] = state.draft_step
    s[TIEBREAK_RULE] = game.tiebreak_rule
    s[SETBACK_RULE] = game.setback_rule
    s[RESET_RULE] = game.reset_rule
    s[QUEST_FIRST] = game.tables[QUEST][0]
    s[STEPS] = len(state.history)
    pool = 0
    for k, count in enumerate(state.pool):  # which cards of a kind are left does not matter
        for c in [c for c in range(DECK_SIZE) if KIND_OF_CARD[c] == k][:count]:
            pool |= 1 << c
    s[POOL] = pool
    s[DEAL_TO] = (state.start_player + DECK_SIZE - state.deck_left) % n
    for p in range(n):
        for block, cards in ((PACKETS, state.packets), (KEPT, state.kept), (HANDS, state.hands)):
            for kind in cards[p]:
                s[block + p] += 1 << 2 * kind
        s[SCORES + p] = state.scores[p]
    for b in range(NUM_BOARDS):
        for p in range(n):
            s[DIST + b * SEATS + p] = state.dist[b][p]
            s[ORDER + b * SEATS + p] = state.order[b][p]
    s[BONUS_LEFT] = len(state.bonus_queue)
    for i, entry in enumerate(state.bonus_queue):
        s[BONUS_QUEUE + 3 * i : BONUS_QUEUE + 3 * i + 3] = entry
    s[SETBACK_LEFT] = len(state.setback_seats)
    for i, seat in enumerate(state.setback_seats):
        s[SETBACK + i] = seat
    if state.phase != OVER:
        _round_from_history(s, state)
    return s


def _round_from_history(s: np.ndarray, state: IsoldeState) -> None:
    """`DEALT`, `PICKS` and `PLAYED` from the current round's history, as `apply` keeps them."""
    n = state.num_players
    start = state.round_starts[-1]
    round_history = state.history[start:]
    deal_size = HAND * n
    if len(round_history) < deal_size:
        return
    for i in range(deal_size):
        s[DEALT + (state.start_player + i) % n] += 1 << 2 * (round_history[i][1] - DEAL)
    for i, (actor, action_id) in enumerate(round_history[deal_size : deal_size + DRAFT_PICKS * n]):
        s[PICKS + (i // n) * SEATS + actor] = (action_id - KEEP) % NUM_KINDS
    for actor, action_id in round_history[deal_size + DRAFT_PICKS * n :]:
        if PLAY <= action_id < BONUS:
            s[PLAYED + actor] += 1 << 2 * PLAY_KIND[action_id - PLAY]


# ---------------------------------------------------------------------- card sets
@inline_kernel
def _kinds(cards: int) -> int:
    """The kinds in a card set as a mask: bit 2k set if it holds kind k."""
    return (cards | (cards >> 1)) & LOW_BITS


@inline_kernel
def _size(cards: int) -> int:
    """The number of cards in a card set."""
    return popcount(cards & LOW_BITS) + 2 * popcount((cards >> 1) & LOW_BITS)


@inline_kernel
def _plays(cards: int) -> int:
    """A hand's play actions as a mask: bit 2k for kind k on its first board, bit 2k+1 on its
    second; in `legal`'s order, so its n-th set bit is `legal`'s n-th play (`PLAY_OF_BIT`)."""
    kinds = _kinds(cards)
    return kinds | (kinds & SECOND_WAY) << 1


# ---------------------------------------------------------------------- legal actions
@inline_kernel
def _can_go_on_top(s: np.ndarray, board: int) -> bool:
    """The start player's disc shares a space (not the start) with a disc above it."""
    seat = s[START_PLAYER]
    row = DIST + board * SEATS
    here = s[row + seat]
    if here == 0:
        return False
    order = ORDER + board * SEATS
    above = False
    for i in range(s[N]):
        other = s[order + i]
        if above and s[row + other] == here:
            return True
        if other == seat:
            above = True
    return False


@inline_kernel
def legal(s: np.ndarray, seat: int, out: np.ndarray) -> int:
    """The legal action ids of `seat` (of whoever is to move if only one is), or the chance
    outcomes at a chance node, in `legal_ids` order. `out` needs room for `MAX_LEGAL` ids
    (the play's list may write one scratch id past its end)."""
    phase = s[PHASE]
    count = 0
    if phase == DEALING:
        for k in range(NUM_KINDS):
            if s[POOL] & KIND_CARDS[k]:
                out[count] = DEAL + k
                count += 1
    elif phase == DRAFTING:
        if not (s[DECIDING] >> seat) & 1:
            return 0
        kinds = _kinds(s[PACKETS + seat])
        while kinds:
            out[count] = KEEP + seat * NUM_KINDS + (lowest_bit(kinds) >> 1)
            count += 1
            kinds &= kinds - 1
    elif phase == PLAYING:
        kinds = _kinds(s[HANDS + s[TO_MOVE]])
        while kinds:
            k = lowest_bit(kinds) >> 1
            out[count] = PLAYS_OF[k, 0]
            out[count + 1] = PLAYS_OF[k, 1]  # no branch: counted only if the kind has two
            count += WAYS[k]
            kinds &= kinds - 1
    elif phase == TIEBREAK:
        for i in range(TOP.shape[0]):
            if _can_go_on_top(s, TOP[i]):
                out[count] = GO_ON_TOP + i
                count += 1
        out[count] = KEEP_ORDER
        count += 1
    elif phase == BONUS_MOVES:
        for b in range(NUM_BOARDS):
            out[b] = BONUS + b  # an Isolde move may go to any board [seed]
        count = NUM_BOARDS
    return count


@inline_kernel
def deciding(s: np.ndarray) -> int:
    """The seats still to pick at a draft step (`to_move` is `SIMULTANEOUS`), as a mask."""
    return s[DECIDING]


@inline_kernel
def sample_chance(s: np.ndarray, rng: np.ndarray) -> int:
    """The next card dealt: a uniform card id of the whole deck, drawn again until it is one
    still to deal (a uniform card of those left; more than half of the 52 are, so fewer than two
    draws on average). Its kind is dealt: the cards of a kind are alike."""
    pool = s[POOL]
    while True:
        card = int(uniform(rng) * DECK_SIZE)
        if (pool >> card) & 1:
            return DEAL + KIND_OF_CARD[card]


# ---------------------------------------------------------------------- applying actions
@inline_kernel
def apply(s: np.ndarray, action: int) -> None:
    """Apply a legal action (a draft pick names its seat; otherwise whoever is to move)."""
    s[STEPS] += 1
    phase = s[PHASE]
    if phase == DEALING:
        _deal(s, action - DEAL)
    elif phase == DRAFTING:
        seat = (action - KEEP) // NUM_KINDS
        _keep(s, seat, (action - KEEP) % NUM_KINDS)
    elif phase == PLAYING:
        _play(s, s[TO_MOVE], PLAY_KIND[action - PLAY], PLAY_BOARD[action - PLAY])
    elif phase == TIEBREAK:
        if action != KEEP_ORDER:
            board = TOP[action - GO_ON_TOP]
            seat = s[START_PLAYER]
            _set_disc(s, board, seat, s[DIST + board * SEATS + seat], True)
        _begin_isolde_scoring(s)
    else:
        _bonus_move(s, action - BONUS)


@inline_kernel
def _begin_round(s: np.ndarray) -> None:
    """A new round: the start player passes to the left, all cards are shuffled back. [seed]"""
    n = s[N]
    s[ROUND] += 1
    s[START_PLAYER] = (s[FIRST_START] + s[ROUND] - 1) % n
    s[POOL] = FULL_DECK
    s[DECK_LEFT] = DECK_SIZE
    s[DEAL_TO] = s[START_PLAYER]
    s[PACKETS:DIST] = 0
    for i in range(DEALT, SIZE):
        s[i] = 0
    s[DRAFT_STEP] = 0
    s[BONUS_LEFT] = 0
    s[SETBACK_LEFT] = 0
    s[PHASE] = DEALING
    s[TO_MOVE] = CHANCE
    s[DECIDING] = 0


@inline_kernel
def _deal(s: np.ndarray, kind: int) -> None:
    n = s[N]
    receiver = s[DEAL_TO]  # one card at a time, from the start player on
    s[DEAL_TO] = receiver + 1 if receiver + 1 < n else 0
    cards = s[POOL] & KIND_CARDS[kind]
    s[POOL] ^= cards & -cards  # which card of the kind goes does not matter
    s[DECK_LEFT] -= 1
    s[PACKETS + receiver] += 1 << 2 * kind
    if s[DECK_LEFT] == DECK_SIZE - HAND * n:
        _end_deal(s)


@inline_kernel
def _end_deal(s: np.ndarray) -> None:
    """Every seat holds its packet: the draft begins."""
    n = s[N]
    for p in range(n):  # a loop: Numba's slice copy costs 10% of a random game
        s[DEALT + p] = s[PACKETS + p]
    s[PHASE] = DRAFTING
    s[TO_MOVE] = SIMULTANEOUS
    s[DECIDING] = (1 << n) - 1


@inline_kernel
def _random_deal(s: np.ndarray, rng: np.ndarray, actions: np.ndarray | None, taken: int) -> int:
    """The rest of the deal at random, as `_deal` one card after another would deal it; returns
    the number of cards dealt. A card is the n-th of those left for a uniform n (`nth_bit`), so
    each kind comes as likely as `sample_chance` deals it, from one draw and without its
    retries; the deck, its size and the next receiver stay in registers until the end."""
    n = s[N]
    pool = s[POOL]
    left = s[DECK_LEFT]
    receiver = s[DEAL_TO]
    end = DECK_SIZE - HAND * n
    dealt = 0
    while left > end:
        card = nth_bit(pool, uniform_index(rng, left))
        pool ^= 1 << card
        left -= 1
        kind = KIND_OF_CARD[card]
        s[PACKETS + receiver] += 1 << 2 * kind
        receiver = receiver + 1 if receiver + 1 < n else 0
        if actions is not None:
            actions[taken + dealt] = DEAL + kind
        dealt += 1
    s[POOL] = pool
    s[DECK_LEFT] = left
    s[DEAL_TO] = receiver
    s[STEPS] += dealt
    _end_deal(s)
    return dealt


@inline_kernel
def _keep(s: np.ndarray, seat: int, kind: int) -> None:
    """Everybody keeps one card face down at once, then passes the rest. [seed]"""
    s[PACKETS + seat] -= 1 << 2 * kind
    s[KEPT + seat] += 1 << 2 * kind
    s[PICKS + s[DRAFT_STEP] * SEATS + seat] = kind
    s[DECIDING] &= ~(1 << seat)
    if not s[DECIDING]:
        _pass_packets(s)


@inline_kernel
def _pass_packets(s: np.ndarray) -> None:
    """Every seat has kept its card of the draft step: the packets pass on, and the next step
    begins or the play; one exit, as an inlined helper taking `s` needs."""
    n = s[N]
    if DIRECTIONS[(s[ROUND] - 1) % DIRECTIONS.shape[0]] > 0:  # +1 or -1 (params)
        last = s[PACKETS + n - 1]  # each seat gets the packet of the seat before it
        for p in range(n - 1, 0, -1):
            s[PACKETS + p] = s[PACKETS + p - 1]
        s[PACKETS] = last
    else:
        first = s[PACKETS]  # each seat gets the packet of the seat after it
        for p in range(n - 1):
            s[PACKETS + p] = s[PACKETS + p + 1]
        s[PACKETS + n - 1] = first
    s[DRAFT_STEP] += 1
    if s[DRAFT_STEP] < DRAFT_PICKS:
        s[DECIDING] = (1 << n) - 1
    else:
        # The last card passed on is kept without a choice; the five go to the hand. [seed]
        for p in range(n):
            s[HANDS + p] = s[KEPT + p] + s[PACKETS + p]  # counts add: no kind overflows 2 bits
            s[KEPT + p] = 0
            s[PACKETS + p] = 0
        s[PHASE] = PLAYING
        s[TO_MOVE] = s[START_PLAYER]
        s[DECIDING] = 0


@inline_kernel
def _play(s: np.ndarray, seat: int, kind: int, board: int) -> None:
    s[HANDS + seat] -= 1 << 2 * kind
    s[PLAYED + seat] += 1 << 2 * kind
    _move(s, board, seat, VALUE[kind])
    n = s[N]
    last = s[START_PLAYER] - 1 if s[START_PLAYER] else n - 1  # the seat before the start
    if seat != last or _size(s[HANDS + seat]) > CARDS_KEPT:
        s[TO_MOVE] = seat + 1 if seat + 1 < n else 0
        return
    s[HANDS : HANDS + n] = 0  # the fifth card is discarded unseen [seed]
    _begin_scoring(s)


STACKED = 128
UNSEATED = 1 << 62
"""The key of a seat past the player count: above every disc's (`_order_from_keys`)."""
"""A disc's stack key (`_stack_keys`): distance * STACKED + the order it arrived in."""


@inline_kernel
def _stack_keys(s: np.ndarray, keys: np.ndarray) -> None:
    """Each disc's key, `keys[board * SEATS + seat]`: its distance times `STACKED` plus its place
    in its board's order. The order is the keys' order, and a disc that lands on top of a
    stack gets a key above all of its board's (`_random_plays`): no order to shift per move."""
    for board in range(NUM_BOARDS):
        row = DIST + board * SEATS
        order = ORDER + board * SEATS
        for i in range(s[N]):
            seat = s[order + i]
            keys[board * SEATS + seat] = s[row + seat] * STACKED + i


@inline_kernel
def _order_from_keys(s: np.ndarray, keys: np.ndarray, boards: int) -> None:
    """The stack order of each board in the mask `boards` from the discs' keys: a disc's place
    is the number of smaller keys (keys are distinct)."""
    n = s[N]
    while boards:
        board = lowest_bit(boards)
        boards &= boards - 1
        for seat in range(n):
            key = keys[board * SEATS + seat]
            place = 0
            for other in range(SEATS):  # a fixed count, unrolled: the keys past n are `UNSEATED`
                place += keys[board * SEATS + other] < key
            s[ORDER + board * SEATS + place] = seat


@inline_kernel
def _random_plays(
    s: np.ndarray,
    rng: np.ndarray,
    keys: np.ndarray,
    arrival: int,
    actions: np.ndarray | None,
    taken: int,
) -> tuple[int, int]:
    """The rest of the play phase at random, as `_play` one after another would play it (same
    draws, same moves), up to the scoring's start; returns the number of plays and the mask of
    the boards a disc moved on. The stack orders are kept as keys (`_stack_keys`, each below
    `arrival`, which the next disc to arrive takes, the one after `arrival + 1`, ...) and the
    caller writes them back (`_order_from_keys`) and
    begins the scoring: `_set_disc`'s search and shift, at every play, cost more than the rest
    of a play together."""
    moved = 0
    plays = 0
    n = s[N]
    last = s[START_PLAYER] - 1 if s[START_PLAYER] else n - 1  # the seat before the start
    seat = s[TO_MOVE]
    while True:
        ways = _plays(s[HANDS + seat])  # the draw `legal`'s list would give
        action = PLAY_OF_BIT[nth_bit(ways, uniform_index(rng, popcount(ways)))]
        if actions is not None:
            actions[taken + plays] = action
        plays += 1
        kind = PLAY_KIND[action - PLAY]
        board = PLAY_BOARD[action - PLAY]
        s[HANDS + seat] -= 1 << 2 * kind
        s[PLAYED + seat] += 1 << 2 * kind
        # `_move` without a branch on the board (a random one is a missed branch): forward,
        # the king's disc capped; a disc that stays (the king's at the end) keeps its key
        disc = board * SEATS + seat
        now = s[DIST + disc]
        target = min(now + VALUE[kind], LIMIT[board])
        keys[disc] = target * STACKED + arrival if target != now else keys[disc]
        s[DIST + disc] = target
        arrival += 1
        moved |= 1 << board
        # `_play`'s end of the round, written out: an inlined helper taking `s` with two
        # exits would cost an atomic reference count increment and decrement at every play
        if seat == last and _size(s[HANDS + seat]) <= CARDS_KEPT:
            break
        seat = seat + 1 if seat + 1 < n else 0
    s[TO_MOVE] = seat  # the last to play, as `_play` leaves it
    s[STEPS] += plays
    s[HANDS : HANDS + n] = 0  # the fifth card is discarded unseen [seed]
    return plays, moved


@inline_kernel
def _move(s: np.ndarray, board: int, seat: int, steps: int) -> None:
    """Forward, on top of any stack there; the king's disc stops at the last space. [seed]"""
    now = s[DIST + board * SEATS + seat]
    target = now + steps
    if CAPPED[board]:
        target = min(target, BOARD_SPACES[board])
    if target != now:
        _set_disc(s, board, seat, target, True)


@inline_kernel
def _move_back(s: np.ndarray, board: int, seat: int, steps: int) -> None:
    """Back, never behind the start, under any stack there. [design]"""
    now = s[DIST + board * SEATS + seat]
    target = max(0, now - steps)
    if target != now:
        _set_disc(s, board, seat, target, False)


@inline_kernel
def _set_disc(s: np.ndarray, board: int, seat: int, target: int, on_top: bool) -> None:
    """Move `seat`'s disc to `target`: on top of the discs there, or under them. The stack
    order (rearmost first) is always sorted by distance, and a disc goes on top only moving
    forward or staying (`_move`, advanced rule 1) and under only moving back: so `seat` only
    passes the discs between its old and new place, which slide one place towards its old one
    (one step of an insertion sort)."""
    n = s[N]
    row = DIST + board * SEATS
    order = ORDER + board * SEATS
    i = 0
    while s[order + i] != seat:
        i += 1
    if on_top:
        while i < n - 1 and s[row + s[order + i + 1]] <= target:
            s[order + i] = s[order + i + 1]
            i += 1
    else:
        while i > 0 and s[row + s[order + i - 1]] >= target:
            s[order + i] = s[order + i - 1]
            i -= 1
    s[order + i] = seat
    s[row + seat] = target


@inline_kernel
def _begin_scoring(s: np.ndarray) -> None:
    """Advanced rule 1: first the start player may go on top of its stack on one board. [seed]"""
    if s[TIEBREAK_RULE]:
        for i in range(TOP.shape[0]):
            if _can_go_on_top(s, TOP[i]):
                s[PHASE] = TIEBREAK
                s[TO_MOVE] = s[START_PLAYER]
                return
    _begin_isolde_scoring(s)


@inline_kernel
def _begin_isolde_scoring(s: np.ndarray) -> None:
    """Isolde first: 3rd, 2nd, 1st each move one own disc by 1, 2, 3 spaces. [seed]"""
    _queue_isolde_moves(s)
    # the first Isolde move's turn without calling `_next_bonus_move` (a call passing `s` costs
    # an atomic reference count increment and decrement); one exit, as an inlined helper needs
    if s[BONUS_LEFT]:
        s[PHASE] = BONUS_MOVES
        s[TO_MOVE] = s[BONUS_QUEUE]
    else:
        _next_bonus_move(s)


@inline_kernel
def _queue_isolde_moves(s: np.ndarray) -> None:
    """The Isolde moves due, queued: from the last rewarded place on. [seed]"""
    if (SCORED_AFTER[ISOLDE] >> s[ROUND]) & 1:
        rewarded = min(TABLE_LEN[ISOLDE], s[N] - 1)
        row = DIST + ISOLDE * SEATS
        order = ORDER + ISOLDE * SEATS
        count = 0
        for i in range(s[N] - 1, -1, -1):  # front first, the discs on the start unplaced [seed]
            seat = s[order + i]
            if count < rewarded and s[row + seat] > 0:
                s[SETBACK + count] = seat
                count += 1
        for place in range(count):
            back = count - 1 - place  # the queue runs from the last rewarded place
            s[BONUS_QUEUE + 3 * back] = s[SETBACK + place]
            s[BONUS_QUEUE + 3 * back + 1] = place
            s[BONUS_QUEUE + 3 * back + 2] = TABLE[ISOLDE, place]
        s[BONUS_LEFT] = count
        s[SETBACK_LEFT] = count


@kernel
def _next_bonus_move(s: np.ndarray) -> None:
    if s[BONUS_LEFT]:
        s[PHASE] = BONUS_MOVES
        s[TO_MOVE] = s[BONUS_QUEUE]
        return
    _end_isolde_moves(s)


@inline_kernel
def _end_isolde_moves(s: np.ndarray) -> None:
    """The Isolde moves made: advanced rule 2's setback, then the other boards' scoring."""
    if s[SETBACK_RULE]:
        # Advanced rule 2: who moved steps back 1 on Isolde's board, front first. [seed][design]
        movers = 0
        for i in range(s[SETBACK_LEFT]):
            movers |= 1 << s[SETBACK + i]
        order = ORDER + ISOLDE * SEATS
        count = 0
        for j in range(s[N] - 1, -1, -1):  # the front first, as the stack is before any moves
            if (movers >> s[order + j]) & 1:
                s[SETBACK + count] = s[order + j]
                count += 1
        for i in range(count):
            _move_back(s, ISOLDE, s[SETBACK + i], 1)
    s[SETBACK_LEFT] = 0
    _score_boards(s)


@inline_kernel
def _bonus_move(s: np.ndarray, board: int) -> None:
    _take_bonus_move(s, board)
    _next_bonus_move(s)


@inline_kernel
def _take_bonus_move(s: np.ndarray, board: int) -> None:
    """The next queued Isolde move, on `board`, and off the queue."""
    seat, steps = s[BONUS_QUEUE], s[BONUS_QUEUE + 2]
    left = s[BONUS_LEFT] - 1
    for i in range(3 * left):
        s[BONUS_QUEUE + i] = s[BONUS_QUEUE + 3 + i]
    s[BONUS_LEFT] = left
    _move(s, board, seat, steps)


@inline_kernel
def _score_boards(s: np.ndarray) -> None:
    """The other boards due this round, in the order of the data file."""
    n = s[N]
    for board in range(NUM_BOARDS):
        if not (SCORED_AFTER[board] >> s[ROUND]) & 1:
            continue
        scoring = SCORING[board]
        # the last place is never rewarded [seed] (`AWARD`)
        # (whether a disc is placed as a number: a branch on it is missed as often as not)
        if scoring == 1:  # places, front first, the discs on the start unplaced [seed]
            row = DIST + board * SEATS
            order = ORDER + board * SEATS
            first = s[QUEST_FIRST] if board == QUEST else AWARD[n, board, 0]
            place = 0  # the discs on the start are the rearmost: `place` counts those ahead
            for i in range(n - 1, -1, -1):
                seat = s[order + i]
                placed = int(s[row + seat] > 0)
                points = first if place == 0 else AWARD[n, board, place]
                s[SCORES + seat] += points * placed
                place += placed
        elif scoring == 2:  # penalties: the rearmost lose, the start space is last [seed]
            row = DIST + board * SEATS
            order = ORDER + board * SEATS
            given = 0  # 1 if a disc is on the start: the start space is the last place
            for p in range(n):
                on_start = int(s[row + p] == 0)
                s[SCORES + p] += TABLE[board, 0] * on_start
                given |= on_start
            for i in range(n):
                seat = s[order + i]
                placed = int(s[row + seat] > 0)
                s[SCORES + seat] += AWARD[n, board, given] * placed
                given += placed
        elif scoring == 3:  # points by space (the king)
            for p in range(n):
                distance = s[DIST + board * SEATS + p]
                points = 0
                for i in range(SPACE_LEN[board]):
                    if distance >= SPACE_FROM[board, i]:
                        points = SPACE_POINTS[board, i]
                s[SCORES + p] += points
    _end_round(s)


@inline_kernel
def _end_round(s: np.ndarray) -> None:
    """Reset after round 3; the game ends after round 6. [seed]"""
    if s[ROUND] == RESET_AFTER:
        _reset_boards(s)
    if s[ROUND] == ROUNDS:
        s[POOL] = FULL_DECK
        s[DECK_LEFT] = DECK_SIZE
        s[DEALT:SIZE] = 0  # the cards go back to the box, as in the reference engine
        s[PHASE] = OVER
        s[TO_MOVE] = TERMINAL
        return
    _begin_round(s)


@kernel
def _reset_boards(s: np.ndarray) -> None:
    n = s[N]
    for board in range(NUM_BOARDS):
        how = ADVANCED_RESET[board] if s[RESET_RULE] else RESET[board]
        row = DIST + board * SEATS
        if how == 0:
            for p in range(n):
                s[row + p] = 0
        elif how == 1:
            # Advanced rule 3: the last to the start, the next to space 1, ... [seed]
            order = ORDER + board * SEATS
            offset = 1 if s[row + s[order]] == 0 else 0
            for i in range(n):  # in place: each seat's distance is read before it is set
                seat = s[order + i]
                if s[row + seat] > 0:
                    s[row + seat] = offset
                    offset += 1


# ---------------------------------------------------------------------- outcome
@kernel
def scores(s: np.ndarray, out: np.ndarray) -> None:
    """Each seat's points so far."""
    for p in range(s[N]):
        out[p] = s[SCORES + p]


@kernel
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """1 shared among the winners: most points, then further ahead on Isolde's board. [seed]"""
    n = s[N]
    out[:n] = 0.0
    if s[TO_MOVE] != TERMINAL:
        return
    best = s[SCORES]
    for p in range(1, n):
        best = max(best, s[SCORES + p])
    keys = np.full(n, -1, dtype=np.int64)
    row = DIST + ISOLDE * SEATS
    order = ORDER + ISOLDE * SEATS
    for p in range(n):
        if s[SCORES + p] == best:
            distance = s[row + p]
            if distance == 0:
                keys[p] = 0
            else:
                for j in range(n):
                    if s[order + j] == p:
                        keys[p] = distance * 64 + j + 1
    lead = keys.max()
    winners = 0
    for p in range(n):
        if keys[p] == lead:
            winners += 1
    for p in range(n):
        if keys[p] == lead:
            out[p] = 1.0 / winners


@kernel
def _play_randomly(s: np.ndarray, rng: np.ndarray, actions: np.ndarray | None) -> int:
    """Play `s` to the end at random, in place: chance as likely as it is, every decision
    uniform among the legal ones (the draft's picks lowest seat first), each action id written
    into `actions` unless it is None (then Numba compiles the writes away); returns the number
    of player decisions.

    A phase is played in a loop of its own (a deal card after card, a draft pick after pick,
    a play after play) that calls its rule directly: the same moves as `apply` in turn, without
    going through `apply`'s dispatch at every step."""
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    keys = np.full(NUM_BOARDS * SEATS, UNSEATED, dtype=np.int64)
    return _play_randomly_with(s, rng, actions, out, keys)


@inline_kernel
def _play_randomly_with(
    s: np.ndarray, rng: np.ndarray, actions: np.ndarray | None, out: np.ndarray, keys: np.ndarray
) -> int:
    """`_play_randomly` with its scratch arrays given (a batch allocates them once, and calls
    no kernel with its reference counting per game): `out`, `MAX_LEGAL` ids; `keys`, the stack
    keys of `_random_plays`, `NUM_BOARDS * SEATS` of them, `UNSEATED` past the player count
    (they are kept so: only a game of the same player count may use them next)."""
    keyed = False  # whether `keys` are the discs' (as `_stack_keys` and later arrivals keep them)
    arrival = SEATS  # above the arrival part of every key
    taken = 0
    decisions = 0
    while True:
        phase = s[PHASE]
        if phase == DEALING:
            taken += _random_deal(s, rng, actions, taken)
        elif phase == DRAFTING:
            while s[PHASE] == DRAFTING and s[DECIDING] != (1 << s[N]) - 1:
                # the rest of a draft step begun before: pick by pick
                seat = lowest_bit(s[DECIDING])
                kinds = _kinds(s[PACKETS + seat])  # `legal`'s n-th pick is the n-th kind held
                kind = nth_bit(kinds, uniform_index(rng, popcount(kinds))) >> 1
                action = KEEP + seat * NUM_KINDS + kind
                _keep(s, seat, kind)
                s[STEPS] += 1
                if actions is not None:
                    actions[taken] = action
                taken += 1
                decisions += 1
            while s[PHASE] == DRAFTING:
                # a whole draft step: every seat keeps one, lowest first (as `_keep` pick by
                # pick, but without its bookkeeping of who is still to pick each time)
                n = s[N]
                picks = PICKS + s[DRAFT_STEP] * SEATS
                for seat in range(n):
                    kinds = _kinds(s[PACKETS + seat])
                    kind = nth_bit(kinds, uniform_index(rng, popcount(kinds))) >> 1
                    s[PACKETS + seat] -= 1 << 2 * kind
                    s[KEPT + seat] += 1 << 2 * kind
                    s[picks + seat] = kind
                    if actions is not None:
                        actions[taken + seat] = KEEP + seat * NUM_KINDS + kind
                s[DECIDING] = 0
                s[STEPS] += n
                taken += n
                decisions += n
                _pass_packets(s)
        elif phase == PLAYING:
            if not keyed:
                _stack_keys(s, keys)
                arrival = SEATS
            plays, moved = _random_plays(s, rng, keys, arrival, actions, taken)
            taken += plays
            decisions += plays
            keyed = False
            if s[TIEBREAK_RULE]:  # advanced rule 1: maybe a tie-break first, as `apply` has it
                _order_from_keys(s, keys, moved)
                _begin_scoring(s)
                continue
            # `_begin_isolde_scoring` and the `_bonus_move`s, the discs still keyed: Isolde's
            # order written back for its places, the Isolde moves' discs keyed as a play's
            # (no `_set_disc`: its search and shift branch on the random board), every order
            # written back once before the rest of the scoring
            _order_from_keys(s, keys, moved & (1 << ISOLDE))
            _queue_isolde_moves(s)
            arrival += plays
            left = s[BONUS_LEFT]
            for i in range(left):  # any board [seed]: the draw of `legal`'s list, unlisted
                board = uniform_index(rng, NUM_BOARDS)
                seat = s[BONUS_QUEUE + 3 * i]
                disc = board * SEATS + seat
                now = s[DIST + disc]
                target = min(now + s[BONUS_QUEUE + 3 * i + 2], LIMIT[board])
                keys[disc] = target * STACKED + arrival if target != now else keys[disc]
                s[DIST + disc] = target
                arrival += 1
                moved |= 1 << board
                if actions is not None:
                    actions[taken + i] = BONUS + board
            s[BONUS_LEFT] = 0
            s[STEPS] += left
            taken += left
            decisions += left
            _order_from_keys(s, keys, moved)
            # the keys stay the discs' into the next round's plays unless a disc moves without
            # them: a setback (advanced rule 2) or the reset after round 3; and while the
            # arrivals stay below `STACKED` (a round brings at most `SEATS * HAND + 3`)
            keyed = (
                not s[SETBACK_RULE]
                and s[ROUND] != RESET_AFTER
                and arrival + SEATS * HAND + 3 < STACKED
            )
            _end_isolde_moves(s)
        elif phase == BONUS_MOVES:  # any board [seed]: the draw of `legal`'s list, unlisted
            while s[BONUS_LEFT]:  # `_bonus_move`s, the rest of the scoring called only once
                action = BONUS + int(uniform(rng) * NUM_BOARDS)
                _take_bonus_move(s, action - BONUS)
                s[STEPS] += 1
                if actions is not None:
                    actions[taken] = action
                taken += 1
                decisions += 1
            _next_bonus_move(s)
        elif phase == OVER:
            break
        else:  # the tie-break: at most once a round
            action = out[int(uniform(rng) * legal(s, s[TO_MOVE], out))]
            apply(s, action)
            if actions is not None:
                actions[taken] = action
            taken += 1
            decisions += 1
    return decisions  # one exit: an inlined helper's second would cost a reference count


@kernel
def rollout(s: np.ndarray, rng: np.ndarray) -> int:
    """Play uniformly at random to the end, in place (the draft's picks lowest seat first);
    returns the number of player decisions."""
    return _play_randomly(s, rng, None)


@kernel
def random_game(s: np.ndarray, actions: np.ndarray, rng: np.ndarray) -> int:
    """Play `s` to the end at random (the draft's picks lowest seat first), writing every
    action id into `actions`; returns the number of actions (chance included)."""
    start = s[STEPS]
    _play_randomly(s, rng, actions)
    return int(s[STEPS] - start)


def max_game_steps(game: IsoldeGame) -> int:
    """More actions than any game has: per round the whole deck dealt, every card picked and
    played, a tie-break and three Isolde moves."""
    return PARAMS.rounds * (3 * DECK_SIZE + 4)
