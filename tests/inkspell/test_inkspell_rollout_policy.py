"""The learned rollout policy of the compiled Tintenblut search (`rollouts.inkspell`, as in Witches
and Isolde): the fast logits against the reference features over exactly the legal moves,
policy games in lockstep with the engine (to the end and cut), features from the mover's own
knowledge alone, the search rolling out with it under the `mcts` seat's cut and lead, the
learner's heuristic teacher, and model files that carry the weights and the cut."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import numpy as np
import pytest

pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")

import spielwerk
from spielwerk.agents import MCTS_CONFIGS, kernel_mcts, make_agent
from spielwerk.agents.base import make_turn
from spielwerk.agents.heuristics.inkspell import InkspellHeuristic, InkspellValuation
from spielwerk.agents.kernel_network import KernelNetworkAgent
from spielwerk.agents.network import (
    ROLLOUT_WEIGHTS,
    ModelError,
    ModelMismatch,
    NetworkAgent,
    initial_params,
    network_metadata,
    read_model,
    save_model,
)
from spielwerk.agents.rollouts import inkspell as policy
from spielwerk.core.conformance import decision_states
from spielwerk.core.kernel_ops import generator
from spielwerk.games.inkspell import kernel as ink
from spielwerk.games.inkspell.actions import PASS, PLAY_ANYWHERE
from spielwerk.games.inkspell.state import CHOOSE_CARD, TINTENWELT, InkspellState
from spielwerk.learn.rollout_policy import record_decisions, write_model
from spielwerk.sim.match import play_game

FEATURES = policy.NUM_ROLLOUT_FEATURES


def weight_sets() -> list[np.ndarray]:
    """Sharp random weights (a policy far from uniform, so every feature steers some moves)
    and zeros (uniform play)."""
    rng = np.random.default_rng(0)
    return [rng.normal(0.0, 3.0, FEATURES), np.zeros(FEATURES)]


def decisions(
    players: int, seed: int, options: dict[str, object] | None = None
) -> list[InkspellState]:
    """A copy of the state at every decision of one seeded random game of the engine."""
    game = spielwerk.load("inkspell", **(options or {}))
    return cast(list[InkspellState], decision_states(game, players, seed))


def features_of(s: np.ndarray, ids: np.ndarray) -> np.ndarray:
    out = np.zeros((len(ids), FEATURES))
    policy.rollout_features(s, ids, out)
    return out


@pytest.mark.parametrize("players", [2, 3, 4])
def test_logits_are_the_features_dot_the_weights_over_the_legal_moves(players: int) -> None:
    """The fast logits (most moves worked out without a copy of the state) equal the
    reference features' dot product with the weights, move by move, at every decision of
    seeded random games (a short game too, so the last round's rules are met)."""
    legal = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    logits = np.empty(ink.MAX_LEGAL)
    scratch = policy.new_scratch()
    for options in ({}, {"max_rounds": 3}):
        for seed in range(2):
            for state in decisions(players, seed, options):
                s = ink.from_state(state)
                count = ink.legal(s, legal)
                ids = legal[:count].copy()
                assert ids.tolist() == state.legal_ids()
                rows = features_of(s, ids)
                assert np.all(np.isfinite(rows))
                for weights in weight_sets():
                    policy.rollout_logits(s, weights, ids, count, logits, *scratch)
                    assert np.allclose(rows @ weights, logits[:count]), (seed, s[ink.PHASE])


def test_features_of_a_card_are_what_the_journey_gives() -> None:
    """Spot checks against the rules at a first card choice: the journey's provisions, the
    card number, company at the destination, and the kind flags."""
    state = next(st for st in decisions(3, 0) if st.phase == CHOOSE_CARD and st.round == 1)
    s = ink.from_state(state)
    seat = int(s[ink.TO_MOVE])
    legal = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    ids = legal[: ink.legal(s, legal)].copy()
    rows = features_of(s, ids)
    here = int(s[ink.POSITION + seat])
    for action, row in zip(ids.tolist(), rows, strict=True):
        if action == PASS:
            assert row[policy.F_PASS] == 1.0 and row[policy.F_PLAY] == 0.0
            continue
        if action >= PASS:
            continue
        target = action if action < PLAY_ANYWHERE else action - PLAY_ANYWHERE
        card = action if action < PLAY_ANYWHERE else TINTENWELT
        assert row[policy.F_PLAY] == 1.0
        assert row[policy.F_TINTENWELT] == float(card == TINTENWELT)
        assert row[policy.F_JOURNEY] == pytest.approx(ink.COST_OF[here, target] / 3.0)
        assert row[policy.F_NUMBER] == pytest.approx(ink.LOCATION_NUMBERS[seat, card] / 40.0)
        others = [int(p) for q, p in enumerate(state.position) if q != seat]
        company = target in others or target == state.staubfinger
        assert row[policy.F_COMPANY] == float(company)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_policy_games_play_legally_in_lockstep_with_the_engine(players: int) -> None:
    """Games played by the rollout policy from the set-up (its chance draws included), to the
    end and cut after 40 decisions: replayed through the engine's checked `apply` beside a
    fresh kernel array, every action is legal, the legal moves and scores agree at every step,
    and the final scores are the policy game's."""
    game = spielwerk.load("inkspell")
    legal = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    rng = generator(players)
    for weights in weight_sets():
        for limit in (-1, 40):
            played = ink.initial(game, players)
            actions = np.empty(ink.max_game_steps(game), dtype=np.int64)
            steps = policy.policy_game(played, weights, actions, rng, limit)
            state = game.new_state(players, seed=0)
            s = ink.initial(game, players)
            made = 0
            for action in actions[:steps].tolist():
                if state.is_chance():
                    state.apply(action)
                else:
                    count = ink.legal(s, legal)
                    assert legal[:count].tolist() == state.legal_ids()
                    state.apply(action, int(state.to_move))  # the engine's checked apply
                    made += 1
                ink.apply(s, action)
                assert ink.RULES.final_scores(s).tolist() == list(state.scores)
            assert ink.RULES.final_scores(played).tolist() == list(state.scores)
            if limit < 0:
                assert state.is_terminal() and played[ink.TO_MOVE] == spielwerk.TERMINAL
            else:
                assert made == limit and not state.is_terminal()
                assert played[ink.TO_MOVE] >= 0  # cut at a decision


def test_features_read_only_what_the_mover_may_know() -> None:
    """Dealing afresh the advantage cards the mover has not seen (the kernel's `determinize`
    for the mover, and the engine's `resample`) changes none of its features."""
    rng = random.Random(7)
    stream = generator(7)
    legal = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    checked = 0
    for state in decisions(4, 11) + decisions(3, 12):
        s = ink.from_state(state)
        seat = int(s[ink.TO_MOVE])
        ids = legal[: ink.legal(s, legal)].copy()
        before = features_of(s, ids)
        hidden = sum(len(state.held[q]) for q in range(state.num_players) if q != seat)
        checked += int(hidden > 0)
        for _ in range(2):
            dealt = s.copy()
            ink.determinize(dealt, seat, stream)
            assert np.array_equal(features_of(dealt, ids), before)
            resampled = ink.from_state(state.resample(seat, rng))
            assert np.array_equal(features_of(resampled, ids), before)
    assert checked > 50  # other seats did hold cards the mover could not see


def test_the_search_rolls_out_with_the_policy_under_the_cut_and_the_lead() -> None:
    """The `mcts` seat's valuation (cut after 60 decisions, the lead at scale 8) with rollout
    weights: accepted, and the search plays a seeded game to the end through the engine, whose
    `apply` checks every move."""
    config = MCTS_CONFIGS["inkspell"]
    agents = [
        kernel_mcts.KernelMCTSAgent(
            "inkspell",
            iterations=10,
            seed=p,
            rollout_weights=weight_sets()[0],
            rollout_decisions=config.rollout_decisions,
            lead_scale=config.lead_scale,
        )
        for p in range(3)
    ]
    game = spielwerk.load("inkspell", max_rounds=3)
    assert play_game(game, agents, seed=3).is_terminal()
    assert agents[0].last_iterations == 10


def test_the_compiled_estimate_is_the_heuristic_s_valuation() -> None:
    """`estimate_lead_values` (a cut rollout valued by the lead in the heuristic's estimate)
    gives `InkspellValuation`'s leaf values, state by state, the last rounds included."""
    valuation = InkspellValuation(8.0)
    out = np.zeros(ink.SEATS)
    for players in (2, 3, 4):
        for state in decisions(players, 5, {"max_rounds": 4})[::3]:
            policy.estimate_lead_values(ink.from_state(state), 8.0, out)
            assert np.allclose(out[:players], valuation.leaf(state))


def test_the_heuristic_teacher_is_seeded_and_one_hot_on_the_heuristic_s_move() -> None:
    """`--teacher heuristic`: the heuristic plays every seat, and each recorded decision's
    target is one-hot on its move; the same seed gives the same record."""
    runs = [record_decisions("inkspell", 3, 1, 0, seed=4, teacher="heuristic") for _ in range(2)]
    first, second = runs
    assert first.games == 1 and len(first.targets) > 100
    for a, b in zip(first.features, second.features, strict=True):
        assert np.array_equal(a, b)
    for a, b in zip(first.targets, second.targets, strict=True):
        assert np.array_equal(a, b)
    for rows, target in zip(first.features, first.targets, strict=True):
        assert rows.shape == (len(target), FEATURES)
        assert sorted(target.tolist()) == [0.0] * (len(target) - 1) + [1.0]
    # The targets are the heuristic's moves: replay the game's first decision.
    game = spielwerk.load("inkspell")
    state = game.new_state(3, seed=4 * 1_000_003)
    chance = random.Random(4 * 1_000_003)
    while state.is_chance():
        state.apply(state.sample_chance(chance))
    seat = int(state.to_move)
    samples = random.Random((4 * 1_000_003) ^ 0x5A5A5A5A)
    turn = make_turn(state, seat, True, samples)
    chosen = InkspellHeuristic(4 * 1_000_003 * 8 + seat).act(turn)
    ids = [action.id for action in turn.legal_actions]
    assert first.targets[0][ids.index(chosen.id)] == 1.0


def small_base(tmp_path: Path) -> Path:
    """A small Tintenblut model for the PUCT search, as the shipped one is."""
    game = spielwerk.load("inkspell")
    metadata = network_metadata(game, [3], [8])
    metadata.update(exploration=1.5, play_iterations=400)
    base = tmp_path / "base.npz"
    save_model(base, initial_params(metadata, 0), metadata)
    return base


def test_the_written_model_plays_as_net_with_the_cut_and_the_lead(tmp_path: Path) -> None:
    weights = np.linspace(-1.0, 1.0, FEATURES)
    out = tmp_path / "inkspell.npz"
    learned = {"date": "2026-11-28", "seed": 1, "teacher": "heuristic"}
    write_model(small_base(tmp_path), out, weights, learned, play_iterations=12)
    model = read_model(out)
    config = MCTS_CONFIGS["inkspell"]
    assert model.metadata["rollout_decisions"] == config.rollout_decisions
    assert model.metadata["lead_scale"] == config.lead_scale
    assert model.metadata["search"] == "kernel"
    assert model.metadata["exploration"] == config.exploration  # not the PUCT base's 1.5
    assert model.metadata["rollout_policy"]["learned"]["teacher"] == "heuristic"
    agent = make_agent(f"net:{out}", "inkspell", seed=0)
    assert isinstance(agent, NetworkAgent) and isinstance(agent.search, KernelNetworkAgent)
    search = agent.search.search
    assert search.iterations == 12 and agent.search.blend == 0.0
    assert search.rollout_decisions == config.rollout_decisions
    assert search.lead_scale == config.lead_scale
    assert np.allclose(search.rollout_weights, weights, atol=1e-6)
    others = [make_agent("heuristic", "inkspell", seed) for seed in (1, 2)]
    assert play_game(spielwerk.load("inkspell"), [agent, *others], seed=1).is_terminal()


def test_a_model_may_cut_shorter_and_value_the_cut_by_the_estimate(tmp_path: Path) -> None:
    out = tmp_path / "inkspell.npz"
    weights = np.zeros(FEATURES)
    learned = {"date": "2026-11-28", "seed": 1}
    write_model(small_base(tmp_path), out, weights, learned, 12, None, 30, leaf_estimate=True)
    metadata = read_model(out).metadata
    assert metadata["rollout_decisions"] == 30 and metadata["leaf_estimate"] is True
    agent = make_agent(f"net:{out}", "inkspell", seed=0)
    assert isinstance(agent, NetworkAgent) and isinstance(agent.search, KernelNetworkAgent)
    search = agent.search.search
    assert search.rollout_decisions == 30 and search.leaf_estimate
    with pytest.raises(ValueError, match="no compiled estimate"):
        kernel_mcts.KernelMCTSAgent("witches", leaf_estimate=True)


def test_rollout_weights_with_other_features_are_refused(tmp_path: Path) -> None:
    game = spielwerk.load("inkspell")
    metadata = network_metadata(game, [3], [8])
    metadata.update(search="kernel", blend=0.0, leaf_mix=0.0, play_iterations=10)
    metadata["rollout_policy"] = {"features": [*policy.ROLLOUT_FEATURES[:-1], "something_else"]}
    params = initial_params(metadata, 0)
    params[ROLLOUT_WEIGHTS] = np.zeros(FEATURES, dtype=np.float32)
    path = tmp_path / "renamed.npz"
    save_model(path, params, metadata)
    with pytest.raises(ModelMismatch, match="learn it again"):
        make_agent(f"net:{path}", "inkspell", seed=0)
    with pytest.raises(ValueError, match="one per feature"):
        kernel_mcts.KernelMCTSAgent("inkspell", rollout_weights=np.zeros(FEATURES - 1))


def test_a_cut_that_is_not_a_number_is_refused_clearly(tmp_path: Path) -> None:
    """A model file edited by hand: a cut of "thirty" fails when the seat is made, naming the
    key, not deep inside the compiled search."""
    out = tmp_path / "inkspell.npz"
    write_model(small_base(tmp_path), out, np.zeros(FEATURES), {"date": "2026-11-28"}, 12)
    model = read_model(out)
    metadata = dict(model.metadata, rollout_decisions="thirty")
    save_model(out, dict(model.params), metadata)
    with pytest.raises(ModelError, match="rollout_decisions must be a number"):
        make_agent(f"net:{out}", "inkspell", seed=0)
