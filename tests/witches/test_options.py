"""Witches options and set-up parameters: start player, wheel side, player counts.

Rulebook "Spielaufbau": "Wähle eine der beiden Seiten des Hexenrades ... Wähle einen
Startspieler." Rules file "Components": 2 to 6 players.
"""

from __future__ import annotations

from typing import Any

import pytest
from witches_table import deal, filled, play, public

import spielwerk
from spielwerk.core.conformance import play_on


@pytest.mark.parametrize(
    ("players", "start", "order"),
    [(4, 2, [2, 3, 0, 1]), (3, 1, [1, 2, 0]), (6, 5, [5, 0, 1, 2, 3, 4]), (2, 0, [0, 1])],
)
def test_start_player_leads_the_first_trick(players: int, start: int, order: list[int]) -> None:
    """Rulebook "Spielaufbau": "Wähle einen Startspieler." and "Das Spiel": "Jede Runde spielt
    der Startspieler die erste Karte, im Uhrzeigersinn gefolgt von den anderen Spielern." """
    hands = filled([[] for _ in range(players)], "red-9")
    state = deal(hands, "red-9", start_player=start)
    assert public(state)["leader"] == start
    seen = []
    for _ in range(players):
        mover = public(state)["to_move"]
        seen.append(mover)
        play(state, state.view(mover)["hand"][0])
    assert seen == order


def test_start_player_accepts_command_line_text() -> None:
    """Options given as text (from the command line) are parsed: "2" means seat 2."""
    game = spielwerk.load("witches", start_player="2", wheel="ascending")
    assert game.options == {"wheel": "ascending", "start_player": 2}


def test_defaults() -> None:
    """Rules file "Components"/"Flow": descending wheel by default, seat 0 starts."""
    game = spielwerk.load("witches")
    assert game.options == {"wheel": "descending", "start_player": 0}
    assert (game.min_players, game.max_players) == (2, 6)
    specs = {spec.name: spec for spec in game.option_specs}
    assert specs["wheel"].choices == ("descending", "ascending")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"colour": "red"}, "unknown option 'colour'"),
        ({"wheel": "sideways"}, "wheel"),
        ({"wheel": 1}, "wheel"),
        ({"start_player": -1}, "start_player"),
        ({"start_player": 6}, "start_player"),
        ({"start_player": True}, "start_player"),
        ({"start_player": "two"}, "start_player"),
        ({"start_player": 1.0}, "start_player"),
    ],
)
def test_bad_options_are_refused(options: dict[str, Any], message: str) -> None:
    """An unknown option or a value outside the schema raises OptionError naming the option."""
    with pytest.raises(spielwerk.OptionError, match=message):
        spielwerk.load("witches", **options)


@pytest.mark.parametrize(("players", "start"), [(2, 2), (3, 5), (4, 4)])
def test_start_player_must_sit_at_the_table(players: int, start: int) -> None:
    """A start seat that does not exist with this many players is refused at set-up."""
    game = spielwerk.load("witches", start_player=start)
    with pytest.raises(spielwerk.OptionError, match="start_player"):
        game.new_state(players, seed=1)
    game.new_state(start + 1, seed=1)  # enough seats: fine


@pytest.mark.parametrize("players", [0, 1, 7, 10, -2])
def test_player_count_outside_two_to_six_is_refused(players: int) -> None:
    """Rules file "Components": "Players: 2 to 6." """
    with pytest.raises(spielwerk.OptionError, match="2 to 6"):
        spielwerk.load("witches").new_state(players, seed=1)


@pytest.mark.parametrize("players", ["3", 3.0, True, None])
def test_player_count_must_be_an_integer(players: Any) -> None:
    """DESIGN "Core contracts": `new_state(num_players, seed)`; anything but an int seat count
    is refused with OptionError rather than half-working."""
    with pytest.raises(spielwerk.OptionError):
        spielwerk.load("witches").new_state(players, seed=1)


def test_seed_must_be_an_integer() -> None:
    """DESIGN "Core contracts": a game is determined by options, player count and seed; a seed
    that is not an integer is refused."""
    with pytest.raises(spielwerk.OptionError):
        spielwerk.load("witches").new_state(3, seed="abc")  # type: ignore[arg-type]


def test_unknown_game() -> None:
    """DESIGN "Core contracts": `spielwerk.load(name)`; an unknown name lists the known games."""
    with pytest.raises(spielwerk.UnknownGame, match="witches"):
        spielwerk.load("no-such-game")
    assert "witches" in spielwerk.list_games()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_every_player_count_sets_up(players: int) -> None:
    """Rulebook "Spielaufbau": 6 cards each, the rest is the pile, one card turned up."""
    state = spielwerk.load("witches").new_state(players, seed=11)
    rng_steps = 0
    for _ in play_on(state, 100, until=lambda s: public(s)["phase"] not in ("deal", "turn_up")):
        state.apply(state.sample_chance())
        rng_steps += 1
    view = public(state)
    assert rng_steps == 6 * players + 1
    assert view["hand_sizes"] == [6] * players
    assert view["draw_pile"] == 54 - 6 * players - 1
    assert view["trump"] is not None
    assert view["to_move"] == 0
