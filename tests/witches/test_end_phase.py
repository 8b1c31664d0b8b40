"""The end of a game of Witches: the last card of the draw pile, drawing from the trump pile,
players running out of cards, the final trick and the scores.

Rulebook "Ende einer Runde": "Wenn am Ende einer Runde die letzte Karte vom Stapel gezogen
wird, beginnt die Endphase des Spiels. Können ein oder mehrere Spieler ihre Handkarten nicht mehr
vom Stapel ziehen, weil er leer ist, dann ziehen diese Spieler ihre Karten vom Trumpf Stapel
(dadurch verändert sich der Trumpf für den nächsten Stich!). Während der Endphase des Spiels
spielen die Spieler ihre Karten aus, ziehen aber keine neuen nach."
"""

from __future__ import annotations

import random

import pytest
from witches_table import change, deal, draw, hand, in_card_order, keep, last_trick, play, public

import spielwerk
from spielwerk.core.conformance import play_random, random_step

# A complete 6-player game. Trump grey 5 all game (wheel 5-4-3-2-1-9-8-7-6). With 6 players the
# pile holds 54 - 36 - 1 = 17 cards: two full refills (12) and five cards of a third, so in the
# third refill the sixth player finds the pile empty.
# PLAYS[seat][t] is the card `seat` plays in trick t+1; the first six are dealt, the 7th, 8th and
# 9th come in the refills after tricks 1, 2 and 3.
PLAYS = [
    ["grey-3", "red-8", "red-7", "red-1", "red-2", "red-3", "red-4", "red-5", "blue-1"],
    ["grey-2", *(f"yellow-{v}" for v in range(1, 9))],
    ["grey-1", *(f"green-{v}" for v in range(1, 7)), "grey-4"],
    ["grey-8", "yellow-9", "grey-9", "blue-9", "blue-8", "blue-7", "blue-6", "blue-5", "blue-4"],
    ["grey-7", *(f"purple-{v}" for v in range(1, 9))],
    ["grey-6", "green-7", "green-8", "green-9", "purple-9", "red-9", "red-6", "blue-2", "blue-3"],
]
TRUMP = "grey-5"
HANDS = [cards[:6] for cards in PLAYS]
REFILL_1 = [PLAYS[p][6] for p in (0, 1, 2, 3, 4, 5)]  # seat 0 won trick 1
REFILL_2 = [PLAYS[p][7] for p in (0, 1, 2, 3, 4, 5)]  # seat 0 won trick 2
REFILL_3 = [PLAYS[p][8] for p in (3, 4, 5, 0, 1)]  # seat 3 won trick 3; seat 2 comes last


def test_scenario_uses_every_card_once() -> None:
    """Rules file "Components": 54 cards, each (colour, value) exactly once."""
    cards = [c for seat in PLAYS for c in seat] + [TRUMP]
    assert len(cards) == 54
    assert len(set(cards)) == 54


def trick_of(t: int, leader: int, players: int = 6) -> list[str]:
    """The cards of trick t+1 in playing order, leader first."""
    order = [(leader + k) % players for k in range(players)]
    return [PLAYS[p][t] for p in order if len(PLAYS[p]) > t]


def play_first_two_tricks() -> spielwerk.State:
    """Seat 0 wins tricks 1 and 2 (grey 3 tops the all-grey trick 1; red 8 is the only red and
    nobody plays grey in trick 2) and keeps the trump; the pile is refilled from seat 0."""
    state = deal(HANDS, TRUMP)
    for t, refill in enumerate([REFILL_1, REFILL_2]):
        play(state, *trick_of(t, 0))
        assert public(state)["trick_winner"] == 0
        keep(state)
        draw(state, *refill)
    return state


