"""The Witches of Blackmore, rule by rule, on exact positions.

Rulebook: shared/seeds/001_15b737e4e8baa6d5.txt (German; quoted in each test's docstring).
Gaps settled in shared/rules/witches.md (cited by section). Positions are built with chance
`draw` actions: the deal goes round-robin from seat 0, 6 cards each, then one card is turned up.
"""

from __future__ import annotations

import pytest
from witches_table import (
    ALL_CARDS,
    change,
    deal,
    draw,
    filled,
    hand,
    in_card_order,
    keep,
    last_trick,
    play,
    public,
)

import spielwerk

# The rulebook's example table ("Beispiel"): Anna, Brian, Carl, David and Emma, clockwise.
ANNA, BRIAN, CARL, DAVID, EMMA = range(5)
EXAMPLE_HANDS = [
    ["yellow-2", "purple-1", "purple-2", "purple-3", "purple-4", "purple-5"],  # Anna
    ["yellow-5", "purple-6", "purple-7", "purple-8", "purple-9", "grey-1"],  # Brian
    ["red-7", "grey-2", "grey-3", "grey-4", "grey-5", "grey-6"],  # Carl
    ["blue-4", "grey-7", "grey-8", "grey-9", "green-1", "green-2"],  # David
    ["blue-9", "green-3", "green-4", "green-5", "green-6", "green-8"],  # Emma
]
# "Anna beginnt den Stich mit ihrer gelben 2er Hexe; die anderen folgen wie in dem Bild gezeigt."
EXAMPLE_TRICK = ("yellow-2", "yellow-5", "red-7", "blue-4", "blue-9")


def example_table(trump: str = "blue-7") -> spielwerk.State:
    return deal(EXAMPLE_HANDS, trump)


def after_example_trick(trump: str = "blue-7") -> spielwerk.State:
    state = example_table(trump)
    play(state, *EXAMPLE_TRICK)
    return state


# ------------------------------------------------------------------------------------ set-up
def test_deal_is_round_robin_six_cards_each() -> None:
    """Rulebook "Spielaufbau": "Mische alle Karten und teile an jeden Spieler verdeckt 6 davon
    aus" - one card at a time round the table, starting with seat 0."""
    state = spielwerk.load("witches").new_state(3, seed=0)
    assert public(state)["phase"] == "deal"
    draw(state, "red-1")
    draw(state, "red-2")
    draw(state, "red-3")
    draw(state, "red-4")
    assert public(state)["hand_sizes"] == [2, 1, 1]
    assert hand(state, 0) == ["red-1", "red-4"]
    assert hand(state, 1) == ["red-2"]
    assert hand(state, 2) == ["red-3"]
    assert public(state)["draw_pile"] == 50


def test_setup_turns_up_the_first_trump_and_sets_the_wheel() -> None:
    """Rulebook "Spielaufbau": "wird die oberste Karte des Kartenstapels aufgedeckt neben den
    Stapel gelegt. Diese Karte bestimmt die Trumpf - Farbe ... Drehe das Hexenrad so, das der
    Wert der Trumpfkarte mit dem Wert auf dem Rad übereinstimmt." """
    state = spielwerk.load("witches").new_state(5, seed=0)
    for round_ in range(6):
        for seat_hand in EXAMPLE_HANDS:
            draw(state, seat_hand[round_])
    before = public(state)
    assert before["phase"] == "turn_up"
    assert before["to_move"] == "chance"
    assert before["trump"] is None
    draw(state, "blue-7")
    view = public(state)
    assert view["trump"] == "blue-7"
    assert view["trump_pile"] == ["blue-7"]
    assert view["wheel_order"] == [7, 6, 5, 4, 3, 2, 1, 9, 8]
    assert view["draw_pile"] == 54 - 5 * 6 - 1
    assert view["hand_sizes"] == [6, 6, 6, 6, 6]
    assert view["phase"] == "play"
    assert view["to_move"] == ANNA
    for seat, seat_hand in enumerate(EXAMPLE_HANDS):
        assert hand(state, seat) == in_card_order(seat_hand)


