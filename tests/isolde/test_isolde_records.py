"""Records replay; the action vocabulary of docs/games/isolde.md; illegal input."""

from __future__ import annotations

import json

import pytest
from isolde_table import draft_into, new_game, quiet_hands

import spielwerk
from spielwerk.core.conformance import play_random


def test_a_finished_game_replays_from_its_record() -> None:
    game = spielwerk.load("isolde", advanced=True, quest_first_points=17)
    state = play_random(game, 4, seed=11)
    record = json.loads(json.dumps(state.to_record()))
    assert record["options"]["quest_first_points"] == 17
    again = spielwerk.replay(record)
    assert again.result() == state.result()
    assert again.view(2) == state.view(2)


def test_the_action_vocabulary() -> None:
    game = spielwerk.load("isolde")
    types = {a.type for a in game.actions.actions}
    assert types == {"keep", "play", "bonus_move", "go_on_top", "keep_order", "deal"}
    assert game.num_distinct_actions == 162 and game.max_chance_outcomes == 24
    assert game.action_from_json({"type": "play", "card": "combat-5", "board": "tourney"})
    with pytest.raises(spielwerk.IllegalAction):
        game.action_from_json({"type": "play", "card": "isolde-5", "board": "joust"})


def test_illegal_plays_are_refused_and_change_nothing() -> None:
    state = new_game(2)
    draft_into(state, quiet_hands(2))
    before = state.to_record()
    with pytest.raises(spielwerk.IllegalAction, match="not legal"):
        state.apply({"type": "play", "card": "combat-5", "board": "joust"})  # not in hand
    with pytest.raises(spielwerk.IllegalAction):
        state.apply({"type": "play", "card": "quest-2", "board": "quest"}, player=1)  # not 1's turn
    with pytest.raises(spielwerk.IllegalAction):
        state.apply({"type": "bonus_move", "board": "king"})
    assert state.to_record() == before
