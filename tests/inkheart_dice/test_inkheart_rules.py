"""Tintenherz - Das Würfelspiel, rule by rule, on exact positions.

Rulebook: shared/seeds/002_51e81a5baffa8d59.txt (English; quoted in each test's docstring).
Gaps settled in shared/rules/inkheart_dice.md (cited by section). Positions are built with
chance actions: four `draw`s turn up the centre, every turn starts with a `roll`.
"""

from __future__ import annotations

import pytest
from inkheart_table import (
    ALL_CARDS,
    card_actions,
    draw,
    end_turn,
    legal,
    new_game,
    public,
    reroll,
    roll,
    roll_die,
    secure,
    steal,
    take,
)

import spielwerk
from spielwerk.core.state import State

A, B = 0, 1


def example_table() -> State:
    """The rulebook's example: Player A (seat 0) holds Farid (+4), the opponent (seat 1)
    Darius (+1); the centre shows Basta (-3) and Staubfinger (+5) with Gwin (+2) and Mo (+8)."""
    state = new_game(["Farid", "Darius", "Basta", "Gwin"])
    roll(state, 4, 2)
    take(state, "Farid", refill="Staubfinger")
    roll(state, 1, 6)
    take(state, "Darius", refill="Mo")
    return state


# ------------------------------------------------------------------------------------ set-up
def test_setup_turns_up_four_cards_and_the_start_player_rolls() -> None:
    """Rulebook "Preparation": "The 16 character cards are shuffled and laid on the table face
    down as a draw pile. The top-most four cards are turned over and laid face up in the middle
    of the table." "The youngest player takes the two dice and starts the game." """
    state = spielwerk.load("inkheart_dice").new_state(3, seed=0)
    assert public(state)["phase"] == "setup"
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 16
    assert all(p == pytest.approx(1 / 16) for _, p in outcomes)
    draw(state, "Mo", "Basta", "Darius")
    assert public(state)["phase"] == "setup"
    draw(state, "Resa")
    view = public(state)
    assert view["centre"] == ["Darius", "Resa", "Mo", "Basta"]
    assert view["draw_pile"] == 12
    assert view["phase"] == "roll"
    assert view["current"] == 0
    assert view["to_move"] == "chance"
    assert view["unsafe"] == [[], [], []] and view["safe"] == [[], [], []]
    assert view["hearts"] == [1, 1, 1]  # "Each player takes a castle card ... heart side up"


def test_a_card_turned_up_cannot_come_up_again() -> None:
    """Rules file "Components": 16 different cards; the pile holds the cards nobody has seen,
    each equally likely to come up next."""
    state = new_game(["Mo", "Basta", "Darius", "Resa"])
    roll(state, 2, 6)
    take(state, "Mo")
    outcomes = state.chance_outcomes()
    cards = {a.to_json()["card"] for a, _ in outcomes}
    assert cards == set(ALL_CARDS) - {"Mo", "Basta", "Darius", "Resa"}
    assert all(p == pytest.approx(1 / 12) for _, p in outcomes)
    with pytest.raises(spielwerk.IllegalAction):
        draw(state, "Basta")


def test_a_roll_is_36_ordered_outcomes() -> None:
    """Rulebook "How to play": "On their turn, the player rolls both dice" - two six-sided
    dice, so 36 ordered outcomes of probability 1/36."""
    state = new_game(["Mo", "Basta", "Darius", "Resa"])
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 36
    assert {(a.to_json()["first"], a.to_json()["second"]) for a, _ in outcomes} == {
        (x, y) for x in range(1, 7) for y in range(1, 7)
    }
    assert all(p == pytest.approx(1 / 36) for _, p in outcomes)


# ------------------------------------------------------------------------------------ matching
def test_rulebook_example_6_and_3_allows_only_basta() -> None:
    """Rulebook example: "It is Player A's turn and he rolls 6 and 3. He may only take the
    Basta card with this roll and would put a -3 point card under his Castle Card." """
    state = example_table()
    assert public(state)["centre"] == ["Gwin", "Staubfinger", "Mo", "Basta"]
    assert public(state)["unsafe"] == [["Farid"], ["Darius"]]
    roll(state, 6, 3)
    assert card_actions(state) == [{"type": "take", "card": "Basta"}]
    assert legal(state) == [
        {"type": "take", "card": "Basta"},
        {"type": "reroll", "die": 3},
        {"type": "reroll", "die": 6},
        {"type": "reroll_both"},
    ]
    taken = state.clone()
    take(taken, "Basta")
    assert public(taken)["safe"][A] == ["Basta"]


