"""Tintenblut as a compiled kernel (Numba): the hot path of search and self-play.

A state is one flat int64 array (`SIZE` entries; a copy is a `copy()`): scalars first (phase,
who is to move, the round, the current seat and this turn's flags, Staubfinger, the White
Women, the supply of provisions, ...), then blocks: the supply's tiles by kind, the villain
deck as one mask of villain ids per tier (top tier first; after a rebuild the whole deck is
the first mask), the face-down advantage pool as a count per card type, and per seat its
figure's location, score, provisions, location cards in hand and played (masks of card ids),
the number of its last played card, whether it passed, its villain cards (a mask), its final
advantage points, the tiles it still owes a Natternkopf, its tiles by kind and its advantage
cards as a count per type.

The rules are those of `state.py`, which stays the reference: action ids are the engine's
(`actions.py`), `legal` lists them in `legal_ids` order, chance outcomes are drawn as likely as
`chance_ids` makes them, and the steps the engine carries out at once (a reward nobody can
choose, a turn with nothing left to do, a forced tile loss) are carried out at once here too.
`tests/kernels/test_inkspell_kernel.py` steps both engines side by side over seeded games at
every player count, comparing who is to move, the legal actions and the scores at every step.

Order does not matter where the engine keeps a sequence the rules only ever read as a set or
sorted (played cards, villain cards, the discard pile), so those are masks here. An advantage
card's draw time is not kept: the engine reads it only to tell which cards the player to move
held when the turn began, and every card that player may use (before its reward is taken) was
drawn in an earlier turn.
"""

from __future__ import annotations

from collections.abc import Iterable

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
from spielwerk.games.inkspell.actions import (
    ADVANTAGE as ADVANTAGE_FIRST,
)
from spielwerk.games.inkspell.actions import (
    ADVANTAGE_CHOICES,
    ADVANTAGE_IDS,
    CONVERSION_SETS,
    CONVERT,
    DRAW_ADVANTAGE,
    DRAW_VILLAIN,
    END_TURN,
    EXCHANGE,
    EXCHANGES,
    FLIP,
    LOSE_TILE,
    NUM_ADVANTAGE_TYPES,
    NUM_PLAYER_ACTIONS,
    NUM_VILLAINS,
    PAIRS,
    PASS,
    PLAY,
    PLAY_ANYWHERE,
    REWARD,
    SHARED,
    SOLO,
    START,
    STAUBFINGER,
    TAKE_ALL,
    TAKE_NAMES,
)
from spielwerk.games.inkspell.game import InkspellGame
from spielwerk.games.inkspell.params import PARAMS
from spielwerk.games.inkspell.state import (
    _SIZE_BITS,
    _STAUBFINGER_STEPS,
    AFTER,
    ARRIVED,
    CASTLES,
    CHOOSE_CARD,
    COST,
    DRAW_CARD,
    END_OF_ROUND,
    FARID,
    FENOGLIO,
    GAIN_ADVANTAGE,
    GAIN_PROVISION,
    IN_TURN,
    LOSS,
    NACHTBURG,
    NATTERNKOPF,
    NESSEL,
    NO_EFFECT,
    NUM_KINDS,
    NUM_LOCATIONS,
    ORPHEUS,
    OVER,
    PRINZ,
    REWARDS,
    ROXANE,
    SCHLEIERKAUZ,
    SETUP,
    SPECKFUERST,
    START_CHOICE,
    STEPS,
    TINTENWELT,
    TRACK,
    VILLAIN,
    InkspellState,
)

SEATS = PARAMS.max_players
MAX_LEGAL = 64
"""Room for any legal list (the longest, after arriving, has fewer than 40 ids)."""
NUM_CARDS = PARAMS.num_location_cards
TYPES = NUM_ADVANTAGE_TYPES
TIERS = sorted(set(PARAMS.villain_tiers))
NUM_TIERS = len(TIERS)
ALL_CARDS = (1 << NUM_CARDS) - 1


# ---------------------------------------------------------------------- tables
def _mask_of(bits: Iterable[int]) -> int:
    return sum(1 << int(b) for b in bits)


COST_OF = np.array(COST, dtype=np.int64)
"""COST_OF[start, target]: the journey's provisions."""
SIZE_BITS = np.array(_SIZE_BITS, dtype=np.int64)
"""SIZE_BITS[score mod track, location]: bit `size` set if a set of that size may convert."""
STEPS_OF = np.zeros(NUM_KINDS + 1, dtype=np.int64)
for _size, _steps in STEPS.items():
    STEPS_OF[_size] = _steps
SET_MASK = np.array([_mask_of(kinds) for kinds in CONVERSION_SETS], dtype=np.int64)
SET_SIZE = np.array([len(kinds) for kinds in CONVERSION_SETS], dtype=np.int64)
NUM_SETS = len(CONVERSION_SETS)
NUM_EXCHANGES = len(EXCHANGES)
EX_PAID = np.array([paid for paid, _, _ in EXCHANGES], dtype=np.int64)
EX_KIND = np.array([kind for _, _, kind in EXCHANGES], dtype=np.int64)
EX_GIVEN = np.array([len(given) for _, given, _ in EXCHANGES], dtype=np.int64)
EX_COUNTS = np.array(
    [[given.count(k) for k in range(NUM_KINDS)] for _, given, _ in EXCHANGES], dtype=np.int64
)
"""EX_COUNTS[exchange, kind]: the tiles of that kind given."""
IN_CASTLE = np.array([loc in CASTLES for loc in range(NUM_LOCATIONS)], dtype=np.bool_)
EXCHANGE_RATE = PARAMS.exchange_rate
SPECKFUERST_RATE = PARAMS.speckfuerst_castle_rate
_MAX_ENTRIES = max(len(row) for rows in REWARDS for row in rows)
REW_LEN = np.array([[len(row) for row in rows] for rows in REWARDS], dtype=np.int64)
REW_GAIN = np.zeros((NUM_LOCATIONS, 2, _MAX_ENTRIES), dtype=np.int64)
REW_AMOUNT = np.zeros((NUM_LOCATIONS, 2, _MAX_ENTRIES), dtype=np.int64)
for _loc, _rows in enumerate(REWARDS):
    for _row, _entries in enumerate(_rows):
        for _i, (_what, _amount) in enumerate(_entries):
            REW_GAIN[_loc, _row, _i] = _what
            REW_AMOUNT[_loc, _row, _i] = _amount