def test_last_pile_card_starts_the_end_phase_and_last_trump_card_is_never_drawn() -> None:
    """Rulebook: "Wenn am Ende einer Runde die letzte Karte vom Stapel gezogen wird, beginnt die
    Endphase" and rules file "Flow" 6: "The last card of the trump pile is never drawn: a player
    who would have to draw it draws nothing." Seat 3 wins trick 3; seats 3, 4, 5, 0, 1 draw the
    last five cards; seat 2 finds the pile empty and the trump pile holds only grey 5."""
    state = play_first_two_tricks()
    view = public(state)
    assert view["draw_pile"] == 5
    assert view["end_phase"] is False
    play(state, *trick_of(2, 0))
    assert public(state)["trick_winner"] == 3
    keep(state)
    receivers = []
    for card in REFILL_3:
        action = state.game.action_from_json({"type": "draw", "card": card})
        receivers.append(state.describe(action, None))
        draw(state, card)
    assert receivers == [f"seat {p + 1} draws a card" for p in (3, 4, 5, 0, 1)]
    view = public(state)
    assert view["draw_pile"] == 0
    assert view["end_phase"] is True
    assert view["trump_pile"] == ["grey-5"]
    assert view["trump"] == "grey-5"
    assert view["hand_sizes"] == [6, 6, 5, 6, 6, 6]
    assert hand(state, 2) == in_card_order(["green-3", "green-4", "green-5", "green-6", "grey-4"])
    assert view["to_move"] == 3


def test_full_game_end_phase_no_draws_empty_hands_final_trick_and_scores() -> None:
    """Rulebook: "Während der Endphase des Spiels spielen die Spieler ihre Karten aus, ziehen aber
    keine neuen nach." Rules file "Flow" 8: "A player with no cards left takes no part in later
    tricks; if the winner has no cards, the next player clockwise with cards leads". Rulebook
    "Wertung": "Das Spiel endet, wenn alle Spieler ihre letzte Karte gespielt haben. Alle Spieler
    zählen die Werte der von ihnen eroberten Karten zusammen. Der Spieler mit den insgesamt
    meisten Magiepunkten ist der Gewinner"; rules file "Scoring": "Cards on the trump pile score
    nothing." """
    state = play_first_two_tricks()
    play(state, *trick_of(2, 0))
    keep(state)
    draw(state, *REFILL_3)
    # Tricks 4 to 7: seat 3 leads blue 9, 8, 7, 6 and wins each; nobody draws afterwards.
    for t in range(3, 7):
        assert public(state)["to_move"] == 3
        play(state, *trick_of(t, 3))
        assert public(state)["trick_winner"] == 3
        keep(state)
        assert public(state)["to_move"] == 3  # straight to the next trick: no chance draw
        assert public(state)["hand_sizes"] == [9 - t - 1 if p != 2 else 8 - t - 1 for p in range(6)]
    # Trick 8: seat 2 plays its last card, grey 4, the highest trump in play, and wins.
    play(state, *trick_of(7, 3))
    view = public(state)
    assert view["trick_winner"] == 2
    assert view["hand_sizes"] == [1, 1, 0, 1, 1, 1]
    assert view["phase"] == "choose_trump"  # cards remain elsewhere: the winner still chooses
    keep(state)
    # Seat 2 has no cards: the next player clockwise with cards, seat 3, leads trick 9.
    view = public(state)
    assert view["to_move"] == 3
    assert view["leader"] == 3
    play(state, "blue-4", "purple-8", "blue-3", "blue-1")
    assert public(state)["to_move"] == 1  # seat 1 plays last; seat 2 is skipped
    with pytest.raises(spielwerk.IllegalAction):
        state.apply({"type": "play", "card": "yellow-8"}, player=2)
    play(state, "yellow-8")
    # Everybody has played the last card: the game is over, no trump choice after the last trick.
    assert state.is_terminal()
    view = public(state)
    assert view["phase"] == "over"
    assert view["to_move"] is None
    assert last_trick(state) == {
        "players": [3, 4, 5, 0, 1],
        "cards": ["blue-4", "purple-8", "blue-3", "blue-1", "yellow-8"],
        "winner": 3,
        "new_trump": None,
        "points": 24,  # 4 + 8 + 3 + 1 + 8, all captured
    }
    assert view["hand_sizes"] == [0, 0, 0, 0, 0, 0]
    assert view["trump_pile"] == ["grey-5"]
    # Seat 0: trick 1 (grey 3+2+1+8+7+6) and trick 2 (red 8, yellow 1, green 1, yellow 9,
    # purple 1, green 7); seat 2: trick 8; seat 3: tricks 3-7 and 9.
    assert view["scores"] == [54, 0, 30, 181, 0, 0]
    assert sum(view["scores"]) == 270 - 5  # every card's value but the grey 5 on the trump pile
    for seat in range(6):
        assert view["scores"][seat] == sum(int(c.split("-")[1]) for c in view["captured"][seat])
    assert state.result() == {
        "scores": [54, 0, 30, 181, 0, 0],
        "winners": [3],
        "tie_break": "none: equal totals share the win",
    }
    assert state.returns() == [0.0, 0.0, 0.0, 1.0, 0.0, 0.0]
    assert view["result"] == state.result()
    with pytest.raises(spielwerk.IllegalAction):
        state.apply({"type": "keep_trump"})


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_no_trump_decision_after_the_very_last_trick(players: int) -> None:
    """Rules file "Flow" 4 (shared/rules/witches.md l. 29-31): "After the very last trick of the
    game there is no trump decision: the game ends at once (a change could only cost the winner
    the card's points)." Along random games: the winner is asked only while a card is left in
    some hand, and the last play ends the game with the trick's trump unchanged. The trump
    change stays allowed in the end phase (l. 29) as long as cards remain."""
    game = spielwerk.load("witches")
    asked_in_end_phase = 0
    for seed in range(25):
        state = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        for _ in range(1000):
            if state.is_terminal():
                break
            view = public(state)
            if view["phase"] == "choose_trump":
                assert sum(view["hand_sizes"]) > 0, "a trump decision after the last trick"
                asked_in_end_phase += view["end_phase"]
            random_step(state, rng)
        assert state.is_terminal(), f"seed {seed}: the game did not end within 1000 actions"
        _, last_id = state.history[-1]
        assert state.game.actions[last_id].type == "play"
        assert last_trick(state)["new_trump"] is None
        assert public(state)["phase"] == "over"
    assert asked_in_end_phase > 0


