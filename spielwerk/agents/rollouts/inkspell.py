"""The learned rollout policy of the compiled Tintenblut search (AlphaGo's fast rollout policy,
Silver et al. 2016): a linear softmax over features of each legal move, as in Witches and
Isolde (`spielwerk.agents.rollouts`, docs/learning.md).

A bot's part, kept with the bots. What a move does is found by playing it, with the
kernel's `apply`, on a copy of the state and looking ahead to the end of the mover's arrival:
a location card is played and the reward row of its destination taken (as the map stands: the
shared row in company); Staubfinger's step or an advantage card is made and the reward row
then due taken. The features are then the changes in the mover's holdings, valued as the
heuristic bot values them (`spielwerk.agents.heuristics.inkspell`: the set points of its
tiles, `tile_value`, provisions, advantage cards, the villain pile), the points it could
still convert this turn, the villain cards the move risks, and a few plain facts of the move
(its card number, the journey, company, the kind of move). So the rules stay in the kernel:
the reference (`rollout_features`, which the learner reads) only reads the state before and
after. A rollout cannot afford a copy and two actions for each of some ten cards a turn, so
`rollout_logits` works out the common moves (cards, Staubfinger's step, the reward, passing,
the exchange and conversions) step by step by the kernel's rules for them, and a test holds it
to the reference at every decision of seeded games.

`estimate_lead_values` is the heuristic's valuation (`InkspellValuation`) compiled, with which
the search may value a cut rollout instead of the score lead (`kernel_mcts`' `leaf_estimate`).

Every feature reads only what the mover knows: its own advantage cards, its tiles and
provisions, and public facts (the map, the figures, the scores, the supply, the played cards,
the villain piles, how many advantage cards lie face down). The look-ahead stops at the first
chance step (an advantage or villain card drawn), and the kernel's steps up to it read no
other seat's advantage cards; dealing those afresh (`kernel.determinize` for the mover)
changes no feature (a test checks it).
"""

from __future__ import annotations

import numpy as np

from spielwerk.agents.rollouts import LearnedRollout
from spielwerk.core.kernel import inline_kernel, kernel
from spielwerk.core.kernel_ops import popcount, softmax_draw
from spielwerk.core.state import CHANCE, TERMINAL
from spielwerk.games.inkspell.actions import (
    ADVANTAGE,
    CONVERT,
    END_TURN,
    EXCHANGE,
    PASS,
    PLAY,
    PLAY_ANYWHERE,
    REWARD,
    SHARED,
    SOLO,
    START,
    STAUBFINGER,
    TAKE_ALL,
)
from spielwerk.games.inkspell.kernel import (
    CONVERTED,
    COST_OF,
    CURRENT,
    END_TRIGGERED,
    EX_COUNTS,
    EX_KIND,
    EX_PAID,
    FINAL_POINTS,
    FINAL_ROUND,
    HAND,
    HELD,
    LAST_PLAYED,
    LOCATION_NUMBERS,
    MAX_LEGAL,
    PENDING_DRAWS,
    PHASE,
    POOL_SIZE,
    POSITION,
    PRINCE,
    PROVISIONS,
    REW_AMOUNT,
    REW_GAIN,
    REW_LEN,
    ROW_CHOICE,
    SCORES,
    SET_MASK,
    SET_SIZE,
    SIZE,
    SIZE_BITS,
    STEP_COUNT,
    STEPS_OF,
    SUPPLY,
    SUPPLY_PROVISIONS,
    TAKES,
    TILES,
    TO_MOVE,
    TYPES,
    VILLAIN_CONTEXT,
    WHITE_WOMEN,
    _company,
    _reward_row,
    _villain_sum,
    apply,
    legal,
    sample_chance,
)
from spielwerk.games.inkspell.state import (
    AFTER,
    ARRIVED,
    CHOOSE_CARD,
    DRAW_CARD,
    GAIN_ADVANTAGE,
    GAIN_PROVISION,
    IN_TURN,
    LOSS,
    NACHTBURG,
    NUM_KINDS,
    NUM_LOCATIONS,
    PRINZ,
    START_CHOICE,
    TINTENWELT,
    TRACK,
    VILLAIN,
)

