"""The value network inside the compiled search: every new leaf valued by the network from the
searching seat's observation (`kernel_mcts.network_values`, `KernelMCTSAgent(leaf_mix=...)`),
the seat `net` of a model whose file sets `leaf_mix`."""

from __future__ import annotations

import random
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.base import Turn, make_turn
from spielwerk.agents.kernel_mcts import (
    KernelMCTSAgent,
    LeafNetwork,
    network_values,
)
from spielwerk.agents.kernel_network import KernelNetworkAgent, leaf_network
from spielwerk.agents.network import Model, NetworkAgent, build_model, save_model
from spielwerk.bench.measure import mid_game_state
from spielwerk.sim.match import play_game

TinyModel = Callable[..., Model]
LEAF_GAMES = {"witches": 4, "inkheart_dice": 3}
"""The kernel games with a compiled observation, at a usual player count."""


def observations(name: str, players: int, count: int) -> np.ndarray:
    """Observation tensors of the seat to move, from states along random games."""
    game = spielwerk.load(name)
    rng = random.Random(0)
    rows: list[list[float]] = []
    seed = 0
    while len(rows) < count:
        state = game.new_state(players, seed=seed)
        seed += 1
        while not state.is_terminal() and len(rows) < count:
            if state.is_chance():
                state.apply_trusted(state.sample_chance_id(rng), state.to_move)  # type: ignore[arg-type]
                continue
            seat = state.to_move
            assert isinstance(seat, int)
            rows.append(state.observation_tensor(seat))
            state.apply_trusted(rng.choice(state.legal_ids()), seat)
    return np.asarray(rows, dtype=np.float32)


@pytest.mark.parametrize("name", sorted(LEAF_GAMES))
@pytest.mark.parametrize("hidden", [(), (16,), (24, 8)])
def test_the_compiled_value_network_is_the_model_s_value_head(
    name: str, hidden: tuple[int, ...], tiny_model: TinyModel
) -> None:
    """Whatever its hidden layers, the compiled network gives the values `Model.forward`
    gives, seat by seat, on real observation tensors."""
    players = LEAF_GAMES[name]
    model = tiny_model(spielwerk.load(name), [players], hidden=hidden)
    net = leaf_network(model)
    rows = observations(name, players, 40)
    _, expected = model.forward(rows)
    work = np.zeros((2, net.weights.shape[2]), dtype=np.float32)
    out = np.zeros(net.weights.shape[2], dtype=np.float32)
    for row, values in zip(rows, expected, strict=True):
        network_values(net.weights, net.biases, net.sizes, row, work, out)
        np.testing.assert_allclose(out[: len(values)], values, rtol=1e-4, atol=1e-4)


def constant_network(observation_size: int, values: list[float]) -> LeafNetwork:
    """A network without hidden layers whose value head ignores its input."""
    weights = np.zeros((1, observation_size, len(values)), dtype=np.float32)
    biases = np.asarray([values], dtype=np.float32)
    return LeafNetwork(weights, biases, np.asarray([observation_size, len(values)]))


def test_at_a_leaf_mix_of_one_every_leaf_has_the_network_s_value() -> None:
    """With leaf_mix 1 no rollout is played: a network that values every position 0.3 for
    the viewer (and 0.9 for the others) gives every root move a mean of exactly 0.3 (the
    game is far from its end, so no leaf is a finished game with its true result)."""
    name, players = "inkheart_dice", 3
    size = spielwerk.load(name).observation_shape[0]
    state = mid_game_state(name, players, decisions=10, seed=2)
    seat = state.to_move
    assert isinstance(seat, int)
    turn = make_turn(state, seat, True, random.Random(1))
    agent = KernelMCTSAgent(
        name, 300, seed=1, leaf_network=constant_network(size, [0.3, 0.9, 0.9, 0.9]), leaf_mix=1.0
    )
    visits, sums = agent.root(turn)
    assert visits.sum() > 0
    np.testing.assert_allclose(sums[visits > 0] / visits[visits > 0], 0.3)
    rollouts = KernelMCTSAgent(name, 300, seed=1)
    plain_visits, plain_sums = rollouts.root(turn)
    assert not np.allclose(plain_sums[plain_visits > 0] / plain_visits[plain_visits > 0], 0.3)


