"""A round of Die Holde Isolde: deal, simultaneous draft, playing 4 cards, start player.

Rulebook (shared/seeds/004) "SPIELABLAUF", phases 1-3 and 5; rules file "A round".
"""

from __future__ import annotations

import pytest
from isolde_table import (
    deal,
    discs,
    draft_into,
    keep,
    new_game,
    packets_for,
    place,
    play,
    play_quietly,
    quiet_hands,
    quiet_round,
)

import spielwerk
from spielwerk.core.conformance import play_on


def test_setup_seven_boards_with_one_disc_of_every_seat_on_each_start_space() -> None:
    """Seed 004, l. 25-53 and 112: seven boards; "Auf die Startfelder eines jeden Spielbretts
    wird von jeder Farbe 1 Spielstein gelegt." l. 87 and 117: 52 cards, six rounds."""
    state = new_game(5)
    view = state.view(None)
    assert [b["board"] for b in view["boards"]] == [
        "isolde",
        "joust",
        "tourney",
        "studies",
        "king",
        "quest",
        "charity",
    ]
    for board in view["boards"]:
        assert sorted(d["seat"] for d in board["discs"]) == [0, 1, 2, 3, 4]
        assert all(d["distance"] == 0 for d in board["discs"])
    assert (view["deck"], view["round"], view["rounds"]) == (52, 1, 6)
    assert view["start_player"] == 0  # rules file "Boards": seat 0 unless configured
    assert view["scores"] == [0, 0, 0, 0, 0]
    assert state.is_chance()


def test_each_seat_is_dealt_five_cards_from_the_full_deck() -> None:
    """Seed 004, l. 123-125: "Der Startspieler mischt alle Karten und verteilt reihum an jeden
    Spieler verdeckt 5 Karten." The deal is 5 cards each, one at a time, and 52 - 5n stay in the
    deck."""
    state = new_game(4)
    assert state.view(None)["deck"] == 52
    deal(state, quiet_hands(4))
    view = state.view(None)
    assert view["deck"] == 52 - 20
    assert view["hand_sizes"] == [5, 5, 5, 5]
    assert view["phase"] == "draft"
    assert state.to_move == frozenset({0, 1, 2, 3})


def test_a_kind_runs_out_in_the_deal() -> None:
    """Seed 004, l. 87: 52 cards; the split per value is [design] (data.toml): there are two
    isolde-5 cards, so a third cannot be dealt."""
    state = new_game(3)
    state.apply({"type": "deal", "card": "isolde-5"})
    state.apply({"type": "deal", "card": "isolde-5"})
    assert {"type": "deal", "card": "isolde-5"} not in [a.to_json() for a in state.legal_actions()]
    with pytest.raises(spielwerk.IllegalAction):
        state.apply({"type": "deal", "card": "isolde-5"})


def test_draft_picks_are_simultaneous_and_hidden_until_everyone_has_picked() -> None:
    """Seed 004, l. 131: "Alle Spieler wählen aus ihren 5 Karten gleichzeitig 1 Karte aus ... legen
    sie verdeckt vor sich ab." `to_move` is the set of seats still to pick; a pick stays hidden."""
    state = new_game(3)
    deal(state, quiet_hands(3))
    first = state.view(1)["packet"][0]
    keep(state, 1, first)
    assert state.to_move == frozenset({0, 2})
    assert state.view(1)["kept"] == [first]
    assert state.view(0)["kept"] == []
    assert state.view(0)["picked"] == [False, True, False]
    assert state.view(0)["kept_counts"] == [0, 1, 0]
    assert state.describe(state.game.actions[state.history[-1][1]], 0) == "seat 2 keeps a card"
    with pytest.raises(spielwerk.IllegalAction, match="no decision"):
        keep(state, 1, state.view(1)["packet"][0])


