"""What a seat may know: its hand, its picks, the packets it held; never another's hidden cards.

Rules file "Hidden information": "Private: hands, kept cards during the draft, the discarded
fifth card; a player knows the cards they passed on. Public: all discs, every played card,
every award."
"""

from __future__ import annotations

import json
import random
from collections import Counter

from isolde_table import deal, draft_into, keep, new_game, packets_for, play, quiet_hands

import spielwerk
from spielwerk.core.conformance import check_no_leak, random_step
from spielwerk.games.isolde.observation import LAYOUT
from spielwerk.games.isolde.state import IsoldeState


def random_game(players: int, seed: int, steps: int, **options: object) -> IsoldeState:
    state = spielwerk.load("isolde", **options).new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        random_step(state, rng)
    assert isinstance(state, IsoldeState)
    return state


def test_the_deal_shows_a_card_only_to_its_receiver() -> None:
    state = new_game(3)
    action = state.game.action_from_json({"type": "deal", "card": "king-4"})
    assert state.describe(action, 0) == "seat 1 is dealt King 4"  # seats counted from 1
    assert state.describe(action, 1) == "seat 1 is dealt a card"
    assert state.describe(action, None) == "seat 1 is dealt a card"


def test_a_view_shows_the_own_packet_and_picks_and_only_counts_of_the_others() -> None:
    state = new_game(3)
    hands = quiet_hands(3)
    deal(state, packets_for(state, hands))
    keep(state, 0, hands[0][0])
    mine, theirs, public = state.view(0), state.view(1), state.view(None)
    assert mine["kept"] == [hands[0][0]]
    assert theirs["kept"] == [] and public["kept"] is None and public["packet"] is None
    assert hands[0][0] not in json.dumps(theirs["played"])
    assert theirs["kept_counts"] == [1, 0, 0]


def test_two_players_know_all_but_the_first_pick_of_the_other() -> None:
    """With two seats every packet comes back: after the draft seat 0 knows four of seat 1's
    five cards (all but its first pick from its own dealt hand), so every resample agrees on
    them and only the fifth card varies."""
    state = new_game(2)
    hands = [
        ["isolde-5", "king-5", "combat-5", "quest-5", "studies-5"],
        ["charity-2", "charity-3", "charity-4", "king-2", "king-3"],
    ]
    draft_into(state, hands)
    rng = random.Random(7)
    seen_first = set()
    for _ in range(30):
        sample = state.resample(0, rng)
        other = Counter(sample.view(1)["hand"])
        assert other >= Counter(hands[1][1:])
        seen_first.update(other - Counter(hands[1][1:]))
        assert sample.view(0) == state.view(0)
    assert len(seen_first) > 1  # the unseen first pick is really redealt


def test_a_resample_keeps_every_played_card_in_its_players_picks() -> None:
    """Cards seen played never come back: in every resample each seat's played cards and
    remaining hand form five cards it could have drafted, and the public view is unchanged."""
    for players in (3, 5):
        state = random_game(players, seed=players, steps=5 * players + 4 * players + 2 * players)
        assert state.view(None)["phase"] == "play"
        rng = random.Random(1)
        for viewer in (None, 0, 1):
            sample = state.resample(viewer, rng)
            assert sample.view(None) == state.view(None)
            for seat in range(players):
                played = [p["card"] for p in sample.view(None)["played"] if p["seat"] == seat]
                assert len(played) + len(sample.view(seat)["hand"]) == 5


def test_resample_depends_only_on_the_seats_information_at_every_phase() -> None:
    """The conformance check (views, actions and texts equal; resampling a resample equals
    resampling the truth) at a deal, a draft step with hidden picks, play, and Isolde moves."""
    rng = random.Random(3)
    for players, steps in ((4, 7), (4, 20 + 5), (2, 10 + 3), (5, 25 + 20 + 7), (3, 300)):
        state = random_game(players, seed=steps, steps=steps, advanced=True)
        check_no_leak(state, rng)


def test_a_draft_pick_text_names_the_picker_but_not_the_card() -> None:
    state = new_game(2)
    draft_into(state, quiet_hands(2))
    play(state, quiet_hands(2)[0][0])
    texts = [state.describe(state.game.actions[i], 1) for _, i in state.history[10:18]]
    assert all(text.endswith("keeps a card") for text in texts if "seat 1" in text)
    assert any(text.startswith("seat 2 keeps ") and "a card" not in text for text in texts)


def test_the_observation_tensor_shows_the_own_cards_and_nothing_a_resample_changes() -> None:
    """Rules file "Hidden information": the tensor is built from the seat's view alone, so it is
    the same in every state the seat cannot tell apart; it has one shape at every player count,
    and its packet block holds the seat's own cards to pick from."""
    rng = random.Random(5)
    for players in (2, 5):
        state = random_game(players, seed=players, steps=5 * players + 2 * players + 1)
        assert state.view(None)["phase"] == "draft"
        tensor = state.observation_tensor(0)
        assert len(tensor) == state.game.observation_shape[0]
        packet = tensor[LAYOUT.slice("packet")]
        assert round(sum(packet) * 3) == len(state.view(0)["packet"])
        for _ in range(3):
            assert state.resample(0, rng).observation_tensor(0) == tensor


def test_a_played_card_is_placed_where_it_is_likeliest_to_have_come_from() -> None:
    """Seat 1 plays isolde-5, a card seat 0 passed it at draft step 2 (the only isolde-5 seat 0
    saw). In seat 0's resamples it could also have been seat 1's first pick, unseen by seat 0,
    but that is 20 times less likely (one isolde-5 among the 40 cards seat 0 never saw, against
    one of the two cards taken from the packet it passed on). So most resamples keep the card
    where seat 0 passed it."""
    state = new_game(3)
    hands = quiet_hands(3)
    hands[1][1] = "isolde-5"  # seat 1 keeps it at step 2, from the packet seat 0 passed
    draft_into(state, hands)
    play(state, hands[0][0])
    play(state, "isolde-5")
    rng = random.Random(11)
    kept_where_passed = 0
    for _ in range(200):
        sample = state.resample(0, rng)
        step_2 = sample.history[15 + 3 : 15 + 6]  # the deal is 15 cards, 3 picks a step
        pick = next(action for seat, action in step_2 if seat == 1)
        kept_where_passed += sample.game.actions[pick].to_json()["card"] == "isolde-5"
    assert kept_where_passed >= 170