def test_the_buttons_name_the_die_rerolled_and_the_seat_stolen_from() -> None:
    """The rulebook example's choices as the buttons say them: with 6 and 3, re-rolling one die
    keeps the other ("Re-roll the 3, keep the 6"); after 4 and 1, Darius is taken from the seat
    that has it (Player B, the second seat: "seat 2"), not from "an opponent"."""
    state = example_table()
    roll(state, 6, 3)
    buttons = {str(a.to_json().get("die")): state.label(a, A, "en") for a in state.legal_actions()}
    assert buttons["3"] == "Re-roll the 3, keep the 6"
    assert buttons["6"] == "Re-roll the 6, keep the 3"
    german = [state.label(a, A, "de") for a in state.legal_actions() if a.type == "reroll"]
    assert german == ["Würfle die 3 neu, behalte die 6", "Würfle die 6 neu, behalte die 3"]
    reroll(state)
    roll(state, 4, 1)
    steal = next(a for a in state.legal_actions() if a.type == "steal")
    assert state.label(steal, A, "en") == "Take Darius (+1) from seat 2"
    assert state.label(steal, A, "de") == "Nimm Darius (+1) von Platz 2"


def test_rulebook_example_the_reroll_to_4_and_1() -> None:
    """Rulebook example: "Instead, he rolls both dice again, this time rolling a 4 and a 1. Now
    he could take the Staubfinger (+5) card from the centre of the table ... Or he could take
    his opponent's Darius (+1) card ... Or he could make his Farid (+4) card safe and slide it
    under his Castle Card." """
    state = example_table()
    roll(state, 6, 3)
    reroll(state)
    assert public(state)["rerolling"] == "both"
    assert len(state.chance_outcomes()) == 36
    roll(state, 4, 1)
    assert legal(state) == [
        {"type": "take", "card": "Staubfinger"},
        {"type": "steal", "card": "Darius"},
        {"type": "secure", "card": "Farid"},
    ]
    for action, unsafe, safe in (
        ({"type": "take", "card": "Staubfinger"}, [["Farid", "Staubfinger"], ["Darius"]], []),
        ({"type": "steal", "card": "Darius"}, [["Darius", "Farid"], []], []),
        ({"type": "secure", "card": "Farid"}, [[], ["Darius"]], ["Farid"]),
    ):
        branch = state.clone()
        branch.apply(action)
        assert public(branch)["unsafe"] == unsafe
        assert public(branch)["safe"][A] == safe


@pytest.mark.parametrize(
    ("dice", "matched"),
    [
        ((6, 3), {"Fenoglio", "Elinor", "Meggie", "Basta", "Capricorn"}),
        ((4, 1), {"Farid", "Darius", "Staubfinger", "Flachnase", "Fulvio", "Mortola"}),
        ((4, 6), {"Farid", "Fenoglio", "Zauberzunge", "Flachnase", "Capricorn"}),
        ((5, 5), {"Staubfinger", "Zauberzunge", "Mortola"}),
        ((1, 1), {"Darius", "Gwin", "Fulvio", "Cockerell"}),
    ],
)
def test_a_card_is_matched_by_one_die_or_the_sum(dice: tuple[int, int], matched: set[str]) -> None:
    """Rulebook "Take a Character Card": "either one of the dice must show the same value as the
    card to be taken or the sum of both dice equals the card to be taken." Rules file
    "Matching": negative cards by their absolute value; 10 only by the sum."""
    params = spielwerk.load("inkheart_dice").params  # type: ignore[attr-defined]
    got = {name for c, name in enumerate(params.names) if params.matches(c, dice[0], dice[1])}
    assert got == matched
    zauberzunge = params.card_from_name("Zauberzunge")
    assert not any(
        params.matches(zauberzunge, a, b) for a in range(1, 7) for b in range(1, 7) if a + b != 10
    )


