"""The learned rollout policy of the compiled Witches search (`rollouts.witches`, AlphaGo's
fast rollout policy): legal moves only, whole games to the end in lockstep with the engine,
features from the mover's information alone, and model files that carry its weights."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")

import spielwerk
from spielwerk.agents import kernel_mcts, make_agent
from spielwerk.agents.kernel_network import KernelNetworkAgent
from spielwerk.agents.network import (
    ROLLOUT_WEIGHTS,
    ModelError,
    ModelMismatch,
    NetworkAgent,
    build_model,
    initial_params,
    network_metadata,
    save_model,
)
from spielwerk.agents.rollouts import witches as policy
from spielwerk.core import conformance
from spielwerk.core.kernel_ops import generator
from spielwerk.games.witches import kernel as witches
from spielwerk.sim.match import play_game

FEATURES = policy.NUM_ROLLOUT_FEATURES
OPTIONS = [{}, {"wheel": "ascending", "start_player": 1}]


def weight_sets() -> list[np.ndarray]:
    """Sharp random weights (a policy far from uniform, so every feature steers some moves)
    and zeros (uniform play)."""
    rng = np.random.default_rng(0)
    return [rng.normal(0.0, 3.0, FEATURES), np.zeros(FEATURES)]


def decision_states(players: int, options: dict[str, object], seed: int) -> list[np.ndarray]:
    """Kernel arrays of every decision along one seeded random game of the engine."""
    game = spielwerk.load("witches", **options)
    return [witches.from_state(state) for state in conformance.decision_states(game, players, seed)]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_logits_are_the_features_dot_the_weights_over_the_legal_moves(players: int) -> None:
    """The fast one-pass logits list exactly the legal moves and equal the reference
    features' dot product with the weights."""
    ids = np.empty(witches.MAX_LEGAL, dtype=np.int64)
    logits = np.empty(witches.MAX_LEGAL)
    legal = np.empty(witches.MAX_LEGAL, dtype=np.int64)
    for options in OPTIONS:
        for seed in range(3):
            for s in decision_states(players, options, seed):
                count = witches.legal(s, legal)
                for weights in weight_sets():
                    assert policy.rollout_logits(s, weights, ids, logits) == count
                    assert sorted(ids[:count].tolist()) == sorted(legal[:count].tolist())
                    features = np.zeros((count, FEATURES))
                    policy.rollout_features(s, ids[:count].copy(), features)
                    assert np.allclose(features @ weights, logits[:count])


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_policy_games_play_legally_to_the_end_in_lockstep_with_the_engine(players: int) -> None:
    """Whole games played by the rollout policy from the deal (its chance draws included):
    replayed through the engine's checked `apply` and a fresh kernel array side by side, every
    action is legal, and the seat to move, the legal moves and the scores agree at every step
    and at the end."""
    legal = np.empty(witches.MAX_LEGAL, dtype=np.int64)
    for options in OPTIONS:
        if int(str(options.get("start_player", 0))) >= players:
            continue
        game = spielwerk.load("witches", **options)
        rng = generator(players)
        for weights in weight_sets():
            for _ in range(3):  # per option set and weights, at every player count
                played = witches.initial(game, players)
                actions = np.empty(witches.max_game_steps(game), dtype=np.int64)
                steps = policy.policy_game(played, weights, actions, rng)
                state = game.new_state(players, seed=0)
                s = witches.initial(game, players)
                for action in actions[:steps].tolist():
                    assert s[witches.TO_MOVE] == state.to_move
                    if not state.is_chance():
                        count = witches.legal(s, legal)
                        assert legal[:count].tolist() == state.legal_ids()
                        assert action in state.legal_ids()
                    state.apply(action)  # the engine's checked apply: IllegalAction if not
                    witches.apply(s, action)
                    assert witches.RULES.final_scores(s).tolist() == list(state.scores)
                assert state.is_terminal() and s[witches.TO_MOVE] == spielwerk.TERMINAL
                assert witches.RULES.final_scores(played).tolist() == list(state.scores)