_MAX_CHOICES = max(len(ids) for ids in ADVANTAGE_IDS)
ADV_ID = np.full((TYPES, max(_MAX_CHOICES, 1)), -1, dtype=np.int64)
"""ADV_ID[card type, choice]: the action id (choice 0 for a card without one)."""
for _card, _ids in enumerate(ADVANTAGE_IDS):
    ADV_ID[_card, : len(_ids)] = _ids
NO_USE_MASK = _mask_of(c for c in range(TYPES) if c == PRINZ or c in NO_EFFECT)
"""Cards never used after moving (Der Schwarze Prinz only before [seed]), as a mask."""
ADV_CARD = np.array([card for card, _ in ADVANTAGE_CHOICES], dtype=np.int64)
ADV_CHOICE = np.array([choice for _, choice in ADVANTAGE_CHOICES], dtype=np.int64)
ADV_POINTS = np.array(PARAMS.advantage_points, dtype=np.int64)
ADV_COUNTS = np.array(PARAMS.advantage_counts, dtype=np.int64)
NUM_PAIRS = len(PAIRS)
PAIR_MASK = np.array([(1 << a) | (1 << b) for a, b in PAIRS], dtype=np.int64)
PAIR_FIRST = np.array([a for a, _ in PAIRS], dtype=np.int64)
PAIR_SECOND = np.array([b for _, b in PAIRS], dtype=np.int64)
LOCATION_NUMBERS = np.array(PARAMS.location_numbers, dtype=np.int64)
VILLAIN_VALUE = np.array(PARAMS.villain_values, dtype=np.int64)
TIER_MASKS = np.array(
    [_mask_of(v for v in range(NUM_VILLAINS) if PARAMS.villain_tiers[v] == t) for t in TIERS],
    dtype=np.int64,
)
FIRST_TIER_MASK = int(TIER_MASKS[0])
"""Tier I (the lowest tier): its cards leave the game when the deck is rebuilt."""
NATTERNKOPF_ID = np.array([v in NATTERNKOPF for v in range(NUM_VILLAINS)], dtype=np.bool_)
TAKES = len(TAKE_NAMES)
START_PLAYER_RULE = PARAMS.start_player
WHITE_WOMEN_SPACE = PARAMS.white_women_space
END_TRIGGER = PARAMS.end_trigger
NESSEL_AMOUNT = PARAMS.nessel_amount
TILE_COUNTS = np.array(PARAMS.tile_counts, dtype=np.int64)
START_PROVISIONS = PARAMS.start_provisions
ALL_PROVISIONS = PARAMS.provisions
STAUBFINGER_START = PARAMS.staubfinger_start

# ------------------------------------------------- the choices as masks (see `legal`)
ALL_TARGETS = (1 << NUM_LOCATIONS) - 1
MAX_COST = int(COST_OF.max())
AFFORDABLE = np.array(
    [
        [
            _mask_of(t for t in range(NUM_LOCATIONS) if COST_OF[here, t] <= money)
            for money in range(MAX_COST + 1)
        ]
        for here in range(NUM_LOCATIONS)
    ],
    dtype=np.int64,
)
"""AFFORDABLE[here, provisions up to MAX_COST]: the locations a journey from `here` can reach."""
PRINZ_BIT = PASS - PLAY  # after the plays and Die Tintenwelt's targets, before passing
PASS_MASK = 1 << (PRINZ_BIT + 1)
CARD_IDS = np.array([*range(PLAY, PASS), ADV_ID[PRINZ, 0], PASS], dtype=np.int64)
"""CARD_IDS[bit of `_card_mask`]: a card played (at its location, or Die Tintenwelt's target),
Der Schwarze Prinz, passing."""
# Arrived: bit = id - STAUBFINGER.
SF_MASK = np.array(
    [_mask_of(i - STAUBFINGER for i in ids) for ids in _STAUBFINGER_STEPS], dtype=np.int64
)
"""SF_MASK[Staubfinger's location]: his steps from there."""
ADV_BIT = np.array(
    [max(ADV_ID[card, 0], STAUBFINGER) - STAUBFINGER for card in range(TYPES)], dtype=np.int64
)
ONE_CHOICE = np.array(
    [_mask_of(range(int((ADV_ID[card] >= 0).sum()))) for card in range(TYPES)], dtype=np.int64
)
"""A usable card's choices when they do not depend on the state (Roxane's two rows)."""
PAIRS_HELD = np.array(
    [
        _mask_of(i for i in range(NUM_PAIRS) if PAIR_MASK[i] & kinds == PAIR_MASK[i])
        or (1 << NUM_PAIRS) - 1
        for kinds in range(1 << NUM_KINDS)
    ],
    dtype=np.int64,
)
"""PAIRS_HELD[kinds in the supply]: Fenoglio's pairs of them (every pair if none is whole)."""

# The exchange and conversions: bit = id - EXCHANGE.
END_MASK = 1 << (END_TURN - EXCHANGE)
BUYS = np.array(
    [
        [
            _mask_of(
                i
                for i in range(NUM_EXCHANGES)
                if EX_PAID[i] == rate and EX_KIND[i] >= 0 and (stocked >> EX_KIND[i]) & 1
            )
            for stocked in range(1 << NUM_KINDS)
        ]
        for rate in range(EXCHANGE_RATE + 1)
    ],
    dtype=np.int64,
)
"""BUYS[rate, kinds in the supply]: the exchanges of provisions for a tile."""
SELLS = np.array(
    [
        [
            [
                _mask_of(
                    i
                    for i in range(NUM_EXCHANGES)
                    if EX_KIND[i] < 0
                    and EX_GIVEN[i] == rate
                    and all(
                        EX_COUNTS[i, k] <= (held >> k & 1) + (doubles >> k & 1)
                        for k in range(NUM_KINDS)
                    )
                )
                for doubles in range(1 << NUM_KINDS)
            ]
            for held in range(1 << NUM_KINDS)
        ]
        for rate in range(EXCHANGE_RATE + 1)
    ],
    dtype=np.int64,
)
"""SELLS[rate, kinds held, kinds held twice or more]: the exchanges of tiles for a provision."""
CONVERTIBLE = np.array(
    [
        [
            _mask_of(
                NUM_EXCHANGES + i
                for i in range(NUM_SETS)
                if (sizes >> SET_SIZE[i]) & 1 and kinds & SET_MASK[i] == SET_MASK[i]
            )
            for sizes in range(1 << (NUM_KINDS + 1))
        ]
        for kinds in range(1 << NUM_KINDS)
    ],
    dtype=np.int64,
)
"""CONVERTIBLE[kinds held, set sizes still allowed (bit = size)]: the conversions."""
FIRST_ID = np.zeros(OVER + 1, dtype=np.int64)
"""FIRST_ID[phase]: the action id bit 0 of the phase's choices stands for."""
FIRST_ID[ARRIVED] = STAUBFINGER
FIRST_ID[AFTER] = EXCHANGE
FIRST_ID[LOSS] = LOSE_TILE
FIRST_ID[START_CHOICE] = START
# The id ranges these masks rely on.
assert PLAY_ANYWHERE - PLAY == NUM_LOCATIONS and PASS - PLAY_ANYWHERE == NUM_LOCATIONS
assert LOSE_TILE - STAUBFINGER <= 64 and CONVERT - EXCHANGE == NUM_EXCHANGES
assert END_TURN - CONVERT == NUM_SETS and int(SIZE_BITS.max()) < 1 << (NUM_KINDS + 1)

