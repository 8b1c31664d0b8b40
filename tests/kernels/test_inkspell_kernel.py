"""The Tintenblut kernel plays exactly the games of the Python engine (`state.py`).

Each seeded game is stepped in both engines side by side with the same actions (chance
outcomes drawn by the engine's `sample_chance_id`, decisions uniform from the seed): at every
step the kernel must have the same seat (or chance, or the end) to move, list the same legal
actions in the same order and have the same scores, and end with the same returns. A third
of the games switch to the kernel array converted from the scalar state at a random step
(`from_state`, which searches use), which must play on identically. The kernel's own random
games replay through the checked `apply` of the engine. States random play seldom reaches (an
empty supply, a seat holding every advantage card) are made by editing engine states, and
every legal action is applied in both.

The default run covers every player count and three `max_rounds` options with 270 games; the
`slow` run plays 10,000.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from itertools import product
from typing import Any

import numpy as np
import pytest

import spielwerk
from spielwerk.core.conformance import DEFAULT_MAX_STEPS
from spielwerk.core.kernel_ops import generator, uniform

ink = pytest.importorskip("spielwerk.games.inkspell.kernel", reason="needs numba")

OPTIONS: list[dict[str, Any]] = [{}, {"max_rounds": 3}, {"max_rounds": 9}]
"""The default, and short limits, so games also end by the round limit and its villain draw."""
PLAYERS = (2, 3, 4)
SEEDS_PER_CASE = 30
"""Default run: games per (player count, option set): 270 games."""


def cases() -> list[tuple[int, Mapping[str, Any]]]:
    return [(players, options) for players in PLAYERS for options in OPTIONS]


def kernel_scores(s: np.ndarray, players: int) -> list[int]:
    out = np.zeros(ink.SEATS, dtype=np.float64)
    ink.scores(s, out)
    return [int(v) for v in out[:players]]


def play_lockstep(players: int, options: Mapping[str, Any], seed: int) -> int:
    """One seeded game in both engines; returns its number of steps."""
    game = spielwerk.load("inkspell", **options)
    state = game.new_state(players, seed=seed)
    s = ink.initial(game, players)
    rng = random.Random(seed)
    switch_at = rng.randrange(400) if seed % 3 == 0 else -1
    out = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    steps = 0
    while True:
        assert steps < DEFAULT_MAX_STEPS, f"{players}p seed {seed}: no end in {steps} steps"
        if steps == switch_at:
            s = ink.from_state(state)
        to_move = state.to_move
        assert s[ink.TO_MOVE] == to_move, (seed, steps, s[ink.TO_MOVE], to_move)
        ids = [] if state.is_terminal() else state.legal_ids()
        count = ink.legal(s, out)
        assert out[:count].tolist() == ids, (seed, steps, out[:count].tolist(), ids)
        assert kernel_scores(s, players) == list(state.scores), (seed, steps)
        if state.is_terminal():
            break
        action = state.sample_chance_id(rng) if to_move == spielwerk.CHANCE else rng.choice(ids)
        state.apply_trusted(action, to_move)
        ink.apply(s, action)
        steps += 1
    returns = np.zeros(ink.SEATS)
    ink.returns(s, returns)
    assert returns[:players].tolist() == state.returns()
    assert s[ink.STEP_COUNT] == len(state.history)
    return steps


def test_kernel_and_engine_agree_step_by_step() -> None:
    """Every player count and option set, a few dozen seeded games each (module doc)."""
    for players, options in cases():
        for seed in range(SEEDS_PER_CASE):
            play_lockstep(players, options, seed)


@pytest.mark.slow
def test_kernel_and_engine_agree_over_ten_thousand_games() -> None:
    all_cases = cases()
    for seed in range(10_000):
        players, options = all_cases[seed % len(all_cases)]
        play_lockstep(players, options, 1_000_000 + seed)


def test_converted_state_matches_the_engine_everywhere() -> None:
    """`from_state` of every state of some games is the array the kernel reached itself."""
    game = spielwerk.load("inkspell")
    for players in PLAYERS:
        state = game.new_state(players, seed=players)
        s = ink.initial(game, players)
        rng = random.Random(players)
        while not state.is_terminal():
            assert ink.from_state(state).tolist() == s.tolist()
            action = (
                state.sample_chance_id(rng)
                if state.to_move == spielwerk.CHANCE
                else rng.choice(state.legal_ids())
            )
            state.apply_trusted(action, state.to_move)
            ink.apply(s, action)


def test_kernel_random_games_replay_through_the_engine() -> None:
    """The kernel's own random games (its chance draws and uniform choices) replay action by
    action through the checked `apply` of the scalar engine to the same final scores."""
    for players, options in cases():
        game = spielwerk.load("inkspell", **options)
        rng = generator(players)
        for _ in range(4):  # per case; the lockstep test's -m slow run plays 10,000 games
            s = ink.initial(game, players)
            actions = np.empty(ink.max_game_steps(game), dtype=np.int64)
            steps = ink.random_game(s, actions, rng)
            state = game.new_state(players, seed=0)
            for action in actions[:steps].tolist():
                state.apply(action)
            assert state.is_terminal()
            assert kernel_scores(s, players) == list(state.scores)


def test_random_play_draws_the_legal_list_entry_its_uniform_points_at() -> None:
    """Random play draws each decision from the phase's choice mask, not from a list: at every
    decision of seeded games (every phase, player count and option set) the action it takes
    is `legal`'s entry at `int(uniform * count)` for the generator's next number, so random
    play is uniform over exactly the legal actions."""
    out = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    taken = np.empty(ink.max_game_steps(spielwerk.load("inkspell")), dtype=np.int64)
    phases: set[int] = set()
    for players, options in cases():
        game = spielwerk.load("inkspell", **options)
        rng = generator(100 + players)
        for _ in range(2):  # per case: some 400 decisions each, every phase met (asserted)
            s = ink.initial(game, players)
            while s[ink.TO_MOVE] != spielwerk.TERMINAL:
                if s[ink.TO_MOVE] == spielwerk.CHANCE:
                    ink.apply(s, ink.sample_chance(s, rng))
                    continue
                count = ink.legal(s, out)
                expected = out[int(uniform(rng.copy()) * count)]
                phases.add(int(s[ink.PHASE]))
                # one decision, then the chance steps after it up to the next decision
                ink._play_randomly(s, rng, taken, 1)
                assert taken[0] == expected
    assert phases == {ink.CHOOSE_CARD, ink.ARRIVED, ink.AFTER, ink.LOSS, ink.START_CHOICE}


def test_kernel_draws_chance_as_likely_as_the_engine() -> None:
    """From chance nodes of a game (set-up flips, advantage and villain draws), 20,000 kernel
    draws give each outcome as often as `chance_ids` says (within 5 standard errors)."""
    game = spielwerk.load("inkspell")
    state = game.new_state(3, seed=5)
    rng = random.Random(5)
    stream = generator(1)
    draws = 20_000
    phases: set[int] = set()
    while not state.is_terminal() and len(phases) < 3:
        if state.to_move == spielwerk.CHANCE and state.phase not in phases:
            phases.add(state.phase)
            s = ink.from_state(state)
            counts: dict[int, int] = {}
            for _ in range(draws):
                action = ink.sample_chance(s, stream)
                counts[action] = counts.get(action, 0) + 1
            expected = dict(state.chance_ids())
            assert set(counts) <= set(expected)
            for action, p in expected.items():
                error = np.sqrt(p * (1 - p) / draws)
                assert abs(counts.get(action, 0) / draws - p) < 5 * error + 1e-12
        action = (
            state.sample_chance_id(rng)
            if state.to_move == spielwerk.CHANCE
            else rng.choice(state.legal_ids())
        )
        state.apply_trusted(action, state.to_move)
    assert len(phases) == 3


def test_kernel_random_play_matches_the_engine_in_distribution() -> None:
    """Mean score per seat of 600 scalar and 20,000 kernel random 3-player games agree within
    5 standard errors (a wrong draw or choice probability would shift them)."""
    from spielwerk.core.conformance import play_random

    game = spielwerk.load("inkspell")
    scalar = np.array([play_random(game, 3, seed).scores for seed in range(600)], dtype=float)
    games = 20_000
    scores = np.zeros((games, 3), dtype=np.int64)
    decisions = np.zeros(games, dtype=np.int64)
    steps = np.zeros(games, dtype=np.int64)
    ink.RULES.play_batch(ink.initial(game, 3), games, 5, scores, decisions, steps)
    for seat in range(3):
        a, b = scalar[:, seat], scores[:, seat].astype(float)
        error = np.sqrt(a.var() / len(a) + b.var() / len(b))
        assert abs(a.mean() - b.mean()) < 5 * error


# ---------------------------------------------------------------------- the compiled search
def mid_game(players: int, seed: int, decisions: int) -> Any:
    """A state after `decisions` random decisions (chance as the engine draws it), or the end."""
    game = spielwerk.load("inkspell")
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    made = 0
    while not state.is_terminal() and (made < decisions or state.to_move == spielwerk.CHANCE):
        if state.to_move == spielwerk.CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), spielwerk.CHANCE)
        else:
            state.apply_trusted(rng.choice(state.legal_ids()), state.to_move)
            made += 1
    return state


def held(s: np.ndarray, seat: int) -> list[int]:
    return s[ink.HELD + seat * ink.TYPES : ink.HELD + (seat + 1) * ink.TYPES].tolist()


def test_determinization_reads_only_what_the_seat_knows() -> None:
    """The true state and engine resamples of it for the seat (`InkspellState.resample`), each
    determinized in the kernel from the same generator state, give the same array; the seat's
    own cards, every hand's size and the unseen cards as a whole stay, nothing else changes,
    and the deal varies."""
    checked = 0
    cases = ((2, 1, 60), (3, 2, 120), (4, 3, 200), (4, 4, 350))
    for (players, seed, decisions), seat in product(cases, range(4)):
        if seat >= players:
            continue
        state = mid_game(players, seed, decisions)
        base = ink.from_state(state)
        pool = base[ink.POOL : ink.POOL + ink.TYPES]
        unseen = pool + sum(np.array(held(base, q)) for q in range(players) if q != seat)
        assert any(sum(held(base, q)) for q in range(players) if q != seat)
        deals = set()
        for r in range(10):
            truth = base.copy()
            ink.determinize(truth, seat, generator(r))
            other = ink.from_state(state.resample(seat, random.Random(r)))
            ink.determinize(other, seat, generator(r))
            assert truth.tolist() == other.tolist()
            assert held(truth, seat) == held(base, seat)
            dealt = truth[ink.POOL : ink.POOL + ink.TYPES].copy()
            for q in range(players):
                assert sum(held(truth, q)) == sum(held(base, q))
                if q != seat:
                    dealt += np.array(held(truth, q))
            assert dealt.tolist() == unseen.tolist()
            rest, before = truth.copy(), base.copy()
            for array in (rest, before):
                array[ink.HELD : ink.SIZE] = 0
                array[ink.POOL : ink.POOL + ink.TYPES] = 0
            assert rest.tolist() == before.tolist()
            deals.add(tuple(truth[ink.HELD : ink.SIZE].tolist()))
            checked += 1
        assert len(deals) > 1
    assert checked == 130
    over = mid_game(3, 4, 5000)
    assert over.is_terminal()  # at the end every hand is turned up: nothing to deal
    s = ink.from_state(over)
    ink.determinize(s, 0, generator(0))
    assert s.tolist() == ink.from_state(over).tolist()


def test_determinization_deals_as_the_engine_resamples() -> None:
    """Over 4,000 deals each, an opponent's cards of each type: the kernel's determinization
    and the engine's `resample` agree in mean within 5 standard errors."""
    state = mid_game(3, 7, 150)
    seat = state.current
    opponent = (seat + 1) % 3
    base = ink.from_state(state)
    assert sum(held(base, opponent)) > 0
    stream = generator(11)
    rng = random.Random(11)
    kernel_counts, engine_counts = [], []
    for _ in range(4000):
        s = base.copy()
        ink.determinize(s, seat, stream)
        kernel_counts.append(held(s, opponent))
        engine_counts.append(held(ink.from_state(state.resample(seat, rng)), opponent))
    a, b = np.array(kernel_counts, dtype=float), np.array(engine_counts, dtype=float)
    for card in range(ink.TYPES):
        error = np.sqrt(a[:, card].var() / len(a) + b[:, card].var() / len(b)) + 1e-9
        assert abs(a[:, card].mean() - b[:, card].mean()) < 5 * error, card