def test_empty_pile_player_takes_the_top_of_the_trump_pile() -> None:
    """Rulebook: "Können ein oder mehrere Spieler ihre Handkarten nicht mehr vom Stapel ziehen,
    weil er leer ist, dann ziehen diese Spieler ihre Karten vom Trumpf Stapel (dadurch verändert
    sich der Trumpf für den nächsten Stich!)". Seat 0 wins tricks 1-3, laying grey 8 and then
    red 8 on the trump pile; in the third refill seat 5 finds the pile empty, takes red 8 face up,
    and grey 8 becomes trump again."""
    state = deal(HANDS, TRUMP)
    play(state, *trick_of(0, 0))
    change(state, "grey-8")  # seat 3's card from trick 1
    assert public(state)["wheel_order"] == [8, 7, 6, 5, 4, 3, 2, 1, 9]
    draw(state, *REFILL_1)
    play(state, *trick_of(1, 0))  # red 8 led; grey still trump and nobody plays it
    assert public(state)["trick_winner"] == 0
    change(state, "red-8")
    assert public(state)["trump_pile"] == ["grey-5", "grey-8", "red-8"]
    draw(state, *REFILL_2)
    play(state, *trick_of(2, 0))  # red 7 is trump now; seat 3's grey 9 is not
    view = public(state)
    assert view["trick_winner"] == 0
    keep(state)
    draw(state, "blue-4", "purple-8", "blue-3", "blue-1", "yellow-8")  # seats 0, 1, 2, 3, 4
    view = public(state)
    assert view["draw_pile"] == 0
    assert view["end_phase"] is True
    assert view["trump_pile"] == ["grey-5", "grey-8"]
    assert view["trump"] == "grey-8"
    assert view["wheel_order"] == [8, 7, 6, 5, 4, 3, 2, 1, 9]
    assert view["hand_sizes"] == [6, 6, 6, 6, 6, 6]
    assert "red-8" in hand(state, 5)
    assert view["known_in_hands"] == [[], [], [], [], [], ["red-8"]]
    # Every seat sees where red 8 went (it was taken face up).
    assert all("red-8" in state.view(p)["known_in_hands"][5] for p in range(6))

    # End phase: the winner may still change trump [rules file "Flow" 4], and nobody draws.
    assert view["to_move"] == 0
    play(state, "red-1", "yellow-3", "green-3", "blue-9", "purple-3", "green-9")
    # grey 8 trump, red led: only red 1 is red and nobody plays grey.
    assert public(state)["trick_winner"] == 0
    change(state, "green-9")
    view = public(state)
    assert view["trump_pile"] == ["grey-5", "grey-8", "green-9"]
    assert view["to_move"] == 0
    assert view["hand_sizes"] == [5, 5, 5, 5, 5, 5]
    assert view["draw_pile"] == 0


