"""The rules of the Witches of Blackmore, in the order a round is played.

Rulebook: shared/seeds/001 (German); gaps settled in shared/rules/witches.md. Every card that
comes up from the face-down pile is a chance action at the moment it is drawn, so the pile has no
hidden order to keep: it is the pool of cards nobody has seen.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Self

from spielwerk.core.actions import Action
from spielwerk.core.compiled import mypyc_attr
from spielwerk.core.hidden import place_played_draws
from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.core.outcome import shared_win_returns, top_scorers
from spielwerk.core.state import CHANCE, TERMINAL, State
from spielwerk.games.witches import words
from spielwerk.games.witches.actions import (
    ACTIONS,
    CHANGE_TRUMP,
    DRAW,
    DRAW_OUTCOMES,
    KEEP_TRUMP,
    NUM_CARDS,
)
from spielwerk.games.witches.params import PARAMS

if TYPE_CHECKING:
    from spielwerk.games.witches.game import WitchesGame

# Final: the compiled rules (spielwerk.native) read these as C constants, not from a dict.
VALUES: Final = PARAMS.values
HAND_SIZE: Final = PARAMS.hand_size
ROTATIONS: Final = {
    n: tuple(tuple((first + k) % n for k in range(n)) for first in range(n))
    for n in range(1, PARAMS.max_players + 1)
}
"""Per player count and first seat: the seats clockwise from it."""

# Phases of a round.
DEAL: Final = 0
TURN_UP: Final = 1
PLAY_CARDS: Final = 2
CHOOSE_TRUMP: Final = 3
REFILL: Final = 4
OVER: Final = 5
PHASE_NAMES = ("deal", "turn_up", "play", "choose_trump", "refill", "over")


def winning_index(cards: list[int], trump: int, ranks: tuple[int, ...]) -> int:
    """Which of a trick's `cards` (in the order played) wins it, under the trump card `trump`
    and `ranks` (each value's place on the wheel under that trump, 0 = highest): highest trump
    wins; without trump, the highest card of the led colour. [seed]"""
    trump_colour = trump // VALUES
    led = cards[0] // VALUES
    best, best_rank, best_is_trump = 0, VALUES + 1, False
    for index, card in enumerate(cards):
        colour = card // VALUES
        if colour == trump_colour:
            rank = ranks[card % VALUES + 1]
            if not best_is_trump or rank < best_rank:
                best, best_rank, best_is_trump = index, rank, True
        elif colour == led and not best_is_trump:
            rank = ranks[card % VALUES + 1]
            if rank < best_rank:
                best, best_rank = index, rank
    return best


# Compiled by mypyc (spielwerk.native); tests subclass it from Python to plant faults.
@mypyc_attr(allow_interpreted_subclasses=True)
class WitchesState(State):
    __slots__ = (
        "captured",
        "dealt",
        "draw_slots",
        "end_phase",
        "hands",
        "hidden_plays",
        "known",
        "leader",
        "phase",
        "pool",
        "refill_queue",
        "scores",
        "trick_cards",
        "trick_order",
        "trick_winner",
        "tricks",
        "trump_pile",
    )

    game: WitchesGame

    def __init__(self, game: WitchesGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.hands: list[list[int]] = [[] for _ in range(num_players)]  # each kept sorted
        # Cards in a hand that everybody saw arrive (taken face up from the trump pile).
        self.known: list[list[int]] = [[] for _ in range(num_players)]
        self.pool: list[int] = list(range(NUM_CARDS))  # the face-down draw pile, unordered
        self.trump_pile: list[int] = []  # bottom .. top; the top card is the trump
        self.trick_order: tuple[int, ...] = ()  # who plays in this trick, leader first
        self.trick_cards: list[int] = []
        self.trick_winner = -1
        self.leader = -1
        self.captured: list[list[int]] = [[] for _ in range(num_players)]
        self.scores = [0] * num_players
        self.phase = DEAL
        self.dealt = 0
        self.refill_queue: list[int] = []
        self.end_phase = False
        # Completed tricks, public: (players in order, cards in order, winner, new trump or -1).
        self.tricks: list[tuple[tuple[int, ...], tuple[int, ...], int, int, int]] = []
        # Public facts about hidden cards, per seat (for `resample`): the history indices at
        # which the seat drew face down, and (history index, card) of each card it played that
        # had come face down. Tuples, so that clones share them.
        self.draw_slots: list[tuple[int, ...]] = [() for _ in range(num_players)]
        self.hidden_plays: list[tuple[tuple[int, int], ...]] = [() for _ in range(num_players)]
        self.to_move = CHANCE

    # ------------------------------------------------------------------ legal actions
    def legal_ids(self, player: int | None = None) -> list[int]:
        actor = self._legal_actor(player)
        if actor is None:
            return []
        phase = self.phase
        if phase == PLAY_CARDS:
            return self.hands[actor].copy()  # no duty to follow colour [seed]
        if phase == CHOOSE_TRUMP:
            return [KEEP_TRUMP] + [CHANGE_TRUMP + c for c in self.trick_cards]
        return [DRAW + c for c in self.pool]

    def is_legal_id(self, actor: int, action_id: int) -> bool:
        # `legal_ids(actor)` without building it (actor is to move).
        phase = self.phase
        if phase == PLAY_CARDS:
            return action_id in self.hands[actor]
        if phase == CHOOSE_TRUMP:
            return action_id == KEEP_TRUMP or (
                CHANGE_TRUMP <= action_id < DRAW and action_id - CHANGE_TRUMP in self.trick_cards
            )
        return action_id >= DRAW and action_id - DRAW in self.pool

    def _apply_if_legal(self, actor: int, action_id: int) -> bool:
        # `is_legal_id`, then `_apply_id`, in one dispatch on the phase.
        phase = self.phase
        if phase == PLAY_CARDS:
            try:
                self.hands[actor].remove(action_id)  # the membership test and the play at once
            except ValueError:
                return False
            self._play(actor, action_id)
        elif phase == CHOOSE_TRUMP:
            if action_id != KEEP_TRUMP and not (
                CHANGE_TRUMP <= action_id < DRAW and action_id - CHANGE_TRUMP in self.trick_cards
            ):
                return False
            self._choose_trump(action_id)
        else:
            if action_id < DRAW:
                return False
            try:
                self.pool.remove(action_id - DRAW)  # the membership test and the draw at once
            except ValueError:
                return False
            self._draw(action_id - DRAW)
        return True

    def legal_actions(self, player: int | None = None) -> list[Action]:
        table = ACTIONS  # the game's own table (ACTION_TABLE), without asking the game
        if player is None:
            # The seat to move, without building `legal_ids` first. Loops, not comprehensions:
            # in CPython 3.11 a comprehension is a function call, which costs more than the
            # loop itself for the six cards of a hand or the cards of a trick.
            phase = self.phase
            if phase == PLAY_CARDS:
                actions = []
                for card in self.hands[self.to_move]:  # type: ignore[index]
                    actions.append(table[card])
                return actions
            if phase == CHOOSE_TRUMP:
                actions = [table[KEEP_TRUMP]]
                for card in self.trick_cards:
                    actions.append(table[CHANGE_TRUMP + card])
                return actions
        return [table[i] for i in self.legal_ids(player)]

    def chance_ids(self) -> list[tuple[int, float]]:
        p = 1.0 / len(self.pool)
        return [(DRAW + c, p) for c in self.pool]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        # The (action, probability) pairs of `chance_ids`, taken from the game's table.
        if self.to_move != CHANCE:
            return super().chance_outcomes()  # the error
        pool = self.pool
        # Typed as opaque objects: compiled, the pairs are then handed on as they are, not
        # unpacked into C values and packed again.
        outcomes: tuple[Any, ...] = DRAW_OUTCOMES[len(pool)]
        return [outcomes[card] for card in pool]

    def sample_chance_id(self, rng: random.Random) -> int:
        pool = self.pool
        return DRAW + pool[int(rng.random() * len(pool))]

    # ------------------------------------------------------------------ applying actions
    def _apply_id(self, actor: int, action_id: int) -> None:
        phase = self.phase
        if phase == PLAY_CARDS:
            self.hands[actor].remove(action_id)
            self._play(actor, action_id)
        elif phase == CHOOSE_TRUMP:
            self._choose_trump(action_id)
        else:
            self.pool.remove(action_id - DRAW)
            self._draw(action_id - DRAW)

    def _draw(self, card: int) -> None:
        """A card, just taken from the face-down pile, comes up: dealt, turned up as trump, or
        drawn."""
        phase = self.phase
        if phase == DEAL:
            # Set-up: 6 cards to each player, one at a time round the table. [seed]
            self._receive_face_down(self.dealt % self.num_players, card)
            self.dealt += 1
            if self.dealt == HAND_SIZE * self.num_players:
                self.phase = TURN_UP
        elif phase == TURN_UP:
            # The top card of the pile, turned up, sets trump colour and wheel value. [seed]
            self.trump_pile.append(card)
            self._start_trick(int(self.game.options["start_player"]))
        else:
            self._receive_face_down(self.refill_queue.pop(0), card)
            self._continue_refill()

    def _receive_face_down(self, player: int, card: int) -> None:
        insort(self.hands[player], card)
        self.draw_slots[player] += (len(self.history),)

    def _start_trick(self, first: int) -> None:
        """`first` leads, or the next player clockwise who still has cards. [design]"""
        hands = self.hands
        order = ROTATIONS[self.num_players][first]
        if not all(hands):
            order = tuple(p for p in order if hands[p])
        if not order:
            self.phase = OVER
            self.to_move = TERMINAL
            return
        self.trick_order = order
        self.leader = order[0]
        self.trick_cards = []
        self.phase = PLAY_CARDS
        self.to_move = order[0]

    def _play(self, player: int, card: int) -> None:
        """`player` plays `card`, just taken from the hand, into the trick."""
        known = self.known[player]
        if card in known:
            known.remove(card)
        else:
            self.hidden_plays[player] += ((len(self.history), card),)
        trick = self.trick_cards
        trick.append(card)
        if len(trick) < len(self.trick_order):
            self.to_move = self.trick_order[len(trick)]
            return
        self.trick_winner = winner = self.trick_order[self._winning_index()]
        if self.end_phase and not any(self.hands):
            # Everybody has played the last card: the game ends with this trick. [seed]
            # No trump change after it: the trump would only leave the winner's pile. [design]
            self._capture(winner, -1)
            self.phase = OVER
            self.to_move = TERMINAL
            return
        self.phase = CHOOSE_TRUMP
        self.to_move = winner

    def _winning_index(self) -> int:
        top = self.trump_pile[-1]
        return winning_index(self.trick_cards, top, self.game.ranks[top % VALUES + 1])

    def _choose_trump(self, action_id: int) -> None:
        """The winner may lay one card of the trick on the trump pile as new trump. [seed]"""
        new_trump = -1
        if action_id != KEEP_TRUMP:
            new_trump = action_id - CHANGE_TRUMP
            self.trump_pile.append(new_trump)
        winner = self.trick_winner
        self._capture(winner, new_trump)
        if self.end_phase:
            self._start_trick(winner)  # in the end phase nobody draws [seed]
            return
        # Refill: everybody draws one card, the winner first, then clockwise. [seed]
        self.refill_queue = list(ROTATIONS[self.num_players][winner])
        self.phase = REFILL
        self._continue_refill()

    def _capture(self, winner: int, new_trump: int) -> None:
        """The trick's cards (but a new trump card) go face down before the winner. [seed]"""
        trick = self.trick_cards
        won = trick if new_trump < 0 else [c for c in trick if c != new_trump]
        self.captured[winner].extend(won)
        points = 0
        for card in won:
            points += card % VALUES + 1
        self.scores[winner] += points
        self.tricks.append((self.trick_order, tuple(trick), winner, new_trump, points))
        self.trick_cards = []

    def _continue_refill(self) -> None:
        """Draw for the players still in the refill queue; stop at the next chance draw."""
        queue = self.refill_queue
        while queue:
            if self.pool:
                self.to_move = CHANCE
                return
            player = queue.pop(0)
            # The pile is empty: take the top of the trump pile, which changes trump. [seed]
            # Its last card is never taken: that player draws nothing. [design]
            if len(self.trump_pile) > 1:
                card = self.trump_pile.pop()
                insort(self.hands[player], card)
                self.known[player].append(card)
        if not self.pool:
            self.end_phase = True  # the last card was drawn: from now on nobody draws [seed]
        self._start_trick(self.trick_winner)

    # ------------------------------------------------------------------ copies
    def clone(self) -> Self:
        cls = type(self)  # a compiled class refuses object.__new__
        new = cls.__new__(cls)
        new.game = self.game
        new.num_players = self.num_players
        new.seed = self.seed
        new.history = self.history.copy()
        new.to_move = self.to_move
        new.hands = [h.copy() for h in self.hands]
        new.known = [k.copy() for k in self.known]
        new.pool = self.pool.copy()
        new.trump_pile = self.trump_pile.copy()
        new.trick_order = self.trick_order
        new.trick_cards = self.trick_cards.copy()
        new.trick_winner = self.trick_winner
        new.leader = self.leader
        new.captured = [c.copy() for c in self.captured]
        new.scores = self.scores.copy()
        new.phase = self.phase
        new.dealt = self.dealt
        new.refill_queue = self.refill_queue.copy()
        new.end_phase = self.end_phase
        new.tricks = self.tricks.copy()
        new.draw_slots = self.draw_slots.copy()
        new.hidden_plays = self.hidden_plays.copy()
        return new

    def resample(self, player: int | None, rng: random.Random) -> Self:
        """Deal everything `player` has not seen afresh, history included.

        Unseen are the pile and the cards other seats drew face down and still hold. For each
        other seat, the cards it played from face-down draws are matched to its earlier draws
        by a uniformly random consistent matching (when it drew them is hidden too); the unseen
        cards are then dealt uniformly to its remaining draws and the pile. Only what `player`
        knows enters the computation, so two states that seat cannot tell apart give the same
        sample for the same `rng` state, and the sample's history replays to it.
        """
        unseen = list(self.pool)
        for q, hand in enumerate(self.hands):
            if q != player:
                known = self.known[q]
                unseen.extend(c for c in hand if c not in known)
        unseen.sort()
        rng.shuffle(unseen)
        deal = iter(unseen)
        new = self.clone()
        new.seed = rng.randrange(2**31)  # the true seed would predict the real draws
        history = new.history
        for q in range(self.num_players):
            if q == player:
                continue
            free = place_played_draws(history, self.draw_slots[q], self.hidden_plays[q], DRAW, rng)
            held = []
            for slot in free:
                card = next(deal)
                history[slot] = (CHANCE, DRAW + card)
                held.append(card)
            new.hands[q] = sorted(self.known[q] + held)
        new.pool = sorted(deal)  # the pile is unordered; replay leaves it in card order
        return new

    # ------------------------------------------------------------------ outcome
    def winners(self) -> list[int]:
        return top_scorers(self.scores)

    def returns(self) -> list[float]:
        """1 shared equally among the winners, 0 for the others. [design: equal totals share]"""
        if self.to_move != TERMINAL:
            return [0.0] * self.num_players
        return shared_win_returns(self.scores)

    def result(self) -> dict[str, Any]:
        if self.to_move != TERMINAL:
            return {}
        return {
            "scores": self.scores.copy(),
            "winners": self.winners(),
            "tie_break": "none: equal totals share the win",
        }

    # ------------------------------------------------------------------ what a seat sees
    def view(self, player: int | None) -> dict[str, Any]:
        name = PARAMS.card_name
        top = self.trump_pile[-1] if self.trump_pile else -1
        to_move: Any = self.to_move
        if to_move == CHANCE:
            to_move = "chance"
        elif to_move == TERMINAL:
            to_move = None
        return {
            "game": "witches",
            "viewer": player,
            "players": self.num_players,
            "phase": PHASE_NAMES[self.phase],
            "to_move": to_move,
            "hand": None if player is None else [name(c) for c in sorted(self.hands[player])],
            "hand_sizes": [len(h) for h in self.hands],
            "known_in_hands": [[name(c) for c in sorted(k)] for k in self.known],
            "draw_pile": len(self.pool),
            "end_phase": self.end_phase,
            "trump": name(top) if top >= 0 else None,
            "trump_pile": [name(c) for c in self.trump_pile],
            "wheel": self.game.options["wheel"],
            "wheel_order": (
                PARAMS.wheel_order(PARAMS.value(top), self.game.descending) if top >= 0 else None
            ),
            "leader": self.leader if self.phase in (PLAY_CARDS, CHOOSE_TRUMP) else None,
            "trick": [
                {"player": p, "card": name(c)}
                for p, c in zip(self.trick_order, self.trick_cards, strict=False)
            ],
            "trick_winner": self.trick_winner if self.phase == CHOOSE_TRUMP else None,
            "tricks": [
                {
                    "players": list(order),
                    "cards": [name(c) for c in cards],
                    "winner": winner,
                    "new_trump": name(new) if new >= 0 else None,
                    "points": points,  # what the winner captured (not a new trump card)
                }
                for order, cards, winner, new, points in self.tricks
            ],
            "captured": [[name(c) for c in sorted(pile)] for pile in self.captured],
            "scores": self.scores.copy(),
            "result": self.result() if self.to_move == TERMINAL else None,
        }

    def describe(self, action: Action, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
        aid = action.id
        say = words.TEXTS.say
        if aid < DRAW:
            key, card = self._decision(aid)
            player = self.to_move
            assert isinstance(player, int)
            return say(lang, f"describe.{key}", seat=words.seat(lang, player), card=card(lang))
        card_id = aid - DRAW
        shown = words.card(lang, PARAMS.card_name(card_id))
        if self.phase == TURN_UP:
            return say(lang, "describe.turn_up", card=shown)
        if self.phase == DEAL:
            receiver, key = self.dealt % self.num_players, "describe.dealt"
        else:
            receiver, key = self.refill_queue[0], "describe.draws"
        if viewer != receiver:
            shown = say(lang, "describe.a_card")
        return say(lang, key, seat=words.seat(lang, receiver), card=shown)

    def label(self, action: Action, seat: int, lang: Lang = DEFAULT_LANG) -> str:
        if action.id >= DRAW:
            return self.describe(action, seat, lang)
        key, card = self._decision(action.id)
        return words.TEXTS.say(lang, f"button.{key}", card=card(lang))

    def _decision(self, aid: int) -> tuple[str, Callable[[Lang], str]]:
        """A seat's action: its text key and its card's name in a language."""
        name = PARAMS.card_name
        if aid < KEEP_TRUMP:
            card = name(aid)
            key = "play"
        elif aid == KEEP_TRUMP:
            card, key = name(self.trump_pile[-1]), "keep_trump"
        else:
            card, key = name(aid - CHANGE_TRUMP), "change_trump"
        return key, lambda lang: words.card(lang, card)

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        zones: dict[str, Sequence[int]] = {
            "draw_pile": self.pool,
            "trump_pile": self.trump_pile,
            "trick": self.trick_cards,
        }
        for p in range(self.num_players):
            zones[f"hand_{p}"] = self.hands[p]
            zones[f"captured_{p}"] = self.captured[p]
        return zones
