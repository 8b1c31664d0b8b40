"""Tintenherz - Das Würfelspiel as a compiled kernel (Numba): the hot path of search and
self-play.

A state is one flat int64 array (`SIZE` entries); the pool, the centre and every seat's unsafe
and safe cards are 16-bit masks. The rules are those of `state.py`, which stays the reference:
`tests/kernels/test_kernel_equivalence.py` steps both engines side by side over thousands of
seeded games at every player count and option, comparing legal actions (same order as
`legal_ids`), who is to move and the scores at every step.
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
from spielwerk.games.inkheart_dice import observation
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
from spielwerk.games.inkheart_dice.state import (
    BOTH_DICE,
    CHOOSE,
    FIRST_DIE,
    FORCED,
    NO_REROLL,
    NOT_OVER,
    OVER,
    PILE_EMPTY,
    REFILL,
    REROLL_DICE,
    REROLL_NAMES,
    ROLL_DICE,
    SECOND_DIE,
    SETUP,
    TURN_LIMIT,
    InkheartDiceState,
)

SEATS = PARAMS.max_players
CENTRE_SIZE = PARAMS.centre_size
CASTLE_HEARTS = PARAMS.castle_hearts
VALUES = np.array(PARAMS.values, dtype=np.int64)
HEARTS = np.array(PARAMS.hearts, dtype=np.int64)
MASKS = np.array(PARAMS.match_masks, dtype=np.int64)
"""`MASKS[a, b]`: bit `c` set if card `c` may be taken with the roll (a, b)."""
ROLLS = FACES * FACES
MAX_LEGAL = 64
ALL_CARDS = (1 << NUM_CARDS) - 1

(
    N,
    PHASE,
    TO_MOVE,
    POOL,
    CENTRE,
    DIE_A,
    DIE_B,
    REROLLED,
    REROLL_WHICH,
    CURRENT,
    TURNS,
    END_REASON,
    MAX_TURNS,
    STEPS,
) = range(14)
UNSAFE = 14
SAFE = UNSAFE + SEATS
SIZE = SAFE + SEATS


@kernel
def new(players: int, start_player: int, max_turns: int) -> np.ndarray:
    """The state before the centre is turned up (a chance node)."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[N] = players
    s[PHASE] = SETUP
    s[TO_MOVE] = CHANCE
    s[POOL] = ALL_CARDS
    s[REROLL_WHICH] = NO_REROLL
    s[CURRENT] = start_player
    s[END_REASON] = NOT_OVER
    s[MAX_TURNS] = max_turns
    return s


def initial(game: InkheartDiceGame, players: int) -> np.ndarray:
    """The kernel array of `game.new_state(players)` (options read from the game)."""
    game.new_state(players, seed=0)  # checks the player count against the options
    return new(players, int(game.options["start_player"]), int(game.options["max_turns"]))


def _mask(cards: object) -> int:
    out = 0
    for card in cards:  # type: ignore[attr-defined]
        out |= 1 << card
    return out


def from_state(state: InkheartDiceState) -> np.ndarray:
    """The kernel array of a scalar state."""
    s = np.zeros(SIZE, dtype=np.int64)
    s[N] = state.num_players
    s[PHASE] = state.phase
    to_move = state.to_move
    assert isinstance(to_move, int)
    s[TO_MOVE] = to_move
    s[POOL] = _mask(state.pool)
    s[CENTRE] = _mask(state.centre)
    s[DIE_A], s[DIE_B] = state.dice
    s[REROLLED] = int(state.rerolled)
    s[REROLL_WHICH] = state.reroll_die
    s[CURRENT] = state.current
    s[TURNS] = state.turns
    s[END_REASON] = state.end_reason
    s[MAX_TURNS] = int(state.game.options["max_turns"])
    s[STEPS] = len(state.history)
    for p in range(state.num_players):
        s[UNSAFE + p] = _mask(state.unsafe[p])
        s[SAFE + p] = _mask(state.safe[p])
    return s


# ---------------------------------------------------------------------- legal actions
@inline_kernel
def _card_actions(s: np.ndarray, out: np.ndarray, start: int) -> int:
    """Take from the centre, steal an opponent's unsafe card, or make an own card safe, each
    with a card one die or the sum of both shows [seed]; written from `out[start]` on."""
    match = MASKS[s[DIE_A], s[DIE_B]]
    me = s[CURRENT]
    count = start
    cards = s[CENTRE] & match
    while cards:
        out[count] = TAKE + lowest_bit(cards)
        cards &= cards - 1
        count += 1
    others = 0
    for q in range(s[N]):
        if q != me:
            others |= s[UNSAFE + q]
    cards = others & match
    while cards:
        out[count] = STEAL + lowest_bit(cards)
        cards &= cards - 1
        count += 1
    cards = s[UNSAFE + me] & match
    while cards:
        out[count] = SECURE + lowest_bit(cards)
        cards &= cards - 1
        count += 1
    return count - start


