"""The Tintenblut heuristic bot, the generic MCTS on this game, options and the terminal text."""

from __future__ import annotations

import random

import pytest
from inkspell_table import arrange, new_game, play, public
from rich.text import Text
from typer.testing import CliRunner

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.base import make_turn
from spielwerk.agents.heuristics.inkspell import InkspellHeuristic, set_points
from spielwerk.cli.main import app
from spielwerk.core.conformance import play_on
from spielwerk.core.state import State
from spielwerk.games.inkspell import render
from spielwerk.sim.tournament import run_tournament


def choice(state: State) -> dict[str, object]:
    bot = InkspellHeuristic(0)
    player = state.to_move
    assert isinstance(player, int)
    return bot.act(make_turn(state, player, False, random.Random(0))).to_json()


def test_heuristic_is_registered() -> None:
    assert make_agent("heuristic", "inkspell").name == "heuristic"


def test_set_points_count_layers_of_different_kinds() -> None:
    """4 different kinds are 7 points, 3 are 4, 2 are 2 (rulebook); MMSSKE = MSKE + MS."""
    assert set_points([2, 2, 1, 1]) == 7 + 2
    assert set_points([3, 0, 0, 0]) == 0


def test_heuristic_converts_the_rulebook_example_the_best_way() -> None:
    """The conversion example: in Ombra at 8 with MMSSKEE, the 4-set first (7 spaces)."""
    state = new_game(["ombra", "grenze"])
    arrange(state, 0, tiles="SSKEE", score=8, position="hof", provisions=0)
    arrange(state, 1, position="ombra")
    play(state, "ombra")  # the shared reward is taken at once: 2 Mut + 1 provision
    assert public(state)["phase"] == "exchange_convert"
    assert choice(state) == {"type": "convert", "tiles": "MSKE"}
    state.apply(choice(state))
    assert public(state)["scores"][0] == 15
    # The 3-set would enter blue: never offered, never chosen.
    assert choice(state) in (
        {"type": "end_turn"},
        *[{"type": "convert", "tiles": t} for t in ("MS", "ME", "SE")],
    )


def test_heuristic_converts_a_big_pile_instead_of_hoarding_it() -> None:
    """In a castle at 8 with 23 tiles the bot converts (a 4-set first): a pile of tiles counted
    at the points it could make once looked as good as making them, and a bot sat on 40 tiles
    for twenty rounds (heuristic, random, random, seed 20)."""
    state = new_game(["ombra", "grenze"])
    arrange(state, 0, tiles="MMMMMSSSSSSKKKKKKEEEE", score=8, position="hof", provisions=0)
    arrange(state, 1, position="ombra")
    play(state, "ombra")  # the shared reward, taken at once: 2 Mut + 1 provision
    assert public(state)["phase"] == "exchange_convert"
    assert choice(state) == {"type": "convert", "tiles": "MSKE"}