def test_single_participant_trick_wins_and_ends_the_game() -> None:
    """Rules file "Flow" 8: "a trick with a single participant is won by that card". With 4
    players the pile holds 54 - 24 - 1 = 29 cards; after 7 refills one is left, so in the 8th
    refill the winner draws it and the others draw nothing (the trump pile has one card).
    The winner then holds one card more than anybody and plays the last trick alone."""
    state = deal(
        [
            ["red-1", "red-2", "red-3", "red-4", "red-5", "red-6"],
            ["yellow-1", "yellow-2", "yellow-3", "yellow-4", "yellow-5", "yellow-6"],
            ["green-1", "green-2", "green-3", "green-4", "green-5", "green-6"],
            ["blue-1", "blue-2", "blue-3", "blue-4", "blue-5", "blue-6"],
        ],
        "grey-9",
    )
    assert public(state)["draw_pile"] == 29
    # Seat 0 wins every trick, so each refill goes 0, 1, 2, 3; the greys others draw come last.
    refills = [
        ["red-7", "red-8", "red-9", "grey-1", "grey-2", "grey-3", "grey-4", "grey-5"],
        ["yellow-7", "yellow-8", "yellow-9", "purple-1", "purple-2", "purple-3", "grey-6"],
        ["green-7", "green-8", "green-9", "purple-4", "purple-5", "purple-6", "grey-7"],
        ["blue-7", "blue-8", "blue-9", "purple-7", "purple-8", "purple-9", "grey-8"],
    ]
    for t in range(8):
        # Seat 0 leads red; the others play no red and no grey (trump): seat 0 wins.
        assert public(state)["to_move"] == 0
        others = [min(hand(state, p), key=_dump_order) for p in (1, 2, 3)]
        play(state, f"red-{t + 1}", *others)
        assert public(state)["trick_winner"] == 0
        keep(state)
        for seat in range(4) if t < 7 else range(1):
            draw(state, refills[seat][t])
    view = public(state)
    assert view["draw_pile"] == 0
    assert view["end_phase"] is True
    assert view["hand_sizes"] == [6, 5, 5, 5]
    assert view["trump_pile"] == ["grey-9"]
    assert view["to_move"] == 0
    # Five more tricks with everybody (each plays the first card of the hand) ...
    for _ in range(5):
        assert public(state)["trick"] == []
        for _seat in range(4):
            mover = public(state)["to_move"]
            play(state, hand(state, mover)[0])
        assert public(state)["phase"] == "choose_trump"
        assert sorted(entry["player"] for entry in public(state)["trick"]) == [0, 1, 2, 3]
        keep(state)
    # ... then seat 0, alone with its last card, leads whoever won, plays and wins.
    view = public(state)
    assert view["hand_sizes"] == [1, 0, 0, 0]
    assert view["to_move"] == 0
    (last_card,) = hand(state, 0)
    assert [a.to_json() for a in state.legal_actions(0)] == [{"type": "play", "card": last_card}]
    play(state, last_card)
    assert state.is_terminal()
    assert last_trick(state) == {
        "players": [0],
        "cards": [last_card],
        "winner": 0,
        "new_trump": None,
        "points": int(last_card.split("-")[1]),
    }


