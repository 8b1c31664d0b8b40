"""The State contract every game implements, and the generic parts they share.

A game subclass keeps its own fields in `__slots__` (cards as small ints, lists copied by
`clone`) and implements the abstract hooks; this base class turns them into the public API:
validated `apply`, `legal_actions`, explicit chance, and records.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final, Self

from spielwerk.core.actions import Action
from spielwerk.core.compiled import mypyc_attr
from spielwerk.core.errors import IllegalAction
from spielwerk.core.i18n import DEFAULT_LANG, Lang

if TYPE_CHECKING:
    from spielwerk.core.game import Game

CHANCE: Final = -1
"""`to_move` when the next action is a random event (deal, draw, roll)."""
TERMINAL: Final = -2
"""`to_move` when the game is over."""

ToMove = int | frozenset[int]
JSONDict = dict[str, Any]
RECORD_FORMAT = "spielwerk-record/1"


def actor_label(actor: int) -> str | int:
    """How an actor appears in records: a seat index, or "chance"."""
    return "chance" if actor == CHANCE else actor


# Compiled by mypyc (spielwerk.native), as is every game's state; open to Python subclasses
# (tests' own games, planted faults).
@mypyc_attr(allow_interpreted_subclasses=True)
class State(ABC):
    """A game in progress. Mutable; `clone()` is cheap; deterministic given the action history."""

    __slots__ = ("game", "history", "num_players", "seed", "to_move")

    game: Game
    num_players: int
    seed: int
    history: list[tuple[int, int]]
    """Every action applied so far as (actor, action id); the actor of a chance action is CHANCE."""
    to_move: ToMove
    """A seat index, CHANCE, TERMINAL, or a frozenset of seats deciding simultaneously."""

    def __init__(self, game: Game, num_players: int, seed: int) -> None:
        self.game = game
        self.num_players = num_players
        self.seed = seed
        self.history = []
        self.to_move = CHANCE

    # ------------------------------------------------------------------ game-specific hooks
    @abstractmethod
    def legal_ids(self, player: int | None = None) -> list[int]:
        """Ids of the legal actions of `player` (default: whoever is to move; chance outcomes at
        a chance node). A seat that is not to move has none."""

    @abstractmethod
    def _apply_id(self, actor: int, action_id: int) -> None:
        """Carry out a legal action (already validated) and update `to_move`."""

    @abstractmethod
    def chance_ids(self) -> list[tuple[int, float]]:
        """At a chance node: every outcome id with its probability."""

    @abstractmethod
    def clone(self) -> Self:
        """An independent copy."""

    @abstractmethod
    def view(self, player: int | None) -> JSONDict:
        """JSON-ready: exactly what `player` may know; `None` is the spectator's public view."""

    @abstractmethod
    def resample(self, player: int | None, rng: random.Random) -> Self:
        """A full state drawn fairly from those `player` cannot tell apart from this one."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Per seat, the payoff at the end of the game (0.0 for everyone before the end)."""

    @abstractmethod
    def result(self) -> JSONDict:
        """Scores, winners and how ties were broken (only at the end)."""

    def running_scores(self) -> list[float] | None:
        """Per seat, the score so far, where the game keeps one on the table as it goes (a
        victory track); None where it does not. Searches may value a cut-off rollout by it."""
        return None

    @abstractmethod
    def describe(self, action: Action, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
        """Text of `action`, applied in this state, as `viewer` may see it, in `lang` (a log
        line: "seat 2 plays red-7"). The language changes only the words, never the state."""

    def label(self, action: Action, seat: int, lang: Lang = DEFAULT_LANG) -> str:
        """The button of `seat`'s legal action for that seat, in the second person ("Play
        red-7", "Spiele Rot 7"); a game without its own labels shows `describe`."""
        return self.describe(action, seat, lang)

    @abstractmethod
    def component_zones(self) -> Mapping[str, Sequence[int]]:
        """Where every physical component lies, zone by zone (for conservation checks)."""

    def is_legal_id(self, actor: int, action_id: int) -> bool:
        """Whether `action_id` is legal for `actor`, who is to move now (the check of `apply`).
        The default lists `legal_ids(actor)`; games override it with a cheaper test that must
        agree with that list for every id (the conformance checks compare the two)."""
        return action_id in self.legal_ids(actor)

    def _apply_if_legal(self, actor: int, action_id: int) -> bool:
        """Carry out `action_id` for `actor`, who is to move, if it is legal now, and say whether
        it was; an illegal id leaves the state unchanged (the check and the move of `apply`).
        The default asks `is_legal_id`, then `_apply_id`; a game may do both in one dispatch
        (the conformance checks offer it every illegal id and compare its moves with
        `apply_trusted`)."""
        if not self.is_legal_id(actor, action_id):
            return False
        self._apply_id(actor, action_id)
        return True

    def sample_chance_id(self, rng: random.Random) -> int:
        """Draw a chance outcome id; games override this where enumeration is wasteful."""
        outcomes = self.chance_ids()
        ids = [i for i, _ in outcomes]
        weights = [p for _, p in outcomes]
        return rng.choices(ids, weights)[0]

    def __deepcopy__(self, memo: dict[int, Any]) -> Self:
        # copy.deepcopy (used by frameworks such as OpenSpiel) gets the cheap game clone.
        return self.clone()

    # ------------------------------------------------------------------ public API
    def observation_tensor(self, player: int | None) -> list[float]:
        """`player`'s view as a flat vector of `game.observation_shape` (for learning agents).
        Built from the view alone, so it carries nothing the seat may not know."""
        return self.game.encode_view(self.view(player))

    def is_terminal(self) -> bool:
        return self.to_move == TERMINAL

    def is_chance(self) -> bool:
        return self.to_move == CHANCE

    def is_simultaneous(self) -> bool:
        return isinstance(self.to_move, frozenset)

    def legal_actions(self, player: int | None = None) -> list[Action]:
        # The game's interned Action objects, looked up by id: nothing is built per call.
        table = self.game.actions.actions
        return [table[i] for i in self.legal_ids(player)]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        if self.to_move != CHANCE:
            raise IllegalAction("chance_outcomes() is only defined at a chance node")
        actions = self.game.actions.actions
        return [(actions[i], p) for i, p in self.chance_ids()]

    def sample_chance(self, rng: random.Random | None = None) -> Action:
        """A random outcome of the pending chance event (not applied).

        Without `rng`, the draw is derived from the state's seed and the history length, so
        a seeded game replays the same way.
        """
        if self.to_move != CHANCE:
            raise IllegalAction("sample_chance() is only defined at a chance node")
        if rng is None:
            rng = random.Random(self.seed * 1_000_003 + len(self.history))
        return self.game.actions[self.sample_chance_id(rng)]

    def apply(self, action: object, player: int | None = None) -> None:
        """Apply an action (an Action, its integer id, or its JSON form). Anything else is
        refused with IllegalAction: `action` is typed `object` so that the compiled State
        checks it here rather than at the call.

        `player` is required only where several seats decide at once. Raises IllegalAction with
        a clear message, leaving the state unchanged, if the action is not legal now.
        """
        to_move = self.to_move
        if type(action) is Action and player is None and type(to_move) is int:
            # The common case: one of the game's own interned actions (what legal_actions and
            # chance_outcomes hand out) for the one seat, or chance, to move.
            action_id = action.id
            try:
                interned = self.game.actions.actions[action_id] is action
            except IndexError:
                interned = False
            if interned and to_move != TERMINAL and self._apply_if_legal(to_move, action_id):
                self.history.append((to_move, action_id))
                return
        action_id = self._resolve(action)
        actor = self._actor(player)
        if not self._apply_if_legal(actor, action_id):
            name = self.game.actions[action_id]
            who = "chance" if actor == CHANCE else f"player {actor}"
            raise IllegalAction(f"{name} is not legal for {who} now")
        self.history.append((actor, action_id))

    def apply_trusted(self, action_id: int, actor: int) -> None:
        """Fast path for search code: apply an id taken from `legal_ids(actor)` unchecked."""
        self._apply_id(actor, action_id)
        self.history.append((actor, action_id))

    def to_record(self) -> JSONDict:
        table = self.game.actions
        return {
            "format": RECORD_FORMAT,
            "game": self.game.name,
            "options": dict(self.game.options),
            "players": self.num_players,
            "seed": self.seed,
            "actions": [
                {"actor": actor_label(actor), "action": table[aid].to_json()}
                for actor, aid in self.history
            ],
            "result": self.result() if self.is_terminal() else None,
        }

    # ------------------------------------------------------------------ helpers
    def _resolve(self, action: object) -> int:
        table = self.game.actions
        if type(action) is Action:
            # Fast path: one of the game's own interned actions (what legal_actions returns).
            action_id = action.id
            if 0 <= action_id < len(table.actions) and table.actions[action_id] is action:
                return action_id
        if isinstance(action, Action):
            if not (0 <= action.id < len(table)) or table[action.id] != action:
                raise IllegalAction(f"{action} is not an action of {self.game.name}")
            return action.id
        if isinstance(action, int) and not isinstance(action, bool):
            if not 0 <= action < len(table):
                raise IllegalAction(f"action id {action} is outside 0..{len(table) - 1}")
            return action
        if isinstance(action, Mapping):
            return table.from_json(action).id
        raise IllegalAction(f"cannot read {action!r} as an action")

    def _actor(self, player: int | None) -> int:
        to_move = self.to_move
        if to_move == TERMINAL:
            raise IllegalAction("the game is over")
        if isinstance(to_move, frozenset):
            if player is None:
                raise IllegalAction(
                    f"players {sorted(to_move)} decide at once now: say which player acts"
                )
            if player not in to_move:
                raise IllegalAction(f"player {player} has no decision to make now")
            return player
        if player is not None and player != to_move:
            who = "chance" if to_move == CHANCE else f"player {to_move}"
            raise IllegalAction(f"it is not player {player}'s turn ({who} is to move)")
        return to_move

    def _legal_actor(self, player: int | None) -> int | None:
        """The seat whose legal actions are asked for, or None if that seat has none now."""
        to_move = self.to_move
        if player is None:
            if isinstance(to_move, frozenset):
                raise ValueError("several players decide at once: pass the player")
            return None if to_move == TERMINAL else to_move
        if isinstance(to_move, frozenset):
            return player if player in to_move else None
        return player if player == to_move else None

    def __repr__(self) -> str:
        return (
            f"<{type(self).__name__} {self.game.name} players={self.num_players} "
            f"steps={len(self.history)} to_move={self.to_move!r}>"
        )