def test_a_card_dealt_cannot_come_up_again() -> None:
    """Rules file "Components": each (colour, value) exists exactly once, so a card already in a
    hand is no longer a possible draw."""
    state = spielwerk.load("witches").new_state(2, seed=0)
    draw(state, "green-6")
    with pytest.raises(spielwerk.IllegalAction):
        draw(state, "green-6")
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 53
    assert {a.to_json()["card"] for a, _ in outcomes} == set(ALL_CARDS) - {"green-6"}
    assert all(p == pytest.approx(1 / 53) for _, p in outcomes)


# ------------------------------------------------------------------------------------ tricks
def test_play_goes_clockwise_from_the_start_player() -> None:
    """Rulebook "Das Spiel": "Jede Runde spielt der Startspieler die erste Karte, im
    Uhrzeigersinn gefolgt von den anderen Spielern." """
    state = example_table()
    seen = []
    for card in EXAMPLE_TRICK:
        seen.append(public(state)["to_move"])
        play(state, card)
    assert seen == [ANNA, BRIAN, CARL, DAVID, EMMA]


def test_rulebook_example_david_wins_with_the_blue_4() -> None:
    """Rulebook "Beispiel": "Die blaue 7er Hexe ist die Trumpfkarte, also ist die Reihenfolge
    7-6-5-4-3-2-1-9-8 ... Der Gewinner ist David mit seiner blauen 4er Hexe. Diese Karte ist ein
    Trumpf und hat einen höheren Wert als die blaue 9er Hexe von Emma." """
    state = example_table()
    assert public(state)["wheel_order"] == [7, 6, 5, 4, 3, 2, 1, 9, 8]
    play(state, *EXAMPLE_TRICK)
    view = public(state)
    assert view["trick"] == [
        {"player": ANNA, "card": "yellow-2"},
        {"player": BRIAN, "card": "yellow-5"},
        {"player": CARL, "card": "red-7"},
        {"player": DAVID, "card": "blue-4"},
        {"player": EMMA, "card": "blue-9"},
    ]
    assert view["phase"] == "choose_trump"
    assert view["trick_winner"] == DAVID
    assert view["to_move"] == DAVID


def test_rulebook_example_red_7_is_highest_but_cannot_win() -> None:
    """Rulebook "Beispiel": "Die Karte mit dem höchsten Wert ist die rote 7er Hexe, aber die
    Karte ist weder ein Trumpf, noch hat sie die führende Farbe, daher kann sie den Stich nicht
    gewinnen." - only as trump (here red 1 turned up) would Carl's red 7 win."""
    blue = after_example_trick("blue-7")
    assert public(blue)["trick_winner"] != CARL
    red = after_example_trick("red-1")
    assert public(red)["wheel_order"] == [1, 9, 8, 7, 6, 5, 4, 3, 2]
    assert public(red)["trick_winner"] == CARL


def test_rulebook_example_with_green_trump_brian_wins() -> None:
    """Rulebook "Beispiel": "Wäre die Trumpffarbe zum Beispiel grün an Stelle von blau, wäre
    Brian der Gewinner gewesen, der die höchste Karte der führenden Farbe gespielt hat." (No
    green is played; yellow 5 ranks above yellow 2 on the wheel 7-6-5-4-3-2-1-9-8.)"""
    state = after_example_trick("green-7")
    assert public(state)["trump"] == "green-7"
    assert public(state)["trick_winner"] == BRIAN


def test_no_duty_to_follow_colour() -> None:
    """Rulebook "Das Spiel": "Die anderen Spieler können ebenfalls jede beliebige Karte spielen.
    Sie können der führenden Farbe folgen, eine Trumpfkarte spielen, oder eine Karte einer
    beliebigen Farbe." Brian holds yellow 5 when yellow is led but may play any card."""
    state = example_table()
    play(state, "yellow-2")
    offered = [a.to_json()["card"] for a in state.legal_actions(BRIAN)]
    assert sorted(offered) == sorted(EXAMPLE_HANDS[BRIAN])
    play(state, "purple-6")  # not yellow, not trump
    assert public(state)["trick"][-1] == {"player": BRIAN, "card": "purple-6"}
    play(state, "red-7", "blue-4", "blue-9")
    assert public(state)["trick_winner"] == DAVID


