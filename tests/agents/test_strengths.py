"""The lobby's named strengths: four per game, each a valid seat spec, offered once each."""

from __future__ import annotations

import pytest

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.strengths import NAMES, Rating, Strength, lobby_levels, strengths


@pytest.mark.parametrize("game", spielwerk.list_games())
def test_every_game_names_four_strengths_with_valid_specs(game: str) -> None:
    named = strengths(game)
    assert [s.name for s in named] == list(NAMES)
    assert named[-1].spec == "best"
    for strength in named:
        make_agent(strength.spec, game, seed=0)  # raises on an unknown spec


@pytest.mark.parametrize("game", spielwerk.list_games())
def test_the_lobby_offers_random_and_the_heuristic_first_then_each_strength_once(
    game: str,
) -> None:
    levels = lobby_levels(game)
    specs = [level["spec"] for level in levels]
    assert specs[:2] == ["random", "heuristic"]
    assert len(specs) == len(set(specs)) == 5
    assert {s.spec for s in strengths(game)} <= set(specs)
    assert any(level["label"].startswith("Best (best)") for level in levels)


def test_a_measured_rating_shows_in_the_label() -> None:
    strength = Strength("club", "mcts:300", Rating(27.04, 25.5, 28.61))
    assert strength.label() == "Club (mcts:300), rating 27.0 [25.5-28.6]"
    assert Strength("best", "best").label() == "Best (best)"
