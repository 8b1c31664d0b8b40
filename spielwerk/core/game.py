"""Game metadata kept apart from the mutable state: name, player range, options, actions."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Mapping
from typing import Any, ClassVar

from spielwerk.core.actions import Action, ActionTable
from spielwerk.core.errors import IllegalAction, OptionError
from spielwerk.core.observation import ObservationLayout
from spielwerk.core.options import OptionSpec, OptionValue, resolve_options
from spielwerk.core.state import State


class Game(ABC):
    """A game with fixed options. Immutable after construction; states refer back to it."""

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    observation_layout: ObservationLayout | None = None
    """The observation tensor's named blocks (`spielwerk.core.observation`); set by each game,
    on the class where it is fixed, on the instance where the content decides it (scenarios)."""

    retired_options: ClassVar[Mapping[str, OptionValue]] = {}
    """Options the game no longer has, with the one value every game had: a record or stored
    table that names it with that value still loads (the option is dropped); any other value
    is refused."""

    def __init__(self, **options: Any) -> None:
        for name, value in self.retired_options.items():
            if name in options:
                if options[name] != value:
                    raise OptionError(f"option {name!r} no longer exists")
                options = {k: v for k, v in options.items() if k != name}
        self.options: Mapping[str, OptionValue] = resolve_options(self.option_specs, options)
        self.actions: ActionTable = self._build_actions()

    @abstractmethod
    def _build_actions(self) -> ActionTable:
        """Every action of the game, player actions first, then chance outcomes."""

    @abstractmethod
    def _new_state(self, num_players: int, seed: int) -> State:
        """The state before the first action (usually a chance node: the deal)."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self  # immutable: states share it

    @property
    def observation_shape(self) -> tuple[int, ...]:
        """Shape of `State.observation_tensor`, the same for every player count."""
        if self.observation_layout is None:
            raise NotImplementedError(f"{self.name} defines no observation tensor")
        return self.observation_layout.shape

    def encode_view(self, view: Mapping[str, Any]) -> list[float]:
        """A seat's view (`State.view`) as the flat observation tensor."""
        raise NotImplementedError(f"{self.name} defines no observation tensor")

    @property
    def num_distinct_actions(self) -> int:
        """Player actions take ids 0 .. num_distinct_actions-1."""
        return self.actions.num_player_actions

    @property
    def max_chance_outcomes(self) -> int:
        """Chance outcomes take the ids after the player actions."""
        return self.actions.num_chance_actions

    def new_state(self, num_players: int, seed: int | None = None) -> State:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"the number of players must be an integer, got {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.name} takes {self.min_players} to {self.max_players} players, "
                f"not {num_players}"
            )
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        elif isinstance(seed, bool) or not isinstance(seed, int):
            raise OptionError(f"the seed must be an integer, got {seed!r}")
        return self._new_state(num_players, seed)

    def encode(self, action: Action) -> int:
        if not (0 <= action.id < len(self.actions)) or self.actions[action.id] != action:
            raise IllegalAction(f"{action} is not an action of {self.name}")
        return action.id

    def decode(self, action_id: int) -> Action:
        if not 0 <= action_id < len(self.actions):
            raise IllegalAction(f"action id {action_id} is outside 0..{len(self.actions) - 1}")
        return self.actions[action_id]

    def action_from_json(self, data: object) -> Action:
        return self.actions.from_json(data)

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}({opts})"