@pytest.mark.parametrize("name", sorted(LEAF_GAMES))
def test_the_leaf_network_reads_only_the_seat_s_information(
    name: str, tiny_model: TinyModel
) -> None:
    """Two true states the seat cannot tell apart, the same sample: the same search, value
    for value (the leaves are judged from the searching seat's observation only)."""
    players = LEAF_GAMES[name]
    model = tiny_model(spielwerk.load(name), [players], hidden=(16,))
    state = mid_game_state(name, players, decisions=14, seed=11)
    seat = state.to_move
    assert isinstance(seat, int)
    other = state.resample(seat, random.Random(99))
    sample = state.resample(seat, random.Random(7))
    results = []
    for truth in (state, other):
        turn = Turn(seat, truth.view(seat), truth.legal_actions(seat), sample)
        agent = KernelNetworkAgent(model, name, iterations=300, seed=3, blend=0.0, leaf_mix=1.0)
        results.append(agent.judge(turn))
    np.testing.assert_array_equal(results[0].visits, results[1].visits)
    np.testing.assert_array_equal(results[0].search_values, results[1].search_values)


def test_a_model_file_with_a_leaf_mix_plays_with_the_network_at_the_leaves(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    """`net:FILE` reads `leaf_mix` from the file and plays whole games with it."""
    game = spielwerk.load("inkheart_dice")
    model = tiny_model(game, [3])
    metadata = {**model.metadata, "search": "kernel", "blend": 0.0, "leaf_mix": 1.0}
    path = tmp_path / "leaf.npz"
    save_model(path, model.params, metadata)
    seat = make_agent(f"net:{path}:50", "inkheart_dice", seed=1)
    assert isinstance(seat, NetworkAgent) and isinstance(seat.search, KernelNetworkAgent)
    assert seat.search.search.leaf_mix == 1.0 and seat.search.blend == 0.0
    others = [make_agent("random", "inkheart_dice", seed=s) for s in (2, 3)]
    assert play_game(game, [seat, *others], seed=5).is_terminal()
    assert build_model(metadata, model.params).metadata["leaf_mix"] == 1.0


def test_a_leaf_mix_is_checked() -> None:
    net = constant_network(195, [0.5] * 4)
    with pytest.raises(ValueError, match=r"0\.\.1"):
        KernelMCTSAgent("inkheart_dice", 10, leaf_network=net, leaf_mix=1.5)
    with pytest.raises(ValueError, match="needs a value network"):
        KernelMCTSAgent("inkheart_dice", 10, leaf_mix=0.5)
    with pytest.raises(ValueError, match="no compiled observation"):
        KernelMCTSAgent("isolde", 10, leaf_network=net, leaf_mix=0.5)
    with pytest.raises(ValueError, match="reads 195 inputs, but a witches observation has"):
        KernelMCTSAgent("witches", 10, leaf_network=net, leaf_mix=0.5)
    with pytest.raises(ValueError, match="values 2 seats"):
        KernelMCTSAgent("witches", 10, leaf_network=constant_network(1235, [0.5] * 2), leaf_mix=1)


@pytest.mark.parametrize("name", sorted(LEAF_GAMES))
def test_the_root_moves_are_judged_in_the_kernel_as_the_engine_judges_them(
    name: str, tiny_model: TinyModel
) -> None:
    """The root blend's values of the legal moves, written and evaluated by the kernel, are
    those of the engine's observation tensors and the NumPy network."""
    players = LEAF_GAMES[name]
    model = tiny_model(spielwerk.load(name), [players], hidden=(16,))
    agent = KernelNetworkAgent(model, name, iterations=10, seed=0)
    assert agent.compiled_network is not None
    checked = 0
    for seed in range(4):
        state = mid_game_state(name, players, decisions=6 + 7 * seed, seed=seed)
        seat = state.to_move
        if not isinstance(seat, int) or seat < 0:
            continue
        turn = make_turn(state, seat, True, random.Random(seed))
        compiled = agent.network_values(turn)
        np.testing.assert_allclose(
            compiled, agent.python_network_values(turn), rtol=1e-4, atol=1e-4
        )
        assert not np.allclose(compiled, compiled[0]) or len(compiled) == 1
        checked += 1
    assert checked
