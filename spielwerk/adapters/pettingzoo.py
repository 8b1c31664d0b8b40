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
- Speed: an observation is computed once per step, when first asked for. Games whose kernel
  can encode observations (`observe` in `spielwerk/games/<game>/kernel.py`; Witches and
  Tintenherz, with the `kernels` extra) run on the compiled kernel: the tensor is written
  straight from the kernel state (the same tensor as the view's encoding, which the tests check
  step by step), chance is drawn from the environment's own generator, and `spielwerk_state`
  replays the game's actions through the Python engine when asked for.
- `e.unwrapped.network_policy()` is the network trained for the game (`spielwerk train`;
  a path for another model file) as such a `policy(observation)`, no search: its most
  probable legal move (`spielwerk.agents.network.NetworkPolicy`).
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import (
    AECOrderEnforcingIterable,
    AECOrderEnforcingIterator,
)
from rich.text import Text

import spielwerk
from spielwerk.agents.network import NetworkPolicy
from spielwerk.core.errors import IllegalAction
from spielwerk.core.state import CHANCE, TERMINAL, State


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
        self._observations: dict[str, dict[str, np.ndarray]] = {}
        self._num_actions = actions
        self._observation_shape = self.game.observation_shape
        self._kernel = _observing_kernel(name)
        if self._kernel is not None:
            self._s = self._kernel.initial(self.game, self.num_players)
            self._log = np.zeros(self._kernel.max_game_steps(self.game), dtype=np.int64)
            self._logged = 0
            self._rng = np.zeros(1, dtype=np.uint64)
            self._returns = np.zeros(self.num_players)
            self._mask = np.zeros(actions, dtype=np.int8)

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    @property
    def spielwerk_state(self) -> State:
        """The underlying spielwerk state (the whole truth: not for the agents)."""
        if self.state_ is None:
            raise RuntimeError("call reset() first")
        if self._kernel is not None and len(self.state_.history) < self._logged:
            # The kernel played on: bring the reference engine's state up to date.
            state = self.state_
            for action in self._log[len(state.history) : self._logged].tolist():
                to_move = state.to_move
                assert isinstance(to_move, int)
                state.apply_trusted(action, to_move)
        return self.state_

    def network_policy(self, path: str | Path | None = None) -> NetworkPolicy:
        """The game's shipped network (or the model file at `path`) as a policy of this
        environment's observations; ModelMismatch if it was made for another game, options
        or player count."""
        return NetworkPolicy.load(self.game, path, self.num_players)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The agent's observation now (computed once per step, when first asked for)."""
        cached = self._observations.get(agent)
        if cached is not None:
            return cached
        seat = self._seat[agent]
        mask = np.zeros(self._num_actions, dtype=np.int8)
        acting = agent == self.agent_selection
        if self._kernel is not None:
            tensor = np.empty(self._observation_shape, dtype=np.float32)
            self._kernel.observe(self._s, seat, tensor)
            if acting:
                self._kernel.legal_mask(self._s, mask)
        else:
            state = self.spielwerk_state
            if acting and not state.is_terminal():
                mask[state.legal_ids(seat)] = 1
            tensor = np.asarray(state.observation_tensor(seat), dtype=np.float32)
        observed: dict[str, np.ndarray] = {"observation": tensor, "action_mask": mask}
        self._observations[agent] = observed
        return observed

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.state_ = self.game.new_state(self.num_players, seed=seed)
        self._chance_rng = random.Random(seed)
        self._observations = {}
        if self._kernel is not None:
            from spielwerk.core.kernel_ops import generator

            self._s = self._kernel.initial(self.game, self.num_players)
            self._rng = generator(seed)
            self._logged = 0
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
        seat = self._seat[agent]
        if self._kernel is not None:
            self._kernel_step(seat, action)
        else:
            self.spielwerk_state.apply(int(action), player=seat)
        self._cumulative_rewards[agent] = 0.0
        self._observations = {}
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _kernel_step(self, seat: int, action: int) -> None:
        """Check and apply `action` in the kernel (IllegalAction, and nothing changes, if it is
        not one of the seat's legal actions now)."""
        kernel = self._kernel
        assert kernel is not None
        mask = self._mask
        s = self._s
        kernel.legal_mask(s, mask)
        try:
            action_id = int(action)
            legal = action_id >= 0 and mask[action_id] == 1
        except (IndexError, TypeError, ValueError):
            legal = False
        if not legal or s[kernel.to_move_at] != seat:
            name = self.game.actions[int(action)] if _is_action(self.game, action) else action
            raise IllegalAction(f"{name} is not legal for player {seat} now")
        kernel.apply(s, action_id)
        self._log[self._logged] = action_id
        self._logged += 1

    def _advance(self) -> None:
        """Resolve chance, then select who acts (or end the game and hand out the returns)."""
        if self._kernel is not None:
            self._advance_kernel()
            return
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

    def _advance_kernel(self) -> None:
        kernel = self._kernel
        assert kernel is not None
        s = self._s
        to_move = int(s[kernel.to_move_at])
        if to_move == CHANCE:
            self._logged = kernel.advance(s, self._rng, self._log, self._logged)
            to_move = int(s[kernel.to_move_at])
        if to_move >= 0:
            # Rewards are 0 until the end (reset sets them, only the end changes them).
            self.agent_selection = self.possible_agents[to_move]
            return
        if to_move == TERMINAL:
            kernel.returns(s, self._returns)
            for agent, seat in self._seat.items():
                self.rewards[agent] = float(self._returns[seat])
                self.terminations[agent] = True
            self._accumulate_rewards()
            self.agent_selection = self.agents[0]
            return
        for agent in self.agents:
            self.rewards[agent] = 0.0
        self.agent_selection = self.possible_agents[to_move]

    def render(self) -> str | None:
        """The public table as text (`ansi` returns it, `human` prints it)."""
        if self.render_mode is None:
            return None
        from spielwerk.core.text import game_text

        text = Text.from_markup(
            game_text(self.game.name).render_view(self.spielwerk_state.view(None))
        )
        if self.render_mode == "human":
            print(text.plain)
            return None
        return text.plain

    def close(self) -> None:
        pass


