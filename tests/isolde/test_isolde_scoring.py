"""Stacks, laps, the king's cap and the scoring of every board.

Rulebook (shared/seeds/004) "3. Ausspielen" (stacking, laps, king) and "4. Wertung"; rules file
"Ranking" and "Boards".
"""

from __future__ import annotations

from isolde_table import (
    awards,
    bonus,
    discs,
    draft_into,
    new_game,
    place,
    play,
    play_quietly,
    quiet_hands,
    quiet_round,
)

from spielwerk.games.isolde.state import IsoldeState


def quiet_play_phase(players: int, **options: object) -> IsoldeState:
    """Round 1, after the draft: every seat holds four quiet cards and a fifth."""
    state = new_game(players, **options)
    draft_into(state, quiet_hands(players))
    return state


def with_card(players: int, cards: dict[int, str]) -> list[list[str]]:
    """Quiet hands, seat s's first card replaced by cards[s]."""
    hands = quiet_hands(players)
    for seat, card in cards.items():
        hands[seat][0] = card
    return hands


def test_a_disc_landing_on_an_occupied_space_is_ahead_and_three_players_give_no_third_place() -> (
    None
):
    """Seed 004, l. 155, 179 and 252: "Beendet ein Spielstein seine Bewegung auf einem Feld, auf dem
    sich bereits ... Spielsteine befinden, wird er oben auf gelegt. Bei einer Wertung ist ein oben
    liegender Spielstein weiter vorne" and "Bei 3 Spielern gibt es für den 3. Platz keine Punkte."
    """
    state = new_game(3)
    draft_into(state, with_card(3, {0: "combat-3", 1: "combat-3", 2: "combat-2"}))
    play(state, "combat-3", "joust")  # seat 0 to space 3
    play(state, "combat-3", "joust")  # seat 1 lands on seat 0
    play(state, "combat-2", "joust")  # seat 2 behind them
    assert discs(state, "joust") == [(1, 3), (0, 3), (2, 2)]
    play_quietly(state)
    assert awards(state, 1, "joust") == {1: 3, 0: 2}


def test_four_players_reward_three_places_and_discs_on_the_start_space_win_nothing() -> None:
    """Seed 004, l. 237-242 and 280: "3) 3 Punkte ... 2) 2 Punkte ... 1) 1 Punkt für den
    Drittplatzierten (nur beim Spiel mit mindestens 4 Spielern)"; a disc still on the start space is
    automatically last."""
    state = quiet_play_phase(4)
    place(state, "tourney", [(3, 2), (1, 5), (0, 5)])
    place(state, "joust", [(2, 7)])
    play_quietly(state)
    assert awards(state, 1, "tourney") == {0: 3, 1: 2, 3: 1}
    assert awards(state, 1, "joust") == {2: 3}  # the others stand on the start space


def test_five_players_reward_a_third_place_and_nothing_behind_it() -> None:
    """Seed 004, l. 189 and 241-242: the third place (with 4 or 5 players) moves +1 at Isolde
    and wins 1 point; with five players the fourth and fifth win nothing."""
    state = quiet_play_phase(5)
    place(state, "isolde", [(4, 1), (3, 2), (2, 3), (1, 4), (0, 5)])
    place(state, "tourney", [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)])
    play_quietly(state)
    assert state.view(None)["pending_isolde_moves"] == [
        {"seat": 2, "place": 3, "steps": 1},
        {"seat": 1, "place": 2, "steps": 2},
        {"seat": 0, "place": 1, "steps": 3},
    ]
    for _ in range(3):
        bonus(state, "quest")
    assert awards(state, 1, "tourney") == {4: 3, 3: 2, 2: 1}


def test_two_players_only_the_first_gets_an_isolde_move() -> None:
    """Seed 004, l. 219 (3 players: no third place) and the rules file "Boards": with 2 players
    only first place is rewarded, +3 at Isolde, as the last place never is."""
    state = quiet_play_phase(2)
    place(state, "isolde", [(1, 2), (0, 4)])
    play_quietly(state)
    assert state.view(None)["pending_isolde_moves"] == [{"seat": 0, "place": 1, "steps": 3}]


def test_several_discs_on_the_start_space_all_take_minus_3_and_the_rearmost_moved_minus_1() -> None:
    """Seed 004, l. 280: "Trifft dieser Fall für mehrere Spieler in den Disziplinen Studien und
    Barmherzigkeit zu, so erhält jeder dieser Spieler jeweils die für den letzten Platz vorgesehenen
    Minuspunkte ... Der Schild für den vorletzten Platz wird trotzdem vergeben." """
    state = quiet_play_phase(4)
    place(state, "studies", [(0, 2), (1, 4)])
    play_quietly(state)
    assert awards(state, 1, "studies") == {2: -3, 3: -3, 0: -1}


def test_studies_without_discs_on_the_start_space_last_minus_3_second_to_last_minus_1() -> None:
    """Seed 004, l. 258-260 and 179: "Der Spieler, dessen Spielstein auf dem vorletzten Platz ist,
    verliert 1 Punkt ... auf dem letzten Platz ist, verliert 3 Punkte." A stack counts bottom disc
    behind."""
    state = quiet_play_phase(4)
    place(state, "studies", [(3, 1), (2, 5), (1, 5), (0, 6)])
    play_quietly(state)
    assert awards(state, 1, "studies") == {3: -3, 2: -1}


