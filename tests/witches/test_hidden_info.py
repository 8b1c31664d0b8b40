"""What each seat may know in the Witches of Blackmore, and fair resampling.

Rules file "Hidden information": "Private: each hand, the order of the draw pile. Public: every
card played in every trick and who won it, trump changes, the trump pile's top card, the number
of cards in each hand and in the pile." Rulebook "Spielaufbau": cards are dealt "verdeckt".
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from witches_table import ALL_CARDS, deal, draw, hand, keep, play, public
from witches_table import filled as filled_hands

import spielwerk
from spielwerk.core.conformance import play_on
from spielwerk.core.state import State


def draw_action(state: State, card: str) -> spielwerk.Action:
    return state.game.action_from_json({"type": "draw", "card": card})


def test_describe_hides_dealt_cards_from_everybody_else() -> None:
    """Rulebook "Spielaufbau": "teile an jeden Spieler verdeckt 6 davon aus" - only the
    receiver sees the card."""
    state = spielwerk.load("witches").new_state(3, seed=0)
    action = draw_action(state, "red-7")
    assert state.describe(action, 0) == "seat 1 is dealt Red 7"  # seats counted from 1
    for viewer in (1, 2, None):
        text = state.describe(action, viewer)
        assert text == "seat 1 is dealt a card"
        assert "Red" not in text and "7" not in text


def test_describe_shows_the_turned_up_trump_to_everybody() -> None:
    """Rulebook "Spielaufbau": the top card "wird ... aufgedeckt": everybody sees it."""
    hands = filled_hands([[], [], []], "blue-7")
    state = spielwerk.load("witches").new_state(3, seed=0)
    for round_ in range(6):
        for seat_hand in hands:
            draw(state, seat_hand[round_])
    action = draw_action(state, "blue-7")
    texts = {state.describe(action, viewer) for viewer in (None, 0, 1, 2)}
    assert texts == {"Blue 7 is turned up as the first trump"}


def test_describe_hides_refill_draws_but_shows_plays_and_trump_choices() -> None:
    """Rulebook: refills come "vom Stapel" face down; "Alle Karten werden aufgedeckt gespielt." """
    hands = filled_hands([["yellow-2"], ["yellow-5"], ["red-7"]], "blue-7")
    state = deal(hands, "blue-7")
    play_action = state.game.action_from_json({"type": "play", "card": "yellow-2"})
    assert {state.describe(play_action, v) for v in (None, 0, 1, 2)} == {"seat 1 plays Yellow 2"}
    play(state, "yellow-2", "yellow-5", "red-7")
    assert public(state)["trick_winner"] == 1
    change_action = state.game.action_from_json({"type": "change_trump", "card": "red-7"})
    assert {state.describe(change_action, v) for v in (None, 0, 1, 2)} == {
        "seat 2 makes Red 7 the new trump"
    }
    keep(state)
    action = draw_action(state, "green-9")
    assert state.describe(action, 1) == "seat 2 draws Green 9"
    for viewer in (0, 2, None):
        assert state.describe(action, viewer) == "seat 2 draws a card"


def _hidden_cards(state: State, owner: int) -> list[str]:
    """Cards in `owner`'s hand that nobody else has seen."""
    known = set(public(state)["known_in_hands"][owner])
    return [c for c in hand(state, owner) if c not in known]


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_views_never_show_other_players_hidden_cards(players: int) -> None:
    """Rules file "Hidden information": each hand is private. At every step of seeded random
    games, no hidden card of another hand and no pile card appears anywhere in a seat's view
    (the JSON text is scanned), and the public view shows no hand at all."""
    game = spielwerk.load("witches")
    for seed in range(3):
        state = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        checked = 0
        for _ in play_on(state):
            pile = set(ALL_CARDS) - _visible_somewhere(state)
            for viewer in (None, *range(players)):
                text = json.dumps(state.view(viewer))
                secret = set(pile)
                for owner in range(players):
                    if owner != viewer:
                        secret.update(_hidden_cards(state, owner))
                leaked = sorted(c for c in secret if f'"{c}"' in text)
                assert not leaked, f"seat {viewer} sees {leaked} at step {checked}"
                checked += 1
            assert state.view(None)["hand"] is None
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
        assert checked > 100