ROLLOUT_FEATURES = (
    # What the move does to the mover's holdings, looked ahead to the end of its arrival:
    "score",  # steps gained on the victory track / 4 (conversions)
    "set_points",  # the change in the set points of its tiles / 4 (the heuristic's set_points)
    "tile_value",  # the change in the heuristic's tile_value of its tiles / 4
    "tiles",  # tiles gained / 2
    "spread",  # the change in (most - fewest tiles of a kind) / 2: a lopsided mix
    "provisions",  # provisions gained / 2
    "provisions_late",  # provisions gained x (1 - the horizon) / 2: worth less near the end
    "advantage",  # advantage cards gained (drawn) or given up (used)
    "villain_sum",  # the change in its villain sum / 8 (Orpheus)
    "turn_points",  # the steps it can still convert this turn afterwards / 4 (greedy)
    "plan_value",  # the change in tile_value of the tiles left after those conversions / 4
    "nachtburg",  # alone in the Nachtburg: a villain card now, x what one costs it / 4
    # A location card:
    "play",
    "card_number",  # its villain number / 40
    "tops_round",  # its number beats every other seat's last card: a villain card at the
    # round's end if nobody plays higher, x what one costs / 4
    "journey",  # provisions paid / 3
    "company",  # another figure at the destination: the shared row
    "tintenwelt",  # the card that goes anywhere
    "pass",
    "pass_hand",  # passing with cards in hand: their number / 4
    "pass_short",  # passing with at most 4 cards in hand (where the heuristic may pass)
    "prince",  # Der Schwarze Prinz before the card
    "prince_saving",  # the dearest journey of a card in hand, which it makes free / 3
    # After arriving, the exchange and conversions, the start of a round:
    "staubfinger",
    "use_advantage",
    "exchange",
    "end_turn",
    "lead",  # the villain drawer leads the next round
)
"""What the rollout policy sees of each legal move (above); `rollout_features` writes them
and `rollout_logits` is their dot product with the weights."""
NUM_ROLLOUT_FEATURES = len(ROLLOUT_FEATURES)
(
    F_SCORE,
    F_SET,
    F_VALUE,
    F_TILES,
    F_SPREAD,
    F_PROVISIONS,
    F_LATE,
    F_ADVANTAGE,
    F_VILLAINS,
    F_TURN,
    F_PLAN,
    F_NACHTBURG,
    F_PLAY,
    F_NUMBER,
    F_TOPS,
    F_JOURNEY,
    F_COMPANY,
    F_TINTENWELT,
    F_PASS,
    F_PASS_HAND,
    F_PASS_SHORT,
    F_PRINCE,
    F_SAVING,
    F_STAUBFINGER,
    F_USE,
    F_EXCHANGE,
    F_END_TURN,
    F_LEAD,
) = range(NUM_ROLLOUT_FEATURES)

assert NUM_KINDS == 4 and [int(STEPS_OF[size]) for size in (2, 3, 4)] == [2, 4, 7], (
    "the set values below are written for four tile kinds converting in sets of 2, 3 and 4"
)

# The heuristic bot's figures (`spielwerk.agents.heuristics.inkspell`).
PROVISION_VALUE = 0.8
ADVANTAGE_VALUE = 1.6
VILLAIN_CARD = 1.0
AT_RISK = 0.15
TILE_POTENTIAL = 1.55
LOPSIDED = 0.5
SHORT_HAND = 4
"""The heuristic passes only with this many cards in hand or fewer."""

# What `_prepare` works out once a decision, before any move (indices into `pre`).
(
    P_SCORE,
    P_SET,
    P_VALUE,
    P_TILES,
    P_SPREAD,
    P_PROVISIONS,
    P_HELD,
    P_VILLAINS,
    P_HORIZON,
    P_COST,
    P_TOP_OTHER,
    P_SAVING,
) = range(12)
PRE = 12


# ---------------------------------------------------------------------- the mover's tiles
@inline_kernel
def _sorted4(a: int, b: int, c: int, d: int) -> tuple[int, int, int, int]:
    """Four counts, largest first (a sorting network: no loop, no array)."""
    if a < b:
        a, b = b, a
    if c < d:
        c, d = d, c
    if a < c:
        a, c = c, a
    if b < d:
        b, d = d, b
    if b < c:
        b, c = c, b
    return a, b, c, d


@inline_kernel
def _tile_worth(
    t0: int, t1: int, t2: int, t3: int, horizon: float
) -> tuple[float, float, float, float]:
    """(set points, `tile_value` at `horizon`, tiles, spread) of tile counts: the heuristic's
    `set_points` (layered sets of different kinds: a 4-set per tile of the scarcest kind, and
    so on) and `tile_value` (at least those points, else TILE_POTENTIAL a tile less LOPSIDED
    per tile between the most and the fewest of a kind; nothing at horizon 0)."""
    a, b, c, d = _sorted4(t0, t1, t2, t3)
    points = STEPS_OF[4] * d + STEPS_OF[3] * (c - d) + STEPS_OF[2] * (b - c)
    total = a + b + c + d
    value = 0.0
    if horizon > 0.0:
        value = horizon * max(float(points), TILE_POTENTIAL * total - LOPSIDED * (a - d))
    return float(points), value, float(total), float(a - d)


