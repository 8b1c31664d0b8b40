"""Agents: legal, seeded, never holding the true state, and stronger in the expected order."""

from __future__ import annotations

import random

import pytest

import spielwerk
from spielwerk.agents import AgentSpecError, MCTSAgent, is_search_spec, make_agent
from spielwerk.agents.base import Turn, make_turn
from spielwerk.agents.configs import mcts_config
from spielwerk.agents.guidance import LeadValuation, WinValuation
from spielwerk.core.state import CHANCE
from spielwerk.sim.match import play_game
from spielwerk.sim.tournament import run_tournament


def _midgame(seed: int, steps: int = 60) -> spielwerk.State:
    state = spielwerk.load("witches").new_state(4, seed=seed)
    rng = random.Random(seed)
    taken = 0
    while taken < steps or state.to_move == CHANCE:  # stop where a seat is to move
        if state.to_move == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_actions()))
        taken += 1
    return state


@pytest.mark.parametrize("spec", ["random", "heuristic", "mcts:30", "mcts:0.05s"])
def test_every_agent_finishes_games_with_legal_actions(spec: str) -> None:
    """Each agent plays full 3-player games; `apply` would raise on any illegal choice."""
    game = spielwerk.load("witches")
    for seed in range(2):
        agents = [make_agent(spec, "witches", seed=seed * 3 + i) for i in range(3)]
        state = play_game(game, agents, seed=seed)
        assert state.is_terminal()
        # every card ends captured (scoring its value) or on the trump pile (scoring nothing)
        pile = sum(int(name.rpartition("-")[2]) for name in state.view(None)["trump_pile"])
        assert sum(state.result()["scores"]) + pile == 270


def test_turn_never_carries_the_true_state() -> None:
    """A search agent gets a resample for its seat: same view, same actions, other hidden cards."""
    state = _midgame(5)
    seat = state.to_move
    assert isinstance(seat, int)
    turn = make_turn(state, seat, with_sample=True, rng=random.Random(1))
    assert turn.sample is not None and turn.sample is not state
    assert turn.sample.view(seat) == state.view(seat)
    assert turn.legal_actions == state.legal_actions(seat)
    opponents_true = [sorted(h) for q, h in enumerate(state.hands) if q != seat]  # type: ignore[attr-defined]
    differs = 0
    for k in range(20):
        sample = make_turn(state, seat, True, random.Random(k)).sample
        assert sample is not None
        opponents = [sorted(h) for q, h in enumerate(sample.hands) if q != seat]  # type: ignore[attr-defined]
        differs += opponents != opponents_true
    assert differs >= 18  # the hidden cards are re-dealt, not copied


def test_mcts_decision_depends_only_on_the_seats_information() -> None:
    """Two true states the seat cannot tell apart give MCTS the same distribution of inputs:
    with the sample fixed, the decision is the same whatever the true hidden cards are."""
    state = _midgame(11)
    seat = state.to_move
    assert isinstance(seat, int)
    other = state.resample(seat, random.Random(99))  # another truth, same information for seat
    sample = state.resample(seat, random.Random(7))
    turn_a = Turn(seat, state.view(seat), state.legal_actions(seat), sample)
    turn_b = Turn(seat, other.view(seat), other.legal_actions(seat), sample)
    a = MCTSAgent(iterations=200, seed=3).act(turn_a)
    b = MCTSAgent(iterations=200, seed=3).act(turn_b)
    assert a == b


def test_mcts_is_reproducible_with_a_seed() -> None:
    game = spielwerk.load("witches")
    records = []
    for _ in range(2):
        agents = [MCTSAgent(iterations=40, seed=i) for i in range(3)]
        records.append(play_game(game, agents, seed=4).to_record())
    assert records[0] == records[1]


def test_mcts_stops_at_its_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    """A time budget is kept: the search checks the clock before every iteration and stops at
    the first check past its deadline. The clock here is the test's (an eighth of a second a
    reading, never the wall), so a search that overran its budget would read on and fail, not
    take long."""
    import spielwerk.agents.mcts as mcts

    readings = iter(0.125 * i for i in range(1, 101))
    monkeypatch.setattr(mcts.time, "perf_counter", lambda: next(readings))
    state = _midgame(2)
    seat = state.to_move
    assert isinstance(seat, int)
    agent = MCTSAgent(iterations=None, seconds=0.5, seed=0)
    agent.act(make_turn(state, seat, True, random.Random(0)))
    # deadline 0.125 + 0.5; readings 0.25, 0.375, 0.5 let an iteration run each, 0.625 stops it
    assert agent.last_iterations == 3


