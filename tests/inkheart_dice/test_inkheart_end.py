"""Tintenherz - Das Würfelspiel: the end of the game and scoring.

Rulebook "Game End and Scoring" and "Castle Card" (quoted in each test). Rules file
shared/rules/inkheart_dice.md, "End and scoring". Short games are ended by the `max_turns`
option [design], which scores them as usual.
"""

from __future__ import annotations

import pytest
from inkheart_table import (
    ALL_CARDS,
    dice_for,
    end_turn,
    legal,
    new_game,
    pass_turn,
    public,
    roll,
    secure,
    steal,
    take,
    take_with_roll,
)

import spielwerk
from spielwerk.core.state import State

ORDER = ALL_CARDS  # the pile order these tests deal: positives +1..+10, then -1..-6


def twelve_takes() -> State:
    """Two seats take the centre cards in ORDER, each refilled from the pile in ORDER, until the
    pile is empty (12 takes); seat 0 is to move."""
    state = new_game(ORDER[:4])
    for index in range(12):
        take_with_roll(state, ORDER[index], refill=ORDER[index + 4])
    return state


def take_and_make_safe(state: State, card: str, refill: str, dice: tuple[int, int]) -> None:
    """Seat 0 takes `card` from the centre (`refill` comes up), seat 1 passes, seat 0 rolls
    `dice` and makes the card safe, seat 1 passes again."""
    take_with_roll(state, card, refill=refill)
    pass_turn(state)
    roll(state, *dice)
    secure(state, card)
    pass_turn(state)


def test_the_game_ends_when_the_centre_cannot_be_refilled() -> None:
    """Rulebook "Game End and Scoring": "The game ends when a card cannot be replaced in the
    middle of the table because the draw pile is empty." Rules file: "So the 13th card taken
    from the centre ends it. That take resolves first: a negative card goes under the castle and
    counts"."""
    state = twelve_takes()
    view = public(state)
    assert view["draw_pile"] == 0
    assert view["centre"] == ["Basta", "Flachnase", "Mortola", "Capricorn"]
    assert not state.is_terminal()
    take_with_roll(state, "Basta")
    assert state.is_terminal()
    view = public(state)
    assert view["centre"] == ["Flachnase", "Mortola", "Capricorn"]
    assert view["safe"][0] == ["Fulvio", "Basta"]
    result = state.result()
    assert result["end"] == "the centre could not be refilled: the draw pile is empty"
    assert result["turns"] == 13
    assert result["scoring"][0]["kept"] == {"points": -4, "hearts": 1, "score": -4}


def test_unsafe_and_centre_cards_do_not_count() -> None:
    """Rulebook: "The cards in the middle of the table and unsafe Character Cards left open in
    front of the players are removed and do not count in the scoring." Rules file: a positive
    card taken by the last take "lies unsafe and is removed"."""
    state = twelve_takes()
    roll(state, 2, 1)  # seat 0: any roll allows something here
    steal(state, "Gwin")
    roll(state, *dice_for("Mortola"))  # seat 1
    take(state, "Mortola")
    assert state.is_terminal()
    view = public(state)
    assert view["unsafe"][1] == ["Farid", "Fenoglio", "Mo", "Zauberzunge"]
    assert view["unsafe"][0] == ["Darius", "Gwin", "Elinor", "Staubfinger", "Resa", "Meggie"]
    result = state.result()
    # Seat 1: Cockerell (-2) and Mortola (-5, a heart): -7 x 2 = -14, or discard: 0 x 0 = 0.
    assert result["scoring"][1] == {
        "castle": "discarded",
        "score": 0,
        "kept": {"points": -7, "hearts": 2, "score": -14},
        "discarded": {"points": 0, "hearts": 0, "score": 0},
    }
    assert result["scores"] == [0, 0]


def test_a_positive_card_taken_by_the_last_take_lies_unsafe_and_does_not_score() -> None:
    """Rules file "End and scoring" (shared/rules/inkheart_dice.md l. 43-45): "So the 13th card
    taken from the centre ends it. That take resolves first: ... a positive one lies unsafe and
    is removed." Mo (+8) is the 13th take: it lies unsafe in front of seat 0 and scores nothing;
    seat 0 keeps only Cockerell (-2) under its castle."""
    order = [
        *("Darius", "Gwin", "Elinor", "Farid", "Staubfinger", "Fenoglio", "Resa", "Meggie"),
        *("Zauberzunge", "Fulvio", "Cockerell", "Basta", "Mo", "Flachnase", "Mortola"),
        "Capricorn",
    ]
    state = new_game(order[:4])
    for index in range(12):
        take_with_roll(state, order[index], refill=order[index + 4])
    assert public(state)["centre"] == ["Mo", "Flachnase", "Mortola", "Capricorn"]
    take_with_roll(state, "Mo")
    assert state.is_terminal()
    view = public(state)
    assert "Mo" in view["unsafe"][0] and "Mo" not in view["safe"][0]
    assert view["safe"][0] == ["Cockerell"]
    scoring = state.result()["scoring"][0]
    assert scoring["kept"] == {"points": -2, "hearts": 1, "score": -2}
    assert scoring["discarded"] == {"points": 0, "hearts": 0, "score": 0}