@inline_kernel
def _turn_points(counts: np.ndarray, here: int, score: int, done: int) -> int:
    """The steps a figure at `here` with `score` could still convert this turn with the tiles
    `counts` (used up in place), the set sizes `done` (a mask) converted already: a set of each
    size left, the biggest first, each of the kinds it has most of (greedy: the heuristic
    searches every order); special spaces of the track respected (`SIZE_BITS`)."""
    points = 0
    for size in range(NUM_KINDS, 1, -1):
        if (done >> size) & 1 or not (SIZE_BITS[score % TRACK, here] >> size) & 1:
            continue
        present = 0
        for k in range(NUM_KINDS):
            present += int(counts[k] > 0)
        if present < size:
            continue
        # Keep out the NUM_KINDS - size scarcest kinds (marked -1), pay one of each other.
        for _ in range(NUM_KINDS - size):
            low = -1
            for k in range(NUM_KINDS):
                if counts[k] >= 0 and (low < 0 or counts[k] < counts[low]):
                    low = k
            counts[low] = -1 - counts[low]
        for k in range(NUM_KINDS):
            if counts[k] >= 0:
                counts[k] -= 1
            else:
                counts[k] = -1 - counts[k]
        score += STEPS_OF[size]
        points += STEPS_OF[size]
    return points


@inline_kernel
def _horizon(s: np.ndarray, seat: int) -> float:
    """How much tiles kept are worth against points now (the heuristic's `horizon`): nothing
    in the final round, less once the end is triggered or when the next Natternkopf would hit
    the seat (the highest villain sum)."""
    if s[FINAL_ROUND]:
        return 0.0
    if s[END_TRIGGERED]:
        return 0.6
    mine = _villain_sum(s, seat)
    if mine:
        for q in range(s[0]):
            if _villain_sum(s, q) > mine:
                return 1.0
        return 0.75
    return 1.0


@inline_kernel
def _held(s: np.ndarray, seat: int) -> int:
    """The advantage cards `seat` holds, and those it is about to draw."""
    held = 0
    for a in range(TYPES):
        held += s[HELD + seat * TYPES + a]
    if s[PHASE] == DRAW_CARD and s[CURRENT] == seat:
        held += s[PENDING_DRAWS]
    return held


@kernel
def _prepare(s: np.ndarray, seat: int, pre: np.ndarray) -> None:
    """What every move's features compare against, worked out once a decision into `pre`."""
    tiles = TILES + seat * NUM_KINDS
    horizon = _horizon(s, seat)
    points, value, total, spread = _tile_worth(
        s[tiles], s[tiles + 1], s[tiles + 2], s[tiles + 3], horizon
    )
    pre[P_SCORE] = s[SCORES + seat] - s[FINAL_POINTS + seat]
    pre[P_SET] = points
    pre[P_VALUE] = value
    pre[P_TILES] = total
    pre[P_SPREAD] = spread
    pre[P_PROVISIONS] = s[PROVISIONS + seat]
    pre[P_HELD] = _held(s, seat)
    villains = _villain_sum(s, seat)
    pre[P_VILLAINS] = villains
    pre[P_HORIZON] = horizon
    # The heuristic's `villain_cost`: more with more to lose to a Natternkopf.
    at_risk = total + s[PROVISIONS + seat]
    pre[P_COST] = VILLAIN_CARD + AT_RISK * at_risk * (1.0 + villains / 8.0)
    top = 0
    for q in range(s[0]):
        if q != seat and s[LAST_PLAYED + q] > top:
            top = s[LAST_PLAYED + q]
    pre[P_TOP_OTHER] = top
    saving = 0
    if s[PHASE] == CHOOSE_CARD and s[HELD + seat * TYPES + PRINZ]:
        here = s[POSITION + seat]
        hand = s[HAND + seat]
        anywhere = (hand >> TINTENWELT) & 1
        for card in range(NUM_LOCATIONS):
            if anywhere or (hand >> card) & 1:
                saving = max(saving, COST_OF[here, card])
    pre[P_SAVING] = saving / 3.0


