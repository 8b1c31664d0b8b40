"""The learned rollout policy of the compiled Isolde search (AlphaGo's fast rollout policy,
Silver et al. 2016): a linear softmax over features of each legal move, as in Witches
(`spielwerk.agents.rollouts.witches`, docs/learning.md).

A bot's part, kept with the bots: it reads the kernel state through the kernel's named offsets
and plays through the kernel's rule steps (`_deal`, `_keep`, `_play`, `_bonus_move`), so the
rules stay in the kernel.

Every feature reads only the mover's own cards (its packet and kept cards in the draft, its
hand in play) and public facts (the boards, the round, the Isolde steps due): dealing afresh
what the mover has not seen changes none of them (a test checks it). What a move on a board
is worth follows the heuristic bot (`spielwerk.agents.heuristics.isolde`): the points the
board would give the mover if it were scored now, before and after the move, weighted by how
soon and how often the board is scored before a reset wipes the progress (`WEIGHT`).
"""

from __future__ import annotations

import numpy as np

from spielwerk.agents.rollouts import LearnedRollout
from spielwerk.core.kernel import inline_kernel, kernel
from spielwerk.core.kernel_ops import lowest_bit, softmax_draw
from spielwerk.games.isolde.actions import (
    BONUS,
    DEAL,
    GO_ON_TOP,
    KEEP,
    KEEP_ORDER,
    NUM_KINDS,
    PLAY,
)
from spielwerk.games.isolde.kernel import (
    BOARD_SPACES,
    BONUS_QUEUE,
    CAPPED,
    DECIDING,
    DIST,
    HANDS,
    KEPT,
    MAX_LEGAL,
    ORDER,
    PACKETS,
    PHASE,
    PLAY_BOARD,
    PLAY_KIND,
    PLAYS_OF,
    QUEST,
    QUEST_FIRST,
    ROUND,
    SCORED_AFTER,
    SCORING,
    SEATS,
    SPACE_FROM,
    SPACE_LEN,
    SPACE_POINTS,
    START_PLAYER,
    STEPS,
    TABLE,
    TABLE_LEN,
    TO_MOVE,
    TOP,
    VALUE,
    WAYS,
    N,
    _bonus_move,
    _can_go_on_top,
    _deal,
    _keep,
    _kinds,
    _play,
    _size,
    apply,
    sample_chance,
)
from spielwerk.games.isolde.params import PARAMS
from spielwerk.games.isolde.state import BONUS_MOVES, DEALING, DRAFTING, OVER, PLAYING

ROLLOUT_FEATURES = (
    # A move of the mover's disc on a board (a card played, or an Isolde bonus move):
    "gain",  # the weighted change in what the board gives the mover (WEIGHT x points / 3)
    "gain_now",  # the change in points / 3 if the board is scored this round, else 0
    "overtakes",  # discs passed (from the start space: every disc that has moved)
    "takes_lead",  # the mover goes to the front from behind or from the start space
    "leaves_start",  # the disc leaves the start space (penalty boards: -3 there)
    "steps",  # spaces moved / 5
    "wasted",  # steps lost past the king's last space / 5
    "lasting",  # WEIGHT x spaces moved / 5: progress that keeps counting
    "board_isolde",  # which board (one flag each, in the data file's order)
    "board_joust",
    "board_tourney",
    "board_studies",
    "board_king",
    "board_quest",
    "board_charity",
    # A draft pick (the kind kept):
    "keep_gain",  # the best weighted gain of the card on its boards now (as `gain`)
    "keep_gain_now",  # the best change in points / 3 on a board scored this round
    "keep_value",  # its value / 5
    "keep_stack",  # cards the mover kept already of the same type (same boards) / 4
    "keep_combat",  # a combat card: joust or tourney, chosen when played
    # Advanced rule 1 (the start player's tie-break):
    "on_top_gain",  # going on top: the weighted change in points / 3
    "keep_order",  # keeping the order
)
"""What the rollout policy sees of each legal move (above); `rollout_features` writes them
and `rollout_logits` is their dot product with the weights, computed in one pass."""
NUM_ROLLOUT_FEATURES = len(ROLLOUT_FEATURES)
F_BOARD = ROLLOUT_FEATURES.index("board_isolde")
F_KEEP = ROLLOUT_FEATURES.index("keep_gain")
F_TOP = ROLLOUT_FEATURES.index("on_top_gain")
assert [ROLLOUT_FEATURES[F_BOARD + b] for b in range(len(PARAMS.boards))] == [
    f"board_{board.id}" for board in PARAMS.boards
]

