"""PettingZoo AEC environments: PettingZoo's own api_test and seed_test on every game, and the
behaviour a learning loop relies on (masks, rewards, hidden cards, illegal actions)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

import spielwerk
from spielwerk.adapters.pettingzoo import env, raw_env
from spielwerk.core.conformance import games_under_test, play_on

# PettingZoo's generic advice for dict observations (its own classic games get it too).
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
]

GAMES = [
    pytest.param(name, count, id=f"{name}-{count}p")
    for name in games_under_test()
    for count in sorted({spielwerk.load(name).min_players, spielwerk.load(name).max_players})
]


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_pettingzoo_api_test(name: str, players: int) -> None:
    api_test(env(name, num_players=players), num_cycles=2000)


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_pettingzoo_seed_test(name: str, players: int) -> None:
    seed_test(functools.partial(env, name, num_players=players), num_cycles=500)


def play_out(e: object, seed: int) -> dict[str, float]:
    """A random game through the AEC loop; returns the total rewards."""
    e.reset(seed=seed)  # type: ignore[attr-defined]
    rng = np.random.default_rng(seed)
    totals: dict[str, float] = {}
    for agent in e.agent_iter():  # type: ignore[attr-defined]
        observation, reward, termination, truncation, _ = e.last()  # type: ignore[attr-defined]
        totals[agent] = totals.get(agent, 0.0) + reward
        if termination or truncation:
            e.step(None)  # type: ignore[attr-defined]
            continue
        legal = np.flatnonzero(observation["action_mask"])
        e.step(int(rng.choice(legal)))  # type: ignore[attr-defined]
    return totals


def test_rewards_at_the_end_are_the_games_returns() -> None:
    """Witches, 4 players: the rewards summed over the game are the final returns (one win, or
    its shares), and only the agent to act has legal actions in its mask."""
    e = raw_env("witches", num_players=4)
    totals = play_out(e, seed=3)
    assert sum(totals.values()) == pytest.approx(1.0)
    final = e.spielwerk_state.returns()
    assert [totals[f"player_{seat}"] for seat in range(4)] == pytest.approx(final)


def test_mask_marks_exactly_the_legal_actions_of_the_agent_to_act() -> None:
    e = raw_env("witches", num_players=3)
    e.reset(seed=5)
    state = e.spielwerk_state
    acting = e.agent_selection
    seat = int(acting.split("_")[1])
    assert np.flatnonzero(e.observe(acting)["action_mask"]).tolist() == sorted(
        state.legal_ids(seat)
    )
    for other in e.agents:
        if other != acting:
            assert not e.observe(other)["action_mask"].any()


def test_observation_is_the_seats_own_tensor_and_hides_other_hands() -> None:
    """The observation of seat 0 is its observation tensor; dealing seat 1 other cards (a
    resample for seat 0) leaves it unchanged."""
    import random

    e = raw_env("witches", num_players=4)
    e.reset(seed=11)
    state = e.spielwerk_state
    observed = e.observe("player_0")["observation"]
    assert observed.tolist() == pytest.approx(state.observation_tensor(0))
    other = state.resample(0, random.Random(1))
    assert other.view(1)["hand"] != state.view(1)["hand"]
    assert other.observation_tensor(0) == state.observation_tensor(0)


def test_illegal_action_raises_and_changes_nothing() -> None:
    e = raw_env("witches", num_players=4)
    e.reset(seed=2)
    acting = e.agent_selection
    before = e.spielwerk_state.to_record()
    illegal = next(
        a for a in range(e.game.num_distinct_actions) if not e.observe(acting)["action_mask"][a]
    )
    with pytest.raises(spielwerk.IllegalAction):
        e.step(illegal)
    assert e.spielwerk_state.to_record() == before and e.agent_selection == acting


def test_ansi_render_shows_the_public_table() -> None:
    e = raw_env("inkheart_dice", num_players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert isinstance(text, str) and text.strip()
    assert "[" not in text.splitlines()[0] or "]" in text  # markup is rendered, not printed raw


@pytest.mark.parametrize(
    ("name", "players"),
    [("witches", 2), ("witches", 6), ("inkheart_dice", 2), ("inkheart_dice", 4)],
)
def test_kernel_observations_are_the_engines_tensors_at_every_step(name: str, players: int) -> None:
    """Games with a kernel encode observations straight from the kernel state: at every step of
    random games, every agent's observation equals the engine's `observation_tensor` (built from
    the seat's view, so it holds only what the seat may know) and the acting agent's mask is
    exactly its legal actions."""
    e = raw_env(name, num_players=players)
    for seed in range(4):
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in e.agent_iter():
            observation, _, termination, truncation, _ = e.last()
            state = e.spielwerk_state
            for other in e.agents:
                seat = int(other.split("_")[1])
                expected = np.asarray(state.observation_tensor(seat), dtype=np.float32)
                assert np.array_equal(e.observe(other)["observation"], expected)
            if termination or truncation:
                e.step(None)
                continue
            seat = int(agent.split("_")[1])
            legal = np.flatnonzero(observation["action_mask"])
            assert legal.tolist() == sorted(state.legal_ids(seat))
            e.step(int(rng.choice(legal)))
        assert e.spielwerk_state.is_terminal()


@pytest.mark.parametrize(("name", "players"), [("isolde", 2), ("isolde", 5), ("witches", 3)])
def test_parallel_api_test(name: str, players: int) -> None:
    from pettingzoo.test import parallel_api_test

    from spielwerk.adapters.pettingzoo import parallel_env

    parallel_api_test(parallel_env(name, num_players=players), num_cycles=1000)


def test_parallel_draft_takes_every_pick_in_one_step_without_showing_them() -> None:
    """Isolde's draft through the Parallel API: all seats pick in the same step, each from
    observations taken before anyone picked; a step missing a pick raises and changes nothing;
    the game plays to the end with the returns as final rewards."""
    from spielwerk.adapters.pettingzoo import parallel_env

    e = parallel_env("isolde", num_players=3)
    observations, _ = e.reset(seed=4)
    assert e.deciding() == [0, 1, 2]  # the first draft step
    assert all(observations[a]["action_mask"].any() for a in e.agents)
    before = e.spielwerk_state.to_record()
    with pytest.raises(spielwerk.IllegalAction, match="player_1 must act"):
        e.step({"player_0": int(np.flatnonzero(observations["player_0"]["action_mask"])[0])})
    assert e.spielwerk_state.to_record() == before
    rng = np.random.default_rng(4)
    totals = dict.fromkeys(e.possible_agents, 0.0)
    simultaneous_steps = 0
    for _ in play_on(e.spielwerk_state, until=lambda _: not e.agents):
        deciding = e.deciding()
        simultaneous_steps += len(deciding) > 1
        actions = {
            agent: int(rng.choice(np.flatnonzero(observations[agent]["action_mask"])))
            for agent in e.agents
            if observations[agent]["action_mask"].any()
        }
        assert sorted(int(a.split("_")[1]) for a in actions) == deciding
        observations, rewards, _, _, _ = e.step(actions)
        for agent, reward in rewards.items():
            totals[agent] += reward
    assert simultaneous_steps == 6 * 4  # four picks a round for six rounds, all seats at once
    assert list(totals.values()) == pytest.approx(e.spielwerk_state.returns())


def test_order_checks_stay_pettingzoos() -> None:
    """The wrapper reads `agents` and `agent_selection` straight from the environment, but keeps
    PettingZoo's order checks: no attribute before `reset`, no `agent_iter` loop without
    `step`, and a warning (no error) for a step after the game is over."""
    e = env("witches", num_players=4)
    for name in ("agents", "agent_selection"):
        with pytest.raises(AttributeError, match="before reset"):
            getattr(e, name)
    e.reset(seed=1)
    assert e.agents == ["player_0", "player_1", "player_2", "player_3"]
    assert e.agent_selection == e.unwrapped.agent_selection
    loop = iter(e.agent_iter())
    first = next(loop)
    assert first == e.agent_selection
    with pytest.raises(AssertionError, match="need to call step"):
        next(loop)
    assert play_out(e, seed=2)  # a whole game through the wrapper
    assert e.agents == []
    e.step(None)  # PettingZoo warns here and does nothing


def test_kernel_environment_refuses_a_bad_action_after_observing() -> None:
    """The legality check does not trust the observation handed out (an agent may write into
    its mask): an action outside the real legal set is refused and changes nothing."""
    e = raw_env("witches", num_players=4)
    e.reset(seed=4)
    agent = e.agent_selection
    observation = e.observe(agent)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    observation["action_mask"][illegal] = 1
    before = e.spielwerk_state.to_record()
    with pytest.raises(spielwerk.IllegalAction):
        e.step(illegal)
    assert e.spielwerk_state.to_record() == before
    assert e.agent_selection == agent
