"""Re-dealing what one seat cannot know about a round of Die Holde Isolde (for `resample`).

The cards of a round are reshuffled at its end, so rounds are independent: each round's
history is rewritten on its own. In the draft every dealt hand travels as a *packet* from seat
to seat; a packet's five cards end up as five picks, one per step, by the seats holding it:
position t of the packet dealt to seat q is picked at step t by seat `q + t * direction`.
So the deal is fixed by who picked what, and a seat knows:

- the contents of every packet at each step it held it (it saw them), hence its own picks,
  the multiset picked by the others between two of its holdings, and the multiset of the
  cards after its last holding;
- nothing about the cards picked from a packet before it first saw it: those come, like the
  undealt rest, from the cards it never saw;
- every card played (a seat plays only cards it picked).

The sampler assigns cards to the positions it does not know: first the played cards to
positions of their players (random order, backtracking on a dead end), then the rest of each
known multiset in a random order and the unseen positions from the unseen cards. It reads only
what the seat knows, in a fixed order, so two histories the seat cannot tell apart give the
same sample for the same RNG state.
"""

from __future__ import annotations

import random

from spielwerk.core.state import CHANCE
from spielwerk.games.isolde.actions import BONUS, DEAL, KEEP, NUM_KINDS, PLAY, PLAY_PAIRS, keep_id
from spielwerk.games.isolde.params import PARAMS

HAND = PARAMS.hand_size
DRAFT_PICKS = HAND - 1
FREE = (-1, -1)
"""The group of positions whose cards come from the cards the seat never saw."""

Position = tuple[int, int]  # (packet: the seat it was dealt to, step)


def draw(counts: list[int], rng: random.Random) -> int:
    """Take one card of a multiset given as counts per kind, uniformly."""
    pick = rng.randrange(sum(counts))
    for kind, count in enumerate(counts):
        if pick < count:
            counts[kind] -= 1
            return kind
        pick -= count
    raise AssertionError("drew from an empty multiset")


