"""Tintenblut: what each seat may know, resampling, and records.

Seed 000, l. 138 ("Die Vorteilskarten"): "Wenn ein Spieler eine Vorteilskarte erhält, schaut er
sie sich an und legt sie verdeckt vor sich ab." Rules file "Hidden information": private are which
advantage cards a player holds (their number is public) and the order of the decks.
"""

from __future__ import annotations

import json
import random

from inkspell_table import draw_advantage, new_game, play, public, reward, settle

import spielwerk
from spielwerk.core.conformance import check_no_leak, play_random
from spielwerk.core.state import State
from spielwerk.games.inkspell.state import InkspellState


def _with_cards() -> InkspellState:
    """Seat 0 draws Meggie at Ombra, seat 1 draws Farid at Capricorns Festung."""
    state = new_game(["hof", "lager"])
    play(state, "ombra")
    reward(state, "solo")
    draw_advantage(state, "meggie")
    settle(state)
    play(state, "festung")
    reward(state, "solo")
    draw_advantage(state, "farid")
    settle(state)
    return state


def test_advantage_cards_are_seen_only_by_their_holder() -> None:
    state = _with_cards()
    assert state.view(0)["advantage"] == ["meggie"]
    assert state.view(1)["advantage"] == ["farid"]
    assert public(state)["advantage"] is None
    for viewer in (None, 0, 1):
        assert state.view(viewer)["advantage_counts"] == [1, 1]
        assert state.view(viewer)["advantage_deck"] == 25
        assert "meggie" not in json.dumps(state.view(viewer)) or viewer == 0
        assert "farid" not in json.dumps(state.view(viewer)) or viewer == 1


def test_the_draw_is_described_to_the_receiver_only() -> None:
    state = new_game(["hof", "lager"])
    play(state, "ombra")
    reward(state, "solo")
    action = state.game.action_from_json({"type": "draw_advantage", "card": "mo"})
    assert state.describe(action, 0) == "seat 1 draws Mo"  # seats counted from 1
    assert state.describe(action, 1) == "seat 1 draws an advantage card"
    assert state.describe(action, None) == "seat 1 draws an advantage card"


def test_a_resample_keeps_what_the_seat_knows_and_redeals_the_rest() -> None:
    state = _with_cards()
    seen = set()
    for seed in range(30):
        sample = state.resample(0, random.Random(seed))
        assert isinstance(sample, InkspellState)
        assert sample.view(0) == state.view(0)
        assert [c for _, c in sample.held[0]] == [c for _, c in state.held[0]]
        seen.update(c for _, c in sample.held[1])
        again = spielwerk.replay(json.loads(json.dumps(sample.to_record())))
        assert again.view(1) == sample.view(1)
    assert len(seen) > 3  # seat 1's card is unknown to seat 0


def test_a_used_card_is_matched_to_a_draw_before_that_turn() -> None:
    """Seed 000, l. 148: a card used in a turn was held since its start: every resample must make it
    one drawn earlier, or the sample would not replay."""
    state = _with_cards()
    settle(state)
    # Round 2: seat 0 (drew the villain card as the higher number?) plays on; seat 1 uses Farid.
    rng = random.Random(3)
    for _ in range(400):
        if state.is_terminal():
            break
        if state.to_move == spielwerk.core.state.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        actions = state.legal_actions()
        farid = [a for a in actions if a.to_json().get("card") == "farid"]
        state.apply(farid[0] if farid else rng.choice(actions))
        if any(a.to_json().get("card") == "farid" for a in farid):
            break
    assert "farid" in public(state)["advantage_used"]
    for seed in range(10):
        check_no_leak(state, random.Random(seed))


def test_all_cards_are_turned_up_at_the_end() -> None:
    state = play_random(spielwerk.load("inkspell"), 3, seed=5)
    revealed = public(state)["revealed_advantage"]
    assert revealed is not None and len(revealed) == 3
    assert [len(cards) for cards in revealed] == public(state)["advantage_counts"]
    check_no_leak(state, random.Random(0))


def test_a_random_game_replays_from_its_record() -> None:
    state: State = play_random(spielwerk.load("inkspell"), 4, seed=11)
    record = json.loads(json.dumps(state.to_record()))
    assert record["game"] == "inkspell" and record["players"] == 4
    types = {entry["action"]["type"] for entry in record["actions"]}
    assert {"flip", "play", "draw_villain", "start"} <= types
    again = spielwerk.replay(record)
    assert again.result() == state.result()