def test_heuristic_keeps_staubfinger_company_in_the_nachtburg() -> None:
    """Alone in the Nachtburg means a villain card: with much to lose to a Natternkopf, and
    Staubfinger next door in Capricorns Festung, the bot calls him in."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, tiles="MMSSSKKEE", provisions=4, villains=["basta"])
    state.staubfinger = 7  # Capricorns Festung, next to the Nachtburg
    play(state, "nachtburg")
    assert choice(state) == {"type": "staubfinger", "to": "nachtburg"}


def test_heuristic_plays_whole_games_against_random() -> None:
    stats = run_tournament("inkspell", ("heuristic", "random", "random"), 6, seed=1, jobs=1)
    assert [s.games for s in stats] == [6, 6, 6]
    assert stats[0].mean_score > max(stats[1].mean_score, stats[2].mean_score)


def test_mcts_finds_a_legal_move() -> None:
    state = spielwerk.load("inkspell").new_state(3, seed=2)
    rng = random.Random(0)
    for _ in play_on(state, 100, until=lambda s: s.to_move != spielwerk.core.state.CHANCE):
        state.apply(state.sample_chance(rng))
    agent = make_agent("mcts:30", "inkspell", seed=1)
    player = state.to_move
    assert isinstance(player, int)
    action = agent.act(make_turn(state, player, True, rng))
    assert action in state.legal_actions()


def test_max_rounds_option() -> None:
    assert spielwerk.load("inkspell").options == {"max_rounds": 60}
    with pytest.raises(spielwerk.OptionError):
        spielwerk.load("inkspell", max_rounds=0)


def test_render_shows_the_table_and_only_the_own_advantage_cards() -> None:
    state = new_game(["hof", "lager"])
    arrange(state, 0, advantage=["meggie"])
    arrange(state, 1, advantage=["farid"])
    mine = render.render(state.view(0))
    for text in ("Roxane's Farm", "Dustfinger", "score 0", "Meggie", "hand:", "special spaces"):
        assert text in mine
    german = render.render(state.view(0), lang="de")
    for text in ("Roxanes Hof", "Staubfinger", "0 Punkte", "Meggie", "Hand:", "Sonderfelder"):
        assert text in german
    assert "Farid" not in mine and "Farid" not in german
    assert "Meggie" not in render.render(state.view(None))
    assert "Ombra" in render.colourise("seat 1 plays Ombra and travels there (free)")
    coloured = render.colourise("Platz 1 spielt „Die Nachtburg“", lang="de")
    assert "[red]Die Nachtburg[/red]" in coloured and "bold red]Platz 1" in coloured


def test_render_shows_map_rows_track_and_the_white_women() -> None:
    """The issue's terminal table: the map with figures, Staubfinger and the White Women (and
    each location's reward rows and roads), the victory track with its special spaces, each
    seat's tiles, provisions, villain cards and hand; in German with the rulebook's names and
    letters, in English with the glossary's."""
    state = new_game(["hof", "ombra"])
    arrange(state, 0, tiles="MSK", score=33, white_women=True, villains=["basta"])
    arrange(state, 1, score=12)
    for lang, names in (
        ("de", ("Roxanes Hof", "Das geheime Lager", "Weiße Frauen", "Staubfinger", "Lager")),
        ("en", ("Roxane's Farm", "The Secret Camp", "White Women", "Dustfinger", "Camp")),
    ):
        farm, camp, women, dustfinger, short_camp = names
        plain = Text.from_markup(render.render(state.view(1), lang=lang)).plain
        lines = plain.splitlines()
        ombra = next(line for line in lines if line.lstrip().startswith("Ombra"))
        you = "Platz 2 (du)" if lang == "de" else "seat 2 (you)"  # counted from 1
        assert ("EEE+V | MM+P" if lang == "de" else "HHH+A | CC+P") in ombra and you in ombra
        hof = next(line for line in lines if line.lstrip().startswith(farm))
        assert ("Platz 1" if lang == "de" else "seat 1") in hof
        assert women in hof and short_camp in hof
        lager = next(line for line in lines if line.lstrip().startswith(camp))
        assert dustfinger in lager
        track = next(line for line in lines if "|" in line and "0 = Start" in line)
        strip = track.split("|")[1]
        assert len(strip) == 40 and strip[9] == "R" and strip[19] == "B" and strip[30] == "G"
        # each figure by its seat's number, counted from 1
        assert strip[33] == "1" and strip[12] == "2" and strip[37] == "R"
    assert "Mx1 Sx1 Kx1" in Text.from_markup(render.render(state.view(1), lang="de")).plain
    plain = Text.from_markup(render.render(state.view(1))).plain
    assert "Cx1 Sx1 Wx1" in plain and "Basta (II, 3)" in plain and "2 provisions" in plain


def test_cli_plays_a_bot_game_to_the_end() -> None:
    result = CliRunner().invoke(
        app, ["play", "inkspell", "--players", "heuristic,random", "--seed", "5"]
    )
    assert result.exit_code == 0, result.output
    assert "Winner" in result.output