# ---------------------------------------------------------------------- layout
(
    N,
    PHASE,
    TO_MOVE,
    ROUND,
    MAX_ROUNDS,
    START_PLAYER,
    CURRENT,
    TURNS_IN_ROUND,
    STAUBFINGER_AT,
    WHITE_WOMEN,
    SUPPLY_PROVISIONS,
    SETUP_SEAT,
    FLIPPED,
    VILLAIN_CONTEXT,
    ROUND_DRAWER,
    DISCARD,
    BOX,
    LOSSES,
    PENDING_DRAWS,
    POOL_SIZE,
    ADVANTAGE_USED,
    PRINCE,
    SPECK,
    ROW_CHOICE,
    EXCHANGED,
    CONVERTED,
    END_TRIGGERED,
    FINAL_ROUND,
    STEP_COUNT,
) = range(29)
"""`FLIPPED`, `DISCARD`, `BOX`: masks of location cards / villain ids; `LOSSES`: a mask of the
seats still to give up tiles to a Natternkopf (seat order, as the engine's queue)."""
SUPPLY = 29  # tiles by kind
DECK = SUPPLY + NUM_KINDS  # villain masks by tier, top first
POOL = DECK + NUM_TIERS  # advantage cards face down, count per type
POSITION = POOL + TYPES  # per seat from here
SCORES = POSITION + SEATS
PROVISIONS = SCORES + SEATS
HAND = PROVISIONS + SEATS
PLAYED = HAND + SEATS
LAST_PLAYED = PLAYED + SEATS
PASSED = LAST_PLAYED + SEATS
VILLAINS = PASSED + SEATS
FINAL_POINTS = VILLAINS + SEATS
LOSS_DUE = FINAL_POINTS + SEATS
TILES = LOSS_DUE + SEATS  # seat * NUM_KINDS + kind
HELD = TILES + SEATS * NUM_KINDS  # seat * TYPES + type
SIZE = HELD + SEATS * TYPES