def test_mcts_takes_a_forced_move_without_searching() -> None:
    agent = MCTSAgent(iterations=10_000, seed=0)
    state = _midgame(3)
    seat = state.to_move
    assert isinstance(seat, int)
    action = state.legal_actions(seat)[0]
    turn = Turn(seat, state.view(seat), [action], state.resample(seat, random.Random(0)))
    assert agent.act(turn) == action
    assert agent.last_iterations == 0


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("alphazero", "unknown seat"),
        ("mcts:0", "bad MCTS budget"),
        ("mcts:-2s", "bad MCTS budget"),
        ("mcts:lots", "bad MCTS budget"),
        ("random:5", "unknown seat"),
    ],
)
def test_bad_seat_specs_are_refused(spec: str, message: str) -> None:
    with pytest.raises(AgentSpecError, match=message):
        make_agent(spec, "witches")


def test_strength_order_heuristic_beats_random_heads_up() -> None:
    """Over 40 two-player games with seat rotation the heuristic wins clearly more than half."""
    heuristic, rnd = run_tournament("witches", ["heuristic", "random"], games=40, seed=100)
    assert heuristic.win_rate > 0.8 > rnd.win_rate


def test_strength_order_heuristic_beats_random_at_four_players() -> None:
    """Against three random seats the heuristic wins and scores most over 40 rotated games."""
    heuristic, *randoms = run_tournament("witches", ["heuristic"] + ["random"] * 3, 40, seed=300)
    assert heuristic.win_rate > max(r.win_rate for r in randoms)
    assert heuristic.mean_score > max(r.mean_score for r in randoms)


def test_strength_order_mcts_beats_heuristic_and_random_at_four_players() -> None:
    """With a small budget MCTS already wins and scores more than the heuristic and the random
    seats over 48 rotated four-player games (the line-up of docs/agents.md): more than half of
    them, where a seat as strong as the heuristic would win about a third."""
    mcts, *others = run_tournament(
        "witches", ["mcts:200", "heuristic", "random", "random"], 48, seed=200
    )
    assert mcts.win_rate > 0.5 > max(o.win_rate for o in others)
    assert mcts.mean_score > max(o.mean_score for o in others)


def test_mcts_configs_apply_per_game_and_add_the_weighted_score() -> None:
    """`mcts` seats on Tintenherz value a finished rollout by win share + 0.02 x score; other
    games by the win share alone (`spielwerk.agents.configs.MCTS_CONFIGS`)."""
    # The Python search these configurations build (make_agent serves both games' mcts seats
    # with the same search compiled, where Numba is installed: tests/kernels).
    tuned = mcts_config("inkheart_dice").with_budget(10, None).build("inkheart_dice", 0)
    plain = mcts_config("witches").with_budget(10, None).build("witches", 0)
    assert isinstance(tuned, MCTSAgent) and isinstance(plain, MCTSAgent)
    assert isinstance(tuned.valuation, WinValuation) and isinstance(plain.valuation, WinValuation)
    assert tuned.valuation.score_weight == 0.02 and plain.valuation.score_weight == 0.0
    game = spielwerk.load("witches")
    final = play_game(game, [make_agent("random", "witches", seed=i) for i in range(3)], seed=8)
    scores, returns = final.result()["scores"], final.returns()
    weighted = WinValuation(score_weight=0.5).terminal(final)
    assert weighted == [r + 0.5 * s for r, s in zip(returns, scores, strict=True)]
    assert plain.valuation.terminal(final) == returns


def _inkspell_midgame(seed: int, decisions: int = 40) -> spielwerk.State:
    from spielwerk.bench.measure import mid_game_state

    return mid_game_state("inkspell", 3, decisions=decisions, seed=seed)


def test_a_cut_off_rollout_stops_after_its_decisions_and_values_the_score_lead() -> None:
    """With `rollout_decisions`, a rollout plays that many player decisions (chance as it
    comes) and values each seat by 0.5 + 0.5 tanh(lead over the best other / scale)."""
    import math

    state = _inkspell_midgame(3)
    start = len(state.history)
    agent = MCTSAgent(iterations=1, seed=0, rollout_decisions=7, valuation=LeadValuation(8.0))
    values = agent._rollout(state)
    played = [actor for actor, _ in state.history[start:] if actor != CHANCE]
    assert len(played) == 7 and not state.is_terminal()
    scores = state.running_scores()
    assert scores is not None
    for seat, value in enumerate(values):
        lead = scores[seat] - max(s for other, s in enumerate(scores) if other != seat)
        assert value == pytest.approx(0.5 + 0.5 * math.tanh(lead / 8.0))