def test_off_colour_card_never_wins_even_when_highest() -> None:
    """Rulebook "Einen Stich gewinnen": "Wenn keine Trumpfkarten gespielt wurden, wird der Stich
    von der Karte mit dem höchsten Wert und der führenden Farbe gewonnen." Anna's yellow 2 is the
    only yellow, so it beats Brian's purple 7 (top of the wheel) and Carl's red 6."""
    hands = filled([["yellow-2"], ["purple-7"], ["red-6"]], "blue-7")
    state = deal(hands, "blue-7")
    play(state, "yellow-2", "purple-7", "red-6")
    assert public(state)["trick_winner"] == 0


def test_lowest_trump_beats_highest_led_colour() -> None:
    """Rulebook "Einen Stich gewinnen": "Der Stich wird von der Trumpfkarte mit dem höchsten Wert
    gewonnen" - any trump beats every card of the led colour."""
    hands = filled([["yellow-7"], ["yellow-6"], ["blue-8"]], "blue-7")
    state = deal(hands, "blue-7")
    play(state, "yellow-7", "yellow-6", "blue-8")  # blue 8 is the lowest blue on 7-6-...-9-8
    assert public(state)["trick_winner"] == 2


def test_a_trump_lead_makes_trump_the_led_colour() -> None:
    """Rulebook "Das Spiel": "Die Farbe der vom Startspieler gespielten Karte ist führend für
    diesen Stich, dies kann jede beliebige Farbe sein." A led trump is beaten only by a higher
    trump: here blue 6 (second on the wheel) beats the led blue 1."""
    hands = filled([["blue-1"], ["red-7"], ["blue-6"]], "blue-7")
    state = deal(hands, "blue-7")
    play(state, "blue-1", "red-7", "blue-6")
    assert public(state)["trick_winner"] == 2


# ------------------------------------------------------------------------------------ the wheel
@pytest.mark.parametrize(
    ("wheel", "trump", "order"),
    [
        ("descending", "blue-7", [7, 6, 5, 4, 3, 2, 1, 9, 8]),
        ("ascending", "blue-7", [7, 8, 9, 1, 2, 3, 4, 5, 6]),
        ("descending", "red-1", [1, 9, 8, 7, 6, 5, 4, 3, 2]),
        ("ascending", "red-1", [1, 2, 3, 4, 5, 6, 7, 8, 9]),
        ("descending", "grey-9", [9, 8, 7, 6, 5, 4, 3, 2, 1]),
        ("ascending", "grey-9", [9, 1, 2, 3, 4, 5, 6, 7, 8]),
        ("descending", "green-4", [4, 3, 2, 1, 9, 8, 7, 6, 5]),
        ("ascending", "green-4", [4, 5, 6, 7, 8, 9, 1, 2, 3]),
    ],
)
def test_wheel_order(wheel: str, trump: str, order: list[int]) -> None:
    """Rulebook "Werte": "Die Rangfolge hängt vom Wert der aktuellen Trumpfkarte ab und von der
    Reihenfolge der Karten auf der sichtbaren Seite des Hexenrades" and "Wenn mit der anderen
    Seite des Hexenrades gespielt wird, ändert sich die Reihenfolge von absteigend zu
    aufsteigend"; rules file "Ranking": descending t, t-1, ..., 1, 9, ..., t+1 and ascending
    t, t+1, ..., 9, 1, ..., t-1."""
    state = deal(filled([[], [], []], trump), trump, wheel=wheel)
    assert public(state)["wheel"] == wheel
    assert public(state)["wheel_order"] == order