@inline_kernel
def _has_card_action(s: np.ndarray) -> bool:
    """Whether `_card_actions` lists any (without listing them): a card the dice show lies in
    the centre, unsafe before an opponent, or unsafe before the current seat."""
    cards = s[CENTRE]
    for q in range(s[N]):
        cards |= s[UNSAFE + q]  # an opponent's to steal, or one's own to make safe
    return (cards & MASKS[s[DIE_A], s[DIE_B]]) != 0


@inline_kernel
def legal(s: np.ndarray, out: np.ndarray) -> int:
    """The legal action ids (chance outcomes at a chance node) in `legal_ids` order."""
    phase = s[PHASE]
    if phase == CHOOSE:
        count = _card_actions(s, out, 0)
        nothing = count == 0
        a, b = s[DIE_A], s[DIE_B]
        out[count] = REROLL + min(a, b) - 1  # re-roll either die or both, once a turn [seed]
        count += 1
        if a != b:
            out[count] = REROLL + max(a, b) - 1
            count += 1
        out[count] = REROLL_BOTH
        count += 1
        if nothing:
            out[count] = END_TURN  # nothing possible with the first roll [seed]
            count += 1
        return count
    if phase == FORCED:
        return _card_actions(s, out, 0)
    if phase == OVER:
        return 0
    if phase == ROLL_DICE or (phase == REROLL_DICE and s[REROLL_WHICH] == BOTH_DICE):
        for i in range(ROLLS):
            out[i] = ROLL + i
        return ROLLS
    if phase == REROLL_DICE:
        for i in range(FACES):
            out[i] = ROLL_DIE + i
        return FACES
    count = 0
    cards = s[POOL]
    while cards:
        out[count] = DRAW + lowest_bit(cards)
        cards &= cards - 1
        count += 1
    return count


@inline_kernel
def chance_from(s: np.ndarray, u: float) -> int:
    """The pending chance outcome for a uniform number `u` in [0, 1)."""
    phase = s[PHASE]
    if phase == ROLL_DICE or (phase == REROLL_DICE and s[REROLL_WHICH] == BOTH_DICE):
        return ROLL + int(u * ROLLS)
    if phase == REROLL_DICE:
        return ROLL_DIE + int(u * FACES)
    pool = s[POOL]
    return DRAW + nth_bit(pool, int(u * popcount(pool)))


@inline_kernel
def sample_chance(s: np.ndarray, rng: np.ndarray) -> int:
    return chance_from(s, uniform(rng))


# ---------------------------------------------------------------------- applying actions
@inline_kernel
def apply(s: np.ndarray, action: int) -> None:
    s[STEPS] += 1
    if action >= DRAW:
        _draw(s, action - DRAW)
    elif action >= ROLL_DIE:
        value = action - ROLL_DIE + 1
        if s[REROLL_WHICH] == FIRST_DIE:
            s[DIE_A] = value
        else:
            s[DIE_B] = value
        _after_reroll(s)
    elif action >= ROLL:
        offset = action - ROLL
        s[DIE_A] = offset // FACES + 1
        s[DIE_B] = offset % FACES + 1
        if s[PHASE] == ROLL_DICE:
            s[PHASE] = CHOOSE
            s[TO_MOVE] = s[CURRENT]
        else:
            _after_reroll(s)
    elif action == END_TURN:
        _end_turn(s)
    elif action == REROLL_BOTH:
        _reroll(s, BOTH_DICE)
    elif action >= REROLL:
        _reroll(s, FIRST_DIE if s[DIE_A] == action - REROLL + 1 else SECOND_DIE)
    elif action >= SECURE:
        bit = 1 << (action - SECURE)
        s[UNSAFE + s[CURRENT]] &= ~bit  # slid under the castle card: safe [seed]
        s[SAFE + s[CURRENT]] |= bit
        _end_turn(s)
    elif action >= STEAL:
        bit = 1 << (action - STEAL)
        for q in range(s[N]):
            s[UNSAFE + q] &= ~bit
        s[UNSAFE + s[CURRENT]] |= bit  # it lies unsafe in front of the taker [seed]
        _end_turn(s)
    else:
        _take(s, action - TAKE)