def test_the_rollout_policy_in_the_search_plays_whole_games_legally() -> None:
    """The compiled search with the policy rollout (every seat) plays seeded games to the end
    through the engine, whose `apply` checks every move."""
    game = spielwerk.load("witches")
    for players in (3, 4):
        agents = [
            kernel_mcts.KernelMCTSAgent(
                "witches", iterations=60, seed=p, rollout_weights=weight_sets()[0]
            )
            for p in range(players)
        ]
        assert play_game(game, agents, seed=players).is_terminal()


def test_features_read_only_what_the_mover_may_know() -> None:
    """Dealing afresh everything the mover has not seen (the pile and the others' face-down
    cards: `determinize`) changes none of the mover's features or logits."""
    ids = np.empty(witches.MAX_LEGAL, dtype=np.int64)
    rng = generator(7)
    for options in OPTIONS:
        for seed in range(4):
            for s in decision_states(4, options, seed):
                count = witches.legal(s, ids)
                before = np.zeros((count, FEATURES))
                policy.rollout_features(s, ids[:count].copy(), before)
                mover = int(s[witches.TO_MOVE])
                for _ in range(3):
                    other = s.copy()
                    witches.determinize(other, mover, rng)
                    after = np.zeros((count, FEATURES))
                    policy.rollout_features(other, ids[:count].copy(), after)
                    assert np.array_equal(before, after)


def rollout_model(
    features: list[str] | None = None, weights: np.ndarray | None = None
) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """Metadata and arrays of a small Witches model that rolls out with a learned policy."""
    game = spielwerk.load("witches")
    metadata = network_metadata(game, [4], [8])
    metadata.update(search="kernel", blend=0.0, leaf_mix=0.0, play_iterations=30)
    names = list(policy.ROLLOUT_FEATURES) if features is None else features
    metadata["rollout_policy"] = {"features": names}
    params = initial_params(metadata, 0)
    params[ROLLOUT_WEIGHTS] = weight_sets()[0].astype(np.float32) if weights is None else weights
    return metadata, params


def test_a_model_with_rollout_weights_plays_them_as_the_seat_net(tmp_path: Path) -> None:
    metadata, params = rollout_model()
    path = tmp_path / "witches.npz"
    save_model(path, params, metadata)
    agent = make_agent(f"net:{path}", "witches", seed=0)
    assert isinstance(agent, NetworkAgent)
    search = agent.search
    assert isinstance(search, KernelNetworkAgent)
    assert np.allclose(search.search.rollout_weights, params[ROLLOUT_WEIGHTS])
    assert play_game(
        spielwerk.load("witches"), [agent, *(make_agent("random", "witches", 1),) * 3], seed=1
    ).is_terminal()


def test_rollout_weights_that_do_not_fit_are_refused_with_a_clear_error(tmp_path: Path) -> None:
    # Other features than the kernel computes (a kernel changed since learning): mismatch.
    renamed = [*policy.ROLLOUT_FEATURES[:-1], "something_else"]
    metadata, params = rollout_model(features=renamed)
    path = tmp_path / "renamed.npz"
    save_model(path, params, metadata)
    with pytest.raises(ModelMismatch, match="learn it again"):
        make_agent(f"net:{path}", "witches", seed=0)
    # Weights of the wrong length for the features the file names.
    metadata, params = rollout_model(weights=np.zeros(FEATURES + 1, dtype=np.float32))
    with pytest.raises(ModelError, match="rollout/w"):
        build_model(metadata, params)
    # A rollout policy without its features.
    metadata, params = rollout_model()
    metadata["rollout_policy"] = {}
    with pytest.raises(ModelError, match="without its features"):
        build_model(metadata, params)
    # Not finite.
    metadata, params = rollout_model(weights=np.full(FEATURES, np.nan, dtype=np.float32))
    with pytest.raises(ModelError, match="not all finite"):
        build_model(metadata, params)
    # A game without a compiled rollout policy, and a wrong shape given directly.
    with pytest.raises(ValueError, match="no compiled rollout policy"):
        kernel_mcts.KernelMCTSAgent("inkheart_dice", rollout_weights=np.zeros(FEATURES))
    with pytest.raises(ValueError, match="one per feature"):
        kernel_mcts.KernelMCTSAgent("witches", rollout_weights=np.zeros(3))
