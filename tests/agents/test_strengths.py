"""The lobby's named strengths: four per game, each a valid seat spec, offered once each."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.strengths import (
    NAMES,
    RATINGS,
    Rating,
    Strength,
    lobby_levels,
    strengths,
)


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


ROOT = Path(__file__).resolve().parents[2]


def test_the_shipped_ratings_are_the_ladder_runs_figures() -> None:
    """ratings.toml holds exactly what bench/results/ladder-GAME/ladder.json measured (no
    figure typed by hand, none left behind by a newer run)."""
    ladders = sorted(ROOT.glob("bench/results/ladder-*/ladder.json"))
    assert ladders, "no ladder run is recorded"
    for path in ladders:
        ladder = json.loads(path.read_text(encoding="utf-8"))
        shipped = RATINGS[ladder["game"]]
        measured = {r["entrant"]: r for r in ladder["ratings"]}
        assert set(shipped) == set(measured)
        for spec, rating in shipped.items():
            row = measured[spec]
            assert (rating.mu, rating.low, rating.high) == tuple(
                round(row[k], 2) for k in ("mu", "low", "high")
            )
    assert set(RATINGS) == {json.loads(p.read_text())["game"] for p in ladders}


@pytest.mark.parametrize("game", sorted(RATINGS))
def test_the_strength_names_follow_the_measured_ratings(game: str) -> None:
    """Beginner, club, expert, best in the game's own ladder: no level is rated below a
    weaker-named one with the 95% intervals apart (where they overlap, as Tainted Grail's
    heuristic and best teams that both won every game, the ladder cannot tell them apart), and
    the lobby's labels carry the ratings."""
    named = strengths(game)
    rated = [s.rating for s in named]
    assert all(r is not None for r in rated), "every named strength is rated"
    for i, weaker in enumerate(named):
        for stronger in named[i + 1 :]:
            assert weaker.rating is not None and stronger.rating is not None
            assert stronger.rating.high >= weaker.rating.low, (weaker, stronger)
    labels = {level["spec"]: level["label"] for level in lobby_levels(game)}
    for strength in named:
        assert labels[strength.spec] == strength.label()
        assert "rating" in labels[strength.spec]