def test_two_players_only_first_place_and_last_place_count() -> None:
    """Rules file: "With 2 players only first place is rewarded ... With 2 players only the
    last-place -3 is given." """
    state = quiet_play_phase(2)
    place(state, "joust", [(1, 2), (0, 4)])
    place(state, "studies", [(0, 3)])
    play_quietly(state)
    assert awards(state, 1, "joust") == {0: 3}
    assert awards(state, 1, "studies") == {1: -3}


def test_all_on_the_start_space_all_lose_on_studies_and_nobody_wins_joust() -> None:
    """Seed 004, l. 280: "Sofern ein Spielstein bei einer Wertung immer noch auf dem Startfeld
    steht, befindet sich der Spieler automatisch an letzter Position." """
    state = quiet_play_phase(3)
    play_quietly(state)
    assert awards(state, 1, "studies") == {0: -3, 1: -3, 2: -3}
    assert awards(state, 1, "joust") == {}


def test_isolde_ranks_are_taken_before_the_bonus_moves_and_moves_go_3rd_2nd_1st() -> None:
    """Seed 004, l. 187-191 and 217: "Für die Zuteilung der +1/+2/+3 Zusatzfelder ist die Rangfolge
    ... zu Beginn der Wertungsphase ausschlaggebend" and the order "1. Der drittplatzierte ... 2.
    Der zweitplatzierte ... 3. ... der erstplatzierte"."""
    state = quiet_play_phase(4)
    place(state, "isolde", [(2, 3), (1, 4), (0, 5)])
    play_quietly(state)
    assert state.view(None)["phase"] == "isolde_moves"
    assert state.to_move == 2
    bonus(state, "isolde")  # seat 2: 3 -> 4, on top of seat 1: now second on the board
    assert discs(state, "isolde")[:3] == [(0, 5), (2, 4), (1, 4)]
    assert state.to_move == 1  # but seat 1 keeps the second place's +2
    bonus(state, "king")
    assert state.to_move == 0
    bonus(state, "quest")
    moves = [
        (m["seat"], m["place"], m["steps"], m["board"]) for m in state.view(None)["isolde_moves"]
    ]
    assert moves == [(2, 3, 1, "isolde"), (1, 2, 2, "king"), (0, 1, 3, "quest")]
    assert discs(state, "king")[0] == (1, 2)
    assert state.view(None)["round"] == 2


def test_each_isolde_move_is_asked_of_the_seat_that_earned_it() -> None:
    """Rules file "Boards" (shared/rules/isolde.md l. 10): "3rd, then 2nd, then 1st move one own
    disc +1/+2/+3 on any board". Seats and places differ here: seat 3 is first, seat 2 second,
    seat 1 third (seat 0 on the start space), so the moves are asked of seats 1, 2, 3 in that
    order, each moving its own disc."""
    state = quiet_play_phase(4)
    place(state, "isolde", [(1, 2), (2, 3), (3, 4)])
    play_quietly(state)
    assert state.view(None)["pending_isolde_moves"] == [
        {"seat": 1, "place": 3, "steps": 1},
        {"seat": 2, "place": 2, "steps": 2},
        {"seat": 3, "place": 1, "steps": 3},
    ]
    movers = []
    for _ in range(3):
        movers.append(state.to_move)
        assert state.legal_actions(state.to_move)
        for other in range(4):
            if other != state.to_move:
                assert state.legal_actions(other) == []
        bonus(state, "king")
    assert movers == [1, 2, 3]
    assert sorted(discs(state, "king")) == [(0, 0), (1, 1), (2, 2), (3, 3)]


def test_isolde_gives_no_third_move_with_three_players_and_none_from_the_start_space() -> None:
    """Seed 004, l. 219: "Spezielle Regel für 3 Spieler: Bei 3 Spielern gibt es für den 3. Platz
    keine Zusatzfelder." A disc on the start space gets no move."""
    state = quiet_play_phase(3)
    place(state, "isolde", [(2, 1), (1, 2), (0, 3)])
    play_quietly(state)
    assert [m["seat"] for m in state.view(None)["pending_isolde_moves"]] == [1, 0]
    state = quiet_play_phase(4)
    place(state, "isolde", [(0, 3)])
    play_quietly(state)
    assert state.view(None)["pending_isolde_moves"] == [{"seat": 0, "place": 1, "steps": 3}]


def test_isolde_is_scored_first_so_a_bonus_move_can_win_a_board() -> None:
    """Seed 004, l. 183-185: "Bei der Wertung wird die Holde Isolde immer zuerst ausgewertet." Seat
    1 uses its +3 on joust to pass seat 0 before joust is scored."""
    state = quiet_play_phase(2)
    place(state, "isolde", [(1, 2)])
    place(state, "joust", [(1, 3), (0, 5)])
    play_quietly(state)
    bonus(state, "joust")
    assert awards(state, 1, "joust") == {1: 3}


