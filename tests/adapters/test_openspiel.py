"""OpenSpiel registration: every game loads by name, passes OpenSpiel's random simulation test,
and OpenSpiel's MCTS and ISMCTS bots play it."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import spielwerk
from spielwerk.adapters.openspiel import PerfectRecall, register
from spielwerk.core.conformance import games_under_test, play_on

NAMES = register()
GAMES = [
    pytest.param(name, count, id=f"{name}-{count}p")
    for name in games_under_test()
    for count in sorted({spielwerk.load(name).min_players, spielwerk.load(name).max_players})
]


def test_every_game_is_registered() -> None:
    assert sorted(NAMES) == sorted(f"spielwerk_{name}" for name in spielwerk.list_games())
    assert register() == NAMES  # idempotent


@pytest.mark.parametrize(("name", "players"), GAMES)
def test_random_simulation(name: str, players: int) -> None:
    game = pyspiel.load_game(f"spielwerk_{name}(players={players})")
    assert game.num_players() == players
    pyspiel.random_sim_test(game, num_sims=3, serialize=False, verbose=False)


def test_options_are_game_parameters() -> None:
    game = pyspiel.load_game("spielwerk_witches(players=3,wheel=ascending)")
    state = game.new_initial_state()
    assert state.inner.game.options["wheel"] == "ascending"
    assert game.get_parameters()["wheel"] == "ascending"


def test_observation_tensor_and_information_state() -> None:
    """The observation tensor is spielwerk's; the information state string is the seat's own
    log and does not name another seat's cards."""
    game = pyspiel.load_game("spielwerk_witches(players=4)")
    state = game.new_initial_state()
    rng = np.random.default_rng(0)
    for _ in play_on(state.inner, until=lambda s: not s.is_chance()):
        outcomes, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(int(rng.choice(outcomes, p=probs)))
    assert np.asarray(state.observation_tensor(0)) == pytest.approx(
        np.asarray(state.inner.observation_tensor(0))
    )
    own = state.inner.view(0)["hand"]
    others = state.inner.view(1)["hand"]
    info = state.information_state_string(0)

    def named(card: str) -> str:  # as the log names it: "red-7" is "Red 7"
        colour, value = card.split("-")
        return f"{colour.capitalize()} {value}"

    assert all(named(card) in info for card in own)
    assert not any(named(card) in info for card in others if card not in own)


def replayed(state: spielwerk.State, seat: int) -> str:
    """`seat`'s log replayed from the start of the game (a fresh PerfectRecall)."""
    return PerfectRecall(state).text(state, seat)


@pytest.mark.parametrize("name", games_under_test())
def test_information_state_kept_along_the_game_is_the_replayed_one(name: str) -> None:
    """The log a state keeps and extends as it moves on is, at every step and for every seat,
    the log replayed from the start of the game; a clone that goes its own way keeps its own."""
    players = spielwerk.load(name).min_players
    game = pyspiel.load_game(f"spielwerk_{name}(players={players})")
    state = game.new_initial_state()
    rng = np.random.default_rng(5)

    def advance(state: pyspiel.State) -> None:
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))

    for step in play_on(state.inner):
        seat = step % players
        assert state.information_state_string(seat) == replayed(state.inner, seat)
        if step % 7 == 3:
            branch = state.clone()
            for _ in range(3):
                if not branch.is_terminal():
                    advance(branch)
            assert branch.information_state_string(seat) == replayed(branch.inner, seat)
        advance(state)
    recall = game.make_py_observer(pyspiel.IIGObservationType(perfect_recall=True))
    for seat in range(players):
        assert state.information_state_string(seat) == replayed(state.inner, seat)
        assert recall.string_from(state, seat) == replayed(state.inner, seat)
    with pytest.raises(ValueError, match="no seat"):
        state.information_state_string(players)


def play(game: pyspiel.Game, bots: dict[int, pyspiel.Bot], seed: int) -> pyspiel.State:
    rng = np.random.default_rng(seed)
    state = game.new_initial_state()
    for _ in play_on(state.inner):
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        elif state.current_player() in bots:
            state.apply_action(bots[state.current_player()].step(state))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def test_ismcts_bot_plays_witches() -> None:
    """OpenSpiel's ISMCTS determinises through spielwerk's resample (never the true state)."""
    game = pyspiel.load_game("spielwerk_witches(players=3)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = ismcts.ISMCTSBot(
        game, evaluator, uct_c=2.0, max_simulations=20, random_state=np.random.RandomState(1)
    )
    state = play(game, {0: bot}, seed=4)
    assert sum(state.returns()) == pytest.approx(1.0)


def test_mcts_bot_plays_inkheart_dice() -> None:
    game = pyspiel.load_game("spielwerk_inkheart_dice(players=2)")
    evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(0))
    bot = mcts.MCTSBot(
        game, uct_c=2.0, max_simulations=20, evaluator=evaluator,
        random_state=np.random.RandomState(2),
    )  # fmt: skip
    state = play(game, {0: bot}, seed=5)
    assert state.is_terminal()


@pytest.mark.parametrize("name", games_under_test())
def test_information_state_tensor_is_the_seats_own(name: str) -> None:
    """Every game provides an information-state tensor (NFSP, Deep CFR): the observation tensor
    and the seat's own action counts. A state the seat cannot tell apart (a resample) gives it
    the same tensor; another seat's tensor counts only that seat's moves."""
    players = spielwerk.load(name).min_players
    game = pyspiel.load_game(f"spielwerk_{name}(players={players})")
    assert game.get_type().provides_information_state_tensor
    rng = np.random.default_rng(4)
    state = game.new_initial_state()
    decisions = 0
    for _ in play_on(state.inner):
        if decisions >= 25 and not state.is_chance_node():
            break
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
            decisions += 1
    seat = max(state.current_player(), 0)
    tensor = np.asarray(state.information_state_tensor(seat))
    assert tensor.shape == tuple(game.information_state_tensor_shape())
    size = game.observation_tensor_size()
    assert tensor[:size] == pytest.approx(np.asarray(state.observation_tensor(seat)))
    moves = sum(1 for actor, _ in state.inner.history if actor == seat)
    assert tensor[size:].sum() == moves
    other = state.resample_from_infostate(seat, random.Random(1).random)
    assert np.asarray(other.information_state_tensor(seat)) == pytest.approx(tensor)