BOARDS = PARAMS.boards
NUM_BOARDS = len(BOARDS)
STEP_VALUE = 0.8
"""Points an Isolde bonus step is worth, roughly (the heuristic's figure)."""
LATER_WEIGHT, LASTING_WEIGHT = 0.5, 0.25
"""A board first scored in a later round counts half; each further scoring before a reset
adds a quarter (the heuristic's weights)."""


def _weight(round_number: int, board: int) -> float:
    """The heuristic's weight of a board's position in a round (`_Table.weight`)."""
    spec = BOARDS[board]
    reset = PARAMS.reset_after_round
    lasting = [
        r
        for r in range(round_number, PARAMS.rounds + 1)
        if r in spec.scored_after
        and (spec.reset == "none" or (r <= reset) == (round_number <= reset))
    ]
    if not lasting:
        return 0.0
    base = 1.0 if lasting[0] == round_number else LATER_WEIGHT
    return base + LASTING_WEIGHT * (len(lasting) - 1)


WEIGHT = np.array(
    [[_weight(max(r, 1), b) for b in range(NUM_BOARDS)] for r in range(PARAMS.rounds + 1)]
)
"""`WEIGHT[round, board]`: how much a board's standing counts in that round."""
KIND_TYPE = np.array(
    [sorted({k.type for k in PARAMS.kinds}).index(k.type) for k in PARAMS.kinds], dtype=np.int64
)
TYPE_CARDS = np.array(
    [
        sum(3 << 2 * k for k in range(NUM_KINDS) if KIND_TYPE[k] == t)
        for t in range(int(KIND_TYPE.max()) + 1)
    ],
    dtype=np.int64,
)
"""Both count bits of every kind of a type: `card_set & TYPE_CARDS[t]` keeps that type."""
COMBAT = np.array([int(k.type == "combat") for k in PARAMS.kinds], dtype=np.int64)


# ---------------------------------------------------------------------- a board's standing
@inline_kernel
def _standing(s: np.ndarray, board: int, seat: int) -> tuple[int, int, int]:
    """`seat`'s disc on `board` where it lies: (discs ahead of it that have left the start,
    discs behind it that have, other discs on the start space), ties by the stack order.
    Counted without branches (the comparisons are data, and mispredicted branches were most
    of a rollout's time)."""
    n = s[N]
    row = DIST + board * SEATS
    order = ORDER + board * SEATS
    at = s[row + seat]
    ahead = 0
    on_start = 0
    above = 0
    for i in range(n):
        p = s[order + i]
        d = s[row + p]
        other = 1 - int(p == seat)
        above |= 1 - other
        ahead += other * int(d > 0) * (int(d > at) | (int(d == at) & (1 - above)))
        on_start += other * int(d == 0)
    return ahead, n - 1 - ahead - on_start, on_start


@inline_kernel
def _standing_after(s: np.ndarray, board: int, seat: int, at: int) -> tuple[int, int, int]:
    """`_standing` of `seat`'s disc just landed at distance `at` > 0, on top of any stack
    there (so the stack order does not matter)."""
    n = s[N]
    row = DIST + board * SEATS
    ahead = 0
    on_start = 0
    for p in range(n):
        d = s[row + p]
        other = 1 - int(p == seat)
        ahead += other * int(d > at)
        on_start += other * int(d == 0)
    return ahead, n - 1 - ahead - on_start, on_start


def _worth_tables() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """`_worth` as tables, by player count: a disc on the start space, a placed disc by the
    discs ahead (places and Isolde's steps), by its penalty index (penalties), and the king's
    points by space."""
    most = PARAMS.max_players + 1
    start = np.zeros((most, NUM_BOARDS))
    place = np.zeros((most, NUM_BOARDS, most))
    penalty = np.zeros((most, NUM_BOARDS, most + 1))
    king = np.zeros((NUM_BOARDS, int(BOARD_SPACES.max()) + 1))
    for n in range(1, most):
        for b in range(NUM_BOARDS):
            rewarded = min(int(TABLE_LEN[b]), n - 1)
            if SCORING[b] == 2:
                start[n, b] = TABLE[b, 0]
                penalty[n, b, :rewarded] = TABLE[b, :rewarded]
            elif SCORING[b] != 3:
                factor = STEP_VALUE if SCORING[b] == 0 else 1.0
                place[n, b, :rewarded] = TABLE[b, :rewarded] * factor
    for b in range(NUM_BOARDS):
        if SCORING[b] == 3:
            for at in range(king.shape[1]):
                points = 0
                for i in range(int(SPACE_LEN[b])):
                    if at >= SPACE_FROM[b, i]:
                        points = SPACE_POINTS[b, i]
                king[b, at] = points
    return start, place, penalty, king


