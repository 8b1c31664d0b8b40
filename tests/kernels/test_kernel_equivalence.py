"""The compiled kernels play exactly the games of the Python engine, game by game.

Each seeded game is stepped in both engines side by side with the same choices (drawn from the
seed): at every step the kernel must list the same legal actions in the same order (chance
outcomes included, and each deciding seat's picks in Isolde's draft), have the same seat (or
chance, the end, the set of drafting seats) to move and the same scores, and end with the same
returns. Some games switch to the kernel array converted from the scalar state half-way
(`from_state`, which searches use), which must play on identically.

The default run covers every player count and every option set with a few hundred games; the
`slow` run plays 10,000 seeded games per kernel game.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

import numpy as np
import pytest

import spielwerk
from spielwerk.core.conformance import DEFAULT_MAX_STEPS
from spielwerk.core.kernel_ops import generator

pytest.importorskip("numba", reason="needs numba")

from spielwerk.core.kernel_game import SIMULTANEOUS
from spielwerk.games.kernels import KERNELS, kernel_rules

MAX_SEATS = 8
MAX_LEGAL = 128

OPTIONS: dict[str, list[dict[str, Any]]] = {
    "witches": [{}, {"wheel": "ascending", "start_player": 1}],
    "inkheart_dice": [{}, {"start_player": 1}, {"max_turns": 9}],
    "isolde": [
        {},
        {"advanced": True, "start_player": 1},
        {"advanced_start_player_tiebreak": True},
        {"advanced_isolde_setback": True, "quest_first_points": 17},
        {"advanced_reset": True},
    ],
    "inkspell": [{}, {"max_rounds": 3}],  # more: tests/kernels/test_inkspell_kernel.py
}
SEEDS_PER_CASE = {"witches": 20, "inkheart_dice": 15, "isolde": 3, "inkspell": 10}
"""Default run: games per (player count, option set)."""


def cases(name: str) -> list[tuple[int, Mapping[str, Any]]]:
    cls = spielwerk.load(name)
    return [
        (players, options)
        for players in range(cls.min_players, cls.max_players + 1)
        for options in OPTIONS[name]
        if int(options.get("start_player", 0)) < players
    ]


def kernel_scores(name: str, s: np.ndarray, players: int) -> list[int]:
    out = np.zeros(MAX_SEATS)
    kernel_rules(name).scores(s, out)
    return [int(v) for v in out[:players]]


def engine_scores(state: spielwerk.State) -> list[int]:
    scores = getattr(state, "scores")  # noqa: B009 - a list or a method, by game
    return list(scores() if callable(scores) else scores)


def play_lockstep(name: str, players: int, options: Mapping[str, Any], seed: int) -> int:
    """One seeded game in both engines; returns its number of steps."""
    game = spielwerk.load(name, **options)
    rules = kernel_rules(name)
    state = game.new_state(players, seed=seed)
    s = rules.initial(game, players)
    rng = random.Random(seed)
    switch_at = rng.randrange(200) if seed % 3 == 0 else -1
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    steps = 0
    while True:
        assert steps < DEFAULT_MAX_STEPS, f"{name} {players}p seed {seed}: no end in {steps} steps"
        if steps == switch_at:
            s = rules.from_state(state)
        to_move = state.to_move
        mover = s[rules.to_move_at]
        if isinstance(to_move, frozenset):
            assert mover == SIMULTANEOUS and rules.deciding is not None
            assert rules.deciding(s) == sum(1 << p for p in to_move)
            for seat in range(players):
                count = rules.legal(s, seat, out)
                assert out[:count].tolist() == state.legal_ids(seat), (steps, seat)
            actor = rng.choice(sorted(to_move))
            ids = state.legal_ids(actor)
        else:
            assert mover == to_move, (steps, mover, to_move)
            ids = [] if state.is_terminal() else state.legal_ids()
            count = rules.legal(s, max(to_move, 0), out)
            assert out[:count].tolist() == ids, (steps, out[:count].tolist(), ids)
            actor = to_move
        assert kernel_scores(name, s, players) == engine_scores(state), steps
        if state.is_terminal():
            break
        action = rng.choice(ids)
        state.apply_trusted(action, actor)
        rules.apply(s, action)
        steps += 1
    returns = np.zeros(MAX_SEATS)
    rules.returns(s, returns)
    assert returns[:players].tolist() == state.returns()
    return steps


@pytest.mark.parametrize("name", KERNELS)
def test_kernel_and_engine_agree_step_by_step(name: str) -> None:
    """Every player count and option set, a few seeded games each (see the module doc)."""
    for players, options in cases(name):
        for seed in range(SEEDS_PER_CASE[name]):
            play_lockstep(name, players, options, seed)


@pytest.mark.slow
@pytest.mark.parametrize("name", KERNELS)
def test_kernel_and_engine_agree_over_ten_thousand_games(name: str) -> None:
    """10,000 seeded games per game, spread over every player count and option set."""
    all_cases = cases(name)
    for seed in range(10_000):
        players, options = all_cases[seed % len(all_cases)]
        play_lockstep(name, players, options, 1_000_000 + seed)


@pytest.mark.parametrize("name", ["witches", "inkheart_dice", "isolde", "inkspell"])
def test_kernel_random_games_replay_through_the_engine(name: str) -> None:
    """The kernel's batched simulator with `record=True` (its chance draws and uniform choices)
    gives games that replay action by action through the checked `apply` of the scalar engine
    to the scores, step and decision counts it reports."""
    rules = kernel_rules(name)
    for players, options in cases(name):
        game = spielwerk.load(name, **options)
        # 4 games a case (the lockstep test's -m slow run plays 10,000)
        batch = rules.play_random_batch(game, players, 4, np.random.default_rng(players), True)
        assert batch.actions is not None and len(batch.actions) == 4
        for g, actions in enumerate(batch.actions):
            state = game.new_state(players, seed=0)
            decisions = 0
            for action in actions:
                decisions += not state.is_chance()
                to_move = state.to_move  # Isolde's draft: the kernel picks lowest seat first
                state.apply(action, min(to_move) if isinstance(to_move, frozenset) else None)
            assert state.is_terminal()
            assert batch.steps[g] == len(actions) and batch.decisions[g] == decisions
            assert batch.scores[g].tolist() == engine_scores(state)


def test_witches_kernel_random_play_matches_the_engine_in_distribution() -> None:
    """Mean score per seat of 1,000 scalar and 20,000 kernel random 4-player Witches games
    agree within 5 standard errors (a wrong draw or choice probability would shift them)."""
    from spielwerk.core.conformance import play_random

    game = spielwerk.load("witches")
    scalar = np.array([play_random(game, 4, seed).scores for seed in range(1000)], dtype=float)
    games = 20_000
    scores = np.zeros((games, 4), dtype=np.int64)
    decisions = np.zeros(games, dtype=np.int64)
    steps = np.zeros(games, dtype=np.int64)
    rules = kernel_rules("witches")
    rules.play_batch(rules.initial(game, 4), games, 5, scores, decisions, steps)
    for seat in range(4):
        a, b = scalar[:, seat], scores[:, seat].astype(float)
        error = np.sqrt(a.var() / len(a) + b.var() / len(b))
        assert abs(a.mean() - b.mean()) < 5 * error


def test_isolde_kernel_deals_a_card_as_likely_as_the_engine() -> None:
    """From mid-deal states (converted from the engine), 40,000 kernel draws of the next card
    give each kind as often as `chance_ids` says (within 5 standard errors)."""
    from spielwerk.games.isolde import kernel as isolde

    game = spielwerk.load("isolde")
    rng = random.Random(0)
    stream = generator(1)
    draws = 40_000
    for players, dealt in ((2, 0), (4, 7), (5, 24)):
        state = game.new_state(players, seed=players)
        for _ in range(dealt):
            state.apply(state.sample_chance_id(rng))
        s = isolde.from_state(state)
        counts: dict[int, int] = {}
        for _ in range(draws):
            action = isolde.sample_chance(s, stream)
            counts[action] = counts.get(action, 0) + 1
        expected = dict(state.chance_ids())
        assert set(counts) <= set(expected)
        for action, p in expected.items():
            error = np.sqrt(p * (1 - p) / draws)
            assert abs(counts.get(action, 0) / draws - p) < 5 * error, (players, action)


def test_isolde_kernel_random_play_matches_the_engine_in_distribution() -> None:
    """Mean score per seat of 600 scalar and 20,000 kernel random 4-player Isolde games agree
    within 5 standard errors (a wrong choice probability would shift them)."""
    from spielwerk.core.conformance import play_random

    game = spielwerk.load("isolde")
    players = 4
    scalar = np.array([play_random(game, players, seed).scores for seed in range(600)], dtype=float)
    games = 20_000
    scores = np.zeros((games, players), dtype=np.int64)
    decisions = np.zeros(games, dtype=np.int64)
    steps = np.zeros(games, dtype=np.int64)
    rules = kernel_rules("isolde")
    rules.play_batch(rules.initial(game, players), games, 7, scores, decisions, steps)
    for seat in range(players):
        a, b = scalar[:, seat], scores[:, seat].astype(float)
        error = np.sqrt(a.var() / len(a) + b.var() / len(b))
        assert abs(a.mean() - b.mean()) < 5 * error


def test_witches_kernel_from_state_keeps_the_cards_seen_taken_from_the_trump_pile() -> None:
    """A card taken face up from the trump pile in the refill is known to every seat (rules
    file: "the trump pile's top is taken face up"). A search converts its Turn's sample with
    `from_state`: the kernel array must keep those cards as known, so that every seat's
    observation of it is the engine's and a determinization leaves them where they are."""
    from spielwerk.core.conformance import decision_states
    from spielwerk.games.witches import kernel as witches

    game = spielwerk.load("witches")
    rules = kernel_rules("witches")
    assert rules.observe is not None
    checked = 0
    for seed in range(40):
        for state in decision_states(game, 3, seed):
            known = getattr(state, "known")  # noqa: B009 - the Witches state's field
            if not any(known):
                continue
            s = rules.from_state(state)
            for seat in range(3):
                assert int(s[witches.KNOWN + seat]) == sum(1 << c for c in known[seat])
                out = np.zeros(rules.observation_size, dtype=np.float32)
                rules.observe(s, seat, out)
                assert np.array_equal(out, np.asarray(state.observation_tensor(seat), np.float32))
            checked += 1
    assert checked > 20