class SpielwerkParallelEnv(ParallelEnv):  # type: ignore[misc]
    """One spielwerk game as a PettingZoo Parallel environment: every seat that decides now
    acts in the same step (all seats at once in Isolde's draft, one seat elsewhere).

    `step` takes a dict of actions; the actions of seats with nothing to decide (an all-zero
    mask) are ignored. Every deciding seat's action is checked before any is applied: an
    illegal or missing one raises `spielwerk.IllegalAction` and changes nothing. Observations
    are taken before anyone acts, so no seat sees another's pick of the same step."""

    def __init__(
        self,
        name: str,
        num_players: int | None = None,
        render_mode: str | None = None,
        **options: Any,
    ) -> None:
        self.game = spielwerk.load(name, **options)
        self.num_players = self.game.min_players if num_players is None else num_players
        self.game.new_state(self.num_players, seed=0)  # checks the player count and options
        if render_mode is not None and render_mode not in SpielwerkAECEnv.RENDER_MODES:
            raise ValueError(
                f"render_mode must be one of {', '.join(SpielwerkAECEnv.RENDER_MODES)}"
            )
        self.render_mode = render_mode
        self.metadata: dict[str, Any] = {
            "name": f"spielwerk_{name}_parallel_v0",
            "render_modes": list(SpielwerkAECEnv.RENDER_MODES),
            "is_parallelizable": True,
        }
        self.possible_agents = [agent_name(seat) for seat in range(self.num_players)]
        self.agents: list[str] = []
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

    def deciding(self) -> list[int]:
        """The seats that act in the next step."""
        to_move = self.spielwerk_state.to_move
        if isinstance(to_move, frozenset):
            return sorted(to_move)
        return [to_move] if to_move >= 0 else []

    def reset(
        self, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        self.state_ = self.game.new_state(self.num_players, seed=seed)
        self._chance_rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self._resolve_chance()
        return self._observations(), {agent: {} for agent in self.agents}

    def step(
        self, actions: dict[str, Any]
    ) -> tuple[
        dict[str, Any],
        dict[str, float],
        dict[str, bool],
        dict[str, bool],
        dict[str, dict[str, Any]],
    ]:
        state = self.spielwerk_state
        if state.is_terminal():
            raise IllegalAction("the game is over: call reset()")
        chosen: list[tuple[int, int]] = []
        for seat in self.deciding():
            agent = agent_name(seat)
            if actions.get(agent) is None:
                raise IllegalAction(f"{agent} must act now: give it an action id")
            action = int(actions[agent])
            if action not in state.legal_ids(seat):
                raise IllegalAction(f"action {action} is not legal for player {seat} now")
            chosen.append((seat, action))
        for seat, action in chosen:
            state.apply(action, player=seat)
        self._resolve_chance()
        agents = self.agents
        over = state.is_terminal()
        returns = state.returns() if over else [0.0] * self.num_players
        rewards = {agent: float(returns[self._index(agent)]) for agent in agents}
        observations = self._observations()
        terminations = dict.fromkeys(agents, over)
        truncations = dict.fromkeys(agents, False)
        infos: dict[str, dict[str, Any]] = {agent: {} for agent in agents}
        if over:
            self.agents = []
        if self.render_mode == "human":
            self.render()
        return observations, rewards, terminations, truncations, infos

    def _index(self, agent: str) -> int:
        return self.possible_agents.index(agent)

    def _resolve_chance(self) -> None:
        state = self.spielwerk_state
        while state.is_chance():
            state.apply(state.sample_chance(self._chance_rng))

    def _observations(self) -> dict[str, dict[str, np.ndarray]]:
        state = self.spielwerk_state
        deciding = set(self.deciding())
        out: dict[str, dict[str, np.ndarray]] = {}
        for agent in self.agents:
            seat = self._index(agent)
            mask = np.zeros(self.game.num_distinct_actions, dtype=np.int8)
            if seat in deciding:
                mask[state.legal_ids(seat)] = 1
            out[agent] = {
                "observation": np.asarray(state.observation_tensor(seat), dtype=np.float32),
                "action_mask": mask,
            }
        return out

    def render(self) -> str | None:
        """The public table as text (`ansi` returns it, `human` prints it)."""
        if self.render_mode is None:
            return None
        from spielwerk.core.text import game_text

        text = Text.from_markup(
            game_text(self.game.name).render_view(self.spielwerk_state.view(None))
        ).plain
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass


def parallel_env(
    name: str, num_players: int | None = None, render_mode: str | None = None, **options: Any
) -> SpielwerkParallelEnv:
    """The Parallel environment of game `name`: simultaneous decisions (Isolde's draft) are
    taken in one step by every deciding seat."""
    return SpielwerkParallelEnv(name, num_players, render_mode, **options)


def _observing_kernel(name: str) -> Any:
    """The game's kernel (`KernelRules`) if it encodes observations and Numba is installed,
    else None."""
    from spielwerk.games.kernels import has_kernel, kernel_rules

    if not has_kernel(name):
        return None
    rules = kernel_rules(name)
    return rules if rules.observe is not None else None


def _is_action(game: spielwerk.Game, action: object) -> bool:
    return isinstance(action, int | np.integer) and 0 <= int(action) < len(game.actions)


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's order checks, with the attributes of every step read from the environment
    directly: the generic wrapper forwards `agents` and `agent_selection` through two
    `__getattr__` layers (several times per step, more than the game step itself costs), and
    its `last` reads five attributes that way. The checks are PettingZoo's: the same errors
    before `reset`, the same assertion when `agent_iter` runs without `step`."""

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        agents: list[str] = self.env.agents
        return agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        selection: str = self.env.agent_selection
        return selection

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        result: tuple[Any, float, bool, bool, dict[str, Any]] = self.env.last(observe)
        return result

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)

    def agent_iter(self, max_iter: int = 2**63) -> _OrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _OrderEnforcingIterable(self, max_iter)


class _OrderEnforcingIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __iter__(self) -> _OrderEnforcingIterator:
        return _OrderEnforcingIterator(self.env, self.max_iter)


class _OrderEnforcingIterator(AECOrderEnforcingIterator):  # type: ignore[misc]
    """PettingZoo's `AECOrderEnforcingIterator.__next__` in one step, reading the environment's
    attributes directly."""

    def __next__(self) -> str:
        wrapper = self.env
        env = wrapper.env
        if not env.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        assert wrapper._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        wrapper._has_updated = False
        selection: str = env.agent_selection
        return selection


def env(
    name: str, num_players: int | None = None, render_mode: str | None = None, **options: Any
) -> AECEnv:
    """The AEC environment of game `name` (PettingZoo's order checks included)."""
    return _OrderEnforcing(SpielwerkAECEnv(name, num_players, render_mode, **options))


def raw_env(
    name: str, num_players: int | None = None, render_mode: str | None = None, **options: Any
) -> SpielwerkAECEnv:
    """The environment without PettingZoo's wrappers."""
    return SpielwerkAECEnv(name, num_players, render_mode, **options)