def _visible_somewhere(state: State) -> set[str]:
    """Cards in hands, tricks, captures and the trump pile: everything but the draw pile."""
    view = public(state)
    cards = {c for p in range(state.num_players) for c in hand(state, p)}
    cards.update(entry["card"] for entry in view["trick"])
    cards.update(c for pile in view["captured"] for c in pile)
    cards.update(view["trump_pile"])
    return cards


def test_seat_view_holds_its_own_hand_only() -> None:
    """Each seat's view lists its own hand; hand sizes of all seats are public."""
    hands = filled_hands([["yellow-2"], ["yellow-5"], ["red-7"]], "blue-7")
    state = deal(hands, "blue-7")
    for seat in range(3):
        view = state.view(seat)
        assert view["viewer"] == seat
        assert sorted(view["hand"]) == sorted(hands[seat])
        assert view["hand_sizes"] == [6, 6, 6]


# ------------------------------------------------------------------------------------ resample
def _dealt_position() -> State:
    """4 players right after the deal and the turn-up (a fixed, ordinary position)."""
    state = spielwerk.load("witches").new_state(4, seed=2024)
    for _ in play_on(state, 100, until=lambda s: public(s)["phase"] == "play"):
        state.apply(state.sample_chance())
    return state


def test_resample_keeps_the_seat_information_and_moves_only_unseen_cards() -> None:
    """DESIGN "Core contracts": `resample(player, rng)` is "a full state consistent with that
    player's information": the seat's own hand, the public view and every hand size stay; the
    other hands and the pile hold exactly the cards the seat has not seen."""
    state = _dealt_position()
    unseen = set(ALL_CARDS) - set(hand(state, 0)) - set(public(state)["trump_pile"])
    rng = random.Random(5)
    moved = 0
    for _ in range(50):
        sample = state.resample(0, rng)
        assert hand(sample, 0) == hand(state, 0)
        assert public(sample) == public(state)
        others = [set(hand(sample, p)) for p in (1, 2, 3)]
        assert [len(h) for h in others] == [6, 6, 6]
        union = set().union(*others)
        assert len(union) == 18  # no card in two hands
        assert union <= unseen
        assert public(sample)["draw_pile"] == len(unseen) - 18
        moved += any(hand(sample, p) != hand(state, p) for p in (1, 2, 3))
    assert moved >= 45  # the truth itself comes back almost never


def test_resample_is_fair_over_hidden_cards() -> None:
    """DESIGN "Core contracts": the resample is "drawn fairly". From seat 0's view after the deal
    47 cards are unseen (18 in the other hands, 29 in the pile): over many resamples each of them
    lands in each opponent's hand about 6/47 of the time and in the pile about 29/47."""
    state = _dealt_position()
    unseen = sorted(set(ALL_CARDS) - set(hand(state, 0)) - set(public(state)["trump_pile"]))
    assert len(unseen) == 47
    rng = random.Random(77)
    runs = 3000
    counts: Counter[tuple[str, int]] = Counter()
    for _ in range(runs):
        sample = state.resample(0, rng)
        assert hand(sample, 0) == hand(state, 0)
        for seat in (1, 2, 3):
            for card in hand(sample, seat):
                counts[card, seat] += 1
    expected_hand = runs * 6 / 47  # about 383
    for card in unseen:
        in_hands = 0
        for seat in (1, 2, 3):
            got = counts[card, seat]
            in_hands += got
            assert abs(got - expected_hand) < 0.3 * expected_hand, (card, seat, got)
        in_pile = runs - in_hands
        assert abs(in_pile - runs * 29 / 47) < 0.15 * runs * 29 / 47, (card, in_pile)
    assert not any(counts[card, seat] for card in hand(state, 0) for seat in (1, 2, 3))


def test_resample_keeps_cards_taken_face_up_from_the_trump_pile() -> None:
    """DESIGN "Core contracts": perfect recall - "a card another player drew face up from an open
    pile stays in that hand". Rulebook: in the end phase players take cards from the trump pile,
    face up. Found in seeded random games; every resample for every other seat keeps them."""
    game = spielwerk.load("witches")
    found = 0
    for seed in range(40):
        state = game.new_state(3, seed=seed)
        rng = random.Random(seed)
        for _ in play_on(state):
            known = public(state)["known_in_hands"]
            if any(known):
                found += 1
                for viewer in range(3):
                    for _ in range(5):
                        sample = state.resample(viewer, rng)
                        for owner, cards in enumerate(known):
                            assert set(cards) <= set(hand(sample, owner))
                break
            if state.is_chance():
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(state.legal_actions()))
    assert found >= 10
