"""The rules of Die Holde Isolde, in the order a round is played.

Rulebook: shared/seeds/004 (German); gaps settled in shared/rules/isolde.md. A round: deal 5
cards to each seat (every card a chance action), draft them simultaneously (keep 1, pass the rest;
left in odd rounds, right in even ones), play 4 in turn from the start player (the fifth is
discarded unseen), score the boards due (Isolde first), reset after round 3, pass the start
player to the left.

A board is a ranking: `order[b]` lists the seats from the rearmost disc to the foremost, and
`dist[b][seat]` is how far that disc has travelled (laps included). Discs on the same distance
form a stack, bottom first in `order`: the disc that arrived later lies on top and is ahead.

Per-board and per-seat data are tuples held in one list per field (`dist[b]`, `hands[seat]`):
a clone copies a few short lists, and a move or a pick replaces one tuple.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from spielwerk.core.actions import Action
from spielwerk.core.compiled import mypyc_attr
from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.core.outcome import shared_win_returns, top_scorers
from spielwerk.core.state import CHANCE, TERMINAL, State
from spielwerk.games.isolde import words
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
    keep_id,
)
from spielwerk.games.isolde.hidden import resample_round
from spielwerk.games.isolde.params import (
    MOVES,
    PARAMS,
    PENALTIES,
    PLACES,
    RESET_NONE,
    RESET_SPREAD,
    RESET_START,
    SPACES,
    Board,
)

if TYPE_CHECKING:
    from spielwerk.games.isolde.game import IsoldeGame

BOARDS = PARAMS.boards
KINDS = PARAMS.kinds
HAND = PARAMS.hand_size
DECK_SIZE = PARAMS.deck_size
DRAFT_PICKS = HAND - 1  # the last card of each draft is kept without a choice
ISOLDE = next(i for i, b in enumerate(BOARDS) if b.scoring == MOVES)
PLAYS_OF_KIND: tuple[tuple[int, ...], ...] = tuple(
    tuple(PLAY_ID[k, b] for b in kind.boards) for k, kind in enumerate(KINDS)
)

BONUS_IDS = [BONUS + b for b in range(NUM_BOARDS)]
"""An Isolde move may go to any board (Isolde's too). [seed]"""

# Phases of a round.
DEALING, DRAFTING, PLAYING, TIEBREAK, BONUS_MOVES, OVER = range(6)
PHASE_NAMES = ("deal", "draft", "play", "tiebreak", "isolde_moves", "over")

# Logs are flat lists of ints, a fixed number per entry: cheap to copy and to compare.
AWARD = 4  # (round, board, seat, points)
ISOLDE_MOVE = 5  # (round, seat, place, steps, board)


def entries(flat: Sequence[int], width: int) -> list[tuple[int, ...]]:
    """A flat log as its entries."""
    return [tuple(flat[i : i + width]) for i in range(0, len(flat), width)]


# Compiled by mypyc (spielwerk.native); open to Python subclasses, whose clone() makes them too.
@mypyc_attr(allow_interpreted_subclasses=True)
class IsoldeState(State):
    """A game of Die Holde Isolde.

    The table: `dist`, `order` (per board), `scores`, the public logs `awards` and `bonus_log`,
    `round_starts` (where each round begins in the history), `start_player`. This round's cards:
    `pool` (the face-down deck, a count per kind), `packets` (cards to pick from), `kept`,
    `hands`, `discarded`; `phase`, `draft_step`, `bonus_queue` (Isolde moves still to make,
    3rd place first) and `setback_seats` (advanced rule 2). `round_snapshot` is the public table
    when the round began, from which `resample` replays the round.
    """

    __slots__ = (
        "awards",
        "bonus_log",
        "bonus_queue",
        "deck_left",
        "discarded",
        "dist",
        "draft_step",
        "hands",
        "kept",
        "order",
        "packets",
        "phase",
        "pool",
        "round_snapshot",
        "round_starts",
        "scores",
        "setback_seats",
        "start_player",
    )

    game: IsoldeGame

    def __init__(self, game: IsoldeGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        n = num_players
        self.dist: list[tuple[int, ...]] = [(0,) * n for _ in BOARDS]
        # At the start the order in a stack does not matter [seed]: seat order.
        self.order: list[tuple[int, ...]] = [tuple(range(n)) for _ in BOARDS]
        self.scores = [0] * n
        # Public logs: (round, board, seat, points) and (round, seat, place, steps, board).
        self.awards: list[int] = []  # AWARD ints per award
        self.bonus_log: list[int] = []  # ISOLDE_MOVE ints per Isolde move
        self.round_starts: tuple[int, ...] = ()  # where each round's deal begins in the history
        self._begin_round(0)

    # ------------------------------------------------------------------ round bookkeeping
    @property
    def round(self) -> int:
        return len(self.round_starts)

    @property
    def direction(self) -> int:
        """+1: hands pass to the left (odd rounds), -1: to the right (even rounds). [seed]"""
        return PARAMS.pass_direction(self.round)

    def _begin_round(self, history_index: int) -> None:
        """A new round: remember the public table (for `resample`), shuffle all cards back."""
        self.round_starts += (history_index,)
        # The start player passes to the left after every round. [seed]
        self.start_player = (self.game.first_start_player + self.round - 1) % self.num_players
        # The public table now: dist and order of each board, scores, the logs' lengths.
        self.round_snapshot: tuple[int, ...] = (
            *[x for d in self.dist for x in d],
            *[x for o in self.order for x in o],
            *self.scores,
            len(self.awards),
            len(self.bonus_log),
        )
        self._reset_round_fields()

    def _reset_round_fields(self) -> None:
        n = self.num_players
        self.pool: list[int] = list(PARAMS.deck)  # the full reshuffle, every round [seed]
        self.deck_left = DECK_SIZE
        # Cards by seat, each a tuple of kinds: dealt / passed cards in hand, drafted cards
        # (face down), the five to play from.
        self.packets: list[tuple[int, ...]] = [()] * n
        self.kept: list[tuple[int, ...]] = [()] * n
        self.hands: list[tuple[int, ...]] = [()] * n
        self.draft_step = 0
        self.discarded: tuple[int, ...] = ()  # the unplayed fifth cards, face down
        self.bonus_queue: tuple[tuple[int, int, int], ...] = ()  # (seat, place, steps)
        self.setback_seats: tuple[int, ...] = ()
        self.phase = DEALING
        self.to_move = CHANCE

    @property
    def dealt(self) -> int:
        """Cards dealt so far in this round's deal."""
        return DECK_SIZE - self.deck_left

    def deal_receiver(self) -> int:
        """Cards go round one at a time, from the start player on. [design: who gets the first]"""
        return (self.start_player + self.dealt) % self.num_players

    # ------------------------------------------------------------------ legal actions
    def legal_ids(self, player: int | None = None) -> list[int]:
        actor = self._legal_actor(player)
        if actor is None:
            return []
        phase = self.phase
        if phase == DEALING:
            return [DEAL + k for k, count in enumerate(self.pool) if count]
        if phase == DRAFTING:
            first = keep_id(actor, 0)
            return [first + k for k in dict.fromkeys(self.packets[actor])]  # packets are sorted
        if phase == PLAYING:
            ids: list[int] = []
            for k in dict.fromkeys(self.hands[actor]):  # hands are sorted
                ids.extend(PLAYS_OF_KIND[k])
            return ids
        if phase == TIEBREAK:
            return [GO_ON_TOP + i for i, b in enumerate(TOP_BOARDS) if self._can_go_on_top(b)] + [
                KEEP_ORDER
            ]
        return BONUS_IDS.copy()

    def chance_ids(self) -> list[tuple[int, float]]:
        total = self.deck_left
        return [(DEAL + k, count / total) for k, count in enumerate(self.pool) if count]

    def sample_chance_id(self, rng: random.Random) -> int:
        pick = int(rng.random() * self.deck_left)
        for k, count in enumerate(self.pool):
            if pick < count:
                return DEAL + k
            pick -= count
        raise AssertionError("the deck is empty")  # pragma: no cover - never dealt empty

    # ------------------------------------------------------------------ applying actions
    def _apply_id(self, actor: int, action_id: int) -> None:
        phase = self.phase
        if phase == DEALING:
            self._deal(action_id - DEAL)
        elif phase == DRAFTING:
            self._keep(actor, (action_id - KEEP) % NUM_KINDS)
        elif phase == PLAYING:
            kind, board = PLAY_PAIRS[action_id - PLAY]
            self._play(actor, kind, board)
        elif phase == TIEBREAK:
            if action_id != KEEP_ORDER:
                self._go_on_top(TOP_BOARDS[action_id - GO_ON_TOP], self.start_player)
            self._begin_isolde_scoring()
        else:
            self._bonus_move(action_id - BONUS)

    # 1. Deal: 5 cards to each seat from the full shuffled deck. [seed]
    def _deal(self, kind: int) -> None:
        n = self.num_players
        receiver = self.deal_receiver()
        self.pool[kind] -= 1
        self.deck_left -= 1
        self.packets[receiver] += (kind,)
        if self.deck_left == DECK_SIZE - HAND * n:
            self.packets = [tuple(sorted(packet)) for packet in self.packets]
            self.phase = DRAFTING
            self.to_move = frozenset(range(n))

    # 2. Draft: everybody keeps 1 card face down at once, then passes the rest. [seed]
    def _keep(self, seat: int, kind: int) -> None:
        self.packets[seat] = _without(self.packets[seat], kind)
        self.kept[seat] += (kind,)
        deciding = self.to_move
        assert isinstance(deciding, frozenset)
        waiting = deciding - {seat}
        if waiting:
            self.to_move = waiting  # a pick stays hidden until everyone has picked [seed]
            return
        n = self.num_players
        step = self.direction
        given = self.packets
        self.packets = [given[(s - step) % n] for s in range(n)]
        self.draft_step += 1
        if self.draft_step < DRAFT_PICKS:
            self.to_move = frozenset(range(n))
            return
        # The last card passed on is kept without a choice; the five go to the hand. [seed]
        self.hands = [tuple(sorted(k + p)) for k, p in zip(self.kept, self.packets, strict=True)]
        self.kept = [()] * n
        self.packets = [()] * n
        self.phase = PLAYING
        self.to_move = self.start_player

    # 3. Play 4 cards each, one per turn, clockwise from the start player. [seed]
    def _play(self, seat: int, kind: int, board: int) -> None:
        self.hands[seat] = _without(self.hands[seat], kind)
        self._move(board, seat, KINDS[kind].value)
        n = self.num_players
        last = (self.start_player - 1) % n
        if seat != last or len(self.hands[seat]) > HAND - PARAMS.cards_played:
            self.to_move = (seat + 1) % n
            return
        # The fifth card is discarded unseen. [seed]
        self.discarded = tuple(card for hand in self.hands for card in hand)
        self.hands = [()] * n
        self._begin_scoring()

    def _move(self, board: int, seat: int, steps: int) -> None:
        """Move a disc forward; it lands on top of any stack there. [seed] The king's disc
        stops at the last space, surplus steps are lost; a disc already there stays. [seed]"""
        now = self.dist[board][seat]
        spec = BOARDS[board]
        target = min(now + steps, spec.spaces) if spec.cap else now + steps
        if target != now:
            self._set_disc(board, seat, target, on_top=True)

    def _move_back(self, board: int, seat: int, steps: int) -> None:
        """Move a disc back, never behind the start; it goes under any stack there. [design]"""
        now = self.dist[board][seat]
        target = max(0, now - steps)
        if target != now:
            self._set_disc(board, seat, target, on_top=False)

    def _set_disc(self, board: int, seat: int, target: int, *, on_top: bool) -> None:
        """Put a seat's disc at distance `target`, on top of the discs there (ahead of them) or
        under them (behind them)."""
        dist = self.dist[board]
        order = [other for other in self.order[board] if other != seat]
        if on_top:
            place = len(order)
            while place and dist[order[place - 1]] > target:
                place -= 1
        else:
            place = 0
            while place < len(order) and dist[order[place]] < target:
                place += 1
        order.insert(place, seat)
        self.order[board] = tuple(order)
        self.dist[board] = (*dist[:seat], target, *dist[seat + 1 :])

    # 4. Scoring.
    def _begin_scoring(self) -> None:
        """Advanced rule 1: immediately before scoring the start player may put its disc on top
        of the stack it lies in, on exactly one board. [seed]"""
        if self.game.tiebreak_rule and any(self._can_go_on_top(b) for b in TOP_BOARDS):
            self.phase = TIEBREAK
            self.to_move = self.start_player
            return
        self._begin_isolde_scoring()

    def _can_go_on_top(self, board: int) -> bool:
        """The start player's disc shares a space (not the start space) with a disc above it."""
        seat = self.start_player
        dist = self.dist[board]
        here = dist[seat]
        if here == 0:
            return False  # on the start space the order of a stack never counts [seed]
        order = self.order[board]
        above = order[order.index(seat) + 1 :]
        return any(dist[other] == here for other in above)

    def _go_on_top(self, board: int, seat: int) -> None:
        self._set_disc(board, seat, self.dist[board][seat], on_top=True)

    def placed(self, board: int) -> list[int]:
        """Seats ranked on a board, front first, leaving out discs on the start space: those
        are last, tied, and win no reward. [seed]"""
        dist = self.dist[board]
        return [seat for seat in reversed(self.order[board]) if dist[seat] > 0]

    def rewarded_places(self, table_length: int) -> int:
        """The last place is never rewarded: 3 players reward 2 places, 2 players 1. [seed]"""
        return min(table_length, self.num_players - 1)

    def _begin_isolde_scoring(self) -> None:
        """Isolde is scored first; the ranks are fixed now, then 3rd, 2nd, 1st each move one
        own disc on any board by 1, 2, 3 spaces. [seed]"""
        if self.round in BOARDS[ISOLDE].scored_after:
            table = BOARDS[ISOLDE].table
            ranked = self.placed(ISOLDE)[: self.rewarded_places(len(table))]
            front_first = [(seat, place, table[place]) for place, seat in enumerate(ranked)]
            self.bonus_queue = tuple(reversed(front_first))
            self.setback_seats = tuple(ranked)
        self._next_bonus_move()

    def _next_bonus_move(self) -> None:
        if self.bonus_queue:
            self.phase = BONUS_MOVES
            self.to_move = self.bonus_queue[0][0]
            return
        if self.game.setback_rule:
            # Advanced rule 2: each who moved steps back 1 on Isolde's board [seed]; front
            # first, so that two discs stepping back onto one space keep their order [design].
            for seat in sorted(self.setback_seats, key=self._isolde_rank):
                self._move_back(ISOLDE, seat, 1)
        self.setback_seats = ()
        self._score_boards()

    def _isolde_rank(self, seat: int) -> int:
        """0 for the foremost disc on Isolde's board."""
        return len(self.order[ISOLDE]) - 1 - self.order[ISOLDE].index(seat)

    def _bonus_move(self, board: int) -> None:
        (seat, place, steps), self.bonus_queue = self.bonus_queue[0], self.bonus_queue[1:]
        self.bonus_log.extend((self.round, seat, place, steps, board))
        self._move(board, seat, steps)
        self._next_bonus_move()

    def _score_boards(self) -> None:
        """The other boards due this round, in the order of the data file."""
        round_number = self.round
        for board, spec in enumerate(BOARDS):
            if round_number not in spec.scored_after:
                continue
            table = self.game.tables[board]
            if spec.scoring == PLACES:
                ranked = self.placed(board)[: self.rewarded_places(len(table))]
                for place, seat in enumerate(ranked):
                    self._award(board, seat, table[place])
            elif spec.scoring == PENALTIES:
                self._score_penalties(board, table)
            elif spec.scoring == SPACES:
                for seat in range(self.num_players):
                    self._award(board, seat, spec.points_on_space(self.dist[board][seat]))
        self._end_round()

    def _score_penalties(self, board: int, table: tuple[int, ...]) -> None:
        """Last place loses table[0], second-to-last table[1]. Every disc still on the start
        space is last and takes table[0]; the next entries go to the rearmost discs that have
        moved. [seed] With 2 players only table[0] is given. [design]"""
        penalties = table[: self.rewarded_places(len(table))]
        dist = self.dist[board]
        on_start = [seat for seat in self.order[board] if dist[seat] == 0]
        moved = [seat for seat in self.order[board] if dist[seat] > 0]  # rearmost first
        if on_start:
            for seat in sorted(on_start):
                self._award(board, seat, penalties[0])
            penalties = penalties[1:]
        for seat, points in zip(moved, penalties, strict=False):
            self._award(board, seat, points)

    def _award(self, board: int, seat: int, points: int) -> None:
        if points:
            self.scores[seat] += points
            self.awards.extend((self.round, board, seat, points))

    # 5. Reset after round 3, start player to the left; the game ends after round 6. [seed]
    def _end_round(self) -> None:
        if self.round == PARAMS.reset_after_round:
            self._reset_boards()
        if self.round == PARAMS.rounds:
            self.pool = list(PARAMS.deck)  # the cards go back to the box
            self.deck_left = DECK_SIZE
            self.discarded = ()
            self.phase = OVER
            self.to_move = TERMINAL
            return
        self._begin_round(len(self.history) + 1)  # the action being applied is not logged yet

    def _reset_boards(self) -> None:
        advanced = self.game.reset_rule
        n = self.num_players
        for board, spec in enumerate(BOARDS):
            how = spec.advanced_reset if advanced else spec.reset
            if how == RESET_START:
                self.dist[board] = (0,) * n  # order kept: on the start space it does not count
            elif how == RESET_SPREAD:
                # Advanced rule 3: the last disc to the start, the second-to-last to space 1,
                # ... in order; discs tied on the start space stay there. [seed]
                order, dist = self.order[board], self.dist[board]
                first = 1 if dist[order[0]] == 0 else 0
                spread = list(dist)
                for offset, seat in enumerate([s for s in order if dist[s] > 0]):
                    spread[seat] = first + offset
                self.dist[board] = tuple(spread)
            else:
                assert how == RESET_NONE

    # ------------------------------------------------------------------ copies
    def clone(self) -> Self:
        cls = type(self)  # a compiled class refuses object.__new__
        new = cls.__new__(cls)
        new.game = self.game
        new.num_players = self.num_players
        new.seed = self.seed
        new.history = self.history.copy()
        new.to_move = self.to_move
        new.dist = self.dist.copy()  # lists of tuples: copying the list is enough
        new.order = self.order.copy()
        new.scores = self.scores.copy()
        new.awards = self.awards.copy()
        new.bonus_log = self.bonus_log.copy()
        new.round_starts = self.round_starts
        new.round_snapshot = self.round_snapshot
        new.pool = self.pool.copy()
        new.deck_left = self.deck_left
        new.packets = self.packets.copy()
        new.kept = self.kept.copy()
        new.hands = self.hands.copy()
        new.draft_step = self.draft_step
        new.discarded = self.discarded
        new.bonus_queue = self.bonus_queue
        new.setback_seats = self.setback_seats
        new.phase = self.phase
        new.start_player = self.start_player
        return new

    def resample(self, player: int | None, rng: random.Random) -> Self:
        """A state `player` cannot tell from this one, the hidden cards of every round dealt
        afresh (see `spielwerk/games/isolde/hidden.py`), then the current round replayed from
        its public start so that every derived field agrees with the new history."""
        history = self.history.copy()
        n = self.num_players
        first = self.game.first_start_player
        for index, start in enumerate(self.round_starts):
            resample_round(
                history,
                start,
                n,
                (first + index) % n,
                PARAMS.pass_direction(index + 1),
                player,
                rng,
            )
        new = self.clone()
        new.seed = rng.randrange(2**31)  # the true seed would predict the real deal
        snapshot = self.round_snapshot
        size = n * NUM_BOARDS
        new.dist = [tuple(snapshot[b * n : b * n + n]) for b in range(NUM_BOARDS)]
        new.order = [tuple(snapshot[size + b * n : size + b * n + n]) for b in range(NUM_BOARDS)]
        new.scores = list(snapshot[2 * size : 2 * size + n])
        del new.awards[snapshot[-2] :]
        del new.bonus_log[snapshot[-1] :]
        new._reset_round_fields()
        start = self.round_starts[-1]
        new.history = history[:start]
        for actor, action_id in history[start:]:
            new.apply_trusted(action_id, actor)
        return new

    # ------------------------------------------------------------------ outcome
    def isolde_key(self, seat: int) -> tuple[int, int]:
        """How far ahead a disc is on Isolde's board; all discs on the start space tie."""
        distance = self.dist[ISOLDE][seat]
        return (0, 0) if distance == 0 else (distance, self.order[ISOLDE].index(seat))

    def winners(self) -> list[int]:
        """Most points; a tie goes to the disc further ahead on Isolde's board; still tied (on
        its start space) the win is shared. [seed] + [design]"""
        best = top_scorers(self.scores)
        lead = max(self.isolde_key(seat) for seat in best)
        return [seat for seat in best if self.isolde_key(seat) == lead]

    def returns(self) -> list[float]:
        if self.to_move != TERMINAL:
            return [0.0] * self.num_players
        winners = self.winners()
        return shared_win_returns([1.0 if s in winners else 0.0 for s in range(self.num_players)])

    def result(self) -> dict[str, Any]:
        if self.to_move != TERMINAL:
            return {}
        best = top_scorers(self.scores)
        winners = self.winners()
        if len(best) == 1:
            tie_break = "none"
        elif len(winners) == 1:
            tie_break = f"equal points: seat {winners[0]} is further ahead on Isolde's board"
        else:
            tie_break = "equal points and all on Isolde's start space: the win is shared"
        return {
            "scores": self.scores.copy(),
            "winners": winners,
            "tie_break": tie_break,
            "isolde_order": self.placed(ISOLDE),
        }

    # ------------------------------------------------------------------ read from the history
    def plays(self, *, last_round: bool = False) -> list[tuple[int, int, int]]:
        """(seat, kind, board) of every card played this round (after the end: none), or in
        the round before (after the end: the last round), in the order played."""
        starts = (*self.round_starts, len(self.history))
        over = self.phase == OVER
        if over and not last_round:
            return []
        index = len(self.round_starts) - (2 if last_round and not over else 1)  # the round asked
        if index < 0:
            return []
        found = []
        for actor, action_id in self.history[starts[index] : starts[index + 1]]:
            if PLAY <= action_id < BONUS:
                kind, board = PLAY_PAIRS[action_id - PLAY]
                found.append((actor, kind, board))
        return found

    def draft_log(self, seat: int) -> tuple[list[list[int]], list[list[int]]]:
        """The packets `seat` held in this round's draft, read from the round's history (the
        deal, then the picks step by step): the cards it was dealt (step 1) or passed (steps 2-5)
        and, for each finished step, the cards it passed on. Empty until the deal is over; after
        the end, the last round's."""
        n = self.num_players
        deal_start = self.round_starts[-1]
        picks_start = deal_start + HAND * n
        if len(self.history) < picks_start:
            return [], []
        dealt = self.history[deal_start:picks_start]
        first = self.start_player
        # Packet q: the cards dealt to seat q (its k-th card is the k-th round of the deal).
        packets = [
            sorted(dealt[k * n + (q - first) % n][1] - DEAL for k in range(HAND)) for q in range(n)
        ]
        picks = self.history[picks_start : picks_start + DRAFT_PICKS * n]
        steps_done = len(picks) // n
        direction = self.direction
        received: list[list[int]] = []
        passed: list[list[int]] = []
        for step in range(steps_done + 1):
            mine = (seat - step * direction) % n  # the packet this seat holds at this step
            received.append(packets[mine].copy())
            if step == steps_done:
                break
            for actor, action_id in picks[step * n : step * n + n]:
                packets[(actor - step * direction) % n].remove((action_id - KEEP) % NUM_KINDS)
            passed.append(packets[mine].copy())
        return received, passed

    # ------------------------------------------------------------------ what a seat sees
    def view(self, player: int | None) -> dict[str, Any]:
        name = _kind_id
        to_move: Any = self.to_move
        drafting = self.phase == DRAFTING
        deciding: frozenset[int] = frozenset()  # who has still to pick in the draft
        if isinstance(to_move, frozenset):
            deciding = to_move
            to_move = sorted(to_move)
        elif to_move == CHANCE:
            to_move = "chance"
        elif to_move == TERMINAL:
            to_move = None
        round_number = self.round
        return {
            "game": "isolde",
            "viewer": player,
            "players": self.num_players,
            "round": round_number,
            "rounds": PARAMS.rounds,
            "start_player": self.start_player,
            "pass_direction": "left" if self.direction > 0 else "right",
            "phase": PHASE_NAMES[self.phase],
            "to_move": to_move,
            "advanced": {
                "start_player_tiebreak": self.game.tiebreak_rule,
                "isolde_setback": self.game.setback_rule,
                "reset": self.game.reset_rule,
            },
            "boards": [self._board_view(b, round_number) for b in range(NUM_BOARDS)],
            "scores": self.scores.copy(),
            "awards": [
                {"round": r, "board": BOARDS[b].id, "seat": s, "points": p}
                for r, b, s, p in entries(self.awards, AWARD)
            ],
            "isolde_moves": [
                {"round": r, "seat": s, "place": place + 1, "steps": steps, "board": BOARDS[b].id}
                for r, s, place, steps, b in entries(self.bonus_log, ISOLDE_MOVE)
            ],
            "pending_isolde_moves": [
                {"seat": s, "place": place + 1, "steps": steps}
                for s, place, steps in self.bonus_queue
            ],
            "deck": self.deck_left,
            "draft_step": self.draft_step + 1 if drafting else None,
            "picked": (
                [seat not in deciding for seat in range(self.num_players)] if drafting else None
            ),
            "kept_counts": [len(k) for k in self.kept],
            "hand_sizes": [len(p) + len(h) for p, h in zip(self.packets, self.hands, strict=True)],
            **self._private_view(player),
            "played": [
                {"seat": s, "card": name(k), "board": BOARDS[b].id} for s, k, b in self.plays()
            ],
            "discarded": len(self.discarded),
            "last_round_played": [
                {"seat": s, "card": name(k), "board": BOARDS[b].id}
                for s, k, b in self.plays(last_round=True)
            ],
            "result": self.result() if self.to_move == TERMINAL else None,
        }

    def _private_view(self, player: int | None) -> dict[str, Any]:
        """The seat's own cards: what it holds, kept, was passed and passed on this round."""
        name = _kind_id
        if player is None:
            return dict.fromkeys(("packet", "kept", "hand", "received", "passed"))
        received, passed = self.draft_log(player)
        return {
            "packet": [name(k) for k in self.packets[player]],
            "kept": [name(k) for k in self.kept[player]],
            "hand": [name(k) for k in self.hands[player]],
            "received": [[name(k) for k in cards] for cards in received],
            "passed": [[name(k) for k in cards] for cards in passed],
        }

    def _board_view(self, board: int, round_number: int) -> dict[str, Any]:
        spec = BOARDS[board]
        dist = self.dist[board]
        discs = []
        for seat in reversed(self.order[board]):
            distance = dist[seat]
            laps, space = (0, distance) if spec.cap else divmod(distance, spec.loop)
            discs.append({"seat": seat, "distance": distance, "space": space, "laps": laps})
        return {
            "board": spec.id,
            "name": spec.name,
            "scoring": spec.scoring,
            "rewards": _rewards(spec, self.game.tables[board]),
            "scored_after": sorted(spec.scored_after),
            "scored_this_round": round_number in spec.scored_after,
            "spaces": spec.spaces,
            "loops": not spec.cap,
            "discs": discs,
        }

    def describe(self, action: Action, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
        aid = action.id
        say = words.TEXTS.say
        if aid >= DEAL:
            receiver = self.deal_receiver()
            kind = aid - DEAL
            shown = _kind_name(lang, kind) if viewer == receiver else say(lang, "describe.a_card")
            return say(lang, "describe.dealt", seat=words.seat(lang, receiver), card=shown)
        if aid < PLAY:
            seat, kind = divmod(aid - KEEP, NUM_KINDS)
            shown = _kind_name(lang, kind) if viewer == seat else say(lang, "describe.a_card")
            return say(lang, "describe.keep", seat=words.seat(lang, seat), card=shown)
        actor = self.to_move
        assert isinstance(actor, int)
        key, params = self._decision(aid, lang)
        if key == "bonus_move":
            params["place"] = self.bonus_queue[0][1] + 1 if self.bonus_queue else 0
        return say(lang, f"describe.{key}", seat=words.seat(lang, actor), **params)

    def label(self, action: Action, seat: int, lang: Lang = DEFAULT_LANG) -> str:
        aid = action.id
        if aid >= DEAL:
            return self.describe(action, seat, lang)
        if aid < PLAY:
            kind = (aid - KEEP) % NUM_KINDS
            return words.TEXTS.say(lang, "button.keep", card=_kind_name(lang, kind))
        key, params = self._decision(aid, lang)
        return words.TEXTS.say(lang, f"button.{key}", **params)

    def _decision(self, aid: int, lang: Lang) -> tuple[str, dict[str, object]]:
        """A play-phase decision: its text key (describe.* and button.*) and parameters."""
        if aid < BONUS:
            kind, board = PLAY_PAIRS[aid - PLAY]
            where = words.board(lang, BOARDS[board].id)
            return "play", {
                "card": _kind_name(lang, kind),
                "board": where,
                "value": KINDS[kind].value,
            }
        if aid < GO_ON_TOP:
            steps = self.bonus_queue[0][2] if self.bonus_queue else 0
            return "bonus_move", {
                "board": words.board(lang, BOARDS[aid - BONUS].id),
                "steps": steps,
            }
        if aid < KEEP_ORDER:
            top = BOARDS[TOP_BOARDS[aid - GO_ON_TOP]].id
            return "go_on_top", {"board": words.board(lang, top)}
        return "keep_order", {}

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        zones: dict[str, Sequence[int]] = {
            "deck": [k for k, count in enumerate(self.pool) for _ in range(count)],
            "played": [kind for _, kind, _ in self.plays()],
            "discarded": self.discarded,
        }
        for seat in range(self.num_players):
            zones[f"packet_{seat}"] = self.packets[seat]
            zones[f"kept_{seat}"] = self.kept[seat]
            zones[f"hand_{seat}"] = self.hands[seat]
        return zones


def _without(cards: tuple[int, ...], kind: int) -> tuple[int, ...]:
    """The cards with one card of `kind` taken out."""
    at = cards.index(kind)
    return cards[:at] + cards[at + 1 :]


def _kind_id(kind: int) -> str:
    """A card kind's id, as views and actions name it ("combat-4")."""
    return KINDS[kind].name


def _kind_name(lang: Lang, kind: int) -> str:
    """A card kind's name in `lang` ("combat-4", "Kampf 4")."""
    return words.card(lang, KINDS[kind].name)


def _rewards(spec: Board, table: tuple[int, ...]) -> list[Any]:
    """A board's points table as the view shows it: by place, front first (Isolde: spaces),
    penalties last place first, or the king's [from space, points] pairs."""
    if spec.scoring == SPACES:
        return [list(pair) for pair in spec.space_points]
    return list(table)
