"""The Tintenherz heuristic bot, the generic MCTS on this game, and the terminal text."""

from __future__ import annotations

import random

from inkheart_table import new_game, reroll, roll, secure, take
from typer.testing import CliRunner

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.agents.base import make_turn
from spielwerk.agents.heuristics.inkheart_dice import InkheartDiceHeuristic
from spielwerk.cli.main import app
from spielwerk.cli.renderers import game_text
from spielwerk.core.conformance import play_on
from spielwerk.core.state import State
from spielwerk.games.inkheart_dice import render
from spielwerk.sim.tournament import run_tournament


def choice(state: State) -> dict[str, object]:
    bot = InkheartDiceHeuristic(0)
    player = state.to_move
    assert isinstance(player, int)
    return bot.act(make_turn(state, player, False, random.Random(0))).to_json()


def test_heuristic_is_registered() -> None:
    assert make_agent("heuristic", "inkheart_dice").name == "heuristic"


def test_heuristic_rerolls_rather_than_take_a_negative_card() -> None:
    """Rulebook example: with 6 and 3 "He may only take the Basta card ... Instead, he rolls
    both dice again" - the bot avoids the negative card while a re-roll is left."""
    state = new_game(["Farid", "Darius", "Basta", "Gwin"])
    roll(state, 6, 3)
    assert choice(state)["type"] in ("reroll", "reroll_both")


def test_heuristic_secures_a_high_card_at_risk() -> None:
    """Given the choice of a small centre card or making its Meggie (+9, a heart) safe, it
    makes Meggie safe."""
    state = new_game(["Meggie", "Darius", "Basta", "Gwin"])
    roll(state, 6, 3)
    take(state, "Meggie", refill="Mo")
    roll(state, 6, 6)
    reroll(state)
    roll(state, 5, 5)  # seat 1 has nothing: the turn ends
    roll(state, 3, 6)  # seat 0: 9 (Meggie, own) or 3 (Basta)
    assert choice(state) == {"type": "secure", "card": "Meggie"}
    secure(state, "Meggie")


def test_heuristic_takes_the_best_card() -> None:
    """With 4 and 1 from the rulebook example it takes Staubfinger (+5) over Darius (+1) when it
    has nothing at risk."""
    state = new_game(["Staubfinger", "Darius", "Basta", "Gwin"])
    roll(state, 4, 1)
    assert choice(state) == {"type": "take", "card": "Staubfinger"}


def test_heuristic_beats_random() -> None:
    heuristic, rnd, _ = run_tournament(
        "inkheart_dice", ["heuristic", "random", "random"], games=60, seed=7
    )
    assert heuristic.win_rate > 0.6 > rnd.win_rate


def test_mcts_plays_the_game() -> None:
    """The generic information-set MCTS runs on the game and finishes it."""
    stats = run_tournament("inkheart_dice", ["mcts:60", "random"], games=4, seed=3)
    assert sum(s.wins for s in stats) == 4


def test_render_shows_the_table() -> None:
    """The terminal text shows the centre, each seat's unsafe and safe cards, hearts, dice,
    the re-roll state and the current scores."""
    state = new_game(["Farid", "Darius", "Basta", "Gwin"], players=3)
    roll(state, 4, 2)
    take(state, "Farid", refill="Capricorn")
    roll(state, 3, 6)
    text = render.render(state.view(1))
    assert "seat 2's view" in text and "seat 2 (you): unsafe" in text  # counted from 1
    assert "Centre:" in text and "Capricorn -6" in text
    assert "unsafe [bold green]Farid +4[/bold green]" in text
    assert "[bold]3[/bold] and [bold]6[/bold] (sum 9), re-roll still possible" in text
    assert "score now 0" in text
    reroll(state)
    assert "re-rolling both dice" in render.render(state.view(None))
    assert render.colourise("seat 1 takes Basta (-3) from the centre") == (
        "seat 1 takes [bold red]Basta -3[/bold red] from the centre"
    )
    text_of = game_text("inkheart_dice")
    view = state.view(None)
    assert text_of.render_view(view) == render.render(view)


def test_render_shows_the_result() -> None:
    game = spielwerk.load("inkheart_dice", max_turns=20)
    state = game.new_state(2, seed=1)
    for _ in play_on(state):
        state.apply(state.sample_chance() if state.is_chance() else state.legal_actions()[0])
    text = render.render(state.view(None))
    assert "Game over" in text and "castle kept" in text


def test_cli_bots_play_to_the_end() -> None:
    result = CliRunner().invoke(
        app, ["play", "inkheart_dice", "--players", "heuristic,mcts:30", "--seed", "5"]
    )
    assert result.exit_code == 0, result.stdout
    assert "Game over" in result.stdout or "winner" in result.stdout.lower()
