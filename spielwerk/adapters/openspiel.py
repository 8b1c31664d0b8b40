"""Every spielwerk game as an OpenSpiel Python game (the `rl` extra).

    import pyspiel
    from spielwerk.adapters.openspiel import register
    register()
    game = pyspiel.load_game("spielwerk_witches(players=4,wheel=ascending)")

- Names are `spielwerk_<game>`; parameters are `players` and the game's options (their
  defaults in the game type's parameter specification).
- Chance nodes are explicit: `chance_outcomes()` lists every outcome with its probability.
  Chance action ids are the game's chance ids shifted to start at 0 (OpenSpiel keeps player
  actions in [0, num_distinct_actions) and chance outcomes in [0, max_chance_outcomes)).
- Simultaneous decisions are made sequential, lowest seat first; a seat never observes another's
  pending choice, so the game stays exactly the same for every player.
- Information state string: the seat's perfect-recall log, every action of the history as that
  seat may see it (`State.describe`); observation string: the seat's view as JSON; observation
  tensor: `State.observation_tensor`; information state tensor (for NFSP, Deep CFR, ...): the
  observation tensor followed by how often the seat has taken each of its actions so far.
- `resample_from_infostate` is spielwerk's `resample`, so OpenSpiel's ISMCTS bot searches
  without seeing hidden cards.
- Returns are spielwerk's (a win or its share): utilities in [0, 1].
- `network_policy(game)` is the network trained for the game (`spielwerk train`; a path for
  another model file) as an OpenSpiel `Policy` (its move probabilities from the seat's
  observation tensor, no search), e.g. for `exploitability` or `evaluate_bots`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel

import spielwerk
from spielwerk.agents.network import NetworkPolicy
from spielwerk.core.conformance import DEFAULT_MAX_STEPS
from spielwerk.core.game import Game
from spielwerk.core.registry import game_class
from spielwerk.core.state import CHANCE, State

PREFIX = "spielwerk_"


def openspiel_name(game_name: str) -> str:
    return PREFIX + game_name


class SpielwerkOpenSpielGame(pyspiel.Game):  # type: ignore[misc]
    """A pyspiel.Game around one spielwerk game with fixed options and player count; `register`
    makes one subclass per game, naming it in `game_name`."""

    game_name: str

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        cls = game_class(self.game_name)
        players = int(params.pop("players", cls.min_players))
        self.spielwerk_game: Game = cls(**params)
        self.spielwerk_game.new_state(players, seed=0)  # checks the player count
        self.num_seats = players
        info = pyspiel.GameInfo(
            num_distinct_actions=self.spielwerk_game.num_distinct_actions,
            max_chance_outcomes=self.spielwerk_game.max_chance_outcomes,
            num_players=players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=DEFAULT_MAX_STEPS,
        )
        super().__init__(_game_type(cls), info, {"players": players, **params})

    def new_initial_state(self) -> SpielwerkOpenSpielState:
        return SpielwerkOpenSpielState(self, self.spielwerk_game.new_state(self.num_seats, seed=0))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: dict[str, Any] | None = None
    ) -> SpielwerkObserver:
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return SpielwerkObserver(self.spielwerk_game, perfect_recall)


class SpielwerkOpenSpielState(pyspiel.State):  # type: ignore[misc]
    """A pyspiel.State around a spielwerk State."""

    def __init__(self, game: SpielwerkOpenSpielGame, state: State) -> None:
        super().__init__(game)
        self.inner = state
        self._offset = state.game.actions.num_player_actions
        self._recall: PerfectRecall | None = None

    # -- whose turn
    def current_player(self) -> int:
        to_move = self.inner.to_move
        if self.inner.is_terminal():
            return int(pyspiel.PlayerId.TERMINAL)
        if to_move == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return min(to_move) if isinstance(to_move, frozenset) else int(to_move)

    def _seat(self) -> int | None:
        player = self.current_player()
        return player if player >= 0 else None

    # -- actions
    def _legal_actions(self, player: int) -> list[int]:
        if player != self.current_player():
            return []
        return sorted(self.inner.legal_ids(player))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return sorted((aid - self._offset, p) for aid, p in self.inner.chance_ids())

    def _apply_action(self, action: int) -> None:
        if self.inner.is_chance():
            self.inner.apply(action + self._offset)
        else:
            self.inner.apply(action, player=self._seat())

    def _action_to_string(self, player: int, action: int) -> str:
        aid = action + self._offset if player == pyspiel.PlayerId.CHANCE else action
        return str(self.inner.game.actions[aid])

    # -- end
    def is_terminal(self) -> bool:
        return self.inner.is_terminal()

    def returns(self) -> list[float]:
        return [float(r) for r in self.inner.returns()]

    # -- information
    def information_state_string(self, player: int | None = None) -> str:
        if self._recall is None:
            self._recall = PerfectRecall(self.inner)
        return self._recall.text(self.inner, self.current_player() if player is None else player)

    def observation_string(self, player: int | None = None) -> str:
        seat = self.current_player() if player is None else player
        return json.dumps(self.inner.view(seat), sort_keys=True)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Any
    ) -> SpielwerkOpenSpielState:
        """A state `player_id` cannot tell apart from this one (spielwerk's resample), drawn with a
        seed taken from OpenSpiel's sampler."""
        rng = random.Random(int(probability_sampler() * 2**53))
        return SpielwerkOpenSpielState(self.get_game(), self.inner.resample(player_id, rng))

    def clone(self) -> SpielwerkOpenSpielState:
        copy = SpielwerkOpenSpielState(self.get_game(), self.inner.clone())
        if self._recall is not None:
            copy._recall = self._recall.copy()
        return copy

    def __str__(self) -> str:
        return json.dumps(self.inner.view(None), sort_keys=True)


class PerfectRecall:
    """Every seat's perfect-recall log of one game: each action of the history as that seat may
    see it (`State.describe` in the state the action was taken in).

    Kept per OpenSpiel state and extended as its history grows, so a search that walks down a
    game asking each node's information state replays the game once, not once per node.
    """

    __slots__ = ("lines", "replay")

    def __init__(self, state: State) -> None:
        self.replay = state.game.new_state(state.num_players, seed=state.seed)
        self.lines: list[list[str]] = [[f"seat {seat}"] for seat in range(state.num_players)]

    def copy(self) -> PerfectRecall:
        other = PerfectRecall.__new__(PerfectRecall)
        other.replay = self.replay.clone()
        other.lines = [list(lines) for lines in self.lines]
        return other

    def text(self, state: State, player: int) -> str:
        """`player`'s log of `state`, whose history extends the one replayed so far."""
        if not 0 <= player < len(self.lines):
            raise ValueError(f"no seat {player} has an information state")
        table = state.game.actions
        replay = self.replay
        for actor, aid in state.history[len(replay.history) :]:
            action = table[aid]
            for seat, lines in enumerate(self.lines):
                lines.append(replay.describe(action, seat))
            replay.apply_trusted(aid, actor)
        return "\n".join(self.lines[player])


class SpielwerkObserver:
    """OpenSpiel's PyObserver interface: tensors (with named pieces) and strings.

    Without perfect recall: the observation tensor and the view as JSON. With perfect recall
    (the information state): the seat's log as the string, and as the tensor the observation
    tensor followed by `own_actions`, how often the seat has taken each player action so far.
    Both parts depend only on what the seat knows (its view, its own moves), so states the seat
    cannot tell apart give the same tensor; the tensor is not a complete encoding of the log
    (the string is), but a fixed-size input for the learning algorithms that need one."""

    def __init__(self, game: Game, perfect_recall: bool) -> None:
        self.game = game
        self.perfect_recall = perfect_recall
        layout = game.observation_layout
        self.layout = layout
        if layout is None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, np.ndarray] = {}
            return
        own = game.num_distinct_actions if perfect_recall else 0
        self.tensor = np.zeros(layout.size + own, np.float32)
        self.dict = {name: self.tensor[layout.slice(name)] for name, _ in layout.fields}
        if perfect_recall:
            self.dict["own_actions"] = self.tensor[layout.size :]

    def set_from(self, state: SpielwerkOpenSpielState, player: int) -> None:
        if self.layout is None:
            return
        size = self.layout.size
        self.tensor[:size] = state.inner.observation_tensor(player)
        if self.perfect_recall:
            own = self.tensor[size:]
            own[:] = 0.0
            for actor, action_id in state.inner.history:
                if actor == player:
                    own[action_id] += 1.0

    def string_from(self, state: SpielwerkOpenSpielState, player: int) -> str:
        if self.perfect_recall:
            return state.information_state_string(player)
        return json.dumps(state.inner.view(player), sort_keys=True)