def resample_round(
    history: list[tuple[int, int]],
    start: int,
    n: int,
    start_player: int,
    direction: int,
    player: int | None,
    rng: random.Random,
) -> None:
    """Rewrite, in place, the hidden entries of the round whose deal begins at `start`."""
    end = len(history)
    receivers = [(start_player + i) % n for i in range(HAND * n)]
    dealt_count = min(end, start + HAND * n) - start
    if dealt_count < HAND * n:
        _resample_partial_deal(history, start, dealt_count, receivers, player, rng)
        return

    # The truth, read only where `player` saw it (the observed contents below).
    packets: list[list[int]] = [[] for _ in range(n)]
    for i, seat in enumerate(receivers):
        packets[seat].append(history[start + i][1] - DEAL)
    first_pick = start + HAND * n
    pick_at: dict[tuple[int, int], int] = {}  # (seat, step) -> history index of its keep
    for step in range(DRAFT_PICKS):
        for j in range(n):
            index = first_pick + step * n + j
            if index < end:
                pick_at[history[index][0], step] = index
    picks_made = len(pick_at)
    complete = picks_made == DRAFT_PICKS * n

    def holder(packet: int, step: int) -> int:
        return (packet + step * direction) % n

    def picked_kind(packet: int, step: int) -> int:
        return (history[pick_at[holder(packet, step), step]][1] - KEEP) % NUM_KINDS

    def contents(packet: int, step: int) -> list[int]:
        """Counts per kind in the packet when step `step` began (before its pick)."""
        counts = [0] * NUM_KINDS
        for kind in packets[packet]:
            counts[kind] += 1
        for earlier in range(step):
            counts[picked_kind(packet, earlier)] -= 1
        return counts

    reached = range(min(picks_made // n, DRAFT_PICKS) + 1)  # steps whose packets were seen

    # Group every position: FREE, or (packet, first step) of a segment whose multiset is known.
    group_of: dict[Position, tuple[int, int]] = {}
    members: dict[tuple[int, int], list[Position]] = {FREE: []}  # in (packet, step) order
    fixed: dict[Position, int] = {}  # the viewer's own picks
    available: dict[tuple[int, int], list[int]] = {FREE: list(PARAMS.deck)}
    for packet in range(n):
        seen = [t for t in reached if holder(packet, t) == player]
        for step in range(seen[0] if seen else HAND):
            group_of[packet, step] = FREE
            members[FREE].append((packet, step))
        if not seen:
            continue
        first_seen = contents(packet, seen[0])
        unseen = available[FREE]
        for kind in range(NUM_KINDS):
            unseen[kind] -= first_seen[kind]
        for a, b in zip(seen, [*seen[1:], HAND], strict=True):
            counts = contents(packet, a)
            if b < HAND:
                later = contents(packet, b)
                counts = [x - y for x, y in zip(counts, later, strict=True)]
            if (player, a) in pick_at:
                mine = picked_kind(packet, a)
                fixed[packet, a] = mine
                counts[mine] -= 1
            available[packet, a] = counts
            members[packet, a] = []
            for step in range(a, b):
                if (packet, step) not in fixed:
                    group_of[packet, step] = (packet, a)
                    members[packet, a].append((packet, step))

    # Played cards go to positions their players picked.
    played: list[tuple[int, int]] = []  # (seat, kind), sorted
    if complete:
        plays_from = first_pick + DRAFT_PICKS * n
        for actor, action_id in history[plays_from : plays_from + PARAMS.cards_played * n]:
            if PLAY <= action_id < BONUS and actor != player:
                played.append((actor, PLAY_PAIRS[action_id - PLAY][0]))
        played.sort()
    assigned: dict[Position, int] = {}

    def place(task: int) -> bool:
        if task == len(played):
            return True
        seat, kind = played[task]
        options = []
        for step in range(HAND):
            position = ((seat - step * direction) % n, step)
            if position in assigned or position in fixed:
                continue
            if available[group_of[position]][kind] > 0:
                options.append(position)
        rng.shuffle(options)
        for position in options:
            group = available[group_of[position]]
            group[kind] -= 1
            assigned[position] = kind
            if place(task + 1):
                return True
            group[kind] += 1
            del assigned[position]
        return False

    if not place(0):
        raise AssertionError("no deal fits what this seat knows")  # pragma: no cover

    # The rest: each known multiset in a random order, unseen positions from unseen cards.
    for group, positions in sorted(members.items()):
        if group == FREE:
            continue
        rest = [kind for kind, count in enumerate(available[group]) for _ in range(count)]
        rng.shuffle(rest)
        spots = [p for p in positions if p not in assigned]
        for position, kind in zip(spots, rest, strict=True):
            assigned[position] = kind
    unseen = available[FREE]
    for position in members[FREE]:
        if position not in assigned:
            assigned[position] = draw(unseen, rng)
    assigned.update(fixed)

    # Write the new deal (seat q's k-th card at start + k*n + its place in the deal order)
    # and the other seats' picks into the history.
    for packet in range(n):
        if packet == player:
            continue
        first = start + (packet - start_player) % n
        cards = sorted(assigned[packet, step] for step in range(HAND))
        for k, kind in enumerate(cards):
            history[first + k * n] = (CHANCE, DEAL + kind)
    for (seat, step), index in pick_at.items():
        if seat != player:
            kind = assigned[(seat - step * direction) % n, step]
            history[index] = (seat, keep_id(seat, kind))


def _resample_partial_deal(
    history: list[tuple[int, int]],
    start: int,
    dealt_count: int,
    receivers: list[int],
    player: int | None,
    rng: random.Random,
) -> None:
    """Mid-deal: the cards dealt to the others come from those the viewer has not seen."""
    unseen = list(PARAMS.deck)
    for i in range(dealt_count):
        if receivers[i] == player:
            unseen[history[start + i][1] - DEAL] -= 1
    for i in range(dealt_count):
        if receivers[i] != player:
            history[start + i] = (CHANCE, DEAL + draw(unseen, rng))
