"""Tintenherz options and set-up parameters: start player, turn limit, player counts.

Rulebook: "For 2 to 4 players"; "The youngest player takes the two dice and starts the game."
Rules file: "The youngest starts: seat 0 unless configured"; `max_turns` (default 500).
"""

from __future__ import annotations

from typing import Any

import pytest
from inkheart_table import end_turn, new_game, public, roll

import spielwerk


def test_defaults() -> None:
    """Rules file: seat 0 starts; max_turns 500; 2 to 4 players."""
    game = spielwerk.load("inkheart_dice")
    assert game.options == {"start_player": 0, "max_turns": 500}
    assert (game.min_players, game.max_players) == (2, 4)
    assert game.title == "Tintenherz – Das Würfelspiel"  # noqa: RUF001


@pytest.mark.parametrize(("players", "start"), [(2, 1), (3, 2), (4, 3), (4, 0)])
def test_start_player_rolls_first(players: int, start: int) -> None:
    """Rulebook: "The youngest player takes the two dice and starts the game." """
    state = new_game(["Mo", "Basta", "Darius", "Resa"], players=players, start_player=start)
    seen = []
    for _ in range(players + 1):
        seen.append(public(state)["current"])
        roll(state, 6, 6)
        end_turn(state)
    assert seen == [(start + k) % players for k in range(players + 1)]


def test_options_accept_command_line_text() -> None:
    game = spielwerk.load("inkheart_dice", start_player="2", max_turns="40")
    assert game.options == {"start_player": 2, "max_turns": 40}


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"wheel": "up"}, "unknown option 'wheel'"),
        ({"start_player": -1}, "start_player"),
        ({"start_player": 4}, "start_player"),
        ({"start_player": True}, "start_player"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": "many"}, "max_turns"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    with pytest.raises(spielwerk.OptionError, match=message):
        spielwerk.load("inkheart_dice", **options)


def test_start_player_must_exist() -> None:
    game = spielwerk.load("inkheart_dice", start_player=3)
    with pytest.raises(spielwerk.OptionError, match="start_player 3"):
        game.new_state(3)
    assert game.new_state(4).to_move == spielwerk.CHANCE


@pytest.mark.parametrize("players", [1, 5])
def test_player_counts(players: int) -> None:
    """Rulebook: "For 2 to 4 players"."""
    with pytest.raises(spielwerk.OptionError):
        spielwerk.load("inkheart_dice").new_state(players)
