"""Game records of the Witches of Blackmore (`spielwerk-record/1`).

DESIGN "Core contracts": a record holds the game, options, number of players, seed, "the full
action list (chance actions included, each with its actor), and the result";
`spielwerk.replay(record)` "rebuilds the state and raises on any illegal or inconsistent entry".
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from typing import Any

import pytest
from witches_table import deal, filled, play, public

import spielwerk
from spielwerk.core.conformance import play_random

Record = dict[str, Any]


@pytest.fixture(scope="module")
def record() -> Record:
    """A finished 4-player game on the ascending wheel, starting with seat 1."""
    game = spielwerk.load("witches", wheel="ascending", start_player=1)
    return play_random(game, 4, seed=31).to_record()


def first_index(record: Record, kind: str) -> int:
    return next(i for i, e in enumerate(record["actions"]) if e["action"]["type"] == kind)


def test_record_layout(record: Record) -> None:
    """The record names everything needed to replay it: format, game, options, players, seed,
    every action with its actor (24 deal draws and the turn-up by chance first), the result."""
    assert record["format"] == "spielwerk-record/1"
    assert record["game"] == "witches"
    assert record["options"] == {"wheel": "ascending", "start_player": 1}
    assert record["players"] == 4
    assert record["seed"] == 31
    head = record["actions"][:25]
    assert all(e["actor"] == "chance" and e["action"]["type"] == "draw" for e in head)
    assert record["actions"][25]["actor"] == 1  # the start player leads
    assert record["actions"][25]["action"]["type"] == "play"
    assert record["result"]["winners"]
    assert len(record["result"]["scores"]) == 4


def test_record_of_a_built_position_is_literal() -> None:
    """Each action appears in its JSON form with its actor, in the order applied."""
    hands = filled([["yellow-2"], ["yellow-5"]], "blue-7")
    state = deal(hands, "blue-7")
    play(state, "yellow-2", "yellow-5")
    entries = state.to_record()["actions"]
    assert entries[0] == {"actor": "chance", "action": {"type": "draw", "card": "yellow-2"}}
    assert entries[1] == {"actor": "chance", "action": {"type": "draw", "card": "yellow-5"}}
    assert entries[12] == {"actor": "chance", "action": {"type": "draw", "card": "blue-7"}}
    assert entries[13:] == [
        {"actor": 0, "action": {"type": "play", "card": "yellow-2"}},
        {"actor": 1, "action": {"type": "play", "card": "yellow-5"}},
    ]
    assert state.to_record()["result"] is None


def test_replay_round_trip_through_json_text(record: Record) -> None:
    """`load_record(json text)` rebuilds the same game: same views for everybody, same result."""
    text = json.dumps(record)
    state = spielwerk.load_record(text)
    assert state.is_terminal()
    assert state.result() == record["result"]
    assert state.to_record() == record
    original = spielwerk.replay(record)
    for viewer in (None, 0, 1, 2, 3):
        assert state.view(viewer) == original.view(viewer)


def test_unfinished_record_replays_to_the_same_position() -> None:
    """A record taken mid-game replays to the position it was taken in."""
    game = spielwerk.load("witches")
    state = game.new_state(3, seed=8)
    while len(state.to_record()["actions"]) < 60:
        state.apply(state.sample_chance() if state.is_chance() else state.legal_actions()[0])
    rebuilt = spielwerk.replay(json.loads(json.dumps(state.to_record())))
    assert not rebuilt.is_terminal()
    for viewer in (None, 0, 1, 2):
        assert rebuilt.view(viewer) == state.view(viewer)
    assert rebuilt.legal_actions() == state.legal_actions()


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Record], None]:
    def edit(record: Record) -> None:
        target: Any = record
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return edit


def _swap_card_of_first(kind: str, card: str) -> Callable[[Record], None]:
    def edit(record: Record) -> None:
        record["actions"][first_index(record, kind)]["action"]["card"] = card

    return edit


def _first_play_actor(actor: Any) -> Callable[[Record], None]:
    def edit(record: Record) -> None:
        record["actions"][first_index(record, "play")]["actor"] = actor

    return edit


def _tamper_cases(record: Record) -> dict[str, tuple[Callable[[Record], None], str]]:
    play_at = first_index(record, "play")
    second_card = record["actions"][1]["action"]["card"]
    leader_hand_card = record["actions"][play_at]["action"]["card"]
    # A card that sits in seat 2's hand (dealt in round one), not in the leader's.
    foreign = record["actions"][2]["action"]["card"]
    assert foreign != leader_hand_card
    cases = [
        ("card not in the hand", _swap_card_of_first("play", foreign), f"action {play_at}\\b"),
        ("card dealt twice", _set(("actions", 0, "action", "card"), second_card), r"action 1\b"),
        ("unknown card", _swap_card_of_first("play", "pink-3"), f"action {play_at}\\b"),
        ("wrong seat", _first_play_actor(2), f"action {play_at}\\b"),
        ("chance plays a card", _first_play_actor("chance"), f"action {play_at}\\b"),
        ("seat draws a card", _set(("actions", 0, "actor"), 0), r"action 0\b"),
        ("actor of the wrong type", _first_play_actor("seat one"), f"action {play_at}\\b"),
        (
            "entry without actor",
            _set(("actions", 3), {"action": {"type": "keep_trump"}}),
            r"action 3\b",
        ),
        ("entry not an object", _set(("actions", 4), "play red-1"), r"action 4\b"),
        (
            "action of wrong type",
            _set(("actions", 5, "action"), {"type": "keep_trump"}),
            r"action 5\b",
        ),
        ("wrong scores", _set(("result", "scores", 0), 999), "result"),
        ("wrong winners", _set(("result", "winners"), [0, 1, 2, 3]), "result"),
        ("bad format", _set(("format",), "spielwerk-record/0"), "format"),
        ("unknown game", _set(("game",), "no-such-game"), "no-such-game"),
        ("bad option", _set(("options", "wheel"), "sideways"), "wheel"),
        ("too many players", _set(("players",), 7), "2 to 6"),
        ("seed not a number", _set(("seed",), "31"), "seed"),
        ("actions missing", lambda r: r.pop("actions"), "actions"),
    ]
    return {name: (edit, message) for name, edit, message in cases}


TAMPER_CASES = [
    "card not in the hand",
    "card dealt twice",
    "unknown card",
    "wrong seat",
    "chance plays a card",
    "seat draws a card",
    "actor of the wrong type",
    "entry without actor",
    "entry not an object",
    "action of wrong type",
    "wrong scores",
    "wrong winners",
    "bad format",
    "unknown game",
    "bad option",
    "too many players",
    "seed not a number",
    "actions missing",
]


@pytest.mark.parametrize("case", TAMPER_CASES)
def test_tampered_records_are_refused(record: Record, case: str) -> None:
    """Every changed card, wrong actor, wrong result, bad format or unknown game raises
    RecordError, and the message names the offending entry or field."""
    spielwerk.replay(record)  # the untouched record is fine
    cases = _tamper_cases(record)
    assert sorted(cases) == sorted(TAMPER_CASES)
    edit, message = cases[case]
    bad = copy.deepcopy(record)
    edit(bad)
    with pytest.raises(spielwerk.RecordError, match=message):
        spielwerk.replay(bad)


def test_truncated_record_claiming_a_result_is_refused(record: Record) -> None:
    """A record whose actions stop before the end must not claim a result."""
    bad = copy.deepcopy(record)
    del bad["actions"][-3:]
    with pytest.raises(spielwerk.RecordError, match="result"):
        spielwerk.replay(bad)
    bad["result"] = None
    state = spielwerk.replay(bad)  # without the claim it is a valid unfinished game
    assert not state.is_terminal()


def test_record_after_appended_action_is_refused(record: Record) -> None:
    """Nothing may follow the final trick."""
    bad = copy.deepcopy(record)
    bad["actions"].append({"actor": 0, "action": {"type": "keep_trump"}})
    with pytest.raises(spielwerk.RecordError, match=f"action {len(record['actions'])}"):
        spielwerk.replay(bad)


def test_load_record_refuses_text_that_is_not_json() -> None:
    """DESIGN "Core contracts": a record is JSON; other text is a RecordError, not a crash."""
    with pytest.raises(spielwerk.RecordError, match="JSON"):
        spielwerk.load_record("{not json")
    with pytest.raises(spielwerk.RecordError):
        spielwerk.load_record("[1, 2, 3]")


def test_views_of_replayed_record_match_the_live_game() -> None:
    """A replay is not a look-alike: the seat views at the end are exactly the live ones."""
    state = play_random(spielwerk.load("witches"), 5, seed=4)
    again = spielwerk.replay(state.to_record())
    assert [again.view(p) for p in (None, *range(5))] == [state.view(p) for p in (None, *range(5))]
    assert public(again)["result"] == state.result()