@inline_kernel
def _entry_value(
    s: np.ndarray, seat: int, gain: int, amount: int, horizon: float, counts: np.ndarray
) -> float:
    """What one reward entry is worth to `seat` (the heuristic's `entry_value`)."""
    if gain == GAIN_PROVISION:
        return PROVISION_VALUE * amount
    if gain == GAIN_ADVANTAGE:
        return ADVANTAGE_VALUE * amount if s[POOL_SIZE] else 0.0
    for k in range(NUM_KINDS):
        counts[k] = s[TILES + seat * NUM_KINDS + k]
    before = _tile_worth(counts[0], counts[1], counts[2], counts[3], horizon)[1]
    counts[gain] += min(amount, s[SUPPLY + gain])
    return _tile_worth(counts[0], counts[1], counts[2], counts[3], horizon)[1] - before


@inline_kernel
def _take_reward(t: np.ndarray, seat: int, horizon: float, counts: np.ndarray) -> None:
    """Take the reward row due, in `t`: all of it, or with the White Women the entry worth
    more (the heuristic's choice)."""
    row = _reward_row(t, seat)
    here = t[POSITION + seat]
    take = TAKE_ALL
    if t[WHITE_WOMEN] == seat and REW_LEN[here, row] > 1:
        best = -1e9
        for i in range(min(REW_LEN[here, row], TAKES - 1)):
            value = _entry_value(
                t, seat, REW_GAIN[here, row, i], REW_AMOUNT[here, row, i], horizon, counts
            )
            if value > best:
                best = value
                take = i + 1
    apply(t, REWARD + row * TAKES + take)


# ---------------------------------------------------------------------- features and logits
@inline_kernel
def _features(
    s: np.ndarray,
    seat: int,
    action: int,
    pre: np.ndarray,
    t: np.ndarray,
    counts: np.ndarray,
    f: np.ndarray,
) -> None:
    """`f` = the `ROLLOUT_FEATURES` of `action`, legal for `seat` (to move) in `s`; `pre` from
    `_prepare`, `t` and `counts` scratch."""
    # Element by element: Numba's slice assignments cost several times as much here.
    for j in range(NUM_ROLLOUT_FEATURES):
        f[j] = 0.0
    phase = s[PHASE]
    arrives = False  # the look-ahead ends with the mover's reward taken
    if phase == CHOOSE_CARD:
        if action < PASS:  # a location card
            arrives = True
            card = TINTENWELT
            target = action - PLAY_ANYWHERE
            if action < PLAY_ANYWHERE:
                card = action - PLAY
                target = card
            else:
                f[F_TINTENWELT] = 1.0
            number = LOCATION_NUMBERS[seat, card]
            f[F_PLAY] = 1.0
            f[F_NUMBER] = number / 40.0
            if number > pre[P_TOP_OTHER]:
                f[F_TOPS] = pre[P_COST] / 4.0
            if not s[PRINCE]:
                f[F_JOURNEY] = COST_OF[s[POSITION + seat], target] / 3.0
            f[F_COMPANY] = 1.0 if _company(s, target, seat) else 0.0
        elif action == PASS:
            f[F_PASS] = 1.0
            f[F_PASS_HAND] = popcount(s[HAND + seat]) / 4.0
            f[F_PASS_SHORT] = 1.0 if popcount(s[HAND + seat]) <= SHORT_HAND else 0.0
        else:  # Der Schwarze Prinz
            f[F_PRINCE] = 1.0
            f[F_SAVING] = pre[P_SAVING]
    elif phase == ARRIVED:
        arrives = True
        if STAUBFINGER <= action < ADVANTAGE:
            f[F_STAUBFINGER] = 1.0
        elif ADVANTAGE <= action < REWARD:
            f[F_USE] = 1.0
    elif phase == AFTER:
        if EXCHANGE <= action < CONVERT:
            f[F_EXCHANGE] = 1.0
        elif action == END_TURN:
            f[F_END_TURN] = 1.0
    elif phase == START_CHOICE:
        f[F_LEAD] = 1.0 if action == START else 0.0
    for j in range(SIZE):
        t[j] = s[j]
    apply(t, action)
    if t[PHASE] == ARRIVED and t[CURRENT] == seat:
        _take_reward(t, seat, pre[P_HORIZON], counts)
    tiles = TILES + seat * NUM_KINDS
    points, value, total, spread = _tile_worth(
        t[tiles], t[tiles + 1], t[tiles + 2], t[tiles + 3], pre[P_HORIZON]
    )
    f[F_SCORE] = (t[SCORES + seat] - t[FINAL_POINTS + seat] - pre[P_SCORE]) / 4.0
    f[F_SET] = (points - pre[P_SET]) / 4.0
    f[F_VALUE] = (value - pre[P_VALUE]) / 4.0
    f[F_TILES] = (total - pre[P_TILES]) / 2.0
    f[F_SPREAD] = (spread - pre[P_SPREAD]) / 2.0
    f[F_PROVISIONS] = (t[PROVISIONS + seat] - pre[P_PROVISIONS]) / 2.0
    f[F_LATE] = (1.0 - pre[P_HORIZON]) * f[F_PROVISIONS]
    f[F_ADVANTAGE] = _held(t, seat) - pre[P_HELD]
    f[F_VILLAINS] = (_villain_sum(t, seat) - pre[P_VILLAINS]) / 8.0
    after = t[PHASE]
    # Still the mover's turn (its conversions to come): arriving, drawing, or a villain card
    # drawn in its turn.
    in_turn = (after == ARRIVED) | (after == AFTER) | (after == DRAW_CARD)
    if (after == VILLAIN) | (after == LOSS):
        in_turn = t[VILLAIN_CONTEXT] == IN_TURN
    f[F_PLAN] = f[F_VALUE]  # no conversion to come: the tiles stay as they are
    if in_turn and t[CURRENT] == seat:
        for k in range(NUM_KINDS):
            counts[k] = t[tiles + k]
        f[F_TURN] = _turn_points(counts, t[POSITION + seat], t[SCORES + seat], t[CONVERTED]) / 4.0
        left = _tile_worth(counts[0], counts[1], counts[2], counts[3], pre[P_HORIZON])[1]
        f[F_PLAN] = (left - pre[P_VALUE]) / 4.0
    if arrives and t[POSITION + seat] == NACHTBURG and not _company(t, NACHTBURG, seat):
        f[F_NACHTBURG] = pre[P_COST] / 4.0


