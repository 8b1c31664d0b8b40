"""PettingZoo AEC environments for every spielwerk game (the `rl` extra).

    from spielwerk.adapters.pettingzoo import env
    e = env("witches", num_players=4, wheel="ascending")
    e.reset(seed=7)
    for agent in e.agent_iter():
        observation, reward, termination, truncation, info = e.last()
        action = None if termination or truncation else policy(observation)
        e.step(action)

- Agents are `player_0` ... `player_{n-1}` (the seats).
- Observations are dicts: `observation`, the seat's observation tensor (`float32`, shape
  `game.observation_shape`, built from the seat's view only) and `action_mask` (`int8`, one entry
  per player action id of the game).
- Actions are the game's player action ids (`game.decode(id)` gives the action).
- Chance (deals, draws, dice) is resolved inside the environment from the `reset` seed, so a
  seed fixes the game for fixed actions.
- Simultaneous decisions (Isolde's draft) are taken the AEC way: the seats still to choose act
  one after another, lowest seat first; no seat's observation shows another's pending choice.
- Rewards come at the end: each seat's `state.returns()` (a win, or its share of a shared win).
- An illegal action raises `spielwerk.IllegalAction` and changes nothing.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from rich.text import Text

import spielwerk
from spielwerk.core.errors import IllegalAction
from spielwerk.core.state import State


def agent_name(seat: int) -> str:
    return f"player_{seat}"


class SpielwerkAECEnv(AECEnv):  # type: ignore[misc]
    """One spielwerk game as an AEC environment (use `env()`, which adds PettingZoo's checks)."""

    RENDER_MODES = ("ansi", "human")

    def __init__(
        self,
        name: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        super().__init__()
        self.game = spielwerk.load(name, **options)
        self.num_players = self.game.min_players if num_players is None else num_players
        self.game.new_state(self.num_players, seed=0)  # checks the player count and options
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(self.RENDER_MODES)}")
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "name": f"spielwerk_{name}_v0",
            "render_modes": list(self.RENDER_MODES),
            "is_parallelizable": False,
        }
        self.possible_agents = [agent_name(seat) for seat in range(self.num_players)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        actions = self.game.num_distinct_actions
        observation = spaces.Box(
            low=-np.inf, high=np.inf, shape=self.game.observation_shape, dtype=np.float32
        )
        mask = spaces.Box(low=0, high=1, shape=(actions,), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {agent: spaces.Discrete(actions) for agent in self.possible_agents}
        self.state_: State | None = None
        self._chance_rng = random.Random()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def spielwerk_state(self) -> State:
        """The underlying spielwerk state (the whole truth: not for the agents)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        return self.state_

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.spielwerk_state
        seat = self._seat[agent]
        mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
        if not state.is_terminal() and agent == self.agent_selection:
            mask[state.legal_ids(seat)] = 1
        return {
            "observation": np.asarray(state.observation_tensor(seat), dtype=np.float32),
            "action_mask": mask,
        }

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.state_ = self.game.new_state(self.num_players, seed=seed)
        self._chance_rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {agent: 0.0 for agent in self.agents}
        self._cumulative_rewards = {agent: 0.0 for agent in self.agents}
        self.terminations = {agent: False for agent in self.agents}
        self.truncations = {agent: False for agent in self.agents}
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self._advance()

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise IllegalAction(f"{agent} must act: give an action id, not None")
        state = self.spielwerk_state
        self._cumulative_rewards[agent] = 0.0
        state.apply(int(action), player=self._seat[agent])
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _advance(self) -> None:
        """Resolve chance, then select who acts (or end the game and hand out the returns)."""
        state = self.spielwerk_state
        while state.is_chance():
            state.apply(state.sample_chance(self._chance_rng))
        if state.is_terminal():
            returns = state.returns()
            for agent, seat in self._seat.items():
                self.rewards[agent] = float(returns[seat])
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        to_move = state.to_move
        seat = min(to_move) if isinstance(to_move, frozenset) else to_move
        self.agent_selection = agent_name(seat)

    def render(self) -> str | None:
        """The public table as text (`ansi` returns it, `human` prints it)."""
        if self.render_mode is None:
            return None
        from spielwerk.cli.renderers import game_text

        text = Text.from_markup(
            game_text(self.game.name).render_view(self.spielwerk_state.view(None))
        )
        if self.render_mode == "human":
            print(text.plain)
            return None
        return text.plain

    def close(self) -> None:
        pass


def env(
    name: str, num_players: int | None = None, render_mode: str | None = None, **options: Any
) -> AECEnv:
    """The AEC environment of game `name` (PettingZoo's order checks included)."""
    return wrappers.OrderEnforcingWrapper(
        SpielwerkAECEnv(name, num_players, render_mode, **options)
    )


def raw_env(
    name: str, num_players: int | None = None, render_mode: str | None = None, **options: Any
) -> SpielwerkAECEnv:
    """The environment without PettingZoo's wrappers."""
    return SpielwerkAECEnv(name, num_players, render_mode, **options)