@inline_kernel
def _draw(s: np.ndarray, card: int) -> None:
    bit = 1 << card
    s[POOL] &= ~bit
    s[CENTRE] |= bit
    if s[PHASE] == SETUP:
        if popcount(s[CENTRE]) == CENTRE_SIZE:
            _start_turn(s)
        return
    _end_turn(s)  # the refill completes the take [seed]


@inline_kernel
def _take(s: np.ndarray, card: int) -> None:
    bit = 1 << card
    me = s[CURRENT]
    s[CENTRE] &= ~bit
    if VALUES[card] < 0:
        s[SAFE + me] |= bit  # negative cards go under the castle card [seed]
    else:
        s[UNSAFE + me] |= bit
    if s[POOL] == 0:  # the centre cannot be refilled: the game ends [seed]
        s[TURNS] += 1
        _finish(s, PILE_EMPTY)
        return
    s[PHASE] = REFILL
    s[TO_MOVE] = CHANCE


@inline_kernel
def _start_turn(s: np.ndarray) -> None:
    s[PHASE] = ROLL_DICE
    s[DIE_A] = 0
    s[DIE_B] = 0
    s[REROLLED] = 0
    s[REROLL_WHICH] = NO_REROLL
    s[TO_MOVE] = CHANCE


@inline_kernel
def _reroll(s: np.ndarray, which: int) -> None:
    s[REROLLED] = 1
    s[REROLL_WHICH] = which
    s[PHASE] = REROLL_DICE
    s[TO_MOVE] = CHANCE


@inline_kernel
def _after_reroll(s: np.ndarray) -> None:
    """After re-rolling an action is compulsory if possible, else the turn ends. [seed]"""
    s[REROLL_WHICH] = NO_REROLL
    if _has_card_action(s):
        s[PHASE] = FORCED
        s[TO_MOVE] = s[CURRENT]
    else:
        _end_turn(s)


@inline_kernel
def _end_turn(s: np.ndarray) -> None:
    s[TURNS] += 1
    if s[TURNS] >= s[MAX_TURNS]:
        _finish(s, TURN_LIMIT)
        return
    s[CURRENT] = (s[CURRENT] + 1) % s[N]
    _start_turn(s)


@inline_kernel
def _finish(s: np.ndarray, reason: int) -> None:
    s[END_REASON] = reason
    s[PHASE] = OVER
    s[TO_MOVE] = TERMINAL


# ---------------------------------------------------------------------- outcome
@inline_kernel
def castle(safe: int) -> tuple[int, bool]:
    """A seat's score from its safe cards, and whether it is the castle card's discarding:
    the better of keeping and discarding it (a tie keeps it). [seed][design]"""
    points = hearts = plus_points = plus_hearts = 0
    cards = safe
    while cards:
        card = lowest_bit(cards)
        cards &= cards - 1
        points += VALUES[card]
        hearts += HEARTS[card]
        if VALUES[card] > 0:
            plus_points += VALUES[card]
            plus_hearts += HEARTS[card]
    kept = points * (hearts + CASTLE_HEARTS)
    discarded = plus_points * plus_hearts
    return (discarded, True) if discarded > kept else (kept, False)


@kernel
def score(safe: int) -> int:
    """A seat's score from its safe cards (`castle`)."""
    return castle(safe)[0]


@kernel
def scores(s: np.ndarray, out: np.ndarray) -> None:
    for p in range(s[N]):
        out[p] = score(s[SAFE + p])


@kernel
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """1 shared equally among the top scorers at the end, 0 for everybody before it."""
    n = s[N]
    out[:n] = 0.0
    if s[TO_MOVE] != TERMINAL:
        return
    points = np.empty(n, dtype=np.int64)
    for p in range(n):
        points[p] = score(s[SAFE + p])
    best = points.max()
    winners = 0
    for p in range(n):
        if points[p] == best:
            winners += 1
    for p in range(n):
        if points[p] == best:
            out[p] = 1.0 / winners


@kernel
def determinize(s: np.ndarray, seat: int, rng: np.ndarray) -> None:
    """Everything but the pile's order is public and the pile is an unordered pool: every
    seat's information set is the state itself (as in `InkheartDiceState.resample`)."""
    return


