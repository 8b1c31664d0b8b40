"""A Gymnasium vector environment over the compiled kernels: thousands of self-play games
stepped together, with action masks (the `rl` and `kernels` extras).

    from spielwerk.vector import VectorEnv
    envs = VectorEnv("witches", num_envs=1024, num_players=4, seed=0)
    observations, infos = envs.reset(seed=0)
    while training:
        actions = policy(observations, infos["action_mask"])   # one legal action per game
        observations, rewards, terminated, truncated, infos = envs.step(actions)

- Every step is one decision in every game, by that game's seat to move (`infos["to_move"]`):
  self-play, all seats share the batch. Chance (deals, draws, dice) is resolved inside, each
  game from its own generator seeded by `reset(seed=...)`.
- `observations[i]` is the observation tensor of game `i`'s seat to move (the same tensor as
  `State.observation_tensor`: only what that seat may know); `infos["action_mask"][i]` marks
  its legal actions (`int8`, one entry per player action id).
- A game that ends restarts at once (Gymnasium's same-step autoreset): `terminated[i]` is
  True, `rewards[i]` is the return of the seat that made the last move and
  `infos["returns"][i]` every seat's (a win, or its share); the observation is already the new
  game's. `truncated` is always False (the games end by their rules).
- An action that is not legal raises `spielwerk.IllegalAction` before any game moves.
- The arrays returned are the environment's own buffers, overwritten by the next step, unless
  `copy=True`.

Games: those whose kernel encodes observations (`spielwerk.vector.kernel.vector_games()`).
"""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode
from gymnasium.vector import VectorEnv as GymnasiumVectorEnv

import spielwerk
from spielwerk.core.errors import IllegalAction, OptionError


class VectorEnv(GymnasiumVectorEnv):
    """`num_envs` games of one game, stepped together in the compiled kernel."""

    def __init__(
        self,
        game: str,
        num_envs: int,
        num_players: int | None = None,
        seed: int | None = None,
        copy: bool = False,
        **options: Any,
    ) -> None:
        from spielwerk.games.kernels import kernel_rules
        from spielwerk.vector import kernel

        games = kernel.vector_games()
        if game not in games:
            raise OptionError(f"{game} has no vector environment (games: {', '.join(games)})")
        if num_envs < 1:
            raise OptionError("num_envs must be at least 1")
        self.metadata = {"autoreset_mode": AutoresetMode.SAME_STEP}
        self._steps = kernel.vector_steps(game)
        self._sample_actions = kernel.sample_actions
        self.game = spielwerk.load(game, **options)
        players = self.game.min_players if num_players is None else num_players
        self._initial = kernel_rules(game).initial(self.game, players)
        self.num_envs = num_envs
        self.num_players = players
        self.copy = copy
        actions = self.game.num_distinct_actions
        size = self.game.observation_shape[0]
        self.single_observation_space = spaces.Box(-np.inf, np.inf, (size,), np.float32)
        self.observation_space = spaces.Box(-np.inf, np.inf, (num_envs, size), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.action_space = spaces.MultiDiscrete(np.full(num_envs, actions))
        self._states = np.tile(self._initial, (num_envs, 1))
        self._rngs = np.zeros((num_envs, 1), dtype=np.uint64)
        self._observations = np.zeros((num_envs, size), dtype=np.float32)
        self._masks = np.zeros((num_envs, actions), dtype=np.int8)
        self._to_move = np.zeros(num_envs, dtype=np.int64)
        self._rewards = np.zeros(num_envs, dtype=np.float64)
        self._terminated = np.zeros(num_envs, dtype=np.bool_)
        self._truncated = np.zeros(num_envs, dtype=np.bool_)
        self._returns = np.zeros((num_envs, players), dtype=np.float64)
        self._seed = seed
        self._has_reset = False

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        if seed is None:
            seed = self._seed
        sequence = np.random.SeedSequence(seed)
        self._rngs[:, 0] = sequence.generate_state(self.num_envs, np.uint64)
        self._steps.reset_all(
            self._states,
            self._initial,
            self._rngs,
            self._observations,
            self._masks,
            self._to_move,
        )
        self._returns[:] = 0.0
        self._has_reset = True
        return self._out(self._observations), self._infos()

    def step(
        self, actions: Any
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        if not self._has_reset:
            raise RuntimeError("call reset() first")
        chosen = np.asarray(actions, dtype=np.int64).reshape(self.num_envs)
        inside = (chosen >= 0) & (chosen < self._masks.shape[1])
        legal = inside.copy()
        legal[inside] = self._masks[np.flatnonzero(inside), chosen[inside]] == 1
        if not legal.all():
            game = int(np.flatnonzero(~legal)[0])
            raise IllegalAction(
                f"action {int(chosen[game])} is not legal for player "
                f"{int(self._to_move[game])} in game {game} now (nothing was applied)"
            )
        self._steps.step_all(
            self._states,
            self._initial,
            self._rngs,
            chosen,
            self._observations,
            self._masks,
            self._to_move,
            self._rewards,
            self._terminated,
            self._returns,
        )
        return (
            self._out(self._observations),
            self._out(self._rewards),
            self._out(self._terminated),
            self._out(self._truncated),
            self._infos(),
        )

    def random_actions(self, out: np.ndarray | None = None) -> np.ndarray:
        """A uniformly random legal action for every game (compiled; for baselines and
        opponents), drawn from the games' own generators."""
        if out is None:
            out = np.zeros(self.num_envs, dtype=np.int64)
        self._sample_actions(self._masks, self._rngs, out)
        return out

    def _out(self, array: np.ndarray) -> np.ndarray:
        return array.copy() if self.copy else array

    def _infos(self) -> dict[str, Any]:
        return {
            "action_mask": self._out(self._masks),
            "to_move": self._out(self._to_move),
            "returns": self._out(self._returns),
        }

    def close_extras(self, **kwargs: Any) -> None:
        pass


__all__ = ["VectorEnv"]