def test_the_mcts_seat_is_the_compiled_search_and_plays_whole_games_legally() -> None:
    """`mcts` seats are the compiled search with the configured cut and lead scale
    (`mcts-py` the Python one); they play Tintenblut through `play_game`'s checked `apply`."""
    kernel_mcts = pytest.importorskip("spielwerk.agents.kernel_mcts")
    from spielwerk.agents import MCTSAgent, make_agent
    from spielwerk.agents.configs import mcts_config
    from spielwerk.agents.guidance import LeadValuation
    from spielwerk.sim.match import play_game

    config = mcts_config("inkspell")
    agents = [make_agent("mcts:20", "inkspell", seed=seat) for seat in range(2)]
    for agent in agents:
        assert isinstance(agent, kernel_mcts.KernelMCTSAgent)
        assert (agent.rollout_decisions, agent.lead_scale) == (
            config.rollout_decisions,
            config.lead_scale,
        )
    reference = make_agent("mcts-py:20", "inkspell", seed=0)
    assert isinstance(reference, MCTSAgent) and isinstance(reference.valuation, LeadValuation)
    assert (reference.rollout_decisions, reference.valuation.scale) == (60, 8.0)
    game = spielwerk.load("inkspell")
    state = play_game(game, [*agents, make_agent("random", "inkspell", seed=9)], seed=1)
    assert state.is_terminal()


