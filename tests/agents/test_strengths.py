"""The bots a player chooses from: four levels in every game, in the order of the game's own
ladder (spielwerk/agents/ratings.toml, written from the runs in bench/results/ladder-GAME by
bench/ratings_from_ladders.py), `best` the strongest seat of that ladder; bots at a table named
by seat and level in both languages."""

from __future__ import annotations

import itertools

import pytest

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.configs import best_seat
from spielwerk.agents.strengths import (
    BOT_NAMES,
    LEVELS,
    RATINGS,
    Level,
    Rating,
    bot_label,
    level_of,
    levels,
    technical,
)
from spielwerk.bench.run import usual_players
from spielwerk.core.data import read_toml
from spielwerk.sim.match import play_game

GAMES = spielwerk.list_games()


@pytest.mark.parametrize("game", GAMES)
def test_every_game_offers_the_same_four_levels_with_valid_specs(game: str) -> None:
    offered = levels(game)
    assert [level.key for level in offered] == list(LEVELS)
    assert offered[-1].spec == "best"
    assert len({level.spec for level in offered}) == 4
    for level in offered:
        make_agent(level.spec, game, seed=0)  # raises on an unknown spec


@pytest.mark.parametrize("game", GAMES)
def test_the_levels_climb_strictly_by_the_game_s_ladder(game: str) -> None:
    """Easy, medium, hard, strongest: each rated above the one before it in ratings.toml."""
    ladder = RATINGS[game]
    ratings = [ladder[level.rated_as].mu for level in levels(game)]
    assert all(low < high for low, high in itertools.pairwise(ratings)), ratings


@pytest.mark.parametrize("game", GAMES)
def test_best_is_the_strongest_seat_of_the_game_s_ladder(game: str) -> None:
    """No entrant of the ladder (the network's seat, the plain search at `best`'s time, ...)
    is rated above the seat `best` plays as."""
    ladder = RATINGS[game]
    strongest = best_seat(game)
    assert strongest in ladder, f"{game}'s ladder does not rate {strongest}, which best plays as"
    top = max(ladder, key=lambda entrant: ladder[entrant].mu)
    assert top in (strongest, f"{game} (the game)") or ladder[top].mu <= ladder[strongest].mu


@pytest.mark.parametrize("game", GAMES)
def test_the_ratings_file_names_the_run_it_comes_from(game: str) -> None:
    entry = read_toml("spielwerk.agents", "ratings.toml")[game]
    assert entry["command"].startswith(f"spielwerk ladder {game} --entrants ")
    assert entry["ladder"] == f"bench/results/ladder-{game}"
    assert entry["games"] > 0
    for level in levels(game):
        rating = RATINGS[game][level.rated_as]
        assert rating.low < rating.mu < rating.high
        assert rating.seconds is not None and rating.seconds > 0


@pytest.mark.parametrize("game", GAMES)
def test_best_plays_exactly_as_the_seat_its_ladder_rates(game: str) -> None:
    """`best` and the spec it is rated as build the same bot: at one small budget, both play
    the same game move for move (a time budget would not repeat, so iterations here)."""
    kind = best_seat(game).partition(":")[0]
    if kind == "best":
        return  # rated under its own name
    players = usual_players(game)  # the player count the shipped networks were made for
    histories = []
    for spec in ("best:12", f"{kind}:12"):
        agents = [make_agent(spec, game, seed=seat + 7) for seat in range(players)]
        played: list[object] = []

        def keep(state: object, actor: int, action: object, played: list[object] = played) -> None:
            played.append((actor, action))
            if len(played) == 40:
                raise Enough

        with pytest.raises(Enough):
            play_game(spielwerk.load(game), agents, seed=3, on_step=keep)
        histories.append(played)
    assert histories[0] == histories[1]


class Enough(Exception):
    """Forty steps are enough to tell two bots apart."""


def test_a_bot_sits_under_its_seat_s_name_and_its_level_in_both_languages() -> None:
    hard = next(level for level in levels("witches") if level.key == "hard")
    assert bot_label("witches", hard.spec, 1, "en") == "Ben (Hard bot)"
    assert bot_label("witches", hard.spec, 1, "de") == "Ben (schwerer Bot)"
    assert bot_label("witches", "best", 0, "de") == "Anna (stärkster Bot)"
    assert bot_label("witches", "random", 2, "en") == "Clara (random bot)"
    assert bot_label("witches", "mcts:777", 3, "de") == "David (Bot)"
    assert level_of("witches", "mcts:777") is None
    assert (
        len(set(BOT_NAMES))
        == len(BOT_NAMES)
        >= max(spielwerk.load(game).max_players for game in GAMES)
    )


def test_the_technical_side_is_the_spec_and_its_rating() -> None:
    level = Level("strongest", "best", "net:0.25s", Rating(31.04, 25.5, 36.61, 0.2412))
    assert technical(level, "en") == "best = net:0.25s; rating 31.0 [25.5 to 36.6]; 0.241 s a move"
    assert technical(level, "de") == (
        "best = net:0.25s; Wertung 31.0 [25.5 bis 36.6]; 0.241 s pro Zug"
    )
