"""The rules of Tintenherz - Das Würfelspiel, in the order a turn is played.

Rulebook: shared/seeds/002 (English); gaps settled in shared/rules/inkheart_dice.md. Every card
turned up into the centre is a chance `draw` from the cards nobody has seen, so the draw pile
has no hidden order to keep: it is an unordered pool. Every roll is a chance action too: both
dice (36 outcomes, 1/36 each) or the one re-rolled die (6 outcomes, 1/6 each).
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Self

from spielwerk.core.actions import Action
from spielwerk.core.compiled import mypyc_attr
from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.core.outcome import shared_win_returns, top_scorers
from spielwerk.core.state import CHANCE, TERMINAL, State
from spielwerk.games.inkheart_dice import words
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
from spielwerk.games.inkheart_dice.params import PARAMS

if TYPE_CHECKING:
    from spielwerk.games.inkheart_dice.game import InkheartDiceGame

VALUES = PARAMS.values
HEARTS = PARAMS.hearts
MASKS = PARAMS.match_masks
CENTRE_SIZE = PARAMS.centre_size
CASTLE_HEARTS = PARAMS.castle_hearts

# Phases of the game.
SETUP, ROLL_DICE, CHOOSE, REROLL_DICE, FORCED, REFILL, OVER = range(7)
PHASE_NAMES = ("setup", "roll", "choose", "reroll", "forced", "refill", "over")
# What is being re-rolled in the REROLL_DICE phase.
NO_REROLL, FIRST_DIE, SECOND_DIE, BOTH_DICE = -1, 0, 1, 2
REROLL_NAMES = {FIRST_DIE: "first", SECOND_DIE: "second", BOTH_DICE: "both"}
# Why the game ended.
NOT_OVER, PILE_EMPTY, TURN_LIMIT = range(3)
END_NAMES = (None, "the centre could not be refilled: the draw pile is empty", "turn limit")
_ROLL_OUTCOMES = FACES * FACES


def score_options(safe: Sequence[int]) -> tuple[tuple[int, int], tuple[int, int]]:
    """(points, hearts) keeping the castle card, and discarding it with all negative cards.

    Rulebook "Game End and Scoring": "The total shown on the Character Cards is then multiplied
    by the number of hearts shown on all of that player's cards, including the heart shown on
    their Castle Card." "Castle Card": "a player can discard their Castle Card together with all
    negative Character Cards that they have collected."
    """
    points = hearts = plus_points = plus_hearts = 0
    for card in safe:
        value, heart = VALUES[card], HEARTS[card]
        points += value
        hearts += heart
        if value > 0:
            plus_points += value
            plus_hearts += heart
    return (points, hearts + CASTLE_HEARTS), (plus_points, plus_hearts)


def best_score(safe: Sequence[int]) -> tuple[int, bool]:
    """The better of the two scorings, and whether it discards the castle card (a tie keeps
    it). [design: the better option is taken automatically]"""
    (points, hearts), (plus_points, plus_hearts) = score_options(safe)
    kept, discarded = points * hearts, plus_points * plus_hearts
    return (discarded, True) if discarded > kept else (kept, False)


# Compiled by mypyc (spielwerk.native); open to Python subclasses, whose clone() makes them too.
@mypyc_attr(allow_interpreted_subclasses=True)
class InkheartDiceState(State):
    __slots__ = (
        "centre",
        "current",
        "dice",
        "end_reason",
        "phase",
        "pool",
        "reroll_die",
        "rerolled",
        "safe",
        "turns",
        "unsafe",
    )

    game: InkheartDiceGame

    def __init__(self, game: InkheartDiceGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        self.pool: list[int] = list(range(NUM_CARDS))  # the face-down draw pile, unordered
        self.centre: list[int] = []  # face-up cards in the middle, kept sorted
        # Per seat, kept sorted: positive cards in front of the castle (unsafe) and cards under
        # the castle card (safe: made safe, or negative cards taken from the centre).
        self.unsafe: list[list[int]] = [[] for _ in range(num_players)]
        self.safe: list[list[int]] = [[] for _ in range(num_players)]
        self.dice: tuple[int, int] = (0, 0)  # (0, 0) before the roll of a turn
        self.rerolled = False  # the one re-roll of this turn is used [seed]
        self.reroll_die = NO_REROLL  # what the pending re-roll rolls
        self.current = int(game.options["start_player"])  # whose turn it is
        self.turns = 0  # completed turns
        self.phase = SETUP
        self.end_reason = NOT_OVER
        self.to_move = CHANCE

    # ------------------------------------------------------------------ legal actions
    def legal_ids(self, player: int | None = None) -> list[int]:
        actor = self._legal_actor(player)
        if actor is None:
            return []
        phase = self.phase
        if phase == CHOOSE:
            ids = self._card_actions()
            nothing_possible = not ids
            a, b = self.dice
            # Re-roll one die (either) or both, once per turn. [seed]
            ids.append(REROLL + min(a, b) - 1)
            if a != b:
                ids.append(REROLL + max(a, b) - 1)
            ids.append(REROLL_BOTH)
            if nothing_possible:
                # Nothing possible with the first roll: re-roll or end the turn. [seed]
                ids.append(END_TURN)
            return ids
        if phase == FORCED:
            return self._card_actions()  # after the re-roll an action is compulsory [seed]
        return [i for i, _ in self.chance_ids()]

    def _card_actions(self) -> list[int]:
        """Take from the centre, take an opponent's unsafe card, or make an own card safe:
        each only with a card whose value one die or the sum of both shows. [seed]"""
        a, b = self.dice
        mask = MASKS[a][b]
        me = self.current
        ids = [TAKE + c for c in self.centre if mask >> c & 1]
        steals = [
            STEAL + c
            for q, cards in enumerate(self.unsafe)
            if q != me
            for c in cards
            if mask >> c & 1
        ]
        steals.sort()
        ids += steals
        ids += [SECURE + c for c in self.unsafe[me] if mask >> c & 1]
        return ids

    def chance_ids(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == ROLL_DICE or (phase == REROLL_DICE and self.reroll_die == BOTH_DICE):
            p = 1.0 / _ROLL_OUTCOMES
            return [(ROLL + i, p) for i in range(_ROLL_OUTCOMES)]
        if phase == REROLL_DICE:
            p = 1.0 / FACES
            return [(ROLL_DIE + i, p) for i in range(FACES)]
        p = 1.0 / len(self.pool)
        return [(DRAW + c, p) for c in self.pool]

    def sample_chance_id(self, rng: random.Random) -> int:
        phase = self.phase
        if phase == ROLL_DICE or (phase == REROLL_DICE and self.reroll_die == BOTH_DICE):
            return ROLL + int(rng.random() * _ROLL_OUTCOMES)
        if phase == REROLL_DICE:
            return ROLL_DIE + int(rng.random() * FACES)
        pool = self.pool
        return DRAW + pool[int(rng.random() * len(pool))]

    # ------------------------------------------------------------------ applying actions
    def _apply_id(self, actor: int, action_id: int) -> None:
        if action_id >= DRAW:
            self._draw(action_id - DRAW)
        elif action_id >= ROLL_DIE:
            a, b = self.dice
            value = action_id - ROLL_DIE + 1
            self.dice = (value, b) if self.reroll_die == FIRST_DIE else (a, value)
            self._after_reroll()
        elif action_id >= ROLL:
            offset = action_id - ROLL
            self.dice = (offset // FACES + 1, offset % FACES + 1)
            if self.phase == ROLL_DICE:
                self.phase = CHOOSE
                self.to_move = self.current
            else:
                self._after_reroll()
        elif action_id == END_TURN:
            self._end_turn()
        elif action_id == REROLL_BOTH:
            self._reroll(BOTH_DICE)
        elif action_id >= REROLL:
            self._reroll(FIRST_DIE if self.dice[0] == action_id - REROLL + 1 else SECOND_DIE)
        elif action_id >= SECURE:
            self._secure(action_id - SECURE)
        elif action_id >= STEAL:
            self._steal(action_id - STEAL)
        else:
            self._take(action_id - TAKE)

    def _draw(self, card: int) -> None:
        """A card is turned up from the draw pile into the centre."""
        self.pool.remove(card)
        insort(self.centre, card)
        if self.phase == SETUP:
            # "The top-most four cards are turned over and laid face up in the middle." [seed]
            if len(self.centre) == CENTRE_SIZE:
                self._start_turn()
            return
        self._end_turn()  # the refill completes the take [seed]

    def _start_turn(self) -> None:
        """The player to move rolls both dice. [seed]"""
        self.phase = ROLL_DICE
        self.dice = (0, 0)
        self.rerolled = False
        self.reroll_die = NO_REROLL
        self.to_move = CHANCE

    def _take(self, card: int) -> None:
        """Take a card from the centre: "If the Character Card shows a positive value, it is
        placed face up next to the player's Castle Card. If the Character Card shows a negative
        value, it is slid underneath the Castle Card." Then the centre is refilled. [seed]"""
        me = self.current
        self.centre.remove(card)
        insort(self.safe[me] if VALUES[card] < 0 else self.unsafe[me], card)
        if not self.pool:
            # "The game ends when a card cannot be replaced in the middle of the table because
            # the draw pile is empty." [seed] The take itself stands. [design]
            self.turns += 1
            self._finish(PILE_EMPTY)
            return
        self.phase = REFILL
        self.to_move = CHANCE

    def _steal(self, card: int) -> None:
        """Rulebook: "the player can take one of the Character Cards of an opponent that is
        still in front of them (not underneath their Castle Card)"; it lies unsafe in front of
        the taker."""
        for cards in self.unsafe:
            if card in cards:
                cards.remove(card)
                break
        insort(self.unsafe[self.current], card)
        self._end_turn()

    def _secure(self, card: int) -> None:
        """Rulebook: "To make the card safe, it is taken from in front of the player and slid
        under the player's Castle Card." [seed]"""
        me = self.current
        self.unsafe[me].remove(card)
        insort(self.safe[me], card)
        self._end_turn()

    def _reroll(self, which: int) -> None:
        """Rulebook: "they can decide to re-roll one or both of the dice" - once per turn. [seed]"""
        self.rerolled = True
        self.reroll_die = which
        self.phase = REROLL_DICE
        self.to_move = CHANCE

    def _after_reroll(self) -> None:
        """Rulebook: "After re-rolling, they must, if possible, take one of the two actions";
        if none is possible the turn ends. [seed]"""
        self.reroll_die = NO_REROLL
        if self._card_actions():
            self.phase = FORCED
            self.to_move = self.current
        else:
            self._end_turn()

    def _end_turn(self) -> None:
        """The dice pass clockwise; `max_turns` ends the game after that many turns. [design]"""
        self.turns += 1
        if self.turns >= int(self.game.options["max_turns"]):
            self._finish(TURN_LIMIT)
            return
        self.current = (self.current + 1) % self.num_players
        self._start_turn()

    def _finish(self, reason: int) -> None:
        self.end_reason = reason
        self.phase = OVER
        self.to_move = TERMINAL

    # ------------------------------------------------------------------ copies
    def clone(self) -> Self:
        cls = type(self)  # a compiled class refuses object.__new__
        new = cls.__new__(cls)
        new.game = self.game
        new.num_players = self.num_players
        new.seed = self.seed
        new.history = self.history.copy()
        new.to_move = self.to_move
        new.pool = self.pool.copy()
        new.centre = self.centre.copy()
        new.unsafe = [cards.copy() for cards in self.unsafe]
        new.safe = [cards.copy() for cards in self.safe]
        new.dice = self.dice
        new.rerolled = self.rerolled
        new.reroll_die = self.reroll_die
        new.current = self.current
        new.turns = self.turns
        new.phase = self.phase
        new.end_reason = self.end_reason
        return new

    def resample(self, player: int | None, rng: random.Random) -> Self:
        """Everything but the pile's order is public, and the pile is kept as an unordered pool
        (each card turned up is a chance draw at that moment), so every seat's information set
        is this state itself: the sample is a copy with a fresh seed drawn from `rng` (the true
        seed would predict the default chance draws). It depends on nothing but `rng`, and its
        history replays to it."""
        new = self.clone()
        new.seed = rng.randrange(2**31)
        return new

    # ------------------------------------------------------------------ outcome
    def scores(self) -> list[int]:
        """Each seat's score if the game ended now (the better castle-card option)."""
        return [best_score(cards)[0] for cards in self.safe]

    def winners(self) -> list[int]:
        return top_scorers(self.scores())

    def returns(self) -> list[float]:
        """1 shared equally among the winners, 0 for the others. [design: equal scores share]"""
        if self.to_move != TERMINAL:
            return [0.0] * self.num_players
        return shared_win_returns(self.scores())

    def scoring(self, player: int) -> dict[str, Any]:
        """How `player`'s score comes about: both castle-card options and the one taken."""
        (points, hearts), (plus_points, plus_hearts) = score_options(self.safe[player])
        score, discarded = best_score(self.safe[player])
        return {
            "castle": "discarded" if discarded else "kept",
            "score": score,
            "kept": {"points": points, "hearts": hearts, "score": points * hearts},
            "discarded": {
                "points": plus_points,
                "hearts": plus_hearts,
                "score": plus_points * plus_hearts,
            },
        }

    def result(self) -> dict[str, Any]:
        if self.to_move != TERMINAL:
            return {}
        return {
            "scores": self.scores(),
            "winners": self.winners(),
            "tie_break": "none: equal scores share the win",
            "scoring": [self.scoring(p) for p in range(self.num_players)],
            "end": END_NAMES[self.end_reason],
            "turns": self.turns,
        }

    # ------------------------------------------------------------------ what a seat sees
    def view(self, player: int | None) -> dict[str, Any]:
        """Everything is public but the pile's order, so every seat sees the same."""
        name = PARAMS.card_name
        to_move: Any = self.to_move
        if to_move == CHANCE:
            to_move = "chance"
        elif to_move == TERMINAL:
            to_move = None
        phase = self.phase
        playing = phase not in (SETUP, OVER)
        return {
            "game": "inkheart_dice",
            "viewer": player,
            "players": self.num_players,
            "phase": PHASE_NAMES[phase],
            "to_move": to_move,
            "current": self.current if playing else None,
            "turn": self.turns + 1 if playing else self.turns,
            "max_turns": int(self.game.options["max_turns"]),
            "centre": [name(c) for c in self.centre],
            "draw_pile": len(self.pool),
            "unsafe": [[name(c) for c in cards] for cards in self.unsafe],
            "safe": [[name(c) for c in cards] for cards in self.safe],
            "hearts": [CASTLE_HEARTS + sum(HEARTS[c] for c in cards) for cards in self.safe],
            "dice": list(self.dice) if self.dice[0] else None,
            "rerolled": self.rerolled,
            "rerolling": REROLL_NAMES.get(self.reroll_die),
            "scores": self.scores(),
            "castle": ["discarded" if best_score(cards)[1] else "kept" for cards in self.safe],
            "scoring": [self.scoring(p) for p in range(self.num_players)],
            "result": self.result() if self.to_move == TERMINAL else None,
        }

    def describe(self, action: Action, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
        """Every action is public: the text is the same for every viewer."""
        aid = action.id
        say = words.TEXTS.say
        label = PARAMS.label
        me = words.seat(lang, self.current)
        if aid >= DRAW:
            return say(lang, "describe.turned_up", card=label(aid - DRAW))
        if aid >= ROLL_DIE:
            value = aid - ROLL_DIE + 1
            a, b = self.dice
            kept = b if self.reroll_die == FIRST_DIE else a
            return say(lang, "describe.rerolls_one_result", seat=me, value=value, kept=kept)
        if aid >= ROLL:
            offset = aid - ROLL
            a, b = offset // FACES + 1, offset % FACES + 1
            key = "describe.rolls" if self.phase == ROLL_DICE else "describe.rerolls_both_result"
            return say(lang, key, seat=me, first=a, second=b)
        key, params = self._decision(aid, lang)
        return say(lang, f"describe.{key}", seat=me, **params)

    def label(self, action: Action, seat: int, lang: Lang = DEFAULT_LANG) -> str:
        if action.id >= ROLL:  # chance: nobody's button
            return self.describe(action, seat, lang)
        key, params = self._decision(action.id, lang)
        return words.TEXTS.say(lang, f"button.{key}", **params)

    def _decision(self, aid: int, lang: Lang) -> tuple[str, dict[str, object]]:
        """A seat's decision: its text key (describe.* and button.*) and parameters."""
        label = PARAMS.label
        if aid == END_TURN:
            return "end_turn", {}
        if aid == REROLL_BOTH:
            return "reroll_both", {}
        if aid >= REROLL:
            value = aid - REROLL + 1
            a, b = self.dice
            return "reroll", {"value": value, "other": b if a == value else a}
        if aid >= SECURE:
            return "secure", {"card": label(aid - SECURE)}
        if aid >= STEAL:
            card = aid - STEAL
            owner = next((q for q, cards in enumerate(self.unsafe) if card in cards), None)
            source = (
                words.seat(lang, owner)
                if owner is not None
                else words.TEXTS.say(lang, "describe.an_opponent")
            )
            return "steal", {"card": label(card), "source": source}
        key = "take_negative" if VALUES[aid] < 0 else "take"
        return key, {"card": label(aid)}

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        zones: dict[str, Sequence[int]] = {"draw_pile": self.pool, "centre": self.centre}
        for p in range(self.num_players):
            zones[f"unsafe_{p}"] = self.unsafe[p]
            zones[f"safe_{p}"] = self.safe[p]
        return zones