def test_the_training_expert_of_tintenblut_stays_the_python_search() -> None:
    """`auto` picks the kernel expert where the `mcts` seat is the plain compiled search; the
    kernel expert rolls out to the end and values the win, Tintenblut's seat cuts and values
    the lead, so Tintenblut keeps the search expert."""
    from spielwerk.learn.train import KERNEL, SEARCH, resolve_expert

    assert resolve_expert("auto", "inkspell") == SEARCH
    assert resolve_expert("auto", "witches") == KERNEL


# ---------------------------------------------------------------------- the mcts seat's valuation
def test_cut_rollouts_stop_where_the_python_search_cuts() -> None:
    """`rollout_cut` plays the first actions of the same generator's full random game and
    stops at the player decision after `limit` decisions (chance drawn before it), as
    `MCTSAgent._rollout` does; the engine, replaying them, reaches the same array."""
    limit = 60
    for players, seed, decisions in ((2, 1, 40), (3, 2, 100), (4, 3, 300), (2, 5, 330)):
        state = mid_game(players, seed, decisions)
        base = ink.from_state(state)
        for r in range(5):
            cut = base.copy()
            made = ink.rollout_cut(cut, generator(r), limit)
            full = base.copy()
            actions = np.empty(ink.max_game_steps(state.game), dtype=np.int64)
            count = ink.random_game(full, actions, generator(r))
            steps = int(cut[ink.STEP_COUNT] - base[ink.STEP_COUNT])
            played = actions[:steps].tolist()
            assert made == sum(1 for a in played if a < ink.NUM_PLAYER_ACTIONS)
            replay = state.clone()
            for action in played:
                replay.apply(action)
            assert ink.from_state(replay).tolist() == cut.tolist()
            if replay.is_terminal():
                assert made <= limit and steps == count
            else:
                assert made == limit and replay.to_move != spielwerk.CHANCE


