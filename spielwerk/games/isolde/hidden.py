"""Re-dealing what one seat cannot know about a round of Die Holde Isolde (for `resample`).

The cards of a round are reshuffled at its end, so rounds are independent: each round's
history is rewritten on its own. In the draft every dealt hand travels as a *packet* from seat
to seat; a packet's five cards end up as five picks, one per step, by the seats holding it:
position t of the packet dealt to seat q is picked at step t by seat `q + t * direction` (the
fifth card, at step 4, is kept without a choice). So the deal is fixed by who picked what, and a
seat knows:

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
same sample for the same RNG state. Positions are ints, `packet * HAND + step`.
"""

from __future__ import annotations

import random

from spielwerk.core.state import CHANCE
from spielwerk.games.isolde.actions import BONUS, DEAL, KEEP, NUM_KINDS, PLAY, PLAY_PAIRS, keep_id
from spielwerk.games.isolde.params import PARAMS

HAND = PARAMS.hand_size
DRAFT_PICKS = HAND - 1
UNSEEN = 0
"""The group of positions whose cards come from the cards the seat never saw."""


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
    viewer = -1 if player is None else player  # the spectator holds no packet
    deal_size = HAND * n
    end = len(history)
    if end - start < deal_size:
        _resample_partial_deal(history, start, end - start, n, start_player, viewer, rng)
        return

    # The truth, read only where `player` saw it (the observed contents below).
    slot = [(q - start_player) % n for q in range(n)]  # seat q's place in each turn of the deal
    dealt = [[history[start + k * n + slot[q]][1] - DEAL for k in range(HAND)] for q in range(n)]
    first_pick = start + deal_size
    picks_made = min(end - first_pick, DRAFT_PICKS * n)
    picked = [[-1] * n for _ in range(DRAFT_PICKS)]  # [step][seat]: the kind kept
    pick_index: list[tuple[int, int, int]] = []  # (seat, step, history index) of every pick
    for i in range(picks_made):
        actor, action_id = history[first_pick + i]
        picked[i // n][actor] = (action_id - KEEP) % NUM_KINDS
        pick_index.append((actor, i // n, first_pick + i))
    steps_seen = picks_made // n + 1  # the packets of these steps lay in their holders' hands

    # Group the positions: UNSEEN, or one known multiset (a segment of a packet between two
    # of the viewer's holdings, or after its last one). counts[g]: kinds still to place there.
    size = n * HAND
    group = [UNSEEN] * size
    members: list[list[int]] = [[]]
    counts: list[list[int]] = [list(PARAMS.deck)]
    fixed: dict[int, int] = {}  # the viewer's own picks
    for packet in range(n):
        seen = [t for t in range(steps_seen) if (packet + t * direction) % n == viewer]
        base = packet * HAND
        if not seen:
            members[UNSEEN].extend(range(base, base + HAND))
            continue
        members[UNSEEN].extend(range(base, base + seen[0]))
        held = []  # the packet's contents at each step the viewer held it
        contents = dealt[packet].copy()
        for t in range(seen[-1] + 1):
            if t in seen:
                held.append(contents.copy())
            if t < seen[-1]:
                contents.remove(picked[t][(packet + t * direction) % n])
        for kind in held[0]:
            counts[UNSEEN][kind] -= 1
        for i, a in enumerate(seen):
            segment = [0] * NUM_KINDS
            for kind in held[i]:
                segment[kind] += 1
            if i + 1 < len(seen):
                for kind in held[i + 1]:
                    segment[kind] -= 1
            steps = range(a, seen[i + 1] if i + 1 < len(seen) else HAND)
            if a < DRAFT_PICKS and picked[a][viewer] >= 0:
                mine = picked[a][viewer]
                fixed[base + a] = mine
                segment[mine] -= 1
                steps = range(a + 1, steps.stop)
            group_id = len(counts)
            counts.append(segment)
            members.append([base + t for t in steps])
            for t in steps:
                group[base + t] = group_id

    # Played cards go to positions their players picked.
    played: list[tuple[int, int]] = []  # (seat, kind)
    if picks_made == DRAFT_PICKS * n:
        plays_from = first_pick + DRAFT_PICKS * n
        for actor, action_id in history[plays_from : plays_from + PARAMS.cards_played * n]:
            if PLAY <= action_id < BONUS and actor != viewer:
                played.append((actor, PLAY_PAIRS[action_id - PLAY][0]))
    assigned = [-1] * size
    if not _place_played(played, assigned, counts, group, n, direction, rng):
        raise AssertionError("no deal fits what this seat knows")  # pragma: no cover

    # The rest: each known multiset in a random order, unseen positions from unseen cards.
    for group_id in range(1, len(counts)):
        rest = [kind for kind, count in enumerate(counts[group_id]) for _ in range(count)]
        rng.shuffle(rest)
        spots = [p for p in members[group_id] if assigned[p] < 0]
        for position, kind in zip(spots, rest, strict=True):
            assigned[position] = kind
    unseen = counts[UNSEEN]
    for position in members[UNSEEN]:
        if assigned[position] < 0:
            assigned[position] = draw(unseen, rng)
    for position, kind in fixed.items():
        assigned[position] = kind

    # Write the new deal (seat q's k-th card at start + k*n + its place in the deal order)
    # and the other seats' picks into the history.
    for packet in range(n):
        if packet == viewer:
            continue
        cards = sorted(assigned[packet * HAND : packet * HAND + HAND])
        for k, kind in enumerate(cards):
            history[start + k * n + slot[packet]] = (CHANCE, DEAL + kind)
    for seat, step, index in pick_index:
        if seat != viewer:
            kind = assigned[((seat - step * direction) % n) * HAND + step]
            history[index] = (seat, keep_id(seat, kind))


def _place_played(
    played: list[tuple[int, int]],
    assigned: list[int],
    counts: list[list[int]],
    group: list[int],
    n: int,
    direction: int,
    rng: random.Random,
) -> bool:
    """Put every played card (seat, kind) at a free position its seat picked, in a group that
    still holds that kind. Depth first, the cards with the fewest fitting positions first;
    equal cards of one seat take increasing positions (their order changes nothing, so it is
    not searched twice). A card's positions are tried in a random order weighted by how likely
    each holds that kind on its own: the kind's share of the cards its group still has to give
    (a packet the viewer passed on that held the card is far likelier than the unseen cards)."""
    totals = [sum(available) for available in counts]

    def fitting(seat: int, kind: int, lowest: int) -> list[int]:
        found = []
        for step in range(HAND):
            position = ((seat - step * direction) % n) * HAND + step
            if position > lowest and assigned[position] < 0 and counts[group[position]][kind]:
                found.append(position)
        return found

    tasks = sorted(played, key=lambda card: (len(fitting(card[0], card[1], -1)), card))
    after: dict[tuple[int, int], int] = {}  # the last position taken by an equal card

    def search(task: int) -> bool:
        if task == len(tasks):
            return True
        card = tasks[task]
        seat, kind = card
        previous = after.get(card, -1)
        # Weighted random order (Efraimidis-Spirakis): the key u ** (1 / weight), largest first.
        options = fitting(seat, kind, previous)
        keys = [rng.random() ** (totals[group[p]] / counts[group[p]][kind]) for p in options]
        for _, position in sorted(zip(keys, options, strict=True), reverse=True):
            where = group[position]
            counts[where][kind] -= 1
            totals[where] -= 1
            assigned[position] = kind
            after[card] = position
            if search(task + 1):
                return True
            counts[where][kind] += 1
            totals[where] += 1
            assigned[position] = -1
        after[card] = previous
        return False

    return search(0)


def _resample_partial_deal(
    history: list[tuple[int, int]],
    start: int,
    dealt_count: int,
    n: int,
    start_player: int,
    viewer: int,
    rng: random.Random,
) -> None:
    """Mid-deal: the cards dealt to the others come from those the viewer has not seen."""
    receivers = [(start_player + i) % n for i in range(dealt_count)]
    unseen = list(PARAMS.deck)
    for i, seat in enumerate(receivers):
        if seat == viewer:
            unseen[history[start + i][1] - DEAL] -= 1
    for i, seat in enumerate(receivers):
        if seat != viewer:
            history[start + i] = (CHANCE, DEAL + draw(unseen, rng))