START_WORTH, PLACE_WORTH, PENALTY_WORTH, KING_WORTH = _worth_tables()
KING_CAP = KING_WORTH.shape[1] - 1
CAP = np.where(CAPPED == 1, BOARD_SPACES, 1 << 40)
"""The furthest distance on each board (the king's last space; the others loop on)."""


@inline_kernel
def _worth(s: np.ndarray, board: int, at: int, ahead: int, behind: int, on_start: int) -> float:
    """What `board` gives a disc at distance `at` with that standing if scored now, in points
    (Isolde: its bonus steps x STEP_VALUE), by the kernel's scoring rules: places front first
    (the quest's first prize from the options), penalties to the rear with the start space
    last, the king by space. Table lookups, no branch on the board's scoring: a rollout
    weighs moves on every board in turn, and such branches mispredict."""
    n = s[N]
    placed = int(at > 0)
    points = PLACE_WORTH[n, board, ahead] + PENALTY_WORTH[n, board, behind + min(on_start, 1)]
    points += KING_WORTH[board, min(at, KING_CAP)]
    points += int(board == QUEST) * int(ahead == 0) * (s[QUEST_FIRST] - TABLE[QUEST, 0])
    return float(placed * points + (1 - placed) * START_WORTH[n, board])


@inline_kernel
def _move_effects(
    s: np.ndarray, board: int, seat: int, steps: int
) -> tuple[float, int, int, int, int, int]:
    """A move of `seat`'s disc on `board` by `steps`: (the change in `_worth`, discs passed,
    whether it takes the lead, whether it leaves the start space, spaces moved, steps lost)."""
    now = s[DIST + board * SEATS + seat]
    target = min(now + steps, CAP[board])
    a0, b0, o0 = _standing(s, board, seat)
    a1, b1, o1 = _standing_after(s, board, seat, target)
    # A king's disc already on its last space does not move (the kernel's `_move`): no
    # change then, written without a branch.
    moved = int(target > now)
    delta = moved * (_worth(s, board, target, a1, b1, o1) - _worth(s, board, now, a0, b0, o0))
    lead = moved * int(a1 == 0) * (int(a0 > 0) | int(now == 0))
    return delta, moved * (a0 - a1), lead, moved * int(now == 0), target - now, now + steps - target


@inline_kernel
def _keep_effects(s: np.ndarray, seat: int, kind: int) -> tuple[float, float]:
    """A card of `kind` kept: its best weighted gain over its boards and its best change in
    points on a board scored this round (both / 3), from the boards as they stand."""
    r = s[ROUND]
    best = -1e9
    best_now = 0.0
    for i in range(WAYS[kind]):
        board = PLAY_BOARD[PLAYS_OF[kind, i] - PLAY]
        delta = _move_effects(s, board, seat, VALUE[kind])[0]
        gain = WEIGHT[r, board] * delta / 3.0
        if gain > best:
            best = gain
        if (SCORED_AFTER[board] >> r) & 1 and delta / 3.0 > best_now:
            best_now = delta / 3.0
    return best, best_now


@inline_kernel
def _on_top_delta(s: np.ndarray, board: int, seat: int) -> float:
    """The change in `_worth` of the start player's disc going on top of its stack."""
    at = s[DIST + board * SEATS + seat]
    a0, b0, o0 = _standing(s, board, seat)
    a1, b1, o1 = _standing_after(s, board, seat, at)
    return _worth(s, board, at, a1, b1, o1) - _worth(s, board, at, a0, b0, o0)


# ---------------------------------------------------------------------- features and logits
@inline_kernel
def _mover(s: np.ndarray, action: int) -> int:
    """Who makes `action`: a draft pick names its seat; otherwise whoever is to move."""
    if s[PHASE] == DRAFTING:
        return (action - KEEP) // NUM_KINDS
    return int(s[TO_MOVE])