def test_lead_values_are_the_python_searchs() -> None:
    """`lead_values` equals `LeadValuation` of the engine state, mid-game and at the end."""
    from spielwerk.agents.configs import mcts_config
    from spielwerk.agents.guidance import LeadValuation

    scale = mcts_config("inkspell").lead_scale
    assert scale is not None
    valuation = LeadValuation(scale)
    out = np.zeros(ink.SEATS)
    ended = 0
    for players, seed, decisions in ((2, 1, 40), (3, 2, 100), (4, 3, 300), (3, 4, 5000)):
        state = mid_game(players, seed, decisions)
        ink.lead_values(ink.from_state(state), scale, out)
        ended += state.is_terminal()
        expected = valuation.terminal(state) if state.is_terminal() else valuation.leaf(state)
        assert expected is not None
        assert out[:players].tolist() == pytest.approx(list(expected), rel=1e-12, abs=1e-15)
    assert ended == 1


def test_rare_states_agree_after_every_legal_action() -> None:
    """States random play seldom reaches, made by editing engine states mid-game: kinds and
    provisions gone from the supply, the seat to move short of provisions or holding one
    advantage card of every type. The kernel lists the same actions, and after each of them
    its array is `from_state` of the engine's state."""
    game = spielwerk.load("inkspell")
    out = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    compared = 0
    for players in PLAYERS:
        state = game.new_state(players, seed=40 + players)
        rng = random.Random(players)
        step = 0
        while not state.is_terminal():
            step += 1
            if state.to_move != spielwerk.CHANCE and step % 5 == 0:
                variant = state.clone()
                variant.supply_tiles = [t if rng.random() < 0.4 else 0 for t in state.supply_tiles]
                if rng.random() < 0.3:
                    variant.supply_provisions = 0
                me = variant.current
                if rng.random() < 0.5:
                    variant.provisions[me] = rng.randrange(4)
                if rng.random() < 0.5 and variant.phase in (ink.CHOOSE_CARD, ink.ARRIVED):
                    variant.held[me] += tuple((0, card) for card in range(ink.TYPES))
                ids = variant.legal_ids()
                base = ink.from_state(variant)
                count = ink.legal(base, out)
                assert out[:count].tolist() == ids, (players, step)
                for action in ids:
                    after = variant.clone()
                    after.apply_trusted(action, after.to_move)
                    s = base.copy()
                    ink.apply(s, action)
                    assert s.tolist() == ink.from_state(after).tolist(), (players, step, action)
                    compared += 1
            to_move = state.to_move
            ids = state.legal_ids()
            action = state.sample_chance_id(rng) if to_move == spielwerk.CHANCE else rng.choice(ids)
            state.apply_trusted(action, to_move)
    assert compared > 500