@kernel
def rollout_features(s: np.ndarray, actions: np.ndarray, out: np.ndarray) -> None:
    """`out[i]` = the `ROLLOUT_FEATURES` of `actions[i]`, legal for the seat to move in `s`.
    The reference the learning reads; `rollout_logits` is the same dot product."""
    seat = s[TO_MOVE]
    pre = np.zeros(PRE)
    t = np.empty(SIZE, dtype=np.int64)
    counts = np.empty(NUM_KINDS, dtype=np.int64)
    _prepare(s, seat, pre)
    for i in range(actions.shape[0]):
        _features(s, seat, actions[i], pre, t, counts, out[i])


@inline_kernel
def _reward_logit(
    s: np.ndarray,
    w: np.ndarray,
    seat: int,
    here: int,
    row: int,
    take: int,
    provisions: int,
    supply: int,
    pre: np.ndarray,
    counts: np.ndarray,
) -> float:
    """w . the holdings features of `seat` taking the reward row `row` at `here` (`take`: as
    the reward action's, or -1 for the look-ahead's choice: all of it, or with the White Women
    the entry worth more, as `_take_reward`), holding `provisions` with `supply` provisions in
    the supply just before it; with the conversions left this turn. The kernel's
    `_take_reward` and `_gain`, step by step."""
    first, last = 0, REW_LEN[here, row]
    if take < 0:
        if s[WHITE_WOMEN] == seat and last > 1:
            best = -1e9
            for i in range(min(last, TAKES - 1)):
                gain, amount = REW_GAIN[here, row, i], REW_AMOUNT[here, row, i]
                value = _entry_value(s, seat, gain, amount, pre[P_HORIZON], counts)
                if value > best:
                    best = value
                    first = i
            last = first + 1
    elif take != TAKE_ALL:
        first, last = take - 1, take
    tiles = TILES + seat * NUM_KINDS
    for k in range(NUM_KINDS):
        counts[k] = s[tiles + k]
    draws = 0
    for i in range(first, last):
        gain = REW_GAIN[here, row, i]
        amount = REW_AMOUNT[here, row, i]
        if gain == GAIN_ADVANTAGE:
            draws += amount
        elif gain == GAIN_PROVISION:
            amount = min(amount, supply)
            supply -= amount
            provisions += amount
        else:  # from the supply, as far as it goes (what the row took already is gone)
            counts[gain] += min(amount, s[SUPPLY + gain] - (counts[gain] - s[tiles + gain]))
    points, value, total, spread = _tile_worth(
        counts[0], counts[1], counts[2], counts[3], pre[P_HORIZON]
    )
    z = w[F_SET] * (points - pre[P_SET]) / 4.0 + w[F_VALUE] * (value - pre[P_VALUE]) / 4.0
    z += w[F_TILES] * (total - pre[P_TILES]) / 2.0 + w[F_SPREAD] * (spread - pre[P_SPREAD]) / 2.0
    gained = (provisions - pre[P_PROVISIONS]) / 2.0
    z += (w[F_PROVISIONS] + w[F_LATE] * (1.0 - pre[P_HORIZON])) * gained
    z += w[F_ADVANTAGE] * min(draws, s[POOL_SIZE])
    left = _turn_points(counts, here, s[SCORES + seat], s[CONVERTED])
    plan = _tile_worth(counts[0], counts[1], counts[2], counts[3], pre[P_HORIZON])[1]
    return float(z + w[F_TURN] * left / 4.0 + w[F_PLAN] * (plan - pre[P_VALUE]) / 4.0)