@kernel
def rollout_features(s: np.ndarray, actions: np.ndarray, out: np.ndarray) -> None:
    """`out[i]` = the `ROLLOUT_FEATURES` of `actions[i]`, legal in `s` (a draft pick names its
    seat; other moves are the seat to move's). The reference the learning reads;
    `rollout_logits` is the same dot product, faster."""
    out[:] = 0.0
    phase = s[PHASE]
    r = s[ROUND]
    for i in range(actions.shape[0]):
        f = out[i]
        action = actions[i]
        seat = _mover(s, action)
        if phase == DRAFTING:
            kind = (action - KEEP) % NUM_KINDS
            gain, gain_now = _keep_effects(s, seat, kind)
            f[F_KEEP] = gain
            f[F_KEEP + 1] = gain_now
            f[F_KEEP + 2] = VALUE[kind] / 5.0
            f[F_KEEP + 3] = _size(s[KEPT + seat] & TYPE_CARDS[KIND_TYPE[kind]]) / 4.0
            f[F_KEEP + 4] = COMBAT[kind]
            continue
        if phase == PLAYING or phase == BONUS_MOVES:  # noqa: SIM109 - plain ints for Numba
            if phase == PLAYING:
                board = PLAY_BOARD[action - PLAY]
                steps = VALUE[PLAY_KIND[action - PLAY]]
            else:
                board = action - BONUS
                steps = s[BONUS_QUEUE + 2]
            delta, passed, lead, leaves, moved, wasted = _move_effects(s, board, seat, steps)
            f[0] = WEIGHT[r, board] * delta / 3.0
            f[1] = delta / 3.0 if (SCORED_AFTER[board] >> r) & 1 else 0.0
            f[2] = passed
            f[3] = lead
            f[4] = leaves
            f[5] = moved / 5.0
            f[6] = wasted / 5.0
            f[7] = WEIGHT[r, board] * moved / 5.0
            f[F_BOARD + board] = 1.0
            continue
        if action == KEEP_ORDER:  # the tie-break
            f[F_TOP + 1] = 1.0
        else:
            board = TOP[action - GO_ON_TOP]
            f[F_TOP] = WEIGHT[r, board] * _on_top_delta(s, board, seat) / 3.0


@inline_kernel
def _board_logit(s: np.ndarray, w: np.ndarray, seat: int, board: int, steps: int) -> float:
    """w . the features of a move on `board` by `steps` (`rollout_features`' first block)."""
    r = s[ROUND]
    delta, passed, lead, leaves, moved, wasted = _move_effects(s, board, seat, steps)
    now = (SCORED_AFTER[board] >> r) & 1
    z = w[F_BOARD + board] + (w[0] * WEIGHT[r, board] + w[1] * now) * delta / 3.0
    z += w[2] * passed + w[3] * lead + w[4] * leaves + w[6] * wasted / 5.0
    return float(z + (w[5] + w[7] * WEIGHT[r, board]) * moved / 5.0)


def new_keep_cache() -> np.ndarray:
    """An empty cache for `rollout_logits`."""
    return np.zeros((SEATS * NUM_KINDS, 3))


