"""The advanced game ("FORTGESCHRITTENENSPIEL FÜR MUTIGE SPIELER") and its options."""

from __future__ import annotations

import pytest
from isolde_table import (
    awards,
    bonus,
    discs,
    draft_into,
    new_game,
    place,
    play_quietly,
    quiet_hands,
    quiet_round,
)

import spielwerk
from spielwerk.games.isolde.state import IsoldeState


def quiet_play_phase(players: int, **options: object) -> IsoldeState:
    state = new_game(players, **options)
    draft_into(state, quiet_hands(players))
    return state


@pytest.mark.parametrize("choice", ["go_on_top", "keep_order"])
def test_the_start_player_may_put_its_disc_on_top_of_its_stack_before_scoring(choice: str) -> None:
    """Seed 004, l. 318-320, advanced rule 1: "Unmittelbar vor der Wertung hat der Startspieler das
    Recht ... auf genau einem Tableau - seinen Spielstein als obersten auf die anderen zu legen."
    """
    state = quiet_play_phase(3, advanced_start_player_tiebreak=True)
    place(state, "joust", [(0, 4), (1, 4)])  # start player seat 0 lies under seat 1
    place(state, "tourney", [(2, 2), (0, 6)])  # alone on its space: nothing to gain here
    play_quietly(state)
    assert state.view(None)["phase"] == "tiebreak"
    assert state.to_move == 0
    legal = [a.to_json() for a in state.legal_actions()]
    assert legal == [{"type": "go_on_top", "board": "joust"}, {"type": "keep_order"}]
    if choice == "go_on_top":
        state.apply({"type": "go_on_top", "board": "joust"})
        assert awards(state, 1, "joust") == {0: 3, 1: 2}
    else:
        state.apply({"type": "keep_order"})
        assert awards(state, 1, "joust") == {1: 3, 0: 2}


def test_the_start_player_goes_on_top_on_exactly_one_board() -> None:
    """Seed 004, l. 320: "und zwar auf genau einem Tableau": with two stacks to improve, the
    start player chooses one; the other stays as it is."""
    state = quiet_play_phase(3, advanced_start_player_tiebreak=True)
    place(state, "joust", [(0, 4), (1, 4)])
    place(state, "tourney", [(0, 6), (2, 6)])
    play_quietly(state)
    assert [a.to_json() for a in state.legal_actions()] == [
        {"type": "go_on_top", "board": "joust"},
        {"type": "go_on_top", "board": "tourney"},
        {"type": "keep_order"},
    ]
    state.apply({"type": "go_on_top", "board": "tourney"})
    assert state.view(None)["round"] == 2
    assert awards(state, 1, "tourney") == {0: 3, 2: 2}
    assert awards(state, 1, "joust") == {1: 3, 0: 2}


def test_going_on_top_is_not_offered_on_the_start_space_or_the_king() -> None:
    """Rules file "Advanced game" 1 (shared/rules/isolde.md l. 60-61): "Offered only where the
    disc lies under another disc, never on the start space or on the king, where order gives
    nothing." Seed 004, l. 280: on the start space the order of a stack does not count; l. 284:
    the king scores by space alone."""
    state = quiet_play_phase(3, advanced_start_player_tiebreak=True)
    place(state, "king", [(0, 5), (1, 5)])
    place(state, "joust", [(1, 2)])  # seats 0 and 2 lie together on the start space
    play_quietly(state)
    assert state.view(None)["round"] == 2
    assert all(state.game.actions[i].type != "keep_order" for _, i in state.history)


def test_without_a_stack_to_improve_the_start_player_is_not_asked() -> None:
    """Rules file "Advanced game" 1 (l. 60): offered only where the disc lies *under* another
    disc. Seed 004, l. 320: rule 1 applies only "Ist sein Spielstein mit anderen Spielsteinen
    gestapelt"; a disc already on top gains nothing; without the option there is never such a
    choice."""
    state = quiet_play_phase(3, advanced_start_player_tiebreak=True)
    place(state, "joust", [(1, 4), (0, 4)])  # already on top
    play_quietly(state)
    assert state.view(None)["round"] == 2
    state = quiet_play_phase(3)
    place(state, "joust", [(0, 4), (1, 4)])
    play_quietly(state)
    assert state.view(None)["round"] == 2
    assert awards(state, 1, "joust") == {1: 3, 0: 2}


