"""Tintenherz records and the action vocabulary (docs/records.md, `inkheart_dice`)."""

from __future__ import annotations

import json

import pytest
from inkheart_table import ALL_CARDS, POSITIVE, new_game, reroll, roll, take

import spielwerk
from spielwerk.core.conformance import play_on

LAYOUT = [
    (0, {"type": "take", "card": "Darius"}),
    (15, {"type": "take", "card": "Capricorn"}),
    (16, {"type": "steal", "card": "Darius"}),
    (25, {"type": "steal", "card": "Zauberzunge"}),
    (26, {"type": "secure", "card": "Darius"}),
    (35, {"type": "secure", "card": "Zauberzunge"}),
    (36, {"type": "reroll", "die": 1}),
    (41, {"type": "reroll", "die": 6}),
    (42, {"type": "reroll_both"}),
    (43, {"type": "end_turn"}),
    (44, {"type": "roll", "first": 1, "second": 1}),
    (79, {"type": "roll", "first": 6, "second": 6}),
    (80, {"type": "roll_die", "value": 1}),
    (85, {"type": "roll_die", "value": 6}),
    (86, {"type": "draw", "card": "Darius"}),
    (101, {"type": "draw", "card": "Capricorn"}),
]


@pytest.mark.parametrize(("action_id", "data"), LAYOUT)
def test_id_layout_as_documented(action_id: int, data: dict[str, object]) -> None:
    game = spielwerk.load("inkheart_dice")
    assert game.decode(action_id).to_json() == data
    assert game.action_from_json(data).id == action_id


def test_action_counts() -> None:
    game = spielwerk.load("inkheart_dice")
    assert game.num_distinct_actions == len(ALL_CARDS) + 2 * len(POSITIVE) + 6 + 2
    assert game.max_chance_outcomes == 36 + 6 + len(ALL_CARDS)


def test_negative_cards_cannot_be_stolen_or_secured_by_name() -> None:
    """Negative cards go straight under the castle, so no action steals or secures one."""
    game = spielwerk.load("inkheart_dice")
    with pytest.raises(spielwerk.IllegalAction):
        game.action_from_json({"type": "steal", "card": "Basta"})
    with pytest.raises(spielwerk.IllegalAction):
        game.action_from_json({"type": "secure", "card": "Capricorn"})


def test_record_replays_a_scripted_game() -> None:
    state = new_game(["Farid", "Darius", "Basta", "Gwin"])
    roll(state, 6, 3)
    reroll(state, 6)
    state.apply({"type": "roll_die", "value": 1})
    take(state, "Darius", refill="Mo")
    record = json.loads(json.dumps(state.to_record()))
    assert record["game"] == "inkheart_dice"
    assert record["options"] == {"start_player": 0, "max_turns": 500}
    assert record["actions"][4:] == [
        {"actor": "chance", "action": {"type": "roll", "first": 6, "second": 3}},
        {"actor": 0, "action": {"type": "reroll", "die": 6}},
        {"actor": "chance", "action": {"type": "roll_die", "value": 1}},
        {"actor": 0, "action": {"type": "take", "card": "Darius"}},
        {"actor": "chance", "action": {"type": "draw", "card": "Mo"}},
    ]
    again = spielwerk.replay(record)
    assert again.view(None) == state.view(None)


def test_record_with_an_illegal_entry_is_refused() -> None:
    state = new_game(["Farid", "Darius", "Basta", "Gwin"])
    roll(state, 6, 3)
    record = state.to_record()
    record["actions"].append({"actor": 0, "action": {"type": "take", "card": "Farid"}})
    with pytest.raises(spielwerk.RecordError, match="action 5"):
        spielwerk.replay(record)


def test_finished_record_carries_the_result() -> None:
    game = spielwerk.load("inkheart_dice", max_turns=30)
    state = game.new_state(3, seed=9)
    for _ in play_on(state):
        state.apply(state.sample_chance() if state.is_chance() else state.legal_actions()[0])
    record = json.loads(json.dumps(state.to_record()))
    assert record["result"] == state.result()
    assert set(record["result"]) >= {"scores", "winners", "scoring"}
    assert spielwerk.replay(record).result() == state.result()
