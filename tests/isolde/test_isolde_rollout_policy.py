"""The learned rollout policy of the compiled Isolde search (`rollouts.isolde`, AlphaGo's fast
rollout policy, as in Witches): the fast logits against the reference features, legal moves
only, whole games to the end in lockstep with the engine, features from the mover's own cards
and public facts alone, and model files that carry its weights."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import numpy as np
import pytest

pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")

import spielwerk
from spielwerk.agents import kernel_mcts, make_agent
from spielwerk.agents.kernel_network import KernelNetworkAgent
from spielwerk.agents.network import (
    ROLLOUT_WEIGHTS,
    ModelMismatch,
    NetworkAgent,
    initial_params,
    network_metadata,
    save_model,
)
from spielwerk.agents.rollouts import isolde as policy
from spielwerk.core.conformance import deciders, decision_states
from spielwerk.core.kernel_ops import generator
from spielwerk.games.isolde import kernel as isolde
from spielwerk.games.isolde.state import IsoldeState
from spielwerk.games.kernels import kernel_rules
from spielwerk.sim.match import play_game

FEATURES = policy.NUM_ROLLOUT_FEATURES
OPTIONS: list[dict[str, object]] = [{}, {"advanced": "true", "start_player": 1}]


def weight_sets() -> list[np.ndarray]:
    """Sharp random weights (a policy far from uniform, so every feature steers some moves)
    and zeros (uniform play)."""
    rng = np.random.default_rng(0)
    return [rng.normal(0.0, 3.0, FEATURES), np.zeros(FEATURES)]


def decisions(
    players: int, options: dict[str, object], seed: int
) -> list[tuple[IsoldeState, list[int]]]:
    """Every decision along one seeded random game of the engine: (a copy of the state, the
    seats deciding there: all the draft's pickers at once, else the one to move)."""
    game = spielwerk.load("isolde", **options)
    states = cast(list[IsoldeState], decision_states(game, players, seed))
    return [(state, deciders(state)) for state in states]


@pytest.mark.parametrize("players", [2, 4, 5])
def test_logits_are_the_features_dot_the_weights_over_the_legal_moves(players: int) -> None:
    """The fast one-pass logits list exactly the legal moves of the seat (each draft picker
    on its own) and equal the reference features' dot product with the weights."""
    ids = np.empty(isolde.MAX_LEGAL, dtype=np.int64)
    logits = np.empty(isolde.MAX_LEGAL)
    legal = np.empty(isolde.MAX_LEGAL, dtype=np.int64)
    for options in OPTIONS:
        if int(str(options.get("start_player", 0))) >= players:
            continue
        for state, seats in decisions(players, options, seed=players):
            s = isolde.from_state(state)
            for seat in seats:
                count = isolde.legal(s, seat, legal)
                for weights in weight_sets():
                    cache = policy.new_keep_cache()
                    assert policy.rollout_logits(s, seat, weights, ids, logits, cache) == count
                    assert sorted(ids[:count].tolist()) == sorted(legal[:count].tolist())
                    features = np.zeros((count, FEATURES))
                    policy.rollout_features(s, ids[:count].copy(), features)
                    assert np.allclose(features @ weights, logits[:count])
                    # A second call reads the draft's cached gains: the same logits.
                    again = np.empty(isolde.MAX_LEGAL)
                    policy.rollout_logits(s, seat, weights, ids, again, cache)
                    assert np.array_equal(again[:count], logits[:count])


def test_features_of_a_move_are_what_it_does_on_the_board() -> None:
    """Spot checks against the rules: a first card on a board leaves the start space and
    takes the lead if no disc there is as far; the board flag names the board moved on."""
    for game_state, seats in decisions(4, {}, seed=0):
        s = isolde.from_state(game_state)
        if s[isolde.PHASE] != isolde.PLAYING or s[isolde.ROUND] != 1:
            continue
        seat = seats[0]
        ids = np.empty(isolde.MAX_LEGAL, dtype=np.int64)
        count = isolde.legal(s, seat, ids)
        features = np.zeros((count, FEATURES))
        policy.rollout_features(s, ids[:count].copy(), features)
        for action, row in zip(ids[:count].tolist(), features, strict=True):
            board = int(isolde.PLAY_BOARD[action - isolde.PLAY])
            steps = int(isolde.VALUE[isolde.PLAY_KIND[action - isolde.PLAY]])
            assert row[policy.F_BOARD : policy.F_BOARD + policy.NUM_BOARDS].argmax() == board
            assert row[5] == pytest.approx(steps / 5.0)
            if s[isolde.DIST + board * isolde.SEATS + seat] == 0:
                assert row[4] == 1.0
                others = [s[isolde.DIST + board * isolde.SEATS + p] for p in range(4) if p != seat]
                assert row[3] == (1.0 if max(others) <= steps else 0.0)
        return
    raise AssertionError("no play in round 1")


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_policy_games_play_legally_to_the_end_in_lockstep_with_the_engine(players: int) -> None:
    """Whole games played by the rollout policy from the deal (its chance draws and every
    seat's draft picks included): replayed through the engine's checked `apply` and a fresh
    kernel array side by side, every action is legal, and who is to move, the legal moves
    and the scores agree at every step and at the end."""
    legal = np.empty(isolde.MAX_LEGAL, dtype=np.int64)
    for options in OPTIONS:
        if int(str(options.get("start_player", 0))) >= players:
            continue
        game = spielwerk.load("isolde", **options)
        rng = generator(players)
        for weights in weight_sets():
            for _ in range(3):
                played = isolde.initial(game, players)
                actions = np.empty(isolde.max_game_steps(game), dtype=np.int64)
                steps = policy.policy_game(played, weights, actions, rng)
                state = game.new_state(players, seed=0)
                s = isolde.initial(game, players)
                for action in actions[:steps].tolist():
                    to_move = state.to_move
                    if state.is_chance():
                        state.apply(action)
                    else:
                        seat = int(s[isolde.TO_MOVE])
                        if isinstance(to_move, frozenset):
                            seat = (action - isolde.KEEP) // isolde.NUM_KINDS
                            assert s[isolde.DECIDING] == sum(1 << p for p in to_move)
                        else:
                            assert seat == to_move
                        count = isolde.legal(s, seat, legal)
                        assert legal[:count].tolist() == state.legal_ids(seat)
                        state.apply(action, seat)  # the engine's checked apply
                    isolde.apply(s, action)
                    assert kernel_rules("isolde").final_scores(s).tolist() == list(state.scores)
                assert state.is_terminal() and s[isolde.TO_MOVE] == spielwerk.TERMINAL
                assert kernel_rules("isolde").final_scores(played).tolist() == list(state.scores)


def test_the_rollout_policy_in_the_search_plays_whole_games_legally() -> None:
    """The compiled search with the policy rollout (every seat) plays a seeded game to the
    end through the engine, whose `apply` checks every move."""
    agents = [
        kernel_mcts.KernelMCTSAgent(
            "isolde", iterations=20, seed=p, rollout_weights=weight_sets()[0]
        )
        for p in range(3)
    ]
    assert play_game(spielwerk.load("isolde"), agents, seed=3).is_terminal()


def test_features_read_only_what_the_mover_may_know() -> None:
    """Dealing afresh everything the mover has not seen (`IsoldeState.resample` for the
    mover: the others' cards, picks and the rest of the deck) changes none of its
    features."""
    rng = random.Random(7)
    legal = np.empty(isolde.MAX_LEGAL, dtype=np.int64)
    for options in OPTIONS:
        for state, seats in decisions(4, options, seed=11):
            s = isolde.from_state(state)
            for seat in seats:
                count = isolde.legal(s, seat, legal)
                ids = legal[:count].copy()
                before = np.zeros((count, FEATURES))
                policy.rollout_features(s, ids, before)
                for _ in range(2):
                    other = isolde.from_state(state.resample(seat, rng))
                    after = np.zeros((count, FEATURES))
                    policy.rollout_features(other, ids, after)
                    assert np.array_equal(before, after)


def rollout_model(
    features: list[str] | None = None,
) -> tuple[dict[str, object], dict[str, np.ndarray]]:
    """Metadata and arrays of a small Isolde model that rolls out with a learned policy."""
    game = spielwerk.load("isolde")
    metadata = network_metadata(game, [4], [8])
    metadata.update(search="kernel", blend=0.0, leaf_mix=0.0, play_iterations=10)
    names = list(policy.ROLLOUT_FEATURES) if features is None else features
    metadata["rollout_policy"] = {"features": names}
    params = initial_params(metadata, 0)
    params[ROLLOUT_WEIGHTS] = weight_sets()[0].astype(np.float32)
    return metadata, params


def test_a_model_with_rollout_weights_plays_them_as_the_seat_net(tmp_path: Path) -> None:
    metadata, params = rollout_model()
    path = tmp_path / "isolde.npz"
    save_model(path, params, metadata)
    agent = make_agent(f"net:{path}", "isolde", seed=0)
    assert isinstance(agent, NetworkAgent)
    search = agent.search
    assert isinstance(search, KernelNetworkAgent)
    assert np.allclose(search.search.rollout_weights, params[ROLLOUT_WEIGHTS])
    randoms = [make_agent("random", "isolde", seed) for seed in (1, 2, 3)]
    assert play_game(spielwerk.load("isolde"), [agent, *randoms], seed=1).is_terminal()


def test_rollout_weights_with_other_features_are_refused(tmp_path: Path) -> None:
    # Other features than the kernel computes (a kernel changed since learning): mismatch.
    renamed = [*policy.ROLLOUT_FEATURES[:-1], "something_else"]
    metadata, params = rollout_model(features=renamed)
    path = tmp_path / "renamed.npz"
    save_model(path, params, metadata)
    with pytest.raises(ModelMismatch, match="learn it again"):
        make_agent(f"net:{path}", "isolde", seed=0)
    with pytest.raises(ValueError, match="one per feature"):
        kernel_mcts.KernelMCTSAgent("isolde", rollout_weights=np.zeros(FEATURES - 1))
