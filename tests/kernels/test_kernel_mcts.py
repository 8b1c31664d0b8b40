"""The compiled information-set MCTS: the `mcts` seat of Witches, Tintenherz, Isolde and
Tintenblut."""

from __future__ import annotations

import random

import numpy as np
import pytest

import spielwerk
from spielwerk.agents import MCTSAgent, make_agent
from spielwerk.agents.base import Turn, make_turn
from spielwerk.bench.measure import mid_game_state
from spielwerk.core.kernel_ops import generator
from spielwerk.sim.match import play_game

kernel_mcts = pytest.importorskip("spielwerk.agents.kernel_mcts", reason="needs numba")
KernelMCTSAgent = kernel_mcts.KernelMCTSAgent


@pytest.mark.parametrize("name", ["witches", "inkheart_dice", "isolde", "inkspell"])
def test_mcts_seats_of_kernel_games_search_in_the_kernel(name: str) -> None:
    agent = make_agent("mcts:20", name, seed=0)
    assert isinstance(agent, KernelMCTSAgent)
    cut = (60, 8.0) if name == "inkspell" else (kernel_mcts.FULL_ROLLOUT, kernel_mcts.NO_LEAD)
    assert (agent.rollout_decisions, agent.lead_scale) == cut
    # `mcts-py` is the same configuration in Python, the compiled search's reference.
    reference = make_agent("mcts-py:20", name, seed=0)
    assert isinstance(reference, MCTSAgent) and reference.iterations == 20


def test_other_games_keep_the_python_search() -> None:
    assert isinstance(make_agent("mcts:20", "tainted_grail", seed=0), MCTSAgent)
    assert isinstance(make_agent("mcts-py", "tainted_grail", seed=0), MCTSAgent)


def test_a_config_the_kernel_cannot_compile_stays_in_python() -> None:
    """A cut without the lead (the Python search then plays on to the end), a cut in a game
    whose kernel has none, and a lead together with a score term are the Python search."""
    from spielwerk.agents import _compiled
    from spielwerk.agents.configs import SearchConfig

    assert _compiled(SearchConfig(rollout_decisions=60), "inkspell", 0) is None
    assert _compiled(SearchConfig(rollout_decisions=60, lead_scale=8.0), "witches", 0) is None
    assert _compiled(SearchConfig(lead_scale=8.0, score_weight=0.1), "inkspell", 0) is None
    lead_only = _compiled(SearchConfig(lead_scale=4.0), "inkspell", 0)
    assert isinstance(lead_only, KernelMCTSAgent)
    assert (lead_only.rollout_decisions, lead_only.lead_scale) == (kernel_mcts.FULL_ROLLOUT, 4.0)


def test_cut_and_lead_are_refused_where_the_kernel_lacks_them() -> None:
    with pytest.raises(ValueError, match="witches has no compiled cut-off"):
        KernelMCTSAgent("witches", 10, rollout_decisions=60)
    with pytest.raises(ValueError, match="isolde has no compiled lead valuation"):
        KernelMCTSAgent("isolde", 10, lead_scale=8.0)
    with pytest.raises(ValueError, match="needs the lead valuation"):
        KernelMCTSAgent("inkspell", 10, rollout_decisions=60)
    with pytest.raises(ValueError, match="negative number of decisions"):
        KernelMCTSAgent("inkspell", 10, rollout_decisions=-1, lead_scale=8.0)
    with pytest.raises(ValueError, match="lead scale must be positive"):
        KernelMCTSAgent("inkspell", 10, lead_scale=0.0)
    with pytest.raises(ValueError, match="not both"):
        KernelMCTSAgent("inkspell", 10, lead_scale=8.0, score_weight=0.1)


@pytest.mark.parametrize(
    ("name", "players"), [("witches", 3), ("inkheart_dice", 2), ("isolde", 3), ("inkspell", 3)]
)
def test_kernel_mcts_plays_whole_games_legally(name: str, players: int) -> None:
    """`play_game` applies every choice with the checked `apply`: an illegal one would raise.
    Isolde's seats decide the draft simultaneously."""
    game = spielwerk.load(name)
    agents = [make_agent("mcts:30", name, seed=seat) for seat in range(players - 1)]
    agents.append(make_agent("random", name, seed=9))
    state = play_game(game, agents, seed=1)
    assert state.is_terminal()


def test_kernel_mcts_is_reproducible_with_a_seed() -> None:
    game = spielwerk.load("witches")
    records = [
        play_game(game, [KernelMCTSAgent("witches", 40, seed=i) for i in range(3)], 4).to_record()
        for _ in range(2)
    ]
    assert records[0] == records[1]


def test_kernel_mcts_decision_depends_only_on_the_seats_information() -> None:
    """Two true states the seat cannot tell apart, the same sample: the same decision."""
    state = mid_game_state("witches", 4, decisions=14, seed=11)
    seat = state.to_move
    assert isinstance(seat, int)
    other = state.resample(seat, random.Random(99))
    sample = state.resample(seat, random.Random(7))
    turn_a = Turn(seat, state.view(seat), state.legal_actions(seat), sample)
    turn_b = Turn(seat, other.view(seat), other.legal_actions(seat), sample)
    assert KernelMCTSAgent("witches", 300, seed=3).act(turn_a) == KernelMCTSAgent(
        "witches", 300, seed=3
    ).act(turn_b)