@kernel
def new(players: int, max_rounds: int) -> np.ndarray:
    """The state before set-up's first card is turned up (a chance node)."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[N] = players
    s[PHASE] = SETUP
    s[TO_MOVE] = CHANCE
    s[MAX_ROUNDS] = max_rounds
    s[START_PLAYER] = START_PLAYER_RULE
    s[CURRENT] = START_PLAYER_RULE
    s[SETUP_SEAT] = START_PLAYER_RULE
    s[STAUBFINGER_AT] = STAUBFINGER_START
    s[WHITE_WOMEN] = -1
    s[ROUND_DRAWER] = -1
    s[ROW_CHOICE] = -1
    s[SUPPLY_PROVISIONS] = ALL_PROVISIONS - START_PROVISIONS * players
    for k in range(NUM_KINDS):
        s[SUPPLY + k] = TILE_COUNTS[k]
    for t in range(NUM_TIERS):
        s[DECK + t] = TIER_MASKS[t]
    for a in range(TYPES):
        s[POOL + a] = ADV_COUNTS[a]
        s[POOL_SIZE] += ADV_COUNTS[a]
    for p in range(players):
        s[POSITION + p] = -1
        s[PROVISIONS + p] = START_PROVISIONS
        s[HAND + p] = ALL_CARDS
    return s


def initial(game: InkspellGame, players: int) -> np.ndarray:
    """The kernel array of `game.new_state(players)` (options read from the game)."""
    game.new_state(players, seed=0)  # checks the player count
    return new(players, int(game.options["max_rounds"]))


def from_state(state: InkspellState) -> np.ndarray:
    """The kernel array of a scalar state."""
    n = state.num_players
    s = np.zeros(SIZE, dtype=np.int64)
    s[N] = n
    s[PHASE] = state.phase
    to_move = state.to_move
    assert isinstance(to_move, int)  # one seat at a time
    s[TO_MOVE] = to_move
    s[ROUND] = state.round
    s[MAX_ROUNDS] = int(state.game.options["max_rounds"])
    s[START_PLAYER] = state.start_player
    s[CURRENT] = state.current
    s[TURNS_IN_ROUND] = state.turns_in_round
    s[STAUBFINGER_AT] = state.staubfinger
    s[WHITE_WOMEN] = state.white_women
    s[SUPPLY_PROVISIONS] = state.supply_provisions
    s[SETUP_SEAT] = state.setup_seat
    s[FLIPPED] = _mask_of(state.flipped)
    s[VILLAIN_CONTEXT] = state.villain_context
    s[ROUND_DRAWER] = state.round_drawer
    s[DISCARD] = _mask_of(state.villain_discard)
    s[BOX] = _mask_of(state.villain_box)
    s[LOSSES] = _mask_of(seat for seat, _ in state.losses)
    s[PENDING_DRAWS] = state.pending_draws
    s[POOL_SIZE] = len(state.advantage_pool)
    s[ADVANTAGE_USED] = state.advantage_used
    s[PRINCE] = state.prince
    s[SPECK] = state.speckfuerst
    s[ROW_CHOICE] = state.row_choice
    s[EXCHANGED] = state.exchanged
    s[CONVERTED] = state.converted
    s[END_TRIGGERED] = state.end_triggered
    s[FINAL_ROUND] = state.final_round
    s[STEP_COUNT] = len(state.history)
    for k in range(NUM_KINDS):
        s[SUPPLY + k] = state.supply_tiles[k]
    for t, cards in enumerate(state.villain_deck):
        s[DECK + t] = _mask_of(cards)
    for a in state.advantage_pool:
        s[POOL + a] += 1
    for seat, due in state.losses:
        s[LOSS_DUE + seat] = due
    for p in range(n):
        s[POSITION + p] = state.position[p]
        s[SCORES + p] = state.scores[p]
        s[PROVISIONS + p] = state.provisions[p]
        s[HAND + p] = _mask_of(state.hands[p])
        s[PLAYED + p] = _mask_of(state.played[p])
        s[LAST_PLAYED + p] = state.last_played[p]
        s[PASSED + p] = state.passed[p]
        s[VILLAINS + p] = _mask_of(state.villains[p])
        s[FINAL_POINTS + p] = state.final_points[p]
        for k in range(NUM_KINDS):
            s[TILES + p * NUM_KINDS + k] = state.tiles[p][k]
        for _, card in state.held[p]:
            s[HELD + p * TYPES + card] += 1
    return s


# ---------------------------------------------------------------------- what the rules read
@inline_kernel
def _tile_mask(s: np.ndarray, base: int) -> int:
    """The kinds with a non-zero count among NUM_KINDS counts from `base`, as a bit mask."""
    mask = 0
    for k in range(NUM_KINDS):
        mask |= (s[base + k] != 0) << k
    return mask


@inline_kernel
def _stocked(s: np.ndarray) -> int:
    """Kinds a "tile of your choice" can be: those in the supply (all if none is)."""
    mask = _tile_mask(s, SUPPLY)
    return mask if mask else (1 << NUM_KINDS) - 1


@inline_kernel
def _holds_any(s: np.ndarray, seat: int) -> bool:
    for a in range(TYPES):  # noqa: SIM110 - a plain loop for Numba
        if s[HELD + seat * TYPES + a]:
            return True
    return False


@inline_kernel
def _company(s: np.ndarray, location: int, player: int) -> bool:
    """Another figure (a player's or Staubfinger) at `location`."""
    if s[STAUBFINGER_AT] == location:
        return True
    for p in range(s[N]):  # noqa: SIM110 - a plain loop for Numba
        if p != player and s[POSITION + p] == location:
            return True
    return False


@inline_kernel
def _reward_row(s: np.ndarray, player: int) -> int:
    if s[ROW_CHOICE] >= 0:
        return s[ROW_CHOICE]
    return SHARED if _company(s, s[POSITION + player], player) else SOLO


@inline_kernel
def _villain_sum(s: np.ndarray, player: int) -> int:
    total = 0
    villains = s[VILLAINS + player]
    while villains:
        total += VILLAIN_VALUE[lowest_bit(villains)]
        villains &= villains - 1
    return total


@inline_kernel
def _top_tier(s: np.ndarray) -> int:
    """The index of the top non-empty tier of the villain deck, -1 if it is empty."""
    for t in range(NUM_TIERS):
        if s[DECK + t]:
            return t
    return -1


# ---------------------------------------------------------------------- legal actions
# A decision's choices are a bit mask, built with a few table look-ups: in every phase but the
# choice of a card, bit b stands for the id `FIRST_ID[phase] + b`; choosing a card, for
# `CARD_IDS[b]`. Rising bits are the ids in `legal_ids` order, so `legal` lists the bits and a
# random decision is one `nth_bit` (`_play_randomly`), with no list written.
@inline_kernel
def _card_mask(s: np.ndarray) -> int:
    """Choosing a card: the cards to play (bit = id), Die Tintenwelt's targets, Der Schwarze
    Prinz (`PRINZ_BIT`), passing (`PASS_MASK`)."""
    me = s[CURRENT]
    hand = s[HAND + me]
    anywhere = (hand >> TINTENWELT) & 1
    if s[PRINCE]:
        return (hand & ALL_TARGETS) | (-anywhere & (ALL_TARGETS << PLAY_ANYWHERE))
    affordable = AFFORDABLE[s[POSITION + me], min(s[PROVISIONS + me], MAX_COST)]
    prinz = s[HELD + me * TYPES + PRINZ] != 0
    return (
        (hand & affordable)
        | (-anywhere & (affordable << PLAY_ANYWHERE))
        | (prinz << PRINZ_BIT)
        | PASS_MASK
    )


@inline_kernel
def _arrival_mask(s: np.ndarray) -> int:
    """Arrived: Staubfinger's steps, the usable advantage cards' choices, the reward (bit =
    id - STAUBFINGER)."""
    me = s[CURRENT]
    mask = 0
    if s[PROVISIONS + me]:
        mask = SF_MASK[s[STAUBFINGER_AT]]
    if not s[ADVANTAGE_USED]:
        usable = 0  # the usable cards held, as a mask: a loop over those only
        for card in range(TYPES):
            usable |= (s[HELD + me * TYPES + card] != 0) << card
        usable &= ~NO_USE_MASK
        while usable:
            card = lowest_bit(usable)
            usable &= usable - 1
            if card == SCHLEIERKAUZ:
                choices = _stocked(s)
            elif card == FENOGLIO:
                choices = PAIRS_HELD[_stocked(s)]  # every pair if none is complete
            elif card == FARID:
                choices = ALL_TARGETS & ~(1 << s[STAUBFINGER_AT])
            elif card == ORPHEUS:
                choices = s[VILLAINS + me]
            else:  # Die Nessel, Der Speckfürst (one choice); Roxane's two rows
                choices = ONE_CHOICE[card]
            mask |= choices << ADV_BIT[card]
    row = _reward_row(s, me)
    first = REWARD - STAUBFINGER + row * TAKES
    if s[WHITE_WOMEN] == me and REW_LEN[s[POSITION + me], row] > 1:
        return mask | (0b11 << (first + 1))  # one entry only [seed]: the first or second
    return mask | (1 << (first + TAKE_ALL))


@inline_kernel
def _after_mask(s: np.ndarray) -> int:
    """The exchange (once, before converting), the conversions, the end of the turn (bit = id
    - EXCHANGE; `END_MASK` alone when nothing else is left)."""
    me = s[CURRENT]
    tiles = TILES + me * NUM_KINDS
    here = s[POSITION + me]
    held = _tile_mask(s, tiles)
    mask = END_MASK
    if not s[EXCHANGED] and not s[CONVERTED] and (IN_CASTLE[here] or s[SPECK]):
        rate = SPECKFUERST_RATE if s[SPECK] and IN_CASTLE[here] else EXCHANGE_RATE
        if s[PROVISIONS + me] >= rate:
            mask |= BUYS[rate, _tile_mask(s, SUPPLY)]
        if s[SUPPLY_PROVISIONS]:
            doubles = 0
            for k in range(NUM_KINDS):
                doubles |= (s[tiles + k] >= 2) << k
            mask |= SELLS[rate, held, doubles]
    sizes = SIZE_BITS[s[SCORES + me] % TRACK, here] & ~s[CONVERTED]
    return mask | CONVERTIBLE[held, sizes]


@inline_kernel
def _decision_mask(s: np.ndarray) -> int:
    """The choices of the seat to move, in a phase other than choosing a card."""
    phase = s[PHASE]
    if phase == ARRIVED:
        return _arrival_mask(s)
    if phase == AFTER:
        return _after_mask(s)
    if phase == LOSS:
        return _tile_mask(s, TILES + s[TO_MOVE] * NUM_KINDS)
    return 0b11  # START_CHOICE: lead or be last


@inline_kernel
def legal(s: np.ndarray, out: np.ndarray) -> int:
    """The legal action ids of the seat to move, or the chance outcomes at a chance node, in
    `legal_ids` order (none at the end). `out` needs room for `MAX_LEGAL` ids."""
    phase = s[PHASE]
    count = 0
    if s[TO_MOVE] >= 0:
        if phase == CHOOSE_CARD:
            mask = _card_mask(s)
            while mask:
                out[count] = CARD_IDS[lowest_bit(mask)]
                count += 1
                mask &= mask - 1
            return count
        mask = _decision_mask(s)
        first = FIRST_ID[phase]
        while mask:
            out[count] = first + lowest_bit(mask)
            count += 1
            mask &= mask - 1
    elif phase == SETUP:
        cards = s[HAND + s[SETUP_SEAT]]
        while cards:
            out[count] = FLIP + lowest_bit(cards)
            count += 1
            cards &= cards - 1
    elif phase == DRAW_CARD:
        for a in range(TYPES):
            if s[POOL + a]:
                out[count] = DRAW_ADVANTAGE + a
                count += 1
    elif phase == VILLAIN:
        t = _top_tier(s)
        cards = s[DECK + t] if t >= 0 else 0
        while cards:
            out[count] = DRAW_VILLAIN + lowest_bit(cards)
            count += 1
            cards &= cards - 1
    return count


@inline_kernel
def sample_chance(s: np.ndarray, rng: np.ndarray) -> int:
    """A chance outcome drawn as `chance_ids` weighs it: a uniform card of the set-up seat's
    hand, of the advantage pool (a type by its number of copies), or of the top villain tier."""
    phase = s[PHASE]
    if phase == SETUP:
        cards = s[HAND + s[SETUP_SEAT]]
        return FLIP + nth_bit(cards, int(uniform(rng) * popcount(cards)))
    if phase == DRAW_CARD:
        left = int(uniform(rng) * s[POOL_SIZE])
        for a in range(TYPES):
            left -= s[POOL + a]
            if left < 0:
                return DRAW_ADVANTAGE + a
        return -1
    cards = s[DECK + _top_tier(s)]
    return DRAW_VILLAIN + nth_bit(cards, int(uniform(rng) * popcount(cards)))


# ---------------------------------------------------------------------- applying actions
@kernel
def apply(s: np.ndarray, action: int) -> None:
    """Apply a legal action of whoever is to move (chance included)."""
    step(s, action)


@inline_kernel
def step(s: np.ndarray, action: int) -> None:
    """`apply` compiled into the caller. Its rule steps are compiled into it (`inline_kernel`):
    a compiled function that calls another one pays a pair of atomic reference-count updates
    on `s` per call, once most of a step's time. Only a set-up flip and a round's close
    (`_flip`, `_villain_done`) stay calls, compiled once rather than into each of their many
    callers; they call nothing further, which spares them those updates."""
    s[STEP_COUNT] += 1
    turn_over = _apply(s, action)
    # Arriving (a card played, Staubfinger moved, an advantage card used): the reward may be
    # taken at once. Checked here, once, rather than in each of those rule steps, so that the
    # reward's steps are compiled into `step` once.
    if s[PHASE] == ARRIVED:
        _settle_arrival(s)
    # The engine's `_settle_after`, run wherever the exchange-and-convert step is entered or
    # changed: here once, after every action, so that no rule function calls back into the
    # end of the turn (Numba compiles no cycle of calls).
    if turn_over or (s[PHASE] == AFTER and _after_mask(s) == END_MASK):
        _end_turn(s)


@inline_kernel
def _apply(s: np.ndarray, action: int) -> bool:
    """Apply the action's own rule step; True if it ends the turn (ended by `step`)."""
    if action >= DRAW_VILLAIN:
        _draw_villain(s, action - DRAW_VILLAIN)
    elif action >= DRAW_ADVANTAGE:
        _draw_advantage(s, action - DRAW_ADVANTAGE)
    elif action >= FLIP:
        _flip(s, action - FLIP)
    elif action >= START:
        _choose_start(s, action - START)
    elif action == END_TURN:
        return True
    elif action >= CONVERT:
        _convert(s, action - CONVERT)
    elif action >= EXCHANGE:
        _exchange(s, action - EXCHANGE)
    elif action >= LOSE_TILE:
        _lose_tile(s, s[TO_MOVE], action - LOSE_TILE)
    elif action >= REWARD:
        offset = action - REWARD
        _take_reward(s, offset // TAKES, offset % TAKES)
    elif action >= ADVANTAGE_FIRST:
        _use_advantage(s, ADV_CARD[action - ADVANTAGE_FIRST], ADV_CHOICE[action - ADVANTAGE_FIRST])
    elif action >= STAUBFINGER:
        _move_staubfinger(s, action - STAUBFINGER)
    elif action == PASS:
        s[PASSED + s[CURRENT]] = 1
        return True
    elif action >= PLAY_ANYWHERE:
        _play(s, TINTENWELT, action - PLAY_ANYWHERE)
    else:
        _play(s, action - PLAY, action - PLAY)
    return False


# ------------------------------------------------------------------ set-up
@kernel
def _flip(s: np.ndarray, card: int) -> None:
    """Set-up: Die Tintenwelt or an occupied location turns up the next card."""
    seat = s[SETUP_SEAT]
    s[HAND + seat] &= ~(1 << card)
    s[FLIPPED] |= 1 << card
    if card == TINTENWELT:
        return
    for p in range(s[N]):
        if s[POSITION + p] == card:
            return
    s[POSITION + seat] = card
    s[HAND + seat] |= s[FLIPPED]
    s[FLIPPED] = 0
    s[SETUP_SEAT] = (seat + 1) % s[N]
    if s[SETUP_SEAT] == START_PLAYER_RULE:
        _start_round(s)


# ------------------------------------------------------------------ rounds and turns
@inline_kernel
def _start_round(s: np.ndarray) -> None:
    s[ROUND] += 1
    if s[END_TRIGGERED]:
        s[FINAL_ROUND] = 1
    for p in range(s[N]):
        s[PASSED + p] = 0
    s[TURNS_IN_ROUND] = 0
    s[CURRENT] = s[START_PLAYER]
    _start_turn(s)


@inline_kernel
def _start_turn(s: np.ndarray) -> None:
    me = s[CURRENT]
    s[ADVANTAGE_USED] = 0
    s[PRINCE] = 0
    s[SPECK] = 0
    s[ROW_CHOICE] = -1
    s[EXCHANGED] = 0
    s[CONVERTED] = 0
    if s[HAND + me] == 0:
        s[HAND + me] = s[PLAYED + me]
        s[PLAYED + me] = 0
    s[PHASE] = CHOOSE_CARD
    s[TO_MOVE] = me


@inline_kernel
def _play(s: np.ndarray, card: int, target: int) -> None:
    me = s[CURRENT]
    cost = 0 if s[PRINCE] else COST_OF[s[POSITION + me], target]
    _pay(s, me, cost)
    s[HAND + me] &= ~(1 << card)
    s[PLAYED + me] |= 1 << card
    s[LAST_PLAYED + me] = LOCATION_NUMBERS[me, card]
    s[POSITION + me] = target
    s[PHASE] = ARRIVED  # settled in `step`


@inline_kernel
def _pay(s: np.ndarray, player: int, provisions: int) -> None:
    s[PROVISIONS + player] -= provisions
    s[SUPPLY_PROVISIONS] += provisions


@inline_kernel
def _gain(s: np.ndarray, player: int, gain: int, amount: int) -> None:
    """Take from the supply, as far as it goes."""
    if gain == GAIN_PROVISION:
        amount = min(amount, s[SUPPLY_PROVISIONS])
        s[SUPPLY_PROVISIONS] -= amount
        s[PROVISIONS + player] += amount
    else:
        amount = min(amount, s[SUPPLY + gain])
        s[SUPPLY + gain] -= amount
        s[TILES + player * NUM_KINDS + gain] += amount


# ------------------------------------------------------------------ after arriving
@inline_kernel
def _settle_arrival(s: np.ndarray) -> None:
    """The reward is taken at once when every seat can see it is the only thing left (no
    provision for Staubfinger, no advantage card that may still be used, no White Women)."""
    me = s[CURRENT]
    if s[PROVISIONS + me] > 0 or s[WHITE_WOMEN] == me:
        return
    if not s[ADVANTAGE_USED] and _holds_any(s, me):
        return
    _take_reward(s, _reward_row(s, me), TAKE_ALL)


@inline_kernel
def _move_staubfinger(s: np.ndarray, target: int) -> None:
    _pay(s, s[CURRENT], 1)
    s[STAUBFINGER_AT] = target  # settled in `step`


@inline_kernel
def _use_advantage(s: np.ndarray, card: int, choice: int) -> None:
    me = s[CURRENT]
    s[HELD + me * TYPES + card] -= 1
    s[ADVANTAGE_USED] = 1
    if card == PRINZ:
        s[PRINCE] = 1
        return
    if card == NESSEL:
        _gain(s, me, GAIN_PROVISION, NESSEL_AMOUNT)
    elif card == SCHLEIERKAUZ:
        _gain(s, me, GAIN_PROVISION, 1)
        _gain(s, me, choice, 1)
    elif card == SPECKFUERST:
        s[SPECK] = 1
    elif card == FARID:
        s[STAUBFINGER_AT] = choice
    elif card == ROXANE:
        s[ROW_CHOICE] = choice
    elif card == ORPHEUS:
        s[VILLAINS + me] &= ~(1 << choice)
        s[DISCARD] |= 1 << choice
    elif card == FENOGLIO:
        _gain(s, me, PAIR_FIRST[choice], 1)
        _gain(s, me, PAIR_SECOND[choice], 1)
    # settled in `step`


@inline_kernel
def _take_reward(s: np.ndarray, row: int, take: int) -> None:
    me = s[CURRENT]
    here = s[POSITION + me]
    first, last = 0, REW_LEN[here, row]
    if take != TAKE_ALL:
        first, last = take - 1, take
    draws = 0
    for i in range(first, last):
        gain = REW_GAIN[here, row, i]
        if gain == GAIN_ADVANTAGE:
            draws += REW_AMOUNT[here, row, i]
        else:
            _gain(s, me, gain, REW_AMOUNT[here, row, i])
    s[PENDING_DRAWS] = min(draws, s[POOL_SIZE])
    _continue_reward(s)


@inline_kernel
def _continue_reward(s: np.ndarray) -> None:
    if s[PENDING_DRAWS]:
        s[PHASE] = DRAW_CARD
        s[TO_MOVE] = CHANCE
        return
    me = s[CURRENT]
    here = s[POSITION + me]
    if here == NACHTBURG and not _company(s, here, me):
        _villain_draw(s, me, IN_TURN)
    else:
        _enter_after(s)


@inline_kernel
def _draw_advantage(s: np.ndarray, card: int) -> None:
    s[POOL + card] -= 1
    s[POOL_SIZE] -= 1
    s[HELD + s[CURRENT] * TYPES + card] += 1
    s[PENDING_DRAWS] -= 1
    _continue_reward(s)


# ------------------------------------------------------------------ exchange and conversions
@inline_kernel
def _enter_after(s: np.ndarray) -> None:
    """The exchange and conversions; with nothing to do the turn ends by itself (in
    `apply`)."""
    s[PHASE] = AFTER
    s[TO_MOVE] = s[CURRENT]


@inline_kernel
def _exchange(s: np.ndarray, index: int) -> None:
    me = s[CURRENT]
    s[EXCHANGED] = 1
    if EX_KIND[index] >= 0:
        _pay(s, me, EX_PAID[index])
        _gain(s, me, EX_KIND[index], 1)
    else:
        for k in range(NUM_KINDS):
            given = EX_COUNTS[index, k]
            s[TILES + me * NUM_KINDS + k] -= given
            s[SUPPLY + k] += given
        _gain(s, me, GAIN_PROVISION, 1)


@inline_kernel
def _convert(s: np.ndarray, index: int) -> None:
    me = s[CURRENT]
    kinds = SET_MASK[index]
    for k in range(NUM_KINDS):
        if (kinds >> k) & 1:
            s[TILES + me * NUM_KINDS + k] -= 1
            s[SUPPLY + k] += 1
    s[CONVERTED] |= 1 << SET_SIZE[index]
    _advance(s, me, STEPS_OF[SET_SIZE[index]])


@inline_kernel
def _advance(s: np.ndarray, player: int, steps: int) -> None:
    """Move a scoring stone; the White Women and the end trigger watch it."""
    s[SCORES + player] += steps
    score = s[SCORES + player]
    holder = s[WHITE_WOMEN]
    if holder < 0:
        if score >= WHITE_WOMEN_SPACE:
            s[WHITE_WOMEN] = player
    elif holder != player and score > s[SCORES + holder]:
        s[WHITE_WOMEN] = player
    if score >= END_TRIGGER:
        s[END_TRIGGERED] = 1


@inline_kernel
def _end_turn(s: np.ndarray) -> None:
    s[TURNS_IN_ROUND] += 1
    if s[TURNS_IN_ROUND] == s[N]:
        _end_round(s)
        return
    following = s[CURRENT] + 1
    s[CURRENT] = following if following < s[N] else 0  # no division: a turn's end is hot
    _start_turn(s)


# ------------------------------------------------------------------ villains
@inline_kernel
def _villain_draw(s: np.ndarray, drawer: int, context: int) -> None:
    """Draw the top villain card; an empty deck is rebuilt first from the discard pile (its
    tier I cards leave the game); nothing left: nothing drawn."""
    s[VILLAIN_CONTEXT] = context
    if _top_tier(s) < 0:
        discard = s[DISCARD]
        s[BOX] |= discard & FIRST_TIER_MASK
        s[DECK] = discard & ~FIRST_TIER_MASK
        s[DISCARD] = 0
    if _top_tier(s) < 0:
        _villain_done(s)
        return
    s[PHASE] = VILLAIN
    s[TO_MOVE] = CHANCE


@inline_kernel
def _villain_drawer(s: np.ndarray) -> int:
    return s[CURRENT] if s[VILLAIN_CONTEXT] == IN_TURN else s[ROUND_DRAWER]


@inline_kernel
def _draw_villain(s: np.ndarray, villain: int) -> None:
    drawer = _villain_drawer(s)
    s[DECK + _top_tier(s)] &= ~(1 << villain)
    s[VILLAINS + drawer] |= 1 << villain
    if NATTERNKOPF_ID[villain]:
        _natternkopf(s)
    _continue_losses(s)


@inline_kernel
def _natternkopf(s: np.ndarray) -> None:
    """All with the highest villain sum lose half their provisions and tiles (rounded up
    against them) and discard their villain cards."""
    n = s[N]
    worst = -(1 << 62)  # no array: this runs in the step loop, where allocating costs more
    for p in range(n):
        worst = max(worst, _villain_sum(s, p))
    for p in range(n):
        if _villain_sum(s, p) != worst:
            continue
        _pay(s, p, (s[PROVISIONS + p] + 1) // 2)
        total = 0
        for k in range(NUM_KINDS):
            total += s[TILES + p * NUM_KINDS + k]
        s[LOSSES] |= 1 << p
        s[LOSS_DUE + p] = (total + 1) // 2
        s[DISCARD] |= s[VILLAINS + p]
        s[VILLAINS + p] = 0


@inline_kernel
def _continue_losses(s: np.ndarray) -> None:
    """Each losing seat in seat order gives up its tiles; a choice that is none (one kind
    left, or every tile goes) is made at once."""
    while s[LOSSES]:
        seat = lowest_bit(s[LOSSES])
        due = s[LOSS_DUE + seat]
        tiles = TILES + seat * NUM_KINDS
        kinds = 0
        total = 0
        for k in range(NUM_KINDS):
            if s[tiles + k]:
                kinds += 1
            total += s[tiles + k]
        if due and kinds > 1 and due < total:
            s[PHASE] = LOSS
            s[TO_MOVE] = seat
            return
        for k in range(NUM_KINDS):
            lost = min(due, s[tiles + k])
            s[tiles + k] -= lost
            s[SUPPLY + k] += lost
            due -= lost
        s[LOSS_DUE + seat] = 0
        s[LOSSES] &= ~(1 << seat)
    _villain_done(s)


@inline_kernel
def _lose_tile(s: np.ndarray, player: int, kind: int) -> None:
    s[TILES + player * NUM_KINDS + kind] -= 1
    s[SUPPLY + kind] += 1
    s[LOSS_DUE + lowest_bit(s[LOSSES])] -= 1
    _continue_losses(s)


@kernel  # a call, not inlined: once per round, and inlined it would be compiled ~15 times
def _villain_done(s: np.ndarray) -> None:
    if s[VILLAIN_CONTEXT] == IN_TURN:
        _enter_after(s)
    elif s[FINAL_ROUND] or s[ROUND] >= s[MAX_ROUNDS]:
        _finish(s)
    elif s[ROUND_DRAWER] < 0:
        _start_round(s)
    else:
        s[PHASE] = START_CHOICE
        s[TO_MOVE] = s[ROUND_DRAWER]


# ------------------------------------------------------------------ the end of a round
@inline_kernel
def _end_round(s: np.ndarray) -> None:
    """The highest last played card draws a villain card (nobody if no card was played);
    players who passed take their cards back."""
    n = s[N]
    top = 0
    drawer = -1
    for p in range(n):
        if s[PASSED + p]:
            s[HAND + p] |= s[PLAYED + p]
            s[PLAYED + p] = 0
        if s[LAST_PLAYED + p] > top:
            top = s[LAST_PLAYED + p]
            drawer = p
    s[ROUND_DRAWER] = drawer
    if drawer >= 0:
        _villain_draw(s, drawer, END_OF_ROUND)
    else:
        s[VILLAIN_CONTEXT] = END_OF_ROUND
        _villain_done(s)


@inline_kernel
def _choose_start(s: np.ndarray, choice: int) -> None:
    drawer = s[ROUND_DRAWER]
    s[START_PLAYER] = drawer if choice == 0 else (drawer + 1) % s[N]
    _start_round(s)


# ------------------------------------------------------------------ the end of the game
@inline_kernel
def _finish(s: np.ndarray) -> None:
    """The unused advantage cards are turned up and score."""
    for p in range(s[N]):
        points = 0
        for a in range(TYPES):
            points += ADV_POINTS[a] * s[HELD + p * TYPES + a]
        s[FINAL_POINTS + p] = points
        s[SCORES + p] += points
    s[PHASE] = OVER
    s[TO_MOVE] = TERMINAL


# ---------------------------------------------------------------------- outcome
@kernel
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """1 shared among the winners: the highest score, then the most tiles plus provisions."""
    n = s[N]
    out[:n] = 0.0
    if s[TO_MOVE] != TERMINAL:
        return
    keys = np.empty(n, dtype=np.int64)
    for p in range(n):
        keys[p] = _tie_break_key(s, p)
    best = keys.max()
    winners = 0
    for p in range(n):
        if keys[p] == best:
            winners += 1
    for p in range(n):
        if keys[p] == best:
            out[p] = 1.0 / winners


@inline_kernel
def _tie_break_key(s: np.ndarray, p: int) -> int:
    """Score first, then tiles plus provisions (fewer than 2**20 of those)."""
    held = s[PROVISIONS + p]
    for k in range(NUM_KINDS):
        held += s[TILES + p * NUM_KINDS + k]
    return (s[SCORES + p] << 20) + held


@kernel
def scores(s: np.ndarray, out: np.ndarray) -> None:
    for p in range(s[N]):
        out[p] = s[SCORES + p]


# ---------------------------------------------------------------------- hidden cards
@kernel
def determinize(s: np.ndarray, seat: int, rng: np.ndarray) -> None:
    """Deal the advantage cards `seat` has not seen afresh, as `InkspellState.resample` does:
    the face-down pool and the other seats' hands (all turned up at the end: nothing to deal
    then) are one multiset of unseen cards, from which each other seat, in seat order, gets as
    many uniformly drawn cards as it holds; the rest is the pool. Only what `seat` knows is
    read (the unseen cards as a whole, each hand's size), so two states it cannot tell apart
    give the same deal for the same `rng` state."""
    if s[PHASE] == OVER:
        return
    n = s[N]
    unseen = np.empty(TYPES, dtype=np.int64)
    total = 0
    for a in range(TYPES):
        count = s[POOL + a]
        for q in range(n):
            if q != seat:
                count += s[HELD + q * TYPES + a]
        unseen[a] = count
        total += count
    for q in range(n):
        if q == seat:
            continue
        hand = HELD + q * TYPES
        size = 0
        for a in range(TYPES):
            size += s[hand + a]
            s[hand + a] = 0
        for _ in range(size):
            left = int(uniform(rng) * total)
            a = 0
            while left >= unseen[a]:
                left -= unseen[a]
                a += 1
            unseen[a] -= 1
            total -= 1
            s[hand + a] += 1
    for a in range(TYPES):
        s[POOL + a] = unseen[a]


# ---------------------------------------------------------------------- random play
@kernel
def _play_randomly(s: np.ndarray, rng: np.ndarray, actions: np.ndarray | None, limit: int) -> int:
    """Play `s` at random, in place: chance as likely as it is, every decision uniform among
    the legal ones, each action id written into `actions` unless it is None; to the end, or,
    if `limit` >= 0, up to the decision after `limit` of them (chance before it drawn:
    `MCTSAgent`'s cut-off). Returns the number of player decisions."""
    taken = 0
    decisions = 0
    while s[TO_MOVE] != TERMINAL:
        if s[TO_MOVE] == CHANCE:
            action = sample_chance(s, rng)
        else:
            if decisions == limit:
                break
            # Uniform among the legal actions: the one `legal` lists at index
            # `int(uniform(rng) * count)`, drawn from the phase's mask. Written out here:
            # as an inlined function (one exit or several) Numba compiles it some 25% slower.
            phase = s[PHASE]
            if phase == AFTER:
                mask = _after_mask(s)
                action = EXCHANGE + nth_bit(mask, int(uniform(rng) * popcount(mask)))
            elif phase == CHOOSE_CARD:
                mask = _card_mask(s)
                action = CARD_IDS[nth_bit(mask, int(uniform(rng) * popcount(mask)))]
            elif phase == ARRIVED:
                mask = _arrival_mask(s)
                action = STAUBFINGER + nth_bit(mask, int(uniform(rng) * popcount(mask)))
            elif phase == LOSS:
                mask = _tile_mask(s, TILES + s[TO_MOVE] * NUM_KINDS)
                action = LOSE_TILE + nth_bit(mask, int(uniform(rng) * popcount(mask)))
            else:  # START_CHOICE: lead or be last
                action = START + int(uniform(rng) * 2)
            decisions += 1
        step(s, action)
        if actions is not None:
            actions[taken] = action
        taken += 1
    return decisions


@kernel
def rollout(s: np.ndarray, rng: np.ndarray) -> int:
    """Play uniformly at random to the end, in place; returns the number of decisions."""
    return _play_randomly(s, rng, None, -1)


@kernel
def rollout_cut(s: np.ndarray, rng: np.ndarray, limit: int) -> int:
    """`rollout` cut off at the decision after `limit` decisions (the `mcts` seat's rollouts:
    `MCTS_CONFIGS["inkspell"].rollout_decisions`); returns the number of decisions."""
    return _play_randomly(s, rng, None, limit)


@kernel
def lead_values(s: np.ndarray, scale: float, out: np.ndarray) -> None:
    """Each seat's 0.5 + 0.5 tanh((its score - the best other score) / scale): the `mcts`
    seat's value of a rollout, cut off or finished (`guidance.LeadValuation` on
    `running_scores`, the victory track)."""
    n = s[N]
    for p in range(n):
        best_other = -(1 << 62)
        for q in range(n):
            if q != p and s[SCORES + q] > best_other:
                best_other = s[SCORES + q]
        out[p] = 0.5 + 0.5 * np.tanh((s[SCORES + p] - best_other) / scale)


@kernel
def random_game(s: np.ndarray, actions: np.ndarray, rng: np.ndarray) -> int:
    """Play `s` to the end at random, writing every action id (chance included) into
    `actions`; returns the number of actions."""
    start = s[STEP_COUNT]
    _play_randomly(s, rng, actions, -1)
    return int(s[STEP_COUNT] - start)


def max_game_steps(game: InkspellGame) -> int:
    """More actions than any game has: set-up's flips, then per round and seat a turn of far
    fewer than 200 actions."""
    return SEATS * NUM_CARDS + int(game.options["max_rounds"]) * SEATS * 200


RULES = KernelRules(
    name="inkspell",
    size=SIZE,
    to_move_at=TO_MOVE,
    steps_at=STEP_COUNT,
    first_chance_id=NUM_PLAYER_ACTIONS,
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
    random_game=random_game,
    rollout_cut=rollout_cut,
    lead_values=lead_values,
)
