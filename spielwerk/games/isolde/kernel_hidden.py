"""Die Holde Isolde's determinization in the kernel: what one seat cannot know about the
current round, dealt afresh inside the kernel array (the compiled search's `determinize`).

It draws from the distribution of the reference sampler, `spielwerk/games/isolde/hidden.py`
(read its module doc first), by the same steps on the kernel's record of the round (`DEALT`,
`PICKS`, `PLAYED` in `kernel.py`): a position is `packet * HAND + step`, the card that the
seat holding packet `packet` at draft step `step` kept (step 4: the last card passed on). The
positions fall into groups: the seat's own picks (fixed), one group per stretch of a packet
between two of the seat's holdings of it or after its last (a known multiset), and the unseen
positions, filled from the cards the seat never saw. The other seats' played cards go first
to positions they picked (depth first, the cards with the fewest fitting positions first, each
card's positions in a random order weighted by the kind's share of its group: Efraimidis and
Spirakis' keys as in `hidden._place_played`), then every group's other positions draw from
what the group has left, uniformly. Mid-deal, the cards dealt to the others come uniformly
from those the seat has not seen. Only the random stream differs from `hidden.py`.

The sample reads the truth only where the seat saw it (its packets' contents at the steps it
held them, its picks, who still has to pick, the played cards): two states the seat cannot
tell apart give the same sample for the same generator state
(`tests/kernels/test_isolde_determinize.py` holds it to that, to the reference's frequencies
and to play continuing by the rules).

The kernel's description (`RULES`) is here, beside the last of its parts.
"""

from __future__ import annotations

import numpy as np

from spielwerk.core.kernel import inline_kernel, kernel
from spielwerk.core.kernel_game import KernelRules
from spielwerk.core.kernel_ops import uniform
from spielwerk.games.isolde.actions import DEAL, NUM_KINDS
from spielwerk.games.isolde.kernel import (
    DEALT,
    DECIDING,
    DIRECTIONS,
    DRAFT_PICKS,
    DRAFT_STEP,
    HAND,
    HANDS,
    KEPT,
    MAX_LEGAL,
    PACKETS,
    PHASE,
    PICKS,
    PLAYED,
    POOL,
    ROUND,
    SEATS,
    SIZE,
    STEPS,
    TO_MOVE,
    N,
    apply,
    deciding,
    from_state,
    initial,
    legal,
    max_game_steps,
    random_game,
    returns,
    rollout,
    sample_chance,
    scores,
)
from spielwerk.games.isolde.params import PARAMS
from spielwerk.games.isolde.state import DEALING, DRAFTING, OVER, PLAYING

DECK = np.array(PARAMS.deck, dtype=np.int64)
FIRST_CARD = np.array([sum(PARAMS.deck[:k]) for k in range(NUM_KINDS)], dtype=np.int64)
"""The lowest card id of each kind (the deck mask groups a kind's cards together)."""
UNSEEN = 0
"""The group of positions filled from the cards the seat never saw (its counts end as the
undealt deck)."""
MINE = -1
"""The group of the seat's own picks: fixed."""
MAX_GROUPS = 1 + 3 * SEATS  # a packet is held at most three times (two seats: steps 0, 2, 4)
MAX_PLAYED = PARAMS.cards_played * SEATS


@inline_kernel
def _count(cards: int, kind: int) -> int:
    return (cards >> 2 * kind) & 3


@inline_kernel
def _unpack(cards: int, out: np.ndarray) -> int:
    """A card set's counts per kind into `out`; returns the number of cards."""
    total = 0
    for k in range(NUM_KINDS):
        out[k] = (cards >> 2 * k) & 3
        total += out[k]
    return total


@inline_kernel
def _draw(counts: np.ndarray, total: int, rng: np.ndarray) -> int:
    """Take one card, uniformly, from the multiset `counts` of `total` cards."""
    pick = int(uniform(rng) * total)
    for k in range(NUM_KINDS):
        if pick < counts[k]:
            counts[k] -= 1
            return k
        pick -= counts[k]
    raise AssertionError("drew from an empty multiset")


@kernel
def determinize(s: np.ndarray, seat: int, rng: np.ndarray) -> None:
    """Deal everything `seat` cannot know about this round afresh, in place (a seat outside
    0..n-1 is a spectator, who knows only the public table): the other seats' packets, picks,
    kept cards and hands, the round's record and the undealt deck, consistently, so that play
    goes on by the rules (module doc)."""
    phase = s[PHASE]
    if phase == OVER:
        return
    unseen = DECK.copy()
    if phase == DEALING:
        _redeal_partial(s, seat, unseen, rng)
    else:
        _redeal_round(s, seat, unseen, rng)
    pool = 0
    for k in range(NUM_KINDS):  # the lowest ids of each kind, as `from_state` writes them
        pool |= ((1 << unseen[k]) - 1) << FIRST_CARD[k]
    s[POOL] = pool