@inline_kernel
def rollout_logits(
    s: np.ndarray,
    seat: int,
    w: np.ndarray,
    ids: np.ndarray,
    logits: np.ndarray,
    cache: np.ndarray,
) -> int:
    """The legal moves of `seat` (in the draft) or of the seat to move into `ids` and each
    one's logit `w . rollout_features` into `logits`; returns how many.

    The boards stand still through a round's draft, so what a kept card would gain there
    (`_keep_effects`, the dearest feature) is worked out once a round for each seat and kind
    and kept in `cache` (rows seat x kind: the round it was worked out in, its two values;
    zeros: nothing yet, `new_keep_cache`)."""
    phase = s[PHASE]
    count = 0
    if phase == DRAFTING:
        kept = s[KEPT + seat]
        kinds = _kinds(s[PACKETS + seat])
        r = s[ROUND]
        while kinds:
            kind = lowest_bit(kinds) >> 1
            kinds &= kinds - 1
            row = seat * NUM_KINDS + kind
            if cache[row, 0] != r:
                cache[row, 0] = r
                cache[row, 1], cache[row, 2] = _keep_effects(s, seat, kind)
            gain, gain_now = cache[row, 1], cache[row, 2]
            z = w[F_KEEP] * gain + w[F_KEEP + 1] * gain_now + w[F_KEEP + 2] * VALUE[kind] / 5.0
            z += w[F_KEEP + 3] * _size(kept & TYPE_CARDS[KIND_TYPE[kind]]) / 4.0
            if COMBAT[kind]:
                z += w[F_KEEP + 4]
            ids[count] = KEEP + seat * NUM_KINDS + kind
            logits[count] = z
            count += 1
        return count
    if phase == PLAYING:
        seat = s[TO_MOVE]
        kinds = _kinds(s[HANDS + seat])
        while kinds:
            kind = lowest_bit(kinds) >> 1
            kinds &= kinds - 1
            for i in range(WAYS[kind]):
                action = PLAYS_OF[kind, i]
                ids[count] = action
                logits[count] = _board_logit(s, w, seat, PLAY_BOARD[action - PLAY], VALUE[kind])
                count += 1
        return count
    if phase == BONUS_MOVES:
        seat = s[TO_MOVE]
        steps = s[BONUS_QUEUE + 2]
        for board in range(NUM_BOARDS):
            ids[board] = BONUS + board
            logits[board] = _board_logit(s, w, seat, board, steps)
        return NUM_BOARDS
    # The tie-break (advanced rule 1).
    seat = s[START_PLAYER]
    r = s[ROUND]
    for i in range(TOP.shape[0]):
        if _can_go_on_top(s, TOP[i]):
            ids[count] = GO_ON_TOP + i
            logits[count] = w[F_TOP] * WEIGHT[r, TOP[i]] * _on_top_delta(s, TOP[i], seat) / 3.0
            count += 1
    ids[count] = KEEP_ORDER
    logits[count] = w[F_TOP + 1]
    return count + 1


@kernel
def _play_policy(s: np.ndarray, rng: np.ndarray, w: np.ndarray, actions: np.ndarray) -> int:
    """Play to the end with the rollout policy `w`, in place; every action (chance included)
    goes into `actions` while it has room. Returns the number of actions. Chance as in the
    kernel's `rollout` (a uniform card of those left); in the draft each seat still to pick
    draws its pick from the policy, lowest seat first (a seat's features read only its own
    cards, so the order does not change its choice)."""
    ids = np.empty(MAX_LEGAL, dtype=np.int64)
    odds = np.empty(MAX_LEGAL, dtype=np.float64)
    cache = np.zeros((SEATS * NUM_KINDS, 3))
    steps = 0
    while True:
        phase = s[PHASE]
        if phase == OVER:
            return steps
        if phase == DEALING:
            action = sample_chance(s, rng)
            _deal(s, action - DEAL)
            s[STEPS] += 1
        elif phase == DRAFTING:
            seat = lowest_bit(s[DECIDING])
            action = softmax_draw(ids, odds, rollout_logits(s, seat, w, ids, odds, cache), rng)
            _keep(s, seat, action - KEEP - seat * NUM_KINDS)
            s[STEPS] += 1
        elif phase == PLAYING:
            seat = s[TO_MOVE]
            action = softmax_draw(ids, odds, rollout_logits(s, seat, w, ids, odds, cache), rng)
            _play(s, seat, PLAY_KIND[action - PLAY], PLAY_BOARD[action - PLAY])
            s[STEPS] += 1
        elif phase == BONUS_MOVES:
            action = softmax_draw(
                ids, odds, rollout_logits(s, s[TO_MOVE], w, ids, odds, cache), rng
            )
            _bonus_move(s, action - BONUS)
            s[STEPS] += 1
        else:  # the tie-break: at most once a round
            action = softmax_draw(
                ids, odds, rollout_logits(s, s[TO_MOVE], w, ids, odds, cache), rng
            )
            apply(s, action)
        if steps < actions.shape[0]:
            actions[steps] = action
        steps += 1


@kernel
def rollout_policy(s: np.ndarray, rng: np.ndarray, weights: np.ndarray) -> int:
    """The kernel's `rollout` with the learned rollout policy instead of uniform play: each
    move drawn from the softmax of `weights . rollout_features` over the legal moves. Returns
    the number of actions (chance included)."""
    return _play_policy(s, rng, weights, np.empty(0, dtype=np.int64))


@kernel
def policy_game(s: np.ndarray, weights: np.ndarray, actions: np.ndarray, rng: np.ndarray) -> int:
    """Play `s` to the end with the rollout policy, writing every action id into `actions`
    (as the kernel's `random_game` does); returns the number of actions."""
    return _play_policy(s, rng, weights, actions)


POLICY = LearnedRollout(ROLLOUT_FEATURES, rollout_features, rollout_policy)