@pytest.mark.parametrize(("wheel", "winner"), [("descending", 0), ("ascending", 1)])
def test_wheel_side_decides_a_real_trick(wheel: str, winner: int) -> None:
    """Rulebook "Werte" with trump value 7: descending 7-6-5-4-3-2-1-9-8 puts red 6 above red 1
    above red 9; ascending 7-8-9-1-2-3-4-5-6 puts red 9 above red 1 above red 6."""
    hands = filled([["red-6"], ["red-9"], ["red-1"]], "grey-7")
    state = deal(hands, "grey-7", wheel=wheel)
    play(state, "red-6", "red-9", "red-1")
    assert public(state)["trick_winner"] == winner


def test_default_wheel_is_the_descending_side() -> None:
    """Rulebook "Spielaufbau": "Für die ersten Spiele sollte die absteigende Seite des Rades
    gewählt werden." The default option is that side."""
    state = deal(filled([[], []], "red-3"), "red-3")
    assert public(state)["wheel"] == "descending"
    assert public(state)["wheel_order"] == [3, 2, 1, 9, 8, 7, 6, 5, 4]


# ------------------------------------------------------------------------------------ capture
def test_winner_keeps_trump_and_captures_the_whole_trick() -> None:
    """Rulebook "Ende einer Runde": "Die Karten des Stichs werden verdeckt vor dem Spieler
    abgelegt der den Stich gewonnen hat." keep_trump leaves blue 7 on top; David captures all
    five cards (2+5+7+4+9 = 27 points)."""
    state = after_example_trick()
    keep(state)
    view = public(state)
    assert view["trump"] == "blue-7"
    assert view["trump_pile"] == ["blue-7"]
    assert view["captured"][DAVID] == in_card_order(EXAMPLE_TRICK)
    assert view["scores"] == [0, 0, 0, 27, 0]
    assert view["trick"] == []
    assert last_trick(state) == {
        "players": [ANNA, BRIAN, CARL, DAVID, EMMA],
        "cards": list(EXAMPLE_TRICK),
        "winner": DAVID,
        "new_trump": None,
        "points": 27,
    }
    assert view["hand_sizes"] == [5, 5, 5, 5, 5]


# ------------------------------------------------------------------------------------ trump change
def test_trump_change_takes_the_card_from_the_capture_and_turns_the_wheel() -> None:
    """Rulebook "Trumpf wechseln": "Der Gewinner eines Stichs kann eine seiner in diesem Stich
    eroberten Karten nehmen und diese über die momentane Trumpfkarte legen, dadurch kann er
    beides verändern, die Farbe und den Wert der Trumpfkarte. Das Rad wird dann so gedreht das
    der Wert des Rades und der Karte wieder übereinstimmt." David lays Brian's yellow 5 on top."""
    state = after_example_trick()
    options = sorted(str(a) for a in state.legal_actions(DAVID))
    assert options == sorted(
        ["keep_trump"] + [f"change_trump card={card}" for card in EXAMPLE_TRICK]
    )
    change(state, "yellow-5")
    view = public(state)
    assert view["trump"] == "yellow-5"
    assert view["trump_pile"] == ["blue-7", "yellow-5"]
    assert view["wheel_order"] == [5, 4, 3, 2, 1, 9, 8, 7, 6]
    assert view["captured"][DAVID] == in_card_order(["yellow-2", "red-7", "blue-4", "blue-9"])
    assert view["scores"][DAVID] == 2 + 7 + 4 + 9
    assert last_trick(state)["new_trump"] == "yellow-5"
    assert last_trick(state)["points"] == 2 + 7 + 4 + 9  # what the page shows for the trick


def test_winner_may_make_his_own_card_trump() -> None:
    """Rulebook "Trumpf wechseln": any card the winner captured in this trick, his own
    included."""
    state = after_example_trick()
    change(state, "blue-4")
    assert public(state)["trump"] == "blue-4"
    assert public(state)["wheel_order"] == [4, 3, 2, 1, 9, 8, 7, 6, 5]
    assert public(state)["scores"][DAVID] == 2 + 5 + 7 + 9


