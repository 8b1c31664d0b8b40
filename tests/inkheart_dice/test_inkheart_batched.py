"""The batched NumPy simulator plays the same game as the scalar engine: every recorded batched
game replays action by action through InkheartDiceState to the same scores and length, and
random play has the same distribution in both."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

import spielwerk
from spielwerk.core.conformance import play_random
from spielwerk.core.errors import OptionError
from spielwerk.core.state import CHANCE
from spielwerk.games.inkheart_dice.actions import (
    END_TURN,
    REROLL,
    REROLL_BOTH,
    ROLL,
    SECURE,
    STEAL,
)
from spielwerk.games.inkheart_dice.batched import play_random_batch


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize(
    "options",
    [{}, {"start_player": 1, "max_turns": 20}],
    ids=["default", "start1-max20"],
)
def test_batched_games_replay_through_the_scalar_engine(
    players: int, options: dict[str, object]
) -> None:
    """Each batched game's actions are legal, one by one, in the scalar engine (apply refuses
    anything else), end the game, and give exactly the batched scores and length."""
    game = spielwerk.load("inkheart_dice", **options)
    result = play_random_batch(game, players, 250, np.random.default_rng(players), record=True)
    assert result.actions is not None
    ends = set()
    for index, actions in enumerate(result.actions):
        state = game.new_state(players, seed=0)
        for action_id in actions:
            state.apply(action_id)
        assert state.is_terminal()
        assert state.result()["scores"] == result.scores[index].tolist()
        assert len(actions) == result.steps[index]
        decisions = sum(actor != CHANCE for actor, _ in state.history)
        assert decisions == result.decisions[index]
        ends.add(state.result()["end"])
    if options:  # the small turn limit ends some games, the empty pile others
        assert len(ends) == 2


def test_batched_checks_players_and_start_player() -> None:
    game = spielwerk.load("inkheart_dice", start_player=3)
    with pytest.raises(ValueError, match="2 to 4 players"):
        play_random_batch(game, 5, 10, np.random.default_rng(0))
    with pytest.raises(OptionError, match="start_player 3"):
        play_random_batch(game, 3, 10, np.random.default_rng(0))


KINDS = ("take", "steal", "secure", "reroll", "reroll_both", "end_turn")
BOUNDS = np.array([STEAL, SECURE, REROLL, REROLL_BOTH, END_TURN, ROLL])


def kind_counts(actions: list[int]) -> list[int]:
    """How often each kind of decision (KINDS) occurs among a game's action ids."""
    kinds = np.searchsorted(BOUNDS, np.array(actions), side="right")
    counts = np.bincount(kinds, minlength=len(BOUNDS) + 1)
    return [int(counts[kind]) for kind in range(len(KINDS))]


def scalar_random_games(
    players: int, games: int
) -> tuple[list[int], list[list[int]], list[list[int]]]:
    """Decisions, scores and kind counts of `games` scalar games played as RandomAgent plays:
    decisions uniform over the legal actions, chance by `sample_chance`."""
    game = spielwerk.load("inkheart_dice")
    lengths, scores, kinds = [], [], []
    for seed in range(games):
        state = play_random(game, players, seed)
        lengths.append(sum(actor != CHANCE for actor, _ in state.history))
        scores.append(state.result()["scores"])
        kinds.append(kind_counts([action for _, action in state.history]))
    return lengths, scores, kinds


def test_batched_and_scalar_random_play_agree_in_distribution() -> None:
    """Mean number of decisions, mean score per seat and the mean number of each kind of
    decision of 2000 scalar and 8000 batched random 3-player games agree within 5 standard
    errors of their difference. A wrong legal set or probability shifts them far more: offering
    two single-die re-rolls on a double moves the re-roll counts by 15-20 standard errors,
    offering `end_turn` always moves the number of decisions by over 20."""
    players = 3
    lengths, scores, kinds = scalar_random_games(players, 2000)
    batch = play_random_batch(
        spielwerk.load("inkheart_dice"), players, 8000, np.random.default_rng(7), record=True
    )
    assert batch.actions is not None
    batch_kinds = np.array([kind_counts(actions) for actions in batch.actions])

    def close(a: list[float], b: np.ndarray) -> None:
        error = (statistics.variance(a) / len(a) + float(np.var(b, ddof=1)) / len(b)) ** 0.5
        assert abs(statistics.fmean(a) - float(b.mean())) <= 5 * error + 1e-9

    close([float(x) for x in lengths], batch.decisions)
    for seat in range(players):
        close([float(s[seat]) for s in scores], batch.scores[:, seat])
    for kind in range(len(KINDS)):
        close([float(k[kind]) for k in kinds], batch_kinds[:, kind])
