"""The heuristic bot and the generic MCTS on Die Holde Isolde."""

from __future__ import annotations

import random

from isolde_table import deal, keep, new_game, packets_for, quiet_hands

import spielwerk
from spielwerk.agents import MCTSAgent, make_agent
from spielwerk.agents.base import make_turn
from spielwerk.sim.match import play_game


def test_heuristic_plays_whole_games_at_every_player_count() -> None:
    game = spielwerk.load("isolde", advanced=True)
    for players in range(2, 6):
        agents = [
            make_agent("heuristic", "isolde", seed) for seat, seed in enumerate(range(players))
        ]
        state = play_game(game, agents, seed=players)
        assert state.is_terminal()
        assert spielwerk.replay(state.to_record()).result() == state.result()


def test_heuristic_beats_random_players() -> None:
    """Over 24 four-player games with rotating seats the heuristic wins most of them."""
    game = spielwerk.load("isolde")
    wins = 0.0
    for number in range(24):
        seat = number % 4
        agents = [make_agent("random", "isolde", 10 * number + s) for s in range(4)]
        agents[seat] = make_agent("heuristic", "isolde", number)
        wins += play_game(game, agents, seed=number).returns()[seat]
    assert wins > 12


def test_mcts_drafts_without_seeing_a_pick_already_made() -> None:
    """At a draft step where seat 1 has picked, seat 0's search runs on resamples only: its
    determinizations give seat 1 different hidden picks, and it returns a legal pick."""
    state = new_game(2)
    hands = quiet_hands(2)
    deal(state, packets_for(state, hands))
    keep(state, 1, hands[1][0])
    turn = make_turn(state, 0, True, random.Random(0))
    assert turn.sample is not None and turn.sample is not state
    rng = random.Random(1)
    pending = {tuple(turn.determinize(rng).kept[1]) for _ in range(20)}  # type: ignore[attr-defined]
    assert len(pending) > 1
    action = MCTSAgent(iterations=60, seed=0).act(turn)
    assert action in state.legal_actions(0)