# ---------------------------------------------------------------------- the compiled mcts seat
def one_iteration(root: np.ndarray, player: int, seed: int, limit: int, scale: float) -> Any:
    """The tree after a compiled search of one iteration from `root` (rollouts cut after
    `limit` decisions, -1: none; valued by the lead at `scale`, 0: by the returns)."""
    kernel_mcts = pytest.importorskip("spielwerk.agents.kernel_mcts")
    network = kernel_mcts.NO_NETWORK
    links = np.full((64, 5), -1, dtype=np.int64)
    links[0, kernel_mcts.VISITS] = 0
    totals = np.zeros(64)
    used = np.ones(1, dtype=np.int64)
    ran = kernel_mcts.search_kernels("inkspell").search(
        root[None, :],
        True,  # a fresh deal at the iteration
        player,
        1,
        0.7,
        0.0,
        network.weights,
        network.biases,
        network.sizes,
        0.0,
        kernel_mcts.NO_ROLLOUT_POLICY,
        links,
        totals,
        used,
        generator(seed),
        limit,
        scale,
    )
    assert ran == 1
    return links, totals


@pytest.mark.parametrize(("limit", "scale"), [(60, 8.0), (0, 8.0), (-1, 8.0), (-1, 0.0), (7, 3.0)])
def test_the_search_values_its_leaf_by_the_cut_rollout_and_the_lead(
    limit: int, scale: float
) -> None:
    """A compiled search of one iteration credits the root's child with the value of the
    leaf's rollout, drawn from the same generator by hand: the determinization, the untried
    action, `rollout_cut` (or the full `rollout`) and `lead_values` (or the returns)."""
    kernel_mcts = pytest.importorskip("spielwerk.agents.kernel_mcts")
    from spielwerk.core.kernel_ops import uniform

    out = np.empty(ink.MAX_LEGAL, dtype=np.int64)
    values = np.zeros(ink.SEATS)
    checked = 0
    for players, seed, decisions in ((2, 1, 40), (3, 2, 100), (4, 3, 300), (3, 6, 420)):
        state = mid_game(players, seed, decisions)
        if state.is_terminal():
            continue
        player = state.to_move
        root = ink.from_state(state)
        for r in range(4):
            links, totals = one_iteration(root, player, r, limit, scale)
            rng = generator(r)
            s = root.copy()
            uniform(rng)  # the root row (there is one)
            ink.determinize(s, player, rng)
            count = ink.legal(s, out)
            action = int(out[int(uniform(rng) * count)])
            ink.apply(s, action)
            if limit >= 0:
                ink.rollout_cut(s, rng, limit)
            else:
                ink.rollout(s, rng)
            if scale:
                ink.lead_values(s, scale, values)
            else:
                ink.returns(s, values)
            visits = np.zeros(count, dtype=np.int64)
            sums = np.zeros(count)
            kernel_mcts.root_statistics(links, totals, out[:count].copy(), visits, sums)
            assert visits.tolist() == [int(a == action) for a in out[:count]]
            assert sums.sum() == values[player]
            checked += 1
    assert checked >= 12