@kernel
def rollout(s: np.ndarray, rng: np.ndarray) -> int:
    """Play uniformly at random to the end, in place; returns the number of player decisions."""
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    decisions = 0
    while True:
        to_move = s[TO_MOVE]
        if to_move == TERMINAL:
            return decisions
        if to_move == CHANCE:
            apply(s, sample_chance(s, rng))
            continue
        count = legal(s, out)
        apply(s, out[int(uniform(rng) * count)])
        decisions += 1


def max_game_steps(game: InkheartDiceGame) -> int:
    """More actions than any game has: a turn takes at most a roll, a re-roll and its roll,
    an action and a refill."""
    return 6 * int(game.options["max_turns"]) + 2 * NUM_CARDS


# ---------------------------------------------------------------------- observations
# Offsets of the observation tensor's blocks (spielwerk/games/inkheart_dice/observation.py).
_AT = observation.LAYOUT.offsets
O_CENTRE, O_UNSAFE, O_SAFE, O_HEARTS = _AT["centre"], _AT["unsafe"], _AT["safe"], _AT["hearts"]
O_SCORES, O_DISCARDED, O_SEATED = _AT["scores"], _AT["castle_discarded"], _AT["seated"]
O_TO_MOVE, O_CURRENT, O_DICE, O_REROLLED = (
    _AT["to_move"],
    _AT["current"],
    _AT["dice"],
    _AT["rerolled"],
)
O_REROLLING, O_PHASE, O_PILE, O_TURN = _AT["rerolling"], _AT["phase"], _AT["draw_pile"], _AT["turn"]
OBSERVATION_SIZE = observation.LAYOUT.size
REROLLING_INDEX = np.array(
    [observation.REROLLING.index(REROLL_NAMES[w]) for w in (FIRST_DIE, SECOND_DIE, BOTH_DICE)],
    dtype=np.int64,
)


@kernel
def _put_cards(out: np.ndarray, at: int, cards: int) -> None:
    while cards:
        out[at + lowest_bit(cards)] = 1.0
        cards &= cards - 1


@kernel
def observe(s: np.ndarray, viewer: int, out: np.ndarray) -> None:
    """The observation tensor of seat `viewer` (exactly `InkheartDiceState.observation_tensor`:
    everything but the pile's order is public), written into `out`."""
    n = s[N]
    out[:] = 0.0
    _put_cards(out, O_CENTRE, s[CENTRE])
    for p in range(n):
        rel = (p - viewer) % n
        safe = s[SAFE + p]
        _put_cards(out, O_UNSAFE + rel * NUM_CARDS, s[UNSAFE + p])
        _put_cards(out, O_SAFE + rel * NUM_CARDS, safe)
        hearts = CASTLE_HEARTS
        cards = safe
        while cards:
            hearts += HEARTS[lowest_bit(cards)]
            cards &= cards - 1
        out[O_HEARTS + rel] = hearts / observation.HEART_SCALE
        points, discarded = castle(safe)
        out[O_SCORES + rel] = points / observation.SCORE_SCALE
        out[O_DISCARDED + rel] = 1.0 if discarded else 0.0
        out[O_SEATED + rel] = 1.0
    to_move = s[TO_MOVE]
    if to_move >= 0:
        out[O_TO_MOVE + (to_move - viewer) % n] = 1.0
    elif to_move == CHANCE:
        out[O_TO_MOVE + SEATS] = 1.0
    else:
        out[O_TO_MOVE + SEATS + 1] = 1.0
    phase = s[PHASE]
    playing = phase != SETUP and phase != OVER
    if playing:
        out[O_CURRENT + (s[CURRENT] - viewer) % n] = 1.0
    if s[DIE_A]:
        out[O_DICE + s[DIE_A] - 1] = 1.0
        out[O_DICE + observation.DIE_FACES + s[DIE_B] - 1] = 1.0
    out[O_REROLLED] = 1.0 if s[REROLLED] else 0.0
    if s[REROLL_WHICH] != NO_REROLL:
        out[O_REROLLING + REROLLING_INDEX[s[REROLL_WHICH]]] = 1.0
    out[O_PHASE + phase] = 1.0
    out[O_PILE] = popcount(s[POOL]) / NUM_CARDS
    turn = s[TURNS] + 1 if playing else s[TURNS]
    out[O_TURN] = turn / s[MAX_TURNS]


RULES = KernelRules(
    name="inkheart_dice",
    size=SIZE,
    to_move_at=TO_MOVE,
    steps_at=STEPS,
    first_chance_id=ROLL,
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
