"""The batched NumPy simulator plays the same game as the scalar engine: every recorded batched
game replays action by action through WitchesState to the same scores, and random play has the
same distribution in both."""

from __future__ import annotations

import statistics

import numpy as np
import pytest

import spielwerk
from spielwerk.core.conformance import play_random
from spielwerk.core.state import CHANCE
from spielwerk.games.witches.batched import play_random_batch


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize(
    "options", [{}, {"wheel": "ascending", "start_player": 1}], ids=["default", "asc-start1"]
)
def test_batched_games_replay_through_the_scalar_engine(
    players: int, options: dict[str, object]
) -> None:
    """Each batched game's actions are legal, one by one, in the scalar engine (apply refuses
    anything else), end the game, and give exactly the batched scores and length."""
    game = spielwerk.load("witches", **options)
    result = play_random_batch(game, players, 60, np.random.default_rng(players), record=True)
    assert result.actions is not None
    for index, actions in enumerate(result.actions):
        state = game.new_state(players, seed=0)
        for action_id in actions:
            state.apply(action_id)
        assert state.is_terminal()
        assert state.result()["scores"] == result.scores[index].tolist()
        assert len(actions) == result.steps[index]
        decisions = sum(actor != CHANCE for actor, _ in state.history)
        assert decisions == result.decisions[index]


def scalar_random_games(players: int, games: int) -> tuple[list[int], list[list[int]]]:
    """Decisions and scores of `games` scalar games with uniform random decisions."""
    game = spielwerk.load("witches")
    lengths, scores = [], []
    for seed in range(games):
        state = play_random(game, players, seed)
        lengths.append(sum(actor != CHANCE for actor, _ in state.history))
        scores.append(state.result()["scores"])
    return lengths, scores


def test_batched_and_scalar_random_play_agree_in_distribution() -> None:
    """Mean game length and mean score per seat of 1500 scalar and 6000 batched random
    4-player games agree within 5 standard errors (a wrong legal set or probability would
    shift them far more)."""
    players = 4
    lengths, scores = scalar_random_games(players, 1500)
    batch = play_random_batch(spielwerk.load("witches"), players, 6000, np.random.default_rng(9))

    def close(a: list[float], b: np.ndarray) -> None:
        error = (statistics.variance(a) / len(a) + float(np.var(b, ddof=1)) / len(b)) ** 0.5
        assert abs(statistics.fmean(a) - float(b.mean())) <= 5 * error + 1e-9

    close([float(x) for x in lengths], batch.decisions)
    for seat in range(players):
        close([float(s[seat]) for s in scores], batch.scores[:, seat])
