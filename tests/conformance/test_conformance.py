"""Conformance of every registered game (DESIGN.md, "Conformance"), generically.

Parametrised over `spielwerk.list_games()` x every player count x several seeds x each value of
every option that has `choices` (the rest at defaults). A game added to the registry is covered
without touching this file. `SPIELWERK_TEST_GAMES=isolde,witches pytest tests/conformance` checks
only the games named.
"""

from __future__ import annotations

import json
import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import spielwerk
from spielwerk.core.conformance import (
    DEFAULT_MAX_STEPS,
    chance_kind,
    check_chance_sampling,
    check_clone_independent,
    check_conservation,
    check_illegal_actions,
    check_no_leak,
    check_replay,
    check_result,
    check_structure,
    check_views_json,
    component_multiset,
    deciders,
    games_under_test,
    option_configurations,
    play_on,
    play_random,
    player_counts,
    random_step,
    run_conformance,
)
from spielwerk.core.state import CHANCE

SEEDS = (0, 1)
MORE_SEEDS = (2, 3)
"""Every check at every step costs: two seeds a configuration run by default, two more with
`-m slow` (the 60 seeds of `test_many_seeds_end_and_replay` run always)."""
MANY_SEEDS = range(100, 160)


def _label(options: dict[str, Any]) -> str:
    return ",".join(f"{k}={v}" for k, v in sorted(options.items())) or "defaults"


def _configs() -> list[tuple[str, dict[str, Any], int]]:
    """(game, options, players) for every game, option choice and player count."""
    configs = []
    for name in games_under_test():
        game = spielwerk.load(name)
        for options in option_configurations(name):
            for players in player_counts(game):
                configs.append((name, options, players))
    return configs


CONFIGS = _configs()


def _params(seeds: Any, marks: Any = ()) -> list[Any]:
    return [
        pytest.param(
            name,
            options,
            players,
            seed,
            id=f"{name}-{_label(options)}-{players}p-s{seed}",
            marks=marks,
        )
        for name, options, players in CONFIGS
        for seed in seeds
    ]


def test_registry_is_not_empty() -> None:
    assert "witches" in spielwerk.list_games()
    assert len(CONFIGS) >= len({name for name, _, _ in CONFIGS})


@pytest.mark.parametrize(
    ("name", "options", "players", "seed"),
    _params(SEEDS) + _params(MORE_SEEDS, pytest.mark.slow),
)
def test_conformance(name: str, options: dict[str, Any], players: int, seed: int) -> None:
    """Every per-step check (structure, conservation, views, encoding, illegal actions, legal
    actions on clones, clone independence, replay, no leak) on one random game."""
    report = run_conformance(spielwerk.load(name, **options), players, seed, every=4)
    assert report.steps > 0
    assert report.result
    assert len(report.returns) == players
    assert report.record["result"] == report.result


@pytest.mark.parametrize(
    ("name", "options", "players"),
    [pytest.param(n, o, p, id=f"{n}-{_label(o)}-{p}p") for n, o, p in CONFIGS],
)
def test_many_seeds_end_and_replay(name: str, options: dict[str, Any], players: int) -> None:
    """Random play for many seeds never crashes, always ends within the step cap, and the
    record of each game replays to the same result."""
    game = spielwerk.load(name, **options)
    for seed in MANY_SEEDS:
        state = play_random(game, players, seed, max_steps=DEFAULT_MAX_STEPS)
        check_result(state)
        record = json.loads(json.dumps(state.to_record()))
        again = spielwerk.replay(record)
        assert again.result() == state.result()
        assert again.returns() == state.returns()


def test_seeded_games_are_reproducible() -> None:
    """A game is fully determined by its options, player count and seed (with the seeded
    default chance draws): two runs give the same record."""
    for name, options, players in CONFIGS:
        game = spielwerk.load(name, **options)
        records = []
        for _ in range(2):
            state = game.new_state(players, seed=42)
            rng = random.Random(0)
            for _ in play_on(state):
                if state.to_move == CHANCE:
                    state.apply(state.sample_chance())
                else:
                    actor = deciders(state)[0]
                    state.apply(rng.choice(state.legal_actions(actor)), player=actor)
            records.append(state.to_record())
        assert records[0] == records[1], f"{name} {options} {players}p"


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    config=st.sampled_from(CONFIGS),
    seed=st.integers(min_value=0, max_value=2**31 - 1),
    picks=st.lists(st.integers(min_value=0, max_value=2**16), min_size=1, max_size=64),
)
def test_driven_games_keep_invariants(
    config: tuple[str, dict[str, Any], int], seed: int, picks: list[int]
) -> None:
    """Games steered by a hypothesis list of choice indices (cycled; index modulo the number of
    legal actions) keep the invariants at every step and end with a replayable record."""
    name, options, players = config
    game = spielwerk.load(name, **options)
    state = game.new_state(players, seed=seed)
    baseline = component_multiset(state)
    chance = random.Random(seed)
    checks = random.Random(seed + 1)
    for step in play_on(state):
        check_structure(state)
        check_conservation(state, baseline)
        if step % 13 == 0:
            check_illegal_actions(state, checks, samples=2, each=False)
        if step % 41 == 0:
            check_views_json(state)
            check_clone_independent(state, checks)
        if state.to_move == CHANCE:
            state.apply(state.sample_chance(chance))
        else:
            movers = deciders(state)
            pick = picks[step % len(picks)]
            actor = movers[pick % len(movers)]
            legal = state.legal_actions(actor)
            state.apply(legal[pick % len(legal)], player=actor)
    check_conservation(state, baseline)
    check_result(state)
    check_replay(state)
    check_no_leak(state, checks)


@pytest.mark.parametrize(
    ("name", "players"),
    [
        pytest.param(name, players, id=f"{name}-{players}p")
        for name in games_under_test()
        for players in player_counts(spielwerk.load(name))
    ],
)
def test_chance_sampling_follows_the_listed_probabilities(name: str, players: int) -> None:
    """At every kind of chance node (deal, draw, roll, flip, event, guardian die, ...), the
    outcomes `sample_chance` draws have the frequencies `chance_outcomes()` lists: a chi-square
    test with a fixed seed (so it cannot flake) at the first three nodes of each kind in three
    random games. Seeded draws are what simulations, bots and the web use."""
    game = spielwerk.load(name)
    checked: Counter[tuple[str, ...]] = Counter()
    for seed in range(3):
        state = game.new_state(players, seed=seed)
        moves, draws = random.Random(seed), random.Random(seed + 1000)
        per_game: Counter[tuple[str, ...]] = Counter()
        for _ in play_on(state):
            if state.to_move == CHANCE:
                kind = chance_kind(state)
                if per_game[kind] < 3:
                    per_game[kind] += 1
                    check_chance_sampling(state, draws)
            random_step(state, moves)
        checked.update(per_game)
    assert checked, f"{name} reached no chance node"