@inline_kernel
def _play_logit(
    s: np.ndarray, w: np.ndarray, seat: int, action: int, pre: np.ndarray, counts: np.ndarray
) -> float:
    """w . the features of a location card `action` (< PASS), worked out without playing it
    on a copy: `_features`' look-ahead (the journey paid, the reward row of the destination
    taken, the conversions left) by the kernel's rules for it, step by step (`_play`,
    `_reward_logit`). A rollout weighs some ten cards a turn, and copying the state and
    applying two actions for each was most of a policy rollout's time; a test holds this to
    `rollout_features` over the decisions of many games."""
    card = TINTENWELT
    target = action - PLAY_ANYWHERE
    z = w[F_PLAY]
    if action < PLAY_ANYWHERE:
        card = action - PLAY
        target = card
    else:
        z += w[F_TINTENWELT]
    number = LOCATION_NUMBERS[seat, card]
    z += w[F_NUMBER] * number / 40.0
    if number > pre[P_TOP_OTHER]:
        z += w[F_TOPS] * pre[P_COST] / 4.0
    cost = 0 if s[PRINCE] else COST_OF[s[POSITION + seat], target]
    z += w[F_JOURNEY] * cost / 3.0
    company = _company(s, target, seat)
    if company:
        z += w[F_COMPANY]
    elif target == NACHTBURG:
        z += w[F_NACHTBURG] * pre[P_COST] / 4.0
    row = s[ROW_CHOICE] if s[ROW_CHOICE] >= 0 else (SHARED if company else SOLO)
    # The journey is paid into the supply first.
    provisions = s[PROVISIONS + seat] - cost
    supply = s[SUPPLY_PROVISIONS] + cost
    return float(z + _reward_logit(s, w, seat, target, row, -1, provisions, supply, pre, counts))


@inline_kernel
def _arrival_logit(
    s: np.ndarray, w: np.ndarray, seat: int, action: int, pre: np.ndarray, counts: np.ndarray
) -> float:
    """w . the features of Staubfinger's step or of the reward (after arriving), worked out
    as `_play_logit` does: `_move_staubfinger` (a provision paid, company where Staubfinger
    comes or leaves) and then the reward row due, or the reward action's row."""
    here = s[POSITION + seat]
    provisions = s[PROVISIONS + seat]
    supply = s[SUPPLY_PROVISIONS]
    if action >= REWARD:
        offset = action - REWARD
        row, take = offset // TAKES, offset % TAKES
        z = 0.0
        company = _company(s, here, seat)
    else:
        z = w[F_STAUBFINGER]
        company = action - STAUBFINGER == here
        for p in range(s[0]):
            if p != seat and s[POSITION + p] == here:
                company = True
        row = s[ROW_CHOICE] if s[ROW_CHOICE] >= 0 else (SHARED if company else SOLO)
        take = -1
        provisions -= 1
        supply += 1
    if here == NACHTBURG and not company:
        z += w[F_NACHTBURG] * pre[P_COST] / 4.0
    return float(z + _reward_logit(s, w, seat, here, row, take, provisions, supply, pre, counts))


