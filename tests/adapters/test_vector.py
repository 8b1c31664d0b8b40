"""`spielwerk.vector`: the Gymnasium vector environment over the compiled kernels."""

from __future__ import annotations

import numpy as np
import pytest

import spielwerk

pytest.importorskip("numba")
from spielwerk.vector import VectorEnv


@pytest.mark.parametrize(("name", "players"), [("witches", 4), ("inkheart_dice", 3)])
def test_vector_env_keeps_its_spaces_and_contract(name: str, players: int) -> None:
    """Gymnasium's checks by hand: reset and step return arrays in the declared spaces,
    observations are float32 tensors of the game's shape, every game has a legal action, and
    a game that ends reports returns that share one win and restarts at once."""
    envs = VectorEnv(name, num_envs=64, num_players=players, copy=True)
    observations, infos = envs.reset(seed=3)
    assert envs.observation_space.contains(observations)
    game = spielwerk.load(name)
    assert observations.shape == (64, *game.observation_shape)
    ended = 0
    for _ in range(400):
        masks = infos["action_mask"]
        assert masks.shape == (64, game.num_distinct_actions) and (masks.sum(axis=1) > 0).all()
        actions = envs.random_actions()
        assert envs.action_space.contains(actions)
        observations, rewards, terminated, truncated, infos = envs.step(actions)
        assert envs.observation_space.contains(observations)
        assert not truncated.any()
        returns = infos["returns"]
        for i in np.flatnonzero(terminated):
            assert returns[i].sum() == pytest.approx(1.0)
            assert rewards[i] in returns[i]
            ended += 1
        assert (rewards[~terminated] == 0).all() and (returns[~terminated] == 0).all()
        assert ((infos["to_move"] >= 0) & (infos["to_move"] < players)).all()
    assert ended > 0


def test_vector_env_is_reproducible_with_a_seed() -> None:
    runs = []
    for _ in range(2):
        envs = VectorEnv("witches", num_envs=8, num_players=3, copy=True)
        observations, infos = envs.reset(seed=11)
        trace = [observations]
        for _ in range(50):
            observations, _, _, _, infos = envs.step(infos["action_mask"].argmax(axis=1))
            trace.append(observations)
        runs.append(np.stack(trace))
    assert np.array_equal(runs[0], runs[1])


def test_vector_observations_are_the_kernel_games_tensors() -> None:
    """Each game's observation is the observation tensor of its seat to move: the same as the
    Python engine's for that state (checked through a one-game batch replayed by the engine)."""
    from spielwerk.games.witches import kernel as witches

    envs = VectorEnv("witches", num_envs=1, num_players=4, copy=True)
    observations, infos = envs.reset(seed=5)
    tensor = np.empty_like(observations[0])
    for _ in range(60):
        seat = int(infos["to_move"][0])
        witches.observe(envs._states[0], seat, tensor)
        assert np.array_equal(observations[0], tensor)
        assert int(envs._states[0][witches.TO_MOVE]) == seat
        observations, *_, infos = envs.step(envs.random_actions())


def test_an_illegal_action_raises_and_no_game_moves() -> None:
    envs = VectorEnv("witches", num_envs=4, num_players=4, copy=True)
    _, infos = envs.reset(seed=1)
    before = envs._states.copy()
    actions = infos["action_mask"].argmax(axis=1)
    actions[2] = int(np.flatnonzero(infos["action_mask"][2] == 0)[0])
    with pytest.raises(spielwerk.IllegalAction, match="game 2"):
        envs.step(actions)
    assert np.array_equal(envs._states, before)


def test_games_without_an_observing_kernel_are_refused() -> None:
    with pytest.raises(spielwerk.OptionError, match="no vector environment"):
        VectorEnv("inkspell", num_envs=2)
