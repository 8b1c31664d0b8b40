"""The end of the game: "Das Spiel endet nach Wertung der 6. Spielrunde" and the tie-break."""

from __future__ import annotations

import re

from isolde_table import (
    bonus,
    draft_into,
    new_game,
    place,
    play,
    quiet_round,
    set_scores,
)

from spielwerk.games.isolde.state import IsoldeState

KINGS = ["king-2", "king-3", "king-4", "king-5"]


def round_6_on_the_king(isolde: list[tuple[int, int]]) -> IsoldeState:
    """Two seats, five quiet rounds, then round 6 where both play king 2-5 (both end on space
    12: 12 points each), with equal shields before the last round's scoring."""
    state = new_game(2)
    for _ in range(5):
        quiet_round(state)
    draft_into(state, [[*KINGS, "isolde-2"], [*KINGS, "isolde-3"]])
    # Quest: seat 1 first (+3); studies and charity: both on the start space (-3 each).
    place(state, "quest", [(0, 4), (1, 6)])
    place(state, "charity", [])
    place(state, "isolde", isolde)
    set_scores(state, [3, 0])
    for card in KINGS:
        play(state, card)  # seat 1 starts round 6
        play(state, card)
    return state


def test_most_points_win_and_a_tie_goes_to_the_disc_ahead_on_isoldes_board() -> None:
    """Seed 004, l. 310: "Der Spieler mit den meisten Punkten wird zum Sieger erklärt ... Bei
    Gleichstand zwischen mehreren Spielern gewinnt der Spieler, der auf dem Spielbrett der Holden
    Isolde am weitesten vorne liegt." """
    state = round_6_on_the_king([(0, 2), (1, 5)])
    bonus(state, "isolde")  # seat 1, first on Isolde's board, moves +3
    assert state.is_terminal()
    result = state.result()
    assert result["scores"] == [9, 9]
    assert result["winners"] == [1]
    assert "seat 1" in result["tie_break"]
    assert state.returns() == [0.0, 1.0]


def test_a_tie_on_one_space_of_isoldes_board_goes_to_the_disc_on_top() -> None:
    """Seed 004, l. 155 and 310: on the same space the disc on top is further ahead, so it
    breaks a tie on points."""
    state = round_6_on_the_king([(0, 5), (1, 5)])
    bonus(state, "quest")  # seat 1's +3 goes to the quest, where it is first anyway
    result = state.result()
    assert result["scores"] == [9, 9]
    assert result["winners"] == [1]
    assert result["isolde_order"] == [1, 0]


def test_a_tie_with_both_on_isoldes_start_space_is_a_shared_win() -> None:
    """Rules file "End": still tied (both on the start space of Isolde's board): a shared win."""
    state = round_6_on_the_king([])
    assert state.is_terminal()
    result = state.result()
    assert result["scores"] == [9, 9]
    assert result["winners"] == [0, 1]
    assert state.returns() == [0.5, 0.5]


def test_the_game_ends_after_round_6_and_nothing_is_legal_any_more() -> None:
    """Seed 004, l. 310: "Das Spiel endet nach Wertung der 6. Spielrunde." """
    state = new_game(3)
    for _ in range(6):
        assert not state.is_terminal()
        quiet_round(state)
    assert state.is_terminal()
    assert state.legal_actions() == []
    assert state.view(None)["result"] == state.result()


def test_the_terminal_names_the_tie_break_in_the_players_language() -> None:
    """The game-over line words the tie-break (seed 004, l. 310) in the player's language,
    not the result's English."""
    from spielwerk.games.isolde.render import render

    state = round_6_on_the_king([(0, 2), (1, 5)])
    bonus(state, "isolde")
    german = re.sub(r"\[/?[a-z ]+\]", "", render(state.view(0), "de")).splitlines()[-1]
    assert german == (
        "Spiel vorbei. Sieger: Platz 2 (Platz 1 (du), Platz 2 hatten je 9 Schilde: "
        "Platz 2 liegt bei der Holden Isolde weiter vorn)"
    )
    english = re.sub(r"\[/?[a-z ]+\]", "", render(state.view(1), "en")).splitlines()[-1]
    assert english == (
        "Game over. Winner: seat 2 (you) (seat 1, seat 2 (you) had 9 shields each: "
        "seat 2 (you) is further ahead on Isolde's board)"
    )