# ------------------------------------------------------------------------------------ taking
def test_a_positive_card_lies_unsafe_and_the_centre_is_refilled() -> None:
    """Rulebook: "If the Character Card shows a positive value, it is placed face up next to the
    player's Castle Card." "Then the card taken is replaced by the top card of the draw pile so
    that there are again four face-up cards in the centre of the table." """
    state = new_game(["Mo", "Basta", "Darius", "Resa"])
    roll(state, 2, 6)
    take(state, "Mo")
    view = public(state)
    assert view["unsafe"][A] == ["Mo"] and view["safe"][A] == []
    assert view["phase"] == "refill" and view["to_move"] == "chance"
    assert len(view["centre"]) == 3
    draw(state, "Meggie")
    view = public(state)
    assert view["centre"] == ["Darius", "Resa", "Meggie", "Basta"]
    assert view["draw_pile"] == 11
    assert view["current"] == B and view["phase"] == "roll"


def test_a_negative_card_goes_straight_under_the_castle() -> None:
    """Rulebook: "If the Character Card shows a negative value, it is slid underneath the
    Castle Card." """
    state = new_game(["Mo", "Basta", "Darius", "Resa"])
    roll(state, 3, 5)
    take(state, "Basta", refill="Meggie")
    view = public(state)
    assert view["safe"][A] == ["Basta"] and view["unsafe"][A] == []
    assert view["scores"][A] == 0  # -3 x 1, or discard the castle with Basta: 0


def test_taking_an_opponents_unsafe_card() -> None:
    """Rulebook "Important": "the player can take one of the Character Cards of an opponent that
    is still in front of them (not underneath their Castle Card ...). This can be done if the
    value of one die or both dice matches the value of the card to be taken." """
    state = example_table()
    roll(state, 1, 6)  # A: 1 shows the opponent's Darius
    assert {"type": "steal", "card": "Darius"} in legal(state)
    steal(state, "Darius")
    view = public(state)
    assert view["unsafe"] == [["Darius", "Farid"], []]
    assert view["current"] == B and view["phase"] == "roll"


def test_a_safe_card_cannot_be_taken() -> None:
    """Rulebook: only cards "still in front of them (not underneath their Castle Card)" may be
    taken from an opponent."""
    state = example_table()
    roll(state, 4, 2)
    secure(state, "Farid")
    roll(state, 4, 6)  # B: 4 shows Farid, but it is safe
    assert {"type": "steal", "card": "Farid"} not in legal(state)
    assert card_actions(state) == []


def test_making_an_own_card_safe() -> None:
    """Rulebook "Make a positive Character Card safe": "This can be done if the value of one
    die or both dice matches the value of the card to be made safe. To make the card safe, it is
    taken from in front of the player and slid under the player's Castle Card." """
    state = example_table()
    roll(state, 2, 2)  # 4 = 2 + 2: Farid; 2: Gwin in the centre
    assert legal(state)[:2] == [
        {"type": "take", "card": "Gwin"},
        {"type": "secure", "card": "Farid"},
    ]
    secure(state, "Farid")
    view = public(state)
    assert view["safe"][A] == ["Farid"] and view["unsafe"][A] == []
    assert view["scores"][A] == 4
    # Only one's own cards are made safe: the opponent's Darius is not offered to seat 0.
    assert all(a["type"] != "secure" or a["card"] != "Darius" for a in legal(state))


def test_only_one_action_per_turn() -> None:
    """Rulebook "Note": "a player may only take / make safe one card even if their dice roll
    would allow further actions to be taken." After one action the dice pass on."""
    state = example_table()
    roll(state, 4, 1)  # Staubfinger, Darius and Farid all possible
    steal(state, "Darius")
    view = public(state)
    assert view["current"] == B and view["to_move"] == "chance" and view["dice"] is None


# ------------------------------------------------------------------------------------ re-roll
def test_reroll_one_die_keeps_the_other() -> None:
    """Rulebook "Re-roll the dice": "they can decide to re-roll one or both of the dice." Only
    the chosen die is rolled again: 6 outcomes of 1/6."""
    state = example_table()
    roll(state, 6, 3)
    reroll(state, 6)
    assert public(state)["rerolling"] == "first"
    outcomes = state.chance_outcomes()
    assert [a.to_json()["value"] for a, _ in outcomes] == [1, 2, 3, 4, 5, 6]
    assert all(p == pytest.approx(1 / 6) for _, p in outcomes)
    roll_die(state, 2)
    view = public(state)
    assert view["dice"] == [2, 3]
    assert view["phase"] == "forced"
    # 2: Gwin; 3: Basta; 5: Staubfinger.
    assert legal(state) == [
        {"type": "take", "card": "Gwin"},
        {"type": "take", "card": "Staubfinger"},
        {"type": "take", "card": "Basta"},
    ]


