"""The kernel expert: the compiled search with the network judging its root's moves, as the
seat `net` of a kernel model and as the self-play expert of `spielwerk train`."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")
jax = pytest.importorskip("jax")

import spielwerk  # noqa: E402
from spielwerk.agents import make_agent  # noqa: E402
from spielwerk.agents.base import Turn, make_turn  # noqa: E402
from spielwerk.agents.kernel_mcts import KernelMCTSAgent  # noqa: E402
from spielwerk.agents.kernel_network import KernelNetworkAgent  # noqa: E402
from spielwerk.agents.network import Model, NetworkAgent, build_model, load_model  # noqa: E402
from spielwerk.bench.measure import mid_game_state  # noqa: E402
from spielwerk.learn.model import Trainer  # noqa: E402
from spielwerk.learn.selfplay import KERNEL, GameTask, SearchSettings, play_task  # noqa: E402
from spielwerk.learn.train import Run, TrainConfig, TrainingError  # noqa: E402
from spielwerk.sim.match import play_game  # noqa: E402

TinyModel = Callable[..., Model]

TINY_KERNEL = SearchSettings(iterations=60, exploration=0.7, temperature_decisions=4, blend=0.4)


def kernel_config(out: Path, **changes: object) -> TrainConfig:
    config = TrainConfig(
        game="witches",
        players=4,
        out=out,
        minutes=30,
        generations=3,
        hidden=(32,),
        expert="kernel",
        kernel_search=TINY_KERNEL,
        kernel_games_per_generation=4,
        kernel_replay_ratio=16.0,
        kernel_play_iterations=60,
        batch_size=64,
        eval_deals=1,
        eval_minutes=1000,
    )
    return replace(config, **changes)  # type: ignore[arg-type]


def test_a_kernel_run_lowers_its_loss_and_writes_a_model_net_plays(tmp_path: Path) -> None:
    """`spielwerk train witches` with the compiled expert: no warm start, every generation the
    compiled search's games; the model file says it plays with the compiled search, and the
    seat net:FILE does."""
    out = tmp_path / "witches.npz"
    run = Run(kernel_config(out))
    assert run.expert == KERNEL and run.warm_generations == 0
    first = Trainer(run.trainer.numpy_params())
    progress = run.run()
    assert progress.generation == 3 and progress.games == 12
    batch = run.buffer.batch(np.arange(run.buffer.size))
    assert run.trainer.evaluate(batch)["loss"] < 0.85 * first.evaluate(batch)["loss"]
    model = load_model("witches", out)
    assert model.metadata["search"] == "kernel" and model.metadata["play_iterations"] == 60
    seat = make_agent(f"net:{out}", "witches", seed=1)
    assert isinstance(seat, NetworkAgent) and isinstance(seat.search, KernelNetworkAgent)
    assert seat.search.blend == pytest.approx(0.4)
    game = spielwerk.load("witches")
    others = [make_agent("random", "witches", seed=s) for s in (2, 3, 4)]
    assert play_game(game, [seat, *others], seed=5).is_terminal()


def test_each_decision_gives_a_policy_sample_and_the_value_sample_after_its_move() -> None:
    """Self-play of the kernel expert: a decision's visit shares are a policy target (weight
    1); the seat's observation right after its move is a value-only sample (weight 0) of the
    same outcome."""
    task = GameTask("witches", (), 4, 7, KERNEL, 0.0, search=TINY_KERNEL)
    samples = play_task(task)
    weights = samples.policy_weights
    assert len(weights) % 2 == 0 and weights[0::2].tolist() == [1.0] * (len(weights) // 2)
    assert weights[1::2].tolist() == [0.0] * (len(weights) // 2)
    for row in range(0, len(weights), 2):
        assert sum(samples.policies[row]) == pytest.approx(1.0)
        assert samples.policies[row + 1] == [0.0] * len(samples.legal[row])
        np.testing.assert_array_equal(samples.values[row], samples.values[row + 1])
    assert not np.array_equal(samples.observations[0], samples.observations[1])


@pytest.mark.parametrize("name", ["witches", "inkheart_dice", "isolde"])
def test_the_root_judgement_reads_only_the_seat_s_view(name: str, tiny_model: TinyModel) -> None:
    """The network's value of every legal move is the same whichever state of the seat's
    information set the Turn's sample is: it reads the seat's observation tensor only."""
    game = spielwerk.load(name)
    players = 4 if name != "inkheart_dice" else 3
    agent = KernelNetworkAgent(tiny_model(game, [players]), name, iterations=20, seed=0)
    checked = 0
    for seed in range(3):
        state = mid_game_state(name, players, decisions=12 + 5 * seed, seed=seed)
        to_move = state.to_move
        if not isinstance(to_move, int | frozenset) or state.is_terminal():
            continue
        seat = min(to_move) if isinstance(to_move, frozenset) else to_move
        if seat < 0:
            continue
        legal = state.legal_actions(seat)
        values = []
        for sample_seed in (1, 2, 3):
            sample = state.resample(seat, random.Random(sample_seed))
            values.append(agent.network_values(Turn(seat, state.view(seat), legal, sample)))
        assert not np.allclose(values[0], values[0][0]) or len(legal) == 1
        np.testing.assert_array_equal(values[0], values[1])
        np.testing.assert_array_equal(values[0], values[2])
        checked += 1
    assert checked


def test_without_a_network_the_seat_is_the_plain_compiled_search() -> None:
    state = mid_game_state("witches", 4, decisions=9, seed=4)
    seat = state.to_move
    assert isinstance(seat, int)
    for seed in range(4):
        turn = make_turn(state, seat, True, random.Random(seed))
        plain = KernelMCTSAgent("witches", 200, seed=seed).act(turn)
        assert KernelNetworkAgent(None, "witches", iterations=200, seed=seed).act(turn) == plain


def test_a_kernel_model_names_its_search_and_the_expert_is_checked(
    tmp_path: Path, tiny_model: TinyModel
) -> None:
    game = spielwerk.load("inkheart_dice")
    model = tiny_model(game, [3])
    kernel = build_model({**model.metadata, "search": "kernel", "blend": 0.25}, model.params)
    agent = NetworkAgent(kernel, iterations=30, seed=0)
    assert isinstance(agent.search, KernelNetworkAgent) and agent.search.blend == 0.25
    assert agent.search.iterations == 30
    with pytest.raises(TrainingError, match="unknown expert 'alpha'"):
        Run(kernel_config(tmp_path / "x.npz", expert="alpha"))
    with pytest.raises(TrainingError, match="needs a compiled kernel of tainted_grail"):
        Run(kernel_config(tmp_path / "x.npz", game="tainted_grail", players=2))
    # Tintenblut has a kernel, but its `mcts` seat is not the compiled search: auto keeps
    # the Python search.
    auto = Run(kernel_config(tmp_path / "x.npz", game="inkspell", players=3, expert="auto"))
    assert auto.expert == "search"


def test_a_checkpoint_is_resumed_only_by_the_expert_that_made_it(tmp_path: Path) -> None:
    from spielwerk.learn.train import checkpoint_path

    out = tmp_path / "witches.npz"
    Run(kernel_config(out, generations=1)).run()
    with pytest.raises(TrainingError, match=r"made by the kernel expert.*--expert kernel"):
        Run(kernel_config(out, expert="search"), resume=checkpoint_path(out))
    assert Run(kernel_config(out, expert="auto"), resume=checkpoint_path(out)).expert == KERNEL


def test_a_run_with_a_leaf_mix_self_plays_and_writes_it(tmp_path: Path) -> None:
    """`spielwerk train inkheart_dice --leaf-mix 1`: from the second generation on, self-play
    values its leaves by the network; the model file plays the same way."""
    out = tmp_path / "ink.npz"
    config = kernel_config(
        out,
        game="inkheart_dice",
        players=3,
        generations=2,
        kernel_search=replace(TINY_KERNEL, leaf_mix=1.0),
    )
    progress = Run(config).run()
    assert progress.generation == 2
    model = load_model("inkheart_dice", out)
    assert model.metadata["leaf_mix"] == 1.0
    seat = make_agent(f"net:{out}", "inkheart_dice", seed=1)
    assert isinstance(seat, NetworkAgent) and isinstance(seat.search, KernelNetworkAgent)
    assert seat.search.search.leaf_mix == 1.0


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"leaf_mix": 1.5}, r"--leaf-mix must lie in 0\.\.1"),
        ({"game": "isolde", "players": 4}, "the isolde kernel writes no observation tensor"),
        ({"game": "inkspell", "players": 3, "expert": "auto"}, "needs the kernel expert"),
    ],
)
def test_a_leaf_mix_needs_the_kernel_expert_and_a_compiled_observation(
    tmp_path: Path, changes: dict[str, object], message: str
) -> None:
    mix = float(changes.pop("leaf_mix", 0.5))  # type: ignore[arg-type]
    config = kernel_config(
        tmp_path / "x.npz", kernel_search=replace(TINY_KERNEL, leaf_mix=mix), **changes
    )
    with pytest.raises(TrainingError, match=message):
        Run(config)