def _dump_order(card: str) -> tuple[int, int]:
    """Others dump non-red, non-grey cards first (lowest value first) so seat 0's red wins."""
    colour = card.split("-")[0]
    return (1 if colour in ("red", "grey") else 0, int(card.split("-")[1]))


def test_equal_totals_share_the_win() -> None:
    """Rules file "Scoring": "Equal totals share the win." The first tied game among seeded
    random 2-player games: both are winners and the return of 1 is split equally; in a game
    without a tie the single winner gets 1."""
    game = spielwerk.load("witches")
    tied = untied = None
    for seed in range(1000):
        state = play_random(game, 2, seed)
        scores = state.result()["scores"]
        if scores[0] == scores[1] and tied is None:
            tied = state
        if scores[0] != scores[1] and untied is None:
            untied = state
        if tied is not None and untied is not None:
            break
    assert tied is not None, "no tie among 1000 seeded games"
    assert tied.result()["winners"] == [0, 1]
    assert tied.returns() == [0.5, 0.5]
    assert untied is not None
    scores = untied.result()["scores"]
    best = scores.index(max(scores))
    assert untied.result()["winners"] == [best]
    assert untied.returns() == [1.0 if p == best else 0.0 for p in range(2)]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_scores_are_face_values_of_captures_and_trump_pile_scores_nothing(players: int) -> None:
    """Rulebook "Wertung": "Alle Spieler zählen die Werte der von ihnen eroberten Karten
    zusammen"; rules file "Scoring": "Cards on the trump pile score nothing." At the end every
    card is captured or on the trump pile, so scores plus the trump pile make 6 x 45 = 270."""
    game = spielwerk.load("witches")
    for seed in range(10):
        state = play_random(game, players, seed)
        view = public(state)
        for seat in range(players):
            values = [int(c.split("-")[1]) for c in view["captured"][seat]]
            assert view["scores"][seat] == sum(values)
        pile = sum(int(c.split("-")[1]) for c in view["trump_pile"])
        assert sum(view["scores"]) + pile == 270
        assert view["hand_sizes"] == [0] * players
        assert view["draw_pile"] == 0
        best = max(view["scores"])
        assert state.result()["winners"] == [p for p in range(players) if view["scores"][p] == best]


def test_each_trick_in_the_view_says_the_points_its_winner_captured() -> None:
    """Rulebook "Wertung": the winner counts the values of the cards it captured; a card laid
    on the trump pile is not captured. The view's completed tricks carry those points (the
    table page shows them as they are): each is the winner's score gained by that trick."""
    game = spielwerk.load("witches")
    checked = 0
    for seed in range(6):
        state = game.new_state(4, seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            before = public(state)
            random_step(state, rng)
            after = public(state)
            if len(after["tricks"]) == len(before["tricks"]) + 1:
                trick = after["tricks"][-1]
                gained = after["scores"][trick["winner"]] - before["scores"][trick["winner"]]
                assert trick["points"] == gained
                captured = [c for c in trick["cards"] if c != trick["new_trump"]]
                assert trick["points"] == sum(int(c.split("-")[1]) for c in captured)
                checked += 1
    assert checked > 60