def test_isolde_setback_every_rewarded_disc_steps_back_one_after_the_moves() -> None:
    """Seed 004, l. 322-324, advanced rule 2: "Danach müssen die 3 führenden Spieler sofort ihren
    Spielstein auf dem Spielbrett der Holden Isolde um ein Feld nach hinten rücken." Front first, so
    the three keep their order [design]."""
    state = quiet_play_phase(4, advanced_isolde_setback=True)
    place(state, "isolde", [(3, 1), (2, 3), (1, 4), (0, 5)])
    play_quietly(state)
    for _ in range(3):
        bonus(state, "king")
    assert discs(state, "isolde") == [(0, 4), (1, 3), (2, 2), (3, 1)]
    assert discs(state, "king")[:3] == [(0, 3), (1, 2), (2, 1)]


def test_setback_steps_back_front_first_so_movers_on_one_space_keep_their_order() -> None:
    """Rules file "Advanced game" 2 (shared/rules/isolde.md l. 63-66): "The movers step back one
    at a time from the front (the disc furthest ahead first), so movers that shared a space keep
    their order." Seat 0 lies on top of seat 1 on space 5 (first and second); both step back to
    space 4: seat 0 first, then seat 1 goes under it, so seat 0 is still ahead."""
    state = quiet_play_phase(3, advanced_isolde_setback=True)
    place(state, "isolde", [(2, 3), (1, 5), (0, 5)])
    play_quietly(state)
    assert [m["seat"] for m in state.view(None)["pending_isolde_moves"]] == [1, 0]
    bonus(state, "king")
    bonus(state, "king")
    assert discs(state, "isolde") == [(0, 4), (1, 4), (2, 3)]


def test_three_players_only_the_two_rewarded_discs_step_back() -> None:
    """Seed 004, l. 219 and 324: with three players the third place gets no move, so only the
    two who moved step back (rules file: "every player who received an Isolde move"); seat 1
    steps back onto seat 2's space and goes under it [design]."""
    state = quiet_play_phase(3, advanced_isolde_setback=True)
    place(state, "isolde", [(2, 3), (1, 4), (0, 5)])
    play_quietly(state)
    bonus(state, "quest")
    bonus(state, "quest")
    assert discs(state, "isolde") == [(0, 4), (2, 3), (1, 3)]


def test_setback_onto_an_occupied_space_goes_under_the_stack() -> None:
    """Rules file: "onto an occupied space it goes to the bottom"."""
    state = quiet_play_phase(2, advanced_isolde_setback=True)
    place(state, "isolde", [(1, 4), (0, 5)])
    play_quietly(state)
    bonus(state, "king")  # only seat 0 is rewarded with 2 players
    assert discs(state, "isolde") == [(1, 4), (0, 4)]


def reach_round_3_scoring(**options: object) -> IsoldeState:
    state = new_game(4, **options)
    quiet_round(state)
    quiet_round(state)
    draft_into(state, quiet_hands(4))
    return state


def test_advanced_reset_keeps_the_order_last_to_start_next_to_space_1() -> None:
    """Seed 004, l. 326-328 and 349, advanced rule 3: "zieht nur der an letzter Position befindliche
    Spieler seinen Spielstein auf das Startfeld zurück. Der an vorletzter Position ... auf das 1.
    Feld, der drittletzte auf das 2. Feld usw." and "ein oben liegender Spielstein ... zieht daher
    ein Feld weniger zurück als der unter ihm liegende. Beim König beginnen alle Spieler wieder vom
    Startfeld." """
    state = reach_round_3_scoring(advanced_reset=True)
    place(state, "joust", [(2, 4), (0, 7), (1, 7), (3, 9)])
    place(state, "tourney", [(3, 5), (1, 8)])  # seats 0 and 2 tied on the start space
    place(state, "king", [(1, 3), (0, 12)])
    play_quietly(state)
    assert state.view(None)["round"] == 4
    assert discs(state, "joust") == [(3, 3), (1, 2), (0, 1), (2, 0)]
    assert discs(state, "tourney")[:2] == [(1, 2), (3, 1)]
    assert sorted(discs(state, "tourney")[2:]) == [(0, 0), (2, 0)]
    assert all(distance == 0 for _, distance in discs(state, "king"))