def test_a_lap_keeps_the_disc_ahead_of_those_it_lapped() -> None:
    """Seed 004, l. 157: "Sofern der Stein eines Spielers ... eine komplette Runde absolviert hat,
    wird ein zweiter Stein der gleichen Farbe ... oben auf den Stein gelegt." The 15 spaces after
    the start [design]: a disc at distance 18 stands on space 2 with one lap."""
    state = new_game(2)
    draft_into(state, with_card(2, {0: "combat-4"}))
    place(state, "joust", [(1, 14), (0, 14)])
    play(state, "combat-4", "joust")
    assert state.view(None)["boards"][1]["discs"][0] == {
        "seat": 0,
        "distance": 18,
        "space": 2,
        "laps": 1,
    }
    play_quietly(state)
    assert awards(state, 1, "joust") == {0: 3}


def test_a_lap_ending_on_the_start_square_is_not_on_the_start_space() -> None:
    """Seed 004, l. 157 and 280; rules file "Ranking": a disc that lands on the start square
    after a full lap has travelled 16 spaces; it is not a disc "still on the start space", so it
    is ranked (first here) and wins."""
    state = new_game(2)
    draft_into(state, with_card(2, {0: "combat-4"}))
    place(state, "joust", [(0, 12), (1, 13)])
    play(state, "combat-4", "joust")
    joust = state.view(None)["boards"][1]
    assert joust["discs"][0] == {"seat": 0, "distance": 16, "space": 0, "laps": 1}
    play_quietly(state)
    assert awards(state, 1, "joust") == {0: 3}


def test_the_king_stops_at_space_12_and_surplus_steps_are_lost() -> None:
    """Seed 004, l. 157 and 298: "Ausnahme: Die Spielsteine beim König ziehen nie über das 12. Feld
    hinaus ... überzählige Bewegungspunkte können beim König verfallen." """
    state = new_game(2)
    draft_into(state, with_card(2, {0: "king-5", 1: "king-4"}))
    place(state, "king", [(0, 10), (1, 11)])
    play(state, "king-5")
    play(state, "king-4")
    assert discs(state, "king") == [(1, 12), (0, 12)]


def test_the_king_scores_0_6_12_by_space_after_rounds_3_and_6_only() -> None:
    """Seed 004, l. 292-296: "Spieler mit einem Spielstein auf den ersten fünf Feldern ... 0 Punkte
    ... Feldern 6 bis 11 ... 6 Punkte ... dem Feld 12 ... 12 Punkte." Scored after rounds 3 and 6
    [public]."""
    state = quiet_play_phase(4)
    place(state, "king", [(0, 5), (1, 6), (2, 11), (3, 12)])
    play_quietly(state)
    assert awards(state, 1, "king") == {}
    quiet_round(state)
    draft_into(state, quiet_hands(4))
    assert state.view(None)["round"] == 3
    play_quietly(state)
    assert awards(state, 3, "king") == {1: 6, 2: 6, 3: 12}


def test_quest_and_charity_are_scored_after_round_6_only() -> None:
    """Seed 004, l. 161: some boards are scored only after certain rounds; quest and charity
    after round 6 [public, rules file]; quiet cards move on them all game."""
    state = new_game(2)
    for _ in range(5):
        quiet_round(state)
    assert all(a["board"] not in ("quest", "charity") for a in state.view(None)["awards"])
    quiet_round(state)
    assert state.is_terminal()
    assert awards(state, 6, "quest") and awards(state, 6, "charity")
    first_on_quest = discs(state, "quest")[0][0]
    assert awards(state, 6, "quest") == {first_on_quest: 3}


def test_the_quest_first_place_points_are_an_option() -> None:
    """Rules file: "public sources report 17 for first: an option"."""
    state = new_game(2, quest_first_points=17)
    for _ in range(6):
        quiet_round(state)
    first_on_quest = discs(state, "quest")[0][0]
    assert awards(state, 6, "quest") == {first_on_quest: 17}


def test_after_round_3_every_board_but_quest_and_charity_returns_to_the_start() -> None:
    """Seed 004, l. 302: "Nach der Wertung der 3. Runde werden auf allen Spielbrettern bis auf
    Gralssuche und Barmherzigkeit alle Spielsteine auf das jeweilige Startfeld ... zurückgesetzt."
    """
    state = new_game(3)
    quiet_round(state)
    quiet_round(state)
    draft_into(state, quiet_hands(3))
    for board in ("joust", "tourney", "studies", "king"):
        place(state, board, [(2, 3), (0, 8), (1, 20)])
    play_quietly(state)
    assert state.view(None)["round"] == 4
    for board in ("isolde", "joust", "tourney", "studies", "king"):
        assert all(distance == 0 for _, distance in discs(state, board))
    for board in ("quest", "charity"):
        travelled = {seat: 0 for seat in range(3)}
        for actor, action_id in state.history:
            action = state.game.actions[action_id].to_json()
            if action["type"] == "play" and action["board"] == board:
                travelled[actor] += int(str(action["card"]).rpartition("-")[2])
        assert dict(discs(state, board)) == travelled
        assert any(travelled.values())