@pytest.mark.parametrize(("players", "seed", "decisions"), [(3, 2, 100), (2, 5, 60)])
def test_compiled_and_python_searches_value_leaves_alike(
    players: int, seed: int, decisions: int
) -> None:
    """The `mcts` seat's leaf values, compiled against Python (`mcts-py`): searches of one
    iteration from the same Turn (a determinization, a random untried move, a rollout cut after
    60 decisions and valued by the lead at scale 8) give the searching seat values of the same
    mean and spread (5 standard errors), each moving away from the root's own lead."""
    from spielwerk.agents import make_agent
    from spielwerk.agents.base import make_turn

    state = mid_game(players, seed, decisions)
    assert not state.is_terminal() and state.to_move != spielwerk.CHANCE
    player = state.to_move
    turn = make_turn(state, player, True, random.Random(seed))
    compiled, python = [], []
    for r in range(500):
        agent = make_agent("mcts:1", "inkspell", seed=r)
        _, sums = agent.root(turn)
        compiled.append(float(sums.sum()))
        reference = make_agent("mcts-py:1", "inkspell", seed=r)
        root = reference.search(turn)
        python.append(sum(child.total for child in root.children.values()))
    a, b = np.array(compiled), np.array(python)
    error = np.sqrt(a.var() / len(a) + b.var() / len(b))
    assert abs(a.mean() - b.mean()) < 5 * error
    assert abs(a.std() - b.std()) < 0.2 * max(a.std(), b.std())
    assert a.std() > 0.01  # the rollouts differ, so the test compares distributions