def test_when_both_scorings_are_equal_the_castle_card_is_kept() -> None:
    """Rules file "End and scoring": "The better of the two is taken automatically, and the
    result records which"; state.py `best_score`: a tie keeps the castle card [design]. Gwin (+2,
    a heart) and Fulvio (-1): kept (2 - 1) x (1 + 1) = 2, discarded 2 x 1 = 2."""
    state = new_game(["Gwin", "Fulvio", "Mo", "Basta"], max_turns=5)
    take_and_make_safe(state, "Gwin", "Darius", (2, 2))
    take_with_roll(state, "Fulvio", refill="Elinor")
    assert state.is_terminal()
    assert state.result()["scoring"][0] == {
        "castle": "kept",
        "score": 2,
        "kept": {"points": 1, "hearts": 2, "score": 2},
        "discarded": {"points": 2, "hearts": 1, "score": 2},
    }
    assert public(state)["castle"][0] == "kept"


def test_equal_scores_share_the_win() -> None:
    """Rules file: "Highest score wins; equal scores share the win." returns(): 1 shared
    equally among the winners."""
    state = twelve_takes()
    take_with_roll(state, "Basta")
    assert state.result()["winners"] == [0, 1]
    assert state.returns() == [0.5, 0.5]


def test_rulebook_scoring_example() -> None:
    """Rulebook "Example of scoring": "a player has collected the cards Fenoglio (+6), Farid
    (+4) and Capricorn (-6 and a heart). ... Their total score is then 8 points i.e.
    (10 - 6) x 2 = 8. If the player had chosen to discard their Castle Card to remove the
    negative Character Card (Capricorn), they would have finished with a score of zero
    points, as their 10 positive points would have been multiplied by zero hearts." """
    state = new_game(["Fenoglio", "Farid", "Capricorn", "Gwin"], max_turns=9)
    take_and_make_safe(state, "Fenoglio", "Darius", (6, 6))
    take_and_make_safe(state, "Farid", "Elinor", (4, 4))
    assert not state.is_terminal()
    take_with_roll(state, "Capricorn", refill="Resa")
    assert state.is_terminal()
    result = state.result()
    assert public(state)["safe"][0] == ["Farid", "Fenoglio", "Capricorn"]
    assert result["scoring"][0] == {
        "castle": "kept",
        "score": 8,
        "kept": {"points": 4, "hearts": 2, "score": 8},
        "discarded": {"points": 10, "hearts": 0, "score": 0},
    }
    assert result["scores"] == [8, 0]
    assert result["winners"] == [0]
    assert state.returns() == [1.0, 0.0]
    assert result["end"] == "turn limit"


def test_discarding_the_castle_is_taken_when_better() -> None:
    """Rulebook "Castle Card": "Instead of including the heart shown on the Castle Card in the
    hearts used for scoring, a player can discard their Castle Card together with all negative
    Character Cards that they have collected." Rules file: "The better of the two is taken
    automatically, and the result records which." """
    state = new_game(["Gwin", "Meggie", "Capricorn", "Mortola"], max_turns=11)
    take_and_make_safe(state, "Gwin", "Darius", (1, 1))
    take_and_make_safe(state, "Meggie", "Elinor", (6, 3))
    take_with_roll(state, "Capricorn", refill="Farid")
    # Kept: (2 + 9 - 6) x 4 = 20; discarded: (2 + 9) x 2 = 22.
    assert public(state)["scores"][0] == 22
    pass_turn(state)
    take_with_roll(state, "Mortola", refill="Fenoglio")
    assert state.is_terminal()
    detail = state.result()["scoring"][0]
    # Kept: (2 + 9 - 6 - 5) x (1 + 1 + 1 + 1 + 1) = 0; discarded: (2 + 9) x 2 = 22.
    assert detail["kept"] == {"points": 0, "hearts": 5, "score": 0}
    assert detail["discarded"] == {"points": 11, "hearts": 2, "score": 22}
    assert detail["castle"] == "discarded"
    assert detail["score"] == 22
    assert public(state)["castle"][0] == "discarded"


def test_the_turn_limit_ends_and_scores_the_game() -> None:
    """Rules file: "the option `max_turns` (default 500) ends the game after that many turns
    and scores it as usual." """
    state = new_game(["Mo", "Basta", "Darius", "Resa"], max_turns=3)
    for _ in range(3):
        assert not state.is_terminal()
        roll(state, 6, 6)
        end_turn(state)
    assert state.is_terminal()
    assert state.legal_actions() == []
    result = state.result()
    assert result["end"] == "turn limit" and result["turns"] == 3
    assert result["scores"] == [0, 0]
    with pytest.raises(spielwerk.IllegalAction):
        roll(state, 1, 1)


def test_nothing_is_legal_after_the_end() -> None:
    """Rulebook: "The game ends when a card cannot be replaced" - no further action; the view
    says the game is over (phase "over", nobody to move), by either end."""
    state = twelve_takes()
    take_with_roll(state, "Basta")
    assert legal(state) == []
    assert state.to_record()["result"] == state.result()
    assert public(state)["phase"] == "over" and public(state)["to_move"] is None
    state = new_game(["Mo", "Basta", "Darius", "Resa"], max_turns=1)
    roll(state, 6, 6)
    end_turn(state)
    assert public(state)["phase"] == "over" and public(state)["to_move"] is None