def test_advanced_reset_on_isoldes_board_leaves_quest_and_charity_alone() -> None:
    """Seed 004, l. 328: the reset spreads the discs on Isolde's board too (two discs tied on
    the start space stay there, the next goes to space 1); l. 302: quest and charity are never
    reset."""
    state = reach_round_3_scoring(advanced_reset=True)
    place(state, "isolde", [(1, 2), (0, 3)])
    play_quietly(state)
    assert [m["seat"] for m in state.view(None)["pending_isolde_moves"]] == [1, 0]
    before = {board: discs(state, board) for board in ("quest", "charity")}
    bonus(state, "king")
    bonus(state, "king")
    assert state.view(None)["round"] == 4
    assert discs(state, "isolde")[:2] == [(0, 2), (1, 1)]
    assert sorted(discs(state, "isolde")[2:]) == [(2, 0), (3, 0)]
    assert {board: discs(state, board) for board in ("quest", "charity")} == before


def test_resets_also_clear_the_lap_count() -> None:
    """Rules file "Ranking" (shared/rules/isolde.md l. 53): "Resets (round 3, advanced rule 3)
    also clear the lap count." Seats 0, 1 and 3 have lapped the joust board (distances 18, 20,
    33: one, one and two laps); after the reset of round 3 no disc carries a lap, with the
    advanced rule (spread over spaces 0-3) as without it (all on the start)."""
    for options in ({"advanced_reset": True}, {}):
        state = reach_round_3_scoring(**options)
        place(state, "joust", [(2, 4), (0, 18), (1, 20), (3, 33)])
        assert [disc["laps"] for disc in state.view(None)["boards"][1]["discs"]] == [2, 1, 1, 0]
        play_quietly(state)
        joust = state.view(None)["boards"][1]["discs"]
        assert [disc["laps"] for disc in joust] == [0, 0, 0, 0]
        expected = [3, 2, 1, 0] if options else [0, 0, 0, 0]
        assert [disc["distance"] for disc in joust] == expected


def test_standard_reset_sends_everybody_to_the_start() -> None:
    """Seed 004, l. 302: without rule 3 the same table goes back to the start space."""
    state = reach_round_3_scoring()
    place(state, "joust", [(2, 4), (0, 7), (1, 7), (3, 9)])
    play_quietly(state)
    assert all(distance == 0 for _, distance in discs(state, "joust"))


def test_advanced_turns_on_all_three_rules() -> None:
    """Seed 004, l. 316: "mit folgenden 3 Regeln": option `advanced` turns on the three rules at
    once; each can also be chosen alone."""
    game = spielwerk.load("isolde", advanced=True)
    view = game.new_state(3, seed=1).view(None)
    assert view["advanced"] == {
        "start_player_tiebreak": True,
        "isolde_setback": True,
        "reset": True,
    }
    view = spielwerk.load("isolde", advanced_reset="true").new_state(3, seed=1).view(None)
    assert view["advanced"] == {
        "start_player_tiebreak": False,
        "isolde_setback": False,
        "reset": True,
    }


def test_bad_options_are_refused() -> None:
    with pytest.raises(spielwerk.OptionError):
        spielwerk.load("isolde", quest_first_points=-1)
    with pytest.raises(spielwerk.OptionError):
        spielwerk.load("isolde", start_player=4).new_state(3)
    with pytest.raises(spielwerk.OptionError):
        spielwerk.load("isolde").new_state(6)