def test_hands_pass_left_in_odd_rounds_and_right_in_even_rounds() -> None:
    """Seed 004, l. 131-139: "In Runde I werden die Karten im Uhrzeigersinn weitergegeben (also nach
    links). In Runde II ... gegen den Uhrzeigersinn ... (also nach rechts)." Left is the next seat
    clockwise."""
    state = new_game(3)
    hands = quiet_hands(3)
    packets = packets_for(state, hands)
    deal(state, packets)
    for seat in range(3):
        keep(state, seat, hands[seat][0])
    passed_by_0 = sorted(state.view(0)["passed"][0])
    assert sorted(state.view(1)["packet"]) == passed_by_0  # seat 0 passed to its left, seat 1
    play_quietly_after_draft(state, hands)
    assert state.view(None)["round"] == 2
    assert state.view(None)["pass_direction"] == "right"
    hands = quiet_hands(3)
    deal(state, packets_for(state, hands))
    for seat in range(3):
        keep(state, seat, hands[seat][0])
    assert sorted(state.view(2)["packet"]) == sorted(state.view(0)["passed"][0])  # 0 -> 2


def play_quietly_after_draft(state: spielwerk.State, hands: list[list[str]]) -> None:
    for step in range(1, 4):
        for seat in range(state.num_players):
            keep(state, seat, hands[seat][step])
    play_quietly(state)


def test_the_last_card_of_the_draft_is_kept_without_a_choice() -> None:
    """Seed 004, l. 131: "Dies geht so lange weiter, bis jeder Spieler nach und nach 5 Karten
    ausgewählt ... hat." After four picks the single card passed on is kept: the hands hold 5 cards
    and play begins."""
    state = new_game(4)
    hands = quiet_hands(4)
    draft_into(state, hands)
    for seat in range(4):
        assert sorted(state.view(seat)["hand"]) == sorted(hands[seat])
    assert state.view(None)["phase"] == "play"
    assert [len(r) for r in state.view(2)["received"]] == [5, 4, 3, 2, 1]


def test_four_cards_are_played_in_turn_from_the_start_player_and_the_fifth_is_discarded() -> None:
    """Seed 004, l. 143-147: "Beginnend mit dem Startspieler ... reihum im Uhrzeigersinn ... bis
    jeder Spieler 4 seiner 5 Karten gespielt hat. Die 5. Karte wird nicht gespielt ... ungenutzt auf
    den Ablagestapel gelegt." """
    state = new_game(3, start_player=2)
    draft_into(state, quiet_hands(3))
    movers = []
    for _ in play_on(state, 100, until=lambda s: s.view(None)["phase"] != "play"):
        movers.append(state.to_move)
        seat = state.to_move
        assert isinstance(seat, int)
        play(state, next(c for c in state.view(seat)["hand"] if not c.startswith(("isolde", "st"))))
    assert movers == [2, 0, 1] * 4
    view = state.view(None)
    assert view["round"] == 2 and view["discarded"] == 0 and view["deck"] == 52  # reshuffled


def test_the_fifth_card_is_discarded_unseen() -> None:
    """Seed 004, l. 147: "Achtung: Die 5. Karte wird nicht gespielt. Sie wird ungenutzt auf den
    Ablagestapel gelegt." After the fourth plays every hand is empty, the fifth cards lie face down.
    """
    state = new_game(2)
    hands = quiet_hands(2)  # seat 0 holds isolde-2 as its fifth card
    draft_into(state, hands)
    play(state, "isolde-2")  # seat 0 will be first on Isolde's board: scoring waits for it
    for _ in range(7):
        seat = state.to_move
        assert isinstance(seat, int)
        play(state, state.view(seat)["hand"][0])
    view = state.view(1)
    assert view["phase"] == "isolde_moves"
    assert view["discarded"] == 2
    assert view["hand_sizes"] == [0, 0]
    assert view["hand"] == []
    assert len(view["played"]) == 8