@inline_kernel
def _after_logit(
    s: np.ndarray, w: np.ndarray, seat: int, action: int, pre: np.ndarray, counts: np.ndarray
) -> float:
    """w . the features of an exchange, a conversion or the end of the turn (the step after
    arriving), worked out without playing it on a copy, by the kernel's `_exchange` and
    `_convert`, as `_play_logit` does for cards (a test holds both to `rollout_features`)."""
    if action == END_TURN:  # nothing changes for the mover, and no conversion is left
        return float(w[F_END_TURN])
    tiles = TILES + seat * NUM_KINDS
    for k in range(NUM_KINDS):
        counts[k] = s[tiles + k]
    provisions = s[PROVISIONS + seat]
    done = s[CONVERTED]
    steps = 0
    z = 0.0
    if action >= CONVERT:
        index = action - CONVERT
        for k in range(NUM_KINDS):
            counts[k] -= (SET_MASK[index] >> k) & 1
        steps = STEPS_OF[SET_SIZE[index]]
        done |= 1 << SET_SIZE[index]
    else:
        z = w[F_EXCHANGE]
        index = action - EXCHANGE
        if EX_KIND[index] >= 0:  # provisions for a tile
            provisions -= EX_PAID[index]
            counts[EX_KIND[index]] += min(1, s[SUPPLY + EX_KIND[index]])
        else:  # tiles for a provision
            for k in range(NUM_KINDS):
                counts[k] -= EX_COUNTS[index, k]
            provisions += min(1, s[SUPPLY_PROVISIONS])
    points, value, total, spread = _tile_worth(
        counts[0], counts[1], counts[2], counts[3], pre[P_HORIZON]
    )
    z += w[F_SCORE] * steps / 4.0
    z += w[F_SET] * (points - pre[P_SET]) / 4.0 + w[F_VALUE] * (value - pre[P_VALUE]) / 4.0
    z += w[F_TILES] * (total - pre[P_TILES]) / 2.0 + w[F_SPREAD] * (spread - pre[P_SPREAD]) / 2.0
    gained = (provisions - pre[P_PROVISIONS]) / 2.0
    z += (w[F_PROVISIONS] + w[F_LATE] * (1.0 - pre[P_HORIZON])) * gained
    # What is left to convert (nothing when the turn ends by itself: then no set is left).
    here = s[POSITION + seat]
    left = _turn_points(counts, here, s[SCORES + seat] + steps, done)
    plan = _tile_worth(counts[0], counts[1], counts[2], counts[3], pre[P_HORIZON])[1]
    return float(z + w[F_TURN] * left / 4.0 + w[F_PLAN] * (plan - pre[P_VALUE]) / 4.0)


@kernel
def rollout_logits(
    s: np.ndarray,
    w: np.ndarray,
    ids: np.ndarray,
    count: int,
    logits: np.ndarray,
    pre: np.ndarray,
    f: np.ndarray,
    t: np.ndarray,
    counts: np.ndarray,
) -> None:
    """`logits[i]` = w . the features of `ids[i]` for i < `count` (legal for the seat to
    move): `rollout_features` with the scratch arrays of `new_scratch` (no allocation in a
    rollout's loop), all but advantage cards used after arriving and Natternkopf's tile losses
    worked out directly (`_play_logit`, `_arrival_logit`, `_after_logit`): a test holds them
    to the reference."""
    seat = s[TO_MOVE]
    _prepare(s, seat, pre)
    phase = s[PHASE]
    for i in range(count):
        action = ids[i]
        if phase == CHOOSE_CARD:
            if action < PASS:
                logits[i] = _play_logit(s, w, seat, action, pre, counts)
            elif action == PASS:  # the turn ends: the mover's holdings stay as they are
                hand = popcount(s[HAND + seat])
                logits[i] = w[F_PASS] + w[F_PASS_HAND] * hand / 4.0
                if hand <= SHORT_HAND:
                    logits[i] += w[F_PASS_SHORT]
            else:  # Der Schwarze Prinz: the card is given up, the card choice comes again
                logits[i] = w[F_PRINCE] + w[F_SAVING] * pre[P_SAVING] - w[F_ADVANTAGE]
            continue
        if phase == START_CHOICE:  # the next round begins: no holding changes
            logits[i] = w[F_LEAD] if action == START else 0.0
            continue
        if phase == AFTER:
            logits[i] = _after_logit(s, w, seat, action, pre, counts)
            continue
        if phase == ARRIVED and not ADVANTAGE <= action < REWARD:
            logits[i] = _arrival_logit(s, w, seat, action, pre, counts)
            continue
        _features(s, seat, action, pre, t, counts, f)
        z = 0.0
        for j in range(NUM_ROLLOUT_FEATURES):
            z += w[j] * f[j]
        logits[i] = z