def test_kernel_mcts_draft_pick_ignores_a_pick_already_made() -> None:
    """Isolde's draft: seat 1 has picked face down; seat 0's seeded search chooses the same
    whatever seat 1 picked (its turn's sample is drawn from seat 0's information only)."""
    chosen = set()
    base = mid_game_state("isolde", 3, decisions=0, seed=2)
    for pick in base.legal_ids(1):
        state = base.clone()
        state.apply(pick, player=1)
        turn = make_turn(state, 0, with_sample=True, rng=random.Random(5))
        agent = KernelMCTSAgent("isolde", 200, seed=1)
        chosen.add(agent.act(turn))
        assert agent.last_iterations == 200
    assert len(chosen) == 1


def test_kernel_mcts_grows_its_tree_and_keeps_to_a_time_budget() -> None:
    state = mid_game_state("witches", 4)
    seat = state.to_move
    assert isinstance(seat, int)
    turn = make_turn(state, seat, True, random.Random(0))
    big = KernelMCTSAgent("witches", 20_000, seed=0)  # more nodes than the first allocation
    assert big.act(turn) in turn.legal_actions and big.last_iterations == 20_000
    timed = KernelMCTSAgent("witches", None, seconds=0.05, seed=0)
    timed.act(turn)
    assert timed.last_iterations >= 1


def test_isolde_searches_a_pool_of_worlds_dealt_by_its_kernel() -> None:
    """Isolde's search deals `WORLD_POOL` worlds from the Turn's sample up front, in the
    kernel, one an iteration at most, and reuses them; the other kernel games deal afresh at
    every iteration from the sample alone. The pool is the sample determinized again and
    again from one generator (what the determinization keeps is tested with it)."""
    state = mid_game_state("isolde", 4, decisions=20, seed=3)
    to_move = state.to_move
    seat = min(to_move) if isinstance(to_move, frozenset) else int(to_move)
    turn = make_turn(state, seat, True, random.Random(0))
    assert turn.sample is not None
    game = kernel_mcts.KernelGame("isolde")
    assert not game.deals_each_iteration
    sample = kernel_mcts.kernel_state(turn.sample)
    worlds = game.roots(turn, None, generator(5))
    assert worlds.shape[0] == kernel_mcts.WORLD_POOL["isolde"] == game.world_pool
    assert len({w.tobytes() for w in worlds}) > 1  # dealt, not copies
    rng = generator(5)
    for w in worlds:
        again = sample.copy()
        game.rules.determinize(again, seat, rng)
        assert np.array_equal(w, again)
    assert game.roots(turn, 40, generator(5)).shape[0] == 40
    witches = mid_game_state("witches", 4, decisions=3, seed=3)
    wturn = make_turn(witches, int(witches.to_move), True, random.Random(0))
    wgame = kernel_mcts.KernelGame("witches")
    assert wgame.deals_each_iteration
    assert wgame.roots(wturn, 1000, generator(5)).shape[0] == 1


def test_kernel_mcts_beats_random_play() -> None:
    """3-player Witches, kernel mcts:500 against two random seats over 45 games (seat rotated):
    it takes far more than the third of the wins that chance would give it."""
    game = spielwerk.load("witches")
    share = 0.0
    for number in range(45):
        seat = number % 3
        agents = [make_agent("random", "witches", seed=100 * number + q) for q in range(3)]
        agents[seat] = KernelMCTSAgent("witches", 500, seed=number)
        share += play_game(game, agents, seed=number).returns()[seat]
    assert share / 45 > 0.45


def test_kernel_game_determinizes_only_what_the_seat_has_not_seen() -> None:
    """Witches: the seat's hand, the cards seen taken face up and every hand size stay; the
    other cards in hands and the pile are dealt afresh from the same cards."""
    from spielwerk.games.witches import kernel as witches

    state = mid_game_state("witches", 4, decisions=30, seed=5)
    seat = state.to_move
    assert isinstance(seat, int)
    blocks = kernel_mcts.KernelGame("witches")
    base = blocks.from_state(state)
    hands = slice(witches.HANDS, witches.HANDS + 4)
    known = slice(witches.KNOWN, witches.KNOWN + 4)
    unseen = int(base[witches.POOL])
    for q in range(4):
        if q != seat:
            unseen |= int(base[witches.HANDS + q]) & ~int(base[witches.KNOWN + q])
    changed = 0
    for _ in range(50):
        s = base.copy()
        blocks.determinize(s, seat)
        assert s[witches.HANDS + seat] == base[witches.HANDS + seat]
        assert (s[known] == base[known]).all()
        for q in range(4):
            assert bin(int(s[witches.HANDS + q])).count("1") == bin(
                int(base[witches.HANDS + q])
            ).count("1")
            assert int(s[witches.KNOWN + q]) & ~int(s[witches.HANDS + q]) == 0
        redealt = int(s[witches.POOL])
        for q in range(4):
            if q != seat:
                redealt |= int(s[witches.HANDS + q]) & ~int(s[witches.KNOWN + q])
        assert redealt == unseen
        changed += not np.array_equal(s[hands], base[hands])
        blocks.rollout(s)
        assert sum(blocks.returns(s)) == pytest.approx(1.0)
    assert changed > 40