def test_a_game_without_running_scores_rolls_out_to_the_end() -> None:
    """Witches keeps no running score (`running_scores()` is None): the cut-off is ignored and
    the rollout is valued by the win as usual."""
    state = _midgame(4)
    assert state.running_scores() is None
    agent = MCTSAgent(iterations=1, seed=0, rollout_decisions=3, valuation=LeadValuation())
    values = agent._rollout(state)
    assert state.is_terminal() and values == state.returns()


def test_tintenblut_mcts_cuts_rollouts_and_bad_settings_are_refused() -> None:
    # The Python search of the configuration (`mcts` is the same search compiled, where
    # Numba is installed: tests/kernels).
    agent = make_agent("mcts-py:10", "inkspell", seed=0)
    assert isinstance(agent, MCTSAgent) and isinstance(agent.valuation, LeadValuation)
    assert (agent.rollout_decisions, agent.valuation.scale) == (60, 8.0)
    with pytest.raises(ValueError, match="negative number of decisions"):
        MCTSAgent(rollout_decisions=-1)
    with pytest.raises(ValueError, match="lead scale"):
        LeadValuation(0.0)


@pytest.mark.parametrize(
    ("spec", "iterations", "seconds"),
    [("best", 370, None), ("best:0.25s", None, 0.25), ("best:300", 300, None)],
)
def test_best_is_the_games_chosen_search_at_its_or_the_given_budget(
    spec: str, iterations: int | None, seconds: float | None
) -> None:
    """Tintenblut's `best` is the shipped network's search (docs/agents.md "Bot levels") at the
    model's own 370 iterations, or at the budget the spec gives."""
    from spielwerk.agents.network import FittingNetworkAgent

    agent = make_agent(spec, "inkspell", seed=0)
    assert isinstance(agent, FittingNetworkAgent)
    search = agent.network.search
    assert (search.iterations, search.seconds) == (iterations, seconds)
    assert is_search_spec(spec) and is_search_spec("mcts:2s") and not is_search_spec("heuristic")
    with pytest.raises(AgentSpecError, match="bad MCTS budget"):
        make_agent("best:soon", "inkspell")


@pytest.mark.parametrize(
    ("game", "players"),
    [("witches", 3), ("inkheart_dice", 3), ("isolde", 3), ("inkspell", 3), ("tainted_grail", 2)],
)
def test_best_plays_whole_games_of_every_game(game: str, players: int) -> None:
    """Every game's `best` configuration (with a tiny budget) plays a game to the end against
    random seats; `apply` would raise on any illegal choice."""
    agents = [make_agent("best:3", game, seed=1)]
    agents += [make_agent("random", game, seed=seat) for seat in range(1, players)]
    state = play_game(spielwerk.load(game), agents, seed=5)
    assert state.is_terminal()


@pytest.mark.parametrize(("game", "players"), [("witches", 3), ("tainted_grail", 1)])
def test_best_plays_as_its_fallback_where_the_network_was_not_made_for_the_table(
    game: str, players: int
) -> None:
    """The shipped networks play one player count (Witches 4, Tainted Grail 2): at other
    tables `best` is the search it replaced, move for move, not a refusal or a random move."""
    from spielwerk.agents import _search
    from spielwerk.agents.configs import best_config

    fallback = best_config(game).fallback
    assert fallback is not None
    games = []
    for build in (
        lambda seat: make_agent("best:6", game, seed=seat),
        lambda seat: _search(fallback, "6", game, seat),
    ):
        played: list[tuple[int, object]] = []

        def keep(state: object, actor: int, action: object, played: list = played) -> None:
            played.append((actor, action))
            if len(played) == 30:
                raise Enough

        agents = [build(seat) for seat in range(players)]
        with pytest.raises(Enough):
            play_game(spielwerk.load(game), agents, seed=2, on_step=keep)
        games.append(played)
    assert games[0] == games[1]


class Enough(Exception):
    """Thirty steps tell two bots apart."""


def test_tainted_grail_best_is_the_shipped_network_s_search() -> None:
    """Tainted Grail's `best` is the search guided by the shipped network (its team won
    0.987 of 600 deals, the heuristic team 0.943: docs/agents.md); a budget still applies."""
    from spielwerk.agents.configs import best_config
    from spielwerk.agents.network import FittingNetworkAgent

    assert best_config("tainted_grail").network
    agent = make_agent("best", "tainted_grail", seed=0)
    assert isinstance(agent, FittingNetworkAgent) and agent.network.search.iterations == 10
    timed = make_agent("best:0.2s", "tainted_grail", seed=0)
    assert isinstance(timed, FittingNetworkAgent) and timed.network.search.seconds == 0.2
    assert "shipped network" in best_config("tainted_grail").describe()