def test_reroll_of_a_double_offers_one_single_die() -> None:
    """Rules file "A turn": re-roll one die or both; with a double both dice are alike, so one
    single-die re-roll is offered."""
    state = example_table()
    roll(state, 3, 3)
    assert [a for a in legal(state) if a["type"] in ("reroll", "reroll_both")] == [
        {"type": "reroll", "die": 3},
        {"type": "reroll_both"},
    ]


def test_after_the_reroll_an_action_is_compulsory_even_a_negative_card() -> None:
    """Rulebook: "After re-rolling, they must, if possible, take one of the two actions detailed
    above." Rules file: "After the re-roll the player must take an action if one is possible
    (also a negative card)". No second re-roll, no ending the turn."""
    state = example_table()
    roll(state, 6, 6)  # 6 and 12: nothing possible
    reroll(state, 6)
    roll_die(state, 3)  # 6, 3: only Basta
    assert legal(state) == [{"type": "take", "card": "Basta"}]
    assert public(state)["rerolled"] is True
    with pytest.raises(spielwerk.IllegalAction):
        end_turn(state)
    with pytest.raises(spielwerk.IllegalAction):
        reroll(state)
    take(state, "Basta", refill="Resa")
    assert public(state)["safe"][A] == ["Basta"]


def test_after_a_reroll_without_any_possible_action_the_turn_ends() -> None:
    """Rules file "A turn", 3: "if none is possible the turn ends." """
    state = example_table()
    roll(state, 6, 6)
    reroll(state)
    roll(state, 6, 6)
    view = public(state)
    assert view["current"] == B and view["phase"] == "roll" and view["to_move"] == "chance"
    assert view["turn"] == 4


def test_end_turn_only_when_the_first_roll_allows_nothing() -> None:
    """Rulebook: "If a player is unable to, or chooses not to, take an action with their first
    dice roll, they can decide to re-roll". Rules file: "Doing nothing although an action is
    possible is not allowed before the re-roll. With no possible action on the first roll the
    player may re-roll or end the turn." """
    state = example_table()
    roll(state, 6, 6)
    assert legal(state) == [
        {"type": "reroll", "die": 6},
        {"type": "reroll_both"},
        {"type": "end_turn"},
    ]
    end_turn(state)
    assert public(state)["current"] == B
    other = example_table()
    roll(other, 6, 3)
    assert {"type": "end_turn"} not in legal(other)
    with pytest.raises(spielwerk.IllegalAction):
        end_turn(other)


def test_play_goes_clockwise() -> None:
    """Rulebook "How to play": "Each player takes turns in clockwise order around the table."
    "After the player has taken an action, the dice are passed to the next player in clockwise
    order." """
    state = new_game(["Mo", "Basta", "Darius", "Resa"], players=4)
    seen = []
    for _ in range(5):
        seen.append(public(state)["current"])
        roll(state, 6, 6)
        end_turn(state)
    assert seen == [0, 1, 2, 3, 0]


RULES_FILE_CARDS = {
    "Darius": (1, 0),
    "Gwin": (2, 1),
    "Elinor": (3, 0),
    "Farid": (4, 0),
    "Staubfinger": (5, 0),
    "Fenoglio": (6, 0),
    "Resa": (7, 1),
    "Mo": (8, 0),
    "Meggie": (9, 1),
    "Zauberzunge": (10, 0),
    "Fulvio": (-1, 0),
    "Cockerell": (-2, 0),
    "Basta": (-3, 0),
    "Flachnase": (-4, 0),
    "Mortola": (-5, 1),
    "Capricorn": (-6, 1),
}


def test_the_sixteen_cards_are_the_rules_files_table() -> None:
    """Rules file "Components" (shared/rules/inkheart_dice.md l. 6-26): 16 character cards, each
    value +1..+10 and -1..-6 once, named and with the hearts of the table; the castle card shows
    1 heart. The data file (data.toml) holds them; this pins it to the table."""
    from spielwerk.games.inkheart_dice.params import PARAMS

    cards = {
        name: (value, hearts)
        for name, value, hearts in zip(PARAMS.names, PARAMS.values, PARAMS.hearts, strict=True)
    }
    assert cards == RULES_FILE_CARDS
    assert PARAMS.castle_hearts == 1