@kernel
def _redeal_partial(s: np.ndarray, seat: int, unseen: np.ndarray, rng: np.ndarray) -> None:
    """Mid-deal: the cards dealt to the others so far come from those `seat` has not seen."""
    n = s[N]
    if 0 <= seat < n:
        for k in range(NUM_KINDS):
            unseen[k] -= _count(s[PACKETS + seat], k)
    total = 0
    for k in range(NUM_KINDS):
        total += unseen[k]
    for q in range(n):
        if q == seat:
            continue
        held = s[PACKETS + q]
        size = 0
        for k in range(NUM_KINDS):
            size += _count(held, k)
        cards = 0
        for _ in range(size):
            cards += 1 << 2 * _draw(unseen, total, rng)
            total -= 1
        s[PACKETS + q] = cards


@inline_kernel
def _position(seat: int, step: int, n: int, direction: int) -> int:
    """The position `seat` picks at `step`: the packet dealt to `seat - step * direction`."""
    return ((seat - step * direction + HAND * n) % n) * HAND + step


@kernel
def _has_picked(s: np.ndarray, seat: int, step: int) -> bool:
    """Whether `seat` has kept a card at draft `step` (public: who still picks is shown)."""
    if s[PHASE] != DRAFTING or step < s[DRAFT_STEP]:
        return step < DRAFT_PICKS
    return step == s[DRAFT_STEP] and not (s[DECIDING] >> seat) & 1


@kernel
def _redeal_round(s: np.ndarray, seat: int, unseen: np.ndarray, rng: np.ndarray) -> None:
    """From the end of the deal on: `hidden.resample_round` on the kernel's record."""
    n = s[N]
    viewer = seat if 0 <= seat < n else -1
    direction = DIRECTIONS[(s[ROUND] - 1) % DIRECTIONS.shape[0]]
    drafting = s[PHASE] == DRAFTING
    steps_seen = s[DRAFT_STEP] + 1 if drafting else HAND  # the steps whose packets were held
    size = n * HAND
    group = np.zeros(size, dtype=np.int64)
    assigned = np.full(size, -1, dtype=np.int64)
    counts = np.zeros((MAX_GROUPS, NUM_KINDS), dtype=np.int64)
    totals = np.zeros(MAX_GROUPS, dtype=np.int64)
    counts[UNSEEN] = unseen
    groups = 1
    seen = np.empty(HAND, dtype=np.int64)
    held = np.empty(HAND, dtype=np.int64)  # the packet's contents at each step the viewer held it
    for packet in range(n):
        base = packet * HAND
        contents = s[DEALT + packet]
        times = 0
        for t in range(steps_seen):
            holder = (packet + t * direction + HAND * n) % n
            if holder == viewer:
                seen[times] = t
                held[times] = contents
                times += 1
            if t < steps_seen - 1:
                contents -= 1 << 2 * s[PICKS + t * SEATS + holder]
        if times == 0:
            continue  # the whole packet is unseen
        for k in range(NUM_KINDS):
            counts[UNSEEN, k] -= _count(held[0], k)
        for i in range(times):
            a = seen[i]
            segment = held[i] - held[i + 1] if i + 1 < times else held[i]  # a sub-multiset
            stop = seen[i + 1] if i + 1 < times else HAND
            if a < DRAFT_PICKS and _has_picked(s, viewer, a):
                mine = s[PICKS + a * SEATS + viewer]
                group[base + a] = MINE
                assigned[base + a] = mine
                segment -= 1 << 2 * mine
                a += 1
            _unpack(segment, counts[groups])
            for t in range(a, stop):
                group[base + t] = groups
            groups += 1
    for g in range(groups):
        totals[g] = 0
        for k in range(NUM_KINDS):
            totals[g] += counts[g, k]

    if not drafting and not _place_played(
        s, viewer, n, direction, group, assigned, counts, totals, rng
    ):
        raise AssertionError("no deal fits what this seat knows")

    # The rest: every group's free positions from what it has left, uniformly.
    for p in range(size):
        if assigned[p] < 0:
            g = group[p]
            assigned[p] = _draw(counts[g], totals[g], rng)
            totals[g] -= 1
    unseen[:] = counts[UNSEEN]

    # Write the new round: the others' deals, picks, and what they hold now.
    playing = s[PHASE] == PLAYING
    for q in range(n):
        if q == viewer:
            continue
        dealt = 0
        for t in range(HAND):
            dealt += 1 << 2 * assigned[q * HAND + t]
        s[DEALT + q] = dealt
        kept = 0
        for t in range(DRAFT_PICKS):
            if _has_picked(s, q, t):
                kind = assigned[_position(q, t, n, direction)]
                s[PICKS + t * SEATS + q] = kind
                kept += 1 << 2 * kind
        if drafting:
            step = s[DRAFT_STEP]
            packet = 0
            for t in range(step, HAND):
                packet += 1 << 2 * assigned[_position(q, step, n, direction) - step + t]
            if _has_picked(s, q, step):
                packet -= 1 << 2 * s[PICKS + step * SEATS + q]
            s[PACKETS + q] = packet
            s[KEPT + q] = kept
        elif playing:
            last = 1 << 2 * assigned[_position(q, DRAFT_PICKS, n, direction)]
            s[HANDS + q] = kept + last - s[PLAYED + q]


