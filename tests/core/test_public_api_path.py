"""The public API's fast paths (interned actions, listed chance outcomes, the legality check of
`apply`) behave exactly like the plain definitions, and share nothing between games."""

from __future__ import annotations

import random

import pytest

import spielwerk
from spielwerk.core.actions import Action
from spielwerk.core.conformance import fingerprint


def _at_chance(name: str = "witches", seed: int = 0, **options: object) -> spielwerk.State:
    state = spielwerk.load(name, **options).new_state(4, seed=seed)
    assert state.is_chance()
    return state


def test_chance_outcomes_are_fresh_lists_of_the_games_own_actions() -> None:
    state = _at_chance()
    first = state.chance_outcomes()
    table = state.game.actions
    assert first == [(table[i], p) for i, p in state.chance_ids()]
    assert all(table[a.id] is a for a, _ in first)
    first.clear()  # the caller's list: changing it changes nothing for the next call
    again = state.chance_outcomes()
    assert len(again) == 54 and again is not first
    assert sum(p for _, p in again) == pytest.approx(1.0)


def test_outcome_tables_are_shared_and_follow_the_pool() -> None:
    """Two games (other options) hand out the same interned actions (the vocabulary does not
    depend on the options); a draw shrinks the pool and the probabilities follow it; another
    state is not affected."""
    one, other = _at_chance(), _at_chance(wheel="ascending", seed=1)
    a = one.chance_outcomes()
    b = other.chance_outcomes()
    assert [x.id for x, _ in a] == [y.id for y, _ in b]
    assert all(x is y for (x, _), (y, _) in zip(a, b, strict=True))
    one.apply(a[5][0])
    after = one.chance_outcomes()
    assert len(after) == 53 and a[5][0] not in [x for x, _ in after]
    assert {p for _, p in after} == {1.0 / 53}
    assert len(other.chance_outcomes()) == 54
    assert {p for _, p in other.chance_outcomes()} == {1.0 / 54}


def test_apply_takes_equal_actions_built_elsewhere() -> None:
    """An action equal to a legal one but not the game's own object (built by hand, from
    another game object, or from JSON) is applied the same way."""
    game = spielwerk.load("witches")
    twin = spielwerk.load("witches")
    states = [game.new_state(4, seed=9) for _ in range(4)]
    rng = random.Random(9)
    while not states[0].is_terminal():
        if states[0].is_chance():
            outcomes = states[0].chance_outcomes()
            action = outcomes[int(rng.random() * len(outcomes))][0]
        else:
            legal = states[0].legal_actions()
            action = legal[int(rng.random() * len(legal))]
        states[0].apply(action)
        states[1].apply(Action(action.id, action.type, action.params))
        states[2].apply(twin.actions[action.id])
        states[3].apply(action.to_json())
    records = [s.to_record() for s in states]
    assert all(r == records[0] for r in records)


def test_illegal_interned_action_is_refused_and_changes_nothing() -> None:
    state = _at_chance()
    while state.is_chance():
        state.apply(state.chance_outcomes()[0][0])
    legal = {a.id for a in state.legal_actions()}
    illegal = next(a for a in state.game.actions.actions[:54] if a.id not in legal)
    before = fingerprint(state)
    with pytest.raises(spielwerk.IllegalAction, match="not legal for player"):
        state.apply(illegal)
    draw = state.game.actions[state.game.num_distinct_actions]  # a chance outcome
    with pytest.raises(spielwerk.IllegalAction, match="not legal for player"):
        state.apply(draw)
    seat = state.to_move
    assert isinstance(seat, int)
    with pytest.raises(spielwerk.IllegalAction, match="not player"):
        state.apply(state.legal_actions()[0], player=(seat + 1) % 4)
    assert fingerprint(state) == before


def test_apply_refuses_a_hand_made_action_with_a_foreign_id() -> None:
    state = _at_chance()
    for bogus in (Action(-1, "play", (("card", "blue-1"),)), Action(10**6, "draw")):
        with pytest.raises(spielwerk.IllegalAction):
            state.apply(bogus)
    assert len(state.history) == 0


def _play_until(state: spielwerk.State, phase: str, seed: int = 0) -> None:
    rng = random.Random(seed)
    while state.view(None)["phase"] != phase:
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply(legal[int(rng.random() * len(legal))])


@pytest.mark.parametrize("phase", ["play", "choose_trump"])
def test_legal_actions_are_the_callers_own_list(phase: str) -> None:
    """Witches builds the list of the seat to move directly (hand, or keep/change trump): a
    caller who changes it changes nothing in the game, and the list matches `legal_ids`."""
    state = _at_chance()
    _play_until(state, phase)
    before = fingerprint(state)
    legal = state.legal_actions()
    assert [a.id for a in legal] == state.legal_ids()
    assert all(state.game.actions[a.id] is a for a in legal)
    first = legal[0]
    legal.clear()
    legal.append(state.game.actions[state.game.num_distinct_actions])  # a chance outcome
    assert fingerprint(state) == before
    assert state.legal_actions()[0] is first
    assert [a.id for a in state.legal_actions()] == state.legal_ids()


def test_the_last_card_of_the_pile_is_one_outcome_of_probability_one() -> None:
    state = _at_chance(seed=3)
    rng = random.Random(3)
    while not (state.is_chance() and len(state.legal_ids()) == 1):
        assert not state.is_terminal()
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rng.random() * len(outcomes))][0])
        else:
            state.apply(rng.choice(state.legal_actions()))
    (only,) = state.legal_ids()
    assert state.chance_outcomes() == [(state.game.actions[only], 1.0)]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_checked_apply_plays_the_games_of_apply_trusted(players: int) -> None:
    """Witches' check-and-move of `apply` and the unchecked `apply_trusted` are separate code:
    the same choices give the same game, move for move."""
    game = spielwerk.load("witches")
    for seed in range(10):
        checked = game.new_state(players, seed=seed)
        trusted = game.new_state(players, seed=seed)
        rng = random.Random(seed)
        while not checked.is_terminal():
            if checked.is_chance():
                outcomes = checked.chance_outcomes()
                action = outcomes[int(rng.random() * len(outcomes))][0]
            else:
                legal = checked.legal_actions()
                action = legal[int(rng.random() * len(legal))]
            actor = checked.to_move
            assert isinstance(actor, int)
            checked.apply(action)
            trusted.apply_trusted(action.id, actor)
            assert fingerprint(checked) == fingerprint(trusted)
        assert checked.result() == trusted.result()