@pytest.mark.parametrize(
    ("bad", "player"),
    [
        ({"type": "change_trump", "card": "grey-7"}, None),  # David's hand, not the trick
        ({"type": "change_trump", "card": "blue-7"}, None),  # already the trump
        ({"type": "change_trump", "card": "yellow-5"}, EMMA),  # not the winner
        ({"type": "keep_trump"}, ANNA),
        ({"type": "play", "card": "grey-7"}, None),  # the trick is complete
    ],
)
def test_trump_change_only_by_the_winner_and_only_a_card_of_this_trick(
    bad: dict[str, str], player: int | None
) -> None:
    """Rulebook "Trumpf wechseln": only "der Gewinner eines Stichs" may, and only with "eine
    seiner in diesem Stich eroberten Karten"; anything else is refused and changes nothing."""
    state = after_example_trick()
    before = [state.view(p) for p in (None, *range(5))]
    with pytest.raises(spielwerk.IllegalAction):
        state.apply(bad, player=player)
    assert [state.view(p) for p in (None, *range(5))] == before


# Trick two after the example: David leads grey 7, Anna purple 1, Brian purple 6, Carl grey 5;
# Emma has drawn yellow 1 in the refill.
REFILL = ("red-1", "yellow-1", "red-3", "red-4", "red-5")  # to David, Emma, Anna, Brian, Carl


@pytest.mark.parametrize(
    ("new_trump", "emma_plays", "winner"),
    [
        (None, "yellow-1", DAVID),  # blue 7 stays: grey is led, grey 7 tops 7-6-5-...
        ("yellow-5", "yellow-1", EMMA),  # yellow is trump now: even yellow 1 wins
        ("yellow-5", "green-3", CARL),  # no trump played: grey 5 tops the wheel 5-4-3-...
    ],
)
def test_changed_trump_rules_the_next_trick(
    new_trump: str | None, emma_plays: str, winner: int
) -> None:
    """Rulebook "Trumpf wechseln": the new card sets both "die Farbe und den Wert der
    Trumpfkarte" for the following trick; "Der Gewinner des Stiches wird der Startspieler für
    die nächste Runde." """
    state = after_example_trick()
    if new_trump is None:
        keep(state)
    else:
        change(state, new_trump)
    draw(state, *REFILL)
    assert public(state)["to_move"] == DAVID
    play(state, "grey-7", emma_plays, "purple-1", "purple-6", "grey-5")
    assert public(state)["trick_winner"] == winner


# ------------------------------------------------------------------------------------ refill
def test_refill_starts_with_the_winner_then_clockwise() -> None:
    """Rulebook "Ende einer Runde": "Nun füllen alle Spieler ihre Handkarten wieder auf, indem
    sie eine Karte vom Stapel ziehen, beginnend mit dem Gewinner des Stichs, von den anderen
    Spielern im Uhrzeigersinn gefolgt." David won: David, Emma, Anna, Brian, Carl."""
    state = after_example_trick()
    keep(state)
    receivers = []
    for card in REFILL:
        assert public(state)["to_move"] == "chance"
        action = state.game.action_from_json({"type": "draw", "card": card})
        text = state.describe(action, None)
        receivers.append(int(text.split()[1]) - 1)  # the text counts seats from 1
        sizes = public(state)["hand_sizes"]
        draw(state, card)
        grown = [
            p
            for p, (a, b) in enumerate(zip(sizes, public(state)["hand_sizes"], strict=True))
            if b > a
        ]
        assert grown == [receivers[-1]]
        assert card in hand(state, receivers[-1])
    assert receivers == [DAVID, EMMA, ANNA, BRIAN, CARL]
    view = public(state)
    assert view["hand_sizes"] == [6, 6, 6, 6, 6]
    assert view["draw_pile"] == 54 - 30 - 1 - 5
    assert view["phase"] == "play"
    assert view["to_move"] == DAVID  # "Der Gewinner des Stiches wird der Startspieler"
    assert hand(state, EMMA) == in_card_order([*EXAMPLE_HANDS[EMMA][1:], "yellow-1"])
