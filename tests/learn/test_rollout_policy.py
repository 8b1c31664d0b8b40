"""Learning the Witches rollout policy (`spielwerk.learn.rollout_policy`): seeded self-play
records, the maximum-likelihood fit, and the model file it writes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.kernel_network import KernelNetworkAgent
from spielwerk.agents.network import (
    ROLLOUT_WEIGHTS,
    NetworkAgent,
    initial_params,
    network_metadata,
    read_model,
    save_model,
)
from spielwerk.agents.rollouts import witches
from spielwerk.learn.rollout_policy import (
    Decisions,
    agreement,
    fit,
    main,
    record_decisions,
    write_model,
)


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    """Visit shares that are a known softmax of random features give back its weights (the
    L2 penalty pulls them in a little)."""
    rng = np.random.default_rng(0)
    truth = rng.normal(0.0, 1.0, 5)
    decisions = Decisions()
    for _ in range(3000):
        rows = rng.normal(0.0, 1.0, (int(rng.integers(2, 7)), 5))
        odds = np.exp(rows @ truth)
        decisions.features.append(rows)
        decisions.targets.append(odds / odds.sum())
    weights, _ = fit(decisions, l2=1e-6)
    assert np.allclose(weights, truth, atol=1e-3)
    assert agreement(decisions, weights) == 1.0


def test_recorded_decisions_are_seeded_and_fit_the_kernel_s_features() -> None:
    """The same seed gives the same decisions, in one process or in two."""
    runs = [record_decisions("witches", 4, 2, 30, seed=3, jobs=jobs) for jobs in (1, 2)]
    first, second = runs
    assert first.games == second.games == 2 and len(first.targets) > 40
    assert len(first.targets) == len(second.targets)
    for a, b in zip(first.features, second.features, strict=True):
        assert np.array_equal(a, b)
    for a, b in zip(first.targets, second.targets, strict=True):
        assert np.array_equal(a, b)
    for rows, shares in zip(first.features, first.targets, strict=True):
        assert rows.shape == (len(shares), witches.NUM_ROLLOUT_FEATURES)
        assert np.isclose(shares.sum(), 1.0)


def witches_base(tmp_path: Path) -> Path:
    """A small model of the compiled Witches search (blend 0.4, 1,000 iterations) to extend."""
    game = spielwerk.load("witches")
    metadata = network_metadata(game, [4], [8])
    metadata.update(search="kernel", blend=0.4, play_iterations=1000)
    base = tmp_path / "base.npz"
    save_model(base, initial_params(metadata, 0), metadata)
    return base


def test_the_written_model_plays_the_learned_rollouts_as_net(tmp_path: Path) -> None:
    base = witches_base(tmp_path)
    weights = np.linspace(-1.0, 1.0, witches.NUM_ROLLOUT_FEATURES)
    out = tmp_path / "witches.npz"
    write_model(base, out, weights, {"date": "2026-11-27", "seed": 1}, play_iterations=40)
    model = read_model(out)
    assert np.allclose(model.params[ROLLOUT_WEIGHTS], weights)
    assert model.metadata["play_tuning"]["was"]["blend"] == 0.4
    agent = make_agent(f"net:{out}", "witches", seed=0)
    assert isinstance(agent, NetworkAgent) and isinstance(agent.search, KernelNetworkAgent)
    assert agent.search.blend == 0.0 and agent.search.iterations == 40
    assert np.allclose(agent.search.search.rollout_weights, weights, atol=1e-6)


def test_weights_from_rewrites_a_policy_sharpened_with_its_record(tmp_path: Path) -> None:
    """`--weights-from` plays no game: the source's weights times `--sharpen`, the new play
    settings, the source's learning record kept and the rewrite added; a model of another
    game is refused."""
    base = witches_base(tmp_path)
    weights = np.linspace(-1.0, 1.0, witches.NUM_ROLLOUT_FEATURES)
    source = tmp_path / "learned.npz"
    write_model(base, source, weights, {"date": "2026-11-27", "seed": 7}, play_iterations=40)
    out = tmp_path / "sharp.npz"
    common = ["--base", str(base), "--play-iterations", "90", "--sharpen", "2", "--out"]
    main(["witches", "--weights-from", str(source), *common, str(out)])
    model = read_model(out)
    assert np.allclose(model.params[ROLLOUT_WEIGHTS], 2 * weights, atol=1e-6)
    learned = model.metadata["rollout_policy"]["learned"]
    assert learned["seed"] == 7 and learned["sharpen"] == 2.0
    assert learned["rewritten"]["from"] == str(source)
    assert model.metadata["play_iterations"] == 90
    with pytest.raises(SystemExit, match="no isolde rollout policy"):
        main(["isolde", "--weights-from", str(source), *common, str(tmp_path / "x.npz")])


def test_isolde_records_every_draft_picker_and_its_play() -> None:
    """Isolde (its policy in `rollouts.isolde`, a simultaneous draft): every seat picking in a
    draft step is recorded on its own, with the pick features; the plays with the board
    features; and the run is seeded."""
    from spielwerk.agents.rollouts import isolde

    runs = [record_decisions("isolde", 3, 1, 8, seed=2) for _ in range(2)]
    first, second = runs
    for a, b in zip(first.features, second.features, strict=True):
        assert np.array_equal(a, b)
    keep = isolde.F_KEEP
    picks = [rows for rows in first.features if rows[:, keep + 2].any()]
    plays = [rows for rows in first.features if rows[:, 5].any()]
    # 6 rounds x 3 seats x the picks with a choice (of 5, 4, 3 and 2 cards: at most 4).
    assert 36 <= len(picks) <= 6 * 3 * 4
    assert len(plays) >= 6 * 3 * 2
    for rows, shares in zip(first.features, first.targets, strict=True):
        assert rows.shape == (len(shares), isolde.NUM_ROLLOUT_FEATURES)
        assert np.isclose(shares.sum(), 1.0)