def new_scratch() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The scratch arrays `rollout_logits` works in: (pre, features, a state, tile counts)."""
    return (
        np.zeros(PRE),
        np.zeros(NUM_ROLLOUT_FEATURES),
        np.empty(SIZE, dtype=np.int64),
        np.empty(NUM_KINDS, dtype=np.int64),
    )


@kernel
def _play_policy(
    s: np.ndarray, rng: np.ndarray, w: np.ndarray, actions: np.ndarray, limit: int
) -> int:
    """Play `s` with the rollout policy `w`, in place: chance as likely as it is (the kernel's
    `sample_chance`), every decision with a choice drawn from the softmax of
    `w . rollout_features`; to the end, or, if `limit` >= 0, up to the decision after `limit`
    of them (chance before it drawn, as the kernel's `rollout_cut`). Every action goes into
    `actions` while it has room. Returns the number of player decisions."""
    ids = np.empty(MAX_LEGAL, dtype=np.int64)
    odds = np.empty(MAX_LEGAL, dtype=np.float64)
    pre = np.zeros(PRE)
    f = np.zeros(NUM_ROLLOUT_FEATURES)
    t = np.empty(SIZE, dtype=np.int64)
    counts = np.empty(NUM_KINDS, dtype=np.int64)
    taken = 0
    decisions = 0
    while s[TO_MOVE] != TERMINAL:
        if s[TO_MOVE] == CHANCE:
            action = sample_chance(s, rng)
        else:
            if decisions == limit:
                break
            count = legal(s, ids)
            if count == 1:
                action = ids[0]
            else:
                rollout_logits(s, w, ids, count, odds, pre, f, t, counts)
                action = softmax_draw(ids, odds, count, rng)
            decisions += 1
        apply(s, action)
        if taken < actions.shape[0]:
            actions[taken] = action
        taken += 1
    return decisions


@kernel
def rollout_policy(s: np.ndarray, rng: np.ndarray, weights: np.ndarray) -> int:
    """The kernel's `rollout` with the learned rollout policy instead of uniform play, to the
    end; returns the number of decisions."""
    return _play_policy(s, rng, weights, np.empty(0, dtype=np.int64), -1)


@kernel
def rollout_policy_cut(s: np.ndarray, rng: np.ndarray, weights: np.ndarray, limit: int) -> int:
    """`rollout_policy` cut off at the decision after `limit` decisions, as the kernel's
    `rollout_cut` cuts uniform play (the `mcts` seat's valuation: `MCTS_CONFIGS["inkspell"]`);
    returns the number of decisions."""
    return _play_policy(s, rng, weights, np.empty(0, dtype=np.int64), limit)


@kernel
def policy_game(
    s: np.ndarray, weights: np.ndarray, actions: np.ndarray, rng: np.ndarray, limit: int
) -> int:
    """Play `s` with the rollout policy (to the end if `limit` < 0, else cut as
    `rollout_policy_cut`), writing every action id (chance included) into `actions`; returns
    the number of actions (the kernel's `random_game`)."""
    start = s[STEP_COUNT]
    _play_policy(s, rng, weights, actions, limit)
    return int(s[STEP_COUNT] - start)


# ---------------------------------------------------------------------- the estimate at a cut
@kernel
def estimate_lead_values(s: np.ndarray, scale: float, out: np.ndarray) -> None:
    """Each seat's 0.5 + 0.5 tanh((its estimate - the best other seat's) / scale), where the
    estimate is the heuristic's (`InkspellValuation`): the victory track plus what its tiles
    (`tile_value`), provisions and advantage cards would be worth, less as the end nears. A
    rollout cut after some decisions and valued by the score lead alone counts the tiles and
    provisions gathered for later conversions as nothing; the search then trades them for
    points too early (docs/learning.md). Reads only public counts (a seat's number of
    advantage cards, not their kinds), as the heuristic's valuation does."""
    n = s[0]
    horizon = 1.0
    if s[FINAL_ROUND]:
        horizon = 0.0
    elif s[END_TRIGGERED]:
        horizon = 0.6
    estimates = np.empty(n)
    for p in range(n):
        tiles = TILES + p * NUM_KINDS
        value = _tile_worth(s[tiles], s[tiles + 1], s[tiles + 2], s[tiles + 3], horizon)[1]
        held = 0
        for a in range(TYPES):
            held += s[HELD + p * TYPES + a]
        provisions = PROVISION_VALUE * horizon * s[PROVISIONS + p]
        estimates[p] = s[SCORES + p] + value + provisions + ADVANTAGE_VALUE * held
    for p in range(n):
        best = -1e18
        for q in range(n):
            if q != p and estimates[q] > best:
                best = estimates[q]
        out[p] = 0.5 + 0.5 * np.tanh((estimates[p] - best) / scale)


POLICY = LearnedRollout(
    ROLLOUT_FEATURES,
    rollout_features,
    rollout_policy,
    rollout_cut=rollout_policy_cut,
    estimate_lead_values=estimate_lead_values,
)
