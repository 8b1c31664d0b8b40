"""Training: the JAX network agrees with the NumPy one, a tiny run learns, runs are
reproducible and resumable, and `spielwerk train` writes a model that `play` seats."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

jax = pytest.importorskip("jax")

import spielwerk  # noqa: E402
from spielwerk.agents import make_agent  # noqa: E402
from spielwerk.agents.network import (  # noqa: E402
    build_model,
    initial_params,
    load_model,
    network_metadata,
    read_model,
)
from spielwerk.cli.main import app  # noqa: E402
from spielwerk.core.conformance import games_under_test, random_step  # noqa: E402
from spielwerk.learn.evaluate import HEURISTIC, NET, EvalResult, summarise  # noqa: E402
from spielwerk.learn.model import Trainer, apply  # noqa: E402
from spielwerk.learn.selfplay import SearchSettings  # noqa: E402
from spielwerk.learn.train import Run, TrainConfig, TrainingError, checkpoint_path  # noqa: E402
from spielwerk.sim.match import play_game  # noqa: E402

TINY_SEARCH = SearchSettings(iterations=8, fast_iterations=4, full_share=0.5)


def tiny_config(out: Path, **changes: object) -> TrainConfig:
    config = TrainConfig(
        game="inkheart_dice",
        players=3,
        out=out,
        minutes=30,
        generations=3,
        hidden=(32,),
        warm_generations=2,
        warm_games=6,
        games_per_generation=2,
        search=TINY_SEARCH,
        batch_size=64,
        replay_capacity=5000,
        eval_deals=1,
        eval_minutes=1000,
        expert="search",  # the PUCT expert (the kernel expert: test_kernel_expert.py)
    )
    return replace(config, **changes)  # type: ignore[arg-type]


def observations(name: str, count: int) -> np.ndarray:
    game = spielwerk.load(name)
    state = game.new_state(game.min_players, seed=1)
    rng = random.Random(1)
    rows = []
    while len(rows) < count and not state.is_terminal():
        random_step(state, rng)
        rows.append(state.observation_tensor(len(rows) % game.min_players))
    return np.asarray(rows, dtype=np.float32)


@pytest.mark.parametrize("name", games_under_test())
def test_jax_and_numpy_forward_passes_agree(name: str) -> None:
    """The network is written twice (JAX to train, NumPy to play): both copies give the same
    logits and values on real observation tensors of every game."""
    game = spielwerk.load(name)
    metadata = network_metadata(game, [game.min_players], [64, 32])
    params = initial_params(metadata, seed=7)
    params = {
        k: v + 0.05 * np.float32(np.sin(np.arange(v.size))).reshape(v.shape)
        for k, v in params.items()
    }
    model = build_model(metadata, params)
    x = observations(name, 12)
    logits, values = model.forward(x.copy())
    jax_logits, jax_values = apply({k: jax.numpy.asarray(v) for k, v in params.items()}, x)
    np.testing.assert_allclose(logits, np.asarray(jax_logits), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(values, np.asarray(jax_values), rtol=1e-4, atol=1e-4)
    for row in range(len(x)):
        one_logits, one_values = model.forward_one(x[row])
        np.testing.assert_allclose(one_logits, logits[row], rtol=1e-4, atol=1e-4)
        np.testing.assert_allclose(one_values, values[row], rtol=1e-4, atol=1e-4)


def test_a_tiny_run_lowers_its_loss_and_writes_a_loadable_model(tmp_path: Path) -> None:
    out = tmp_path / "dice.npz"
    run = Run(tiny_config(out))
    fixed = run.buffer  # filled by the run; the loss of the first weights is measured on it
    first = Trainer(run.trainer.numpy_params())
    progress = run.run()
    assert progress.generation == 3 and progress.games == 6 + 6 + 2
    batch = fixed.batch(np.arange(fixed.size))
    before, after = first.evaluate(batch)["loss"], run.trainer.evaluate(batch)["loss"]
    assert after < 0.8 * before, (before, after)
    model = load_model("inkheart_dice", out)
    assert model.metadata["training"]["generations"] == 3
    assert model.metadata["training"]["samples"] == progress.samples > 0
    assert [p["generation"] for p in model.metadata["evaluation"]] == [3]
    assert model.metadata["evaluation"][0]["vs_heuristic_games"] == 3
    game = spielwerk.load("inkheart_dice")
    agents = [make_agent(f"net:{out}:10", "inkheart_dice", seed=1)]
    agents += [make_agent("random", "inkheart_dice", seed=s) for s in (2, 3)]
    assert play_game(game, agents, seed=9).is_terminal()


def test_a_seeded_run_is_reproducible_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole = tmp_path / "whole.npz"
    Run(tiny_config(whole)).run()
    again = tmp_path / "again.npz"
    Run(tiny_config(again)).run()
    parts = tmp_path / "parts.npz"
    Run(tiny_config(parts, generations=2)).run()
    Run(tiny_config(parts), resume=checkpoint_path(parts)).run()
    reference = read_model(whole)
    for other in (again, parts):
        model = read_model(other)
        assert model.metadata["training"]["games"] == reference.metadata["training"]["games"]
        for name, array in reference.params.items():
            np.testing.assert_array_equal(model.params[name], array, err_msg=f"{other} {name}")


def test_a_checkpoint_of_another_game_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "dice.npz"
    Run(tiny_config(out, generations=1)).run()
    with pytest.raises(TrainingError, match="made with game 'inkheart_dice'"):
        Run(tiny_config(tmp_path / "w.npz", game="witches", players=4), resume=checkpoint_path(out))
    with pytest.raises(TrainingError, match="made with players 3"):
        Run(tiny_config(out, players=2), resume=checkpoint_path(out))
    with pytest.raises(TrainingError, match="not a training checkpoint"):
        Run(tiny_config(out), resume=out)


def test_train_command_writes_a_model_that_play_seats(tmp_path: Path) -> None:
    from typer.testing import CliRunner

    out = tmp_path / "Witches Model.npz"
    runner = CliRunner()
    trained = runner.invoke(
        app, ["train", "witches", "--minutes", "1", "--generations", "1", "--out", str(out)]
    )
    assert trained.exit_code == 0, trained.stderr
    assert out.is_file() and checkpoint_path(out).is_file()
    assert "Play it: spielwerk play witches --players net:" in trained.stdout
    played = runner.invoke(
        app,
        ["play", "witches", "--players", f"net:{out}:30,random,random,random", "--seed", "2"],
    )
    assert played.exit_code == 0, played.stderr
    assert "Winner" in played.stdout
    wrong = runner.invoke(app, ["play", "witches", "--players", f"net:{out},random,random"])
    assert wrong.exit_code == 2
    assert "trained for 4 players, not 3" in wrong.stderr
    bad = runner.invoke(app, ["train", "witches", "--minutes", "0"])
    assert bad.exit_code == 2 and "--minutes must be positive" in bad.stderr
    mix = runner.invoke(app, ["train", "isolde", "--leaf-mix", "1", "--out", str(out)])
    assert mix.exit_code == 2 and "isolde kernel writes no observation tensor" in mix.stderr


def test_a_cooperative_evaluation_compares_the_net_team_with_the_heuristic_team() -> None:
    """Tainted Grail's learning curve: the net team's games hold no heuristic seat, yet they
    count against the heuristic team's games on the same deals."""
    net_team = EvalResult((NET, NET), (1.0, 1.0), cooperative=True)
    lost = EvalResult((NET, NET), (0.0, 0.0), cooperative=True)
    heuristic_team = EvalResult((HEURISTIC, HEURISTIC), (0.0, 0.0), cooperative=True)
    point = summarise(
        [net_team, heuristic_team, lost, heuristic_team], [HEURISTIC] * 4, cooperative=True
    )
    assert point == {"vs_heuristic": 0.5, "vs_heuristic_games": 2, "heuristic_team": 0.0}
    rotated = [EvalResult((NET, HEURISTIC, HEURISTIC), (0.0, 1.0, 0.0), cooperative=False)]
    assert summarise(rotated, [HEURISTIC], cooperative=False) == {
        "vs_heuristic": 0.0,
        "vs_heuristic_games": 1,
    }