def _game_type(cls: type[Game]) -> Any:
    defaults: dict[str, Any] = {"players": cls.min_players}
    for spec in cls.option_specs:
        defaults[spec.name] = spec.default
    return pyspiel.GameType(
        short_name=openspiel_name(cls.name),
        long_name=f"spielwerk: {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=defaults,
    )


def register() -> list[str]:
    """Register every spielwerk game with OpenSpiel (idempotent); returns the OpenSpiel names."""
    known = set(pyspiel.registered_names())
    names = []
    for game_name in spielwerk.list_games():
        name = openspiel_name(game_name)
        if name not in known:
            cls = game_class(game_name)
            # A class, not a closure: OpenSpiel's registry outlives the interpreter, and only
            # an object kept alive by reference cycles (a class) survives its shutdown safely.
            adapter = type(
                f"OpenSpiel{cls.__name__}", (SpielwerkOpenSpielGame,), {"game_name": game_name}
            )
            pyspiel.register_game(_game_type(cls), adapter)
        names.append(name)
    return names


def network_policy(game: SpielwerkOpenSpielGame, path: str | Path | None = None) -> Any:
    """The game's shipped network (or the model file at `path`) as an OpenSpiel policy."""
    from open_spiel.python import policy

    network = NetworkPolicy.load(game.spielwerk_game, path, game.num_seats)

    class SpielwerkNetworkPolicy(policy.Policy):  # type: ignore[misc]
        def action_probabilities(
            self, state: SpielwerkOpenSpielState, player_id: int | None = None
        ) -> dict[int, float]:
            seat = state.current_player() if player_id is None else player_id
            legal = state.legal_actions(seat)
            mask = np.zeros(game.num_distinct_actions(), dtype=np.int8)
            mask[legal] = 1
            probabilities = network.probabilities(state.inner.observation_tensor(seat), mask)
            return {action: float(probabilities[action]) for action in legal}

    return SpielwerkNetworkPolicy(game, list(range(game.num_players())))