def test_a_combat_card_moves_on_joust_or_tourney_at_the_players_choice() -> None:
    """Seed 004, l. 153: "Mit den Karten für Lanzenstechen und Turnierkampf kann ein Spieler sich
    entscheiden, in welcher der beiden Disziplinen er vorwärts zieht." Not split between the two."""
    state = new_game(2)
    hands = [["combat-4", *quiet_hands(2)[0][1:]], quiet_hands(2)[1]]
    draft_into(state, hands)
    legal = [a.to_json() for a in state.legal_actions()]
    assert {"type": "play", "card": "combat-4", "board": "joust"} in legal
    assert {"type": "play", "card": "combat-4", "board": "tourney"} in legal
    play(state, "combat-4", "tourney")
    assert discs(state, "tourney")[0] == (0, 4)
    assert all(distance == 0 for _, distance in discs(state, "joust"))


def test_a_card_moves_the_disc_on_its_own_board_by_its_value() -> None:
    """Seed 004, l. 143 and 151: "Beim Spielen dieser Karte zieht der Spieler seinen Spielstein
    auf dem Spielbrett der Holden Isolde um 3 Felder vor." Only the card's board is offered."""
    state = new_game(2)
    hands = quiet_hands(2)
    hands[0][0] = "isolde-3"
    draft_into(state, hands)
    legal = [a.to_json() for a in state.legal_actions() if a.params[0] == ("card", "isolde-3")]
    assert legal == [{"type": "play", "card": "isolde-3", "board": "isolde"}]
    play(state, "isolde-3")
    assert discs(state, "isolde")[0] == (0, 3)
    assert state.to_move == 1


def test_only_the_moving_disc_moves_and_discs_stacked_on_it_stay() -> None:
    """Rules file "Ranking" (shared/rules/isolde.md l. 48): "Only the moving disc moves; discs
    stacked on it stay." Seat 0 lies at the bottom of a stack on joust space 4 under seat 1;
    seat 0 moves 3: seat 1 stays on space 4. Then seat 1, on top, moves 2 from a stack of its
    own on tourney: seat 0 under it stays."""
    state = new_game(2)
    hands = quiet_hands(2)
    hands[0][0], hands[1][0] = "combat-3", "combat-2"
    draft_into(state, hands)
    place(state, "joust", [(0, 4), (1, 4)])
    place(state, "tourney", [(0, 5), (1, 5)])
    play(state, "combat-3", "joust")
    assert discs(state, "joust") == [(0, 7), (1, 4)]
    play(state, "combat-2", "tourney")
    assert discs(state, "tourney") == [(1, 7), (0, 5)]


def test_the_view_keeps_the_cards_played_in_the_round_before() -> None:
    """Rules file "Hidden information": every played card is public. In a new round `played`
    starts empty and `last_round_played` lists the round before, in the order played (the
    table a player looks at when the next round begins); after the end it lists round 6."""
    state = new_game(2)
    hands = quiet_hands(2)
    draft_into(state, hands)
    plays = []
    for _ in play_on(state, 100, until=lambda s: s.view(None)["phase"] != "play"):
        seat = state.to_move
        assert isinstance(seat, int)
        card = next(c for c in state.view(seat)["hand"] if c in hands[seat][:4])
        plays.append({"seat": seat, "card": card, "board": card.rpartition("-")[0]})
        play(state, card)
    view = state.view(None)
    assert view["round"] == 2 and view["played"] == []
    assert view["last_round_played"] == plays
    for _ in range(5):
        quiet_round(state)
    view = state.view(None)
    assert state.is_terminal() and view["played"] == []
    assert len(view["last_round_played"]) == 8


def test_the_start_player_passes_to_the_left_every_round() -> None:
    """Seed 004, l. 304: "Nach jeder Spielrunde wird der Spieler links vom aktuellen Startspieler
    neuer Startspieler." """
    state = new_game(4, start_player=1)
    starts = []
    for _ in range(3):
        starts.append(state.view(None)["start_player"])
        quiet_round(state)
    assert starts == [1, 2, 3]
    assert state.view(None)["round"] == 4