@kernel
def _place_played(
    s: np.ndarray,
    viewer: int,
    n: int,
    direction: int,
    group: np.ndarray,
    assigned: np.ndarray,
    counts: np.ndarray,
    totals: np.ndarray,
    rng: np.ndarray,
) -> bool:
    """Put every card another seat played at a free position that seat picked, in a group
    that still holds its kind (`hidden._place_played`, without recursion): tasks sorted by the
    number of fitting positions, then seat and kind; equal cards of a seat take increasing
    positions; each task tries its positions in a random order weighted by the kind's share of
    the position's group, backtracking on a dead end. False if no placement exists."""
    task_seat = np.empty(MAX_PLAYED, dtype=np.int64)
    task_kind = np.empty(MAX_PLAYED, dtype=np.int64)
    order_key = np.empty(MAX_PLAYED, dtype=np.int64)
    tasks = 0
    for q in range(n):
        if q == viewer:
            continue
        played = s[PLAYED + q]
        for k in range(NUM_KINDS):
            for _ in range(_count(played, k)):
                fit = 0
                for t in range(HAND):
                    g = group[_position(q, t, n, direction)]
                    if g >= 0 and counts[g, k]:
                        fit += 1
                key = (fit * SEATS + q) * NUM_KINDS + k
                i = tasks  # insertion sort by (fitting positions, seat, kind)
                while i > 0 and order_key[i - 1] > key:
                    order_key[i] = order_key[i - 1]
                    task_seat[i] = task_seat[i - 1]
                    task_kind[i] = task_kind[i - 1]
                    i -= 1
                order_key[i] = key
                task_seat[i] = q
                task_kind[i] = k
                tasks += 1
    options = np.empty((MAX_PLAYED, HAND), dtype=np.int64)
    option_count = np.zeros(MAX_PLAYED, dtype=np.int64)
    tried = np.zeros(MAX_PLAYED, dtype=np.int64)
    taken = np.full(MAX_PLAYED, -1, dtype=np.int64)
    keys = np.empty(HAND, dtype=np.float64)
    task = 0
    if tasks:
        _options(
            task,
            task_seat,
            task_kind,
            taken,
            n,
            direction,
            group,
            assigned,
            counts,
            totals,
            options,
            option_count,
            keys,
            rng,
        )
    while task < tasks:
        kind = task_kind[task]
        if taken[task] >= 0:  # back here after a dead end further on: undo, try the next
            p = taken[task]
            counts[group[p], kind] += 1
            totals[group[p]] += 1
            assigned[p] = -1
            taken[task] = -1
        if tried[task] == option_count[task]:
            task -= 1
            if task < 0:
                return False
            continue
        p = options[task, tried[task]]
        tried[task] += 1
        counts[group[p], kind] -= 1
        totals[group[p]] -= 1
        assigned[p] = kind
        taken[task] = p
        task += 1
        if task < tasks:
            tried[task] = 0
            _options(
                task,
                task_seat,
                task_kind,
                taken,
                n,
                direction,
                group,
                assigned,
                counts,
                totals,
                options,
                option_count,
                keys,
                rng,
            )
    return True


@kernel
def _options(
    task: int,
    task_seat: np.ndarray,
    task_kind: np.ndarray,
    taken: np.ndarray,
    n: int,
    direction: int,
    group: np.ndarray,
    assigned: np.ndarray,
    counts: np.ndarray,
    totals: np.ndarray,
    options: np.ndarray,
    option_count: np.ndarray,
    keys: np.ndarray,
    rng: np.ndarray,
) -> None:
    """The positions `task`'s card may take, into `options[task]` in the order to try them:
    sorted by the key log(u) / weight, largest first (u uniform, weight the kind's share of
    the cards the position's group has still to give: Efraimidis-Spirakis)."""
    seat, kind = task_seat[task], task_kind[task]
    lowest = -1  # an equal card of the seat placed just before: take a later position
    if task and task_seat[task - 1] == seat and task_kind[task - 1] == kind:
        lowest = taken[task - 1]
    count = 0
    for t in range(HAND):
        p = _position(seat, t, n, direction)
        g = group[p]
        if p > lowest and assigned[p] < 0 and g >= 0 and counts[g, kind]:
            key = np.log(uniform(rng)) * totals[g] / counts[g, kind]
            i = count
            while i > 0 and keys[i - 1] < key:
                keys[i] = keys[i - 1]
                options[task, i] = options[task, i - 1]
                i -= 1
            keys[i] = key
            options[task, i] = p
            count += 1
    option_count[task] = count


RULES = KernelRules(
    name="isolde",
    size=SIZE,
    to_move_at=TO_MOVE,
    steps_at=STEPS,
    first_chance_id=DEAL,
    max_legal=MAX_LEGAL,
    legal=legal,
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
    deciding=deciding,
)
