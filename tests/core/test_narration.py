"""Narration (`spielwerk.core.narration`, each game's `narrate.py`): the events a player at the
table would notice, derived from two views, and the breakdown of a finished game's result."""

from __future__ import annotations

import random
from typing import Any

import pytest

import spielwerk
from spielwerk.core.conformance import play_on
from spielwerk.core.narration import Narration, event, event_text, game_narration
from spielwerk.core.state import CHANCE, State


def seat_name(p: int) -> str:
    """Seats as a page names them when nobody has a name: counted from 1."""
    return f"Seat {p + 1}"


GAMES = {"witches": 4, "inkheart_dice": 3, "isolde": 3, "inkspell": 3, "tainted_grail": 2}


def random_game(name: str, players: int, seed: int) -> tuple[State, list[list[dict[str, Any]]]]:
    """A random game to the end and the events seat 0 was told at every step."""
    state = spielwerk.load(name).new_state(players, seed=seed)
    rng = random.Random(seed)
    narrate = game_narration(name).events
    steps = []
    before = state.view(0)
    for _ in play_on(state):
        if state.to_move == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            to_move = state.to_move
            seat = min(to_move) if isinstance(to_move, frozenset) else to_move
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
        after = state.view(0)
        steps.append(narrate(before, after))
        before = after
    return state, steps


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_event_and_explanation_has_words(name: str) -> None:
    """Every event of two whole games and every part of the result's breakdown is worded by
    the game's templates, with nothing missing (no KeyError, no "None")."""
    narration = game_narration(name)
    assert narration.explain is not None
    for seed in (1, 2):
        state, steps = random_game(name, GAMES[name], seed)
        assert any(steps), "a whole game narrates something"
        for made in (e for step in steps for e in step):
            assert "None" not in event_text(narration, "en", made, seat_name)
        explained = narration.explain(state.view(None))
        assert [row["seat"] for row in explained["rows"]] == list(range(GAMES[name]))
        for row in explained["rows"]:
            assert row["total"] == state.result()["scores"][row["seat"]]
            for part in row["parts"]:
                assert "None" not in event_text(narration, "en", part, seat_name)
        event_text(narration, "en", explained["verdict"], seat_name)


@pytest.mark.parametrize("name", ["witches", "isolde", "inkheart_dice", "inkspell"])
def test_breakdowns_add_up_to_the_scores(name: str) -> None:
    """The parts of each seat's breakdown add up to the score the rules give."""
    narration = game_narration(name)
    assert narration.explain is not None
    state, _ = random_game(name, GAMES[name], 7)
    scores = state.result()["scores"]
    for row in narration.explain(state.view(None))["rows"]:
        points = {p["key"]: p["params"] for p in row["parts"]}
        if name == "witches":
            total = sum(p["params"]["points"] for p in row["parts"] if p["key"] == "colour_points")
        elif name == "isolde":
            total = sum(p["params"]["points"] for p in row["parts"] if p["key"] == "board_total")
        elif name == "inkspell":
            total = points["on_track"]["points"] + points["advantage"]["points"]
        else:
            option = points[f"option_{row['best']}"]
            assert option["points"] * option["hearts"] == option["score"]
            total = max(points["option_kept"]["score"], points["option_discarded"]["score"])
        assert total == scores[row["seat"]]


def test_witches_names_each_trick_its_winner_and_points() -> None:
    """Rulebook (Witches, 'Stich'): the highest card takes the trick; the winner may lay one of
    its cards on the trump pile, which is then not captured. A completed trick is one line."""
    narration = game_narration("witches")
    before = {"tricks": [], "trick_winner": 2, "known_in_hands": [[], [], []], "trump": "red-2"}
    trick = {"players": [0, 1, 2], "cards": ["green-7", "yellow-6", "grey-2"], "winner": 2}
    after = {**before, "trick_winner": None, "trump": "green-7"}
    after["tricks"] = [{**trick, "new_trump": "green-7", "points": 8}]  # the rules' count
    before["trick"] = after["trick"] = []
    before["hand_sizes"] = after["hand_sizes"] = [5, 5, 5]
    events = narration.events(before, after)
    texts = [event_text(narration, "en", e, seat_name) for e in events]
    # the new trump is told once, in the trick's line, not again beside the winner's own line
    assert texts == [
        "Trick 1: Seat 1 Green 7, Seat 2 Yellow 6, Seat 3 Grey 2 → Seat 3 takes 8 points; "
        "new trump Green 7"
    ]
    assert events[0]["fold"] == {"group": "trick-1", "part": "trick"}


def test_isolde_scores_every_board_of_the_round_once() -> None:
    """Rulebook (Isolde, 'Wertung'): after each round the boards marked for that round are
    scored. Each such board gets one line per round, the moves-only Isolde board none."""
    state, steps = random_game("isolde", 3, 4)
    view = state.view(None)
    lines = [e["params"] for step in steps for e in step if e["key"] == "board_scored"]
    expected = [
        (r, b["board"])
        for r in range(1, view["rounds"] + 1)
        for b in view["boards"]
        if r in b["scored_after"] and b["scoring"] != "moves"
    ]
    assert [(p["round"], p["board"]) for p in lines] == expected
    awarded = sum(g["points"] for p in lines for g in p["gains"])
    assert awarded == sum(view["scores"])


def test_tie_break_is_told_only_when_it_decided() -> None:
    narration = game_narration("isolde")
    assert narration.explain is not None
    state, _ = random_game("isolde", 3, 4)
    view = state.view(None)
    explained = narration.explain(view)
    scores = view["scores"]
    tied = scores.count(max(scores)) > 1
    assert (explained["tie_break"] is not None) == tied
    # the same final table with the leaders level: the tie-break is told and names the winner
    level = {**view, "scores": [10, 10, 3], "result": {"winners": [1], "scores": [10, 10, 3]}}
    made = narration.explain(level)["tie_break"]
    assert made is not None
    words = event_text(narration, "en", made, seat_name)
    assert words == "Seat 1, Seat 2 had 10 shields each: Seat 2 is further ahead on Isolde's board"


def test_inkheart_seat_score_is_points_times_hearts() -> None:
    """Rulebook (Tintenherz, scoring): the points of the cards under the castle are multiplied
    by the hearts; the castle card may be discarded with all negative cards. The seat's score
    line says both factors (9 points x 2 hearts is 18, not "18 · 4 hearts")."""
    narration = game_narration("inkheart_dice")
    base = {"players": 1, "unsafe": [[]], "safe": [[]], "dice": None, "rerolling": None}
    scoring = {
        "castle": "kept",
        "score": 18,
        "kept": {"points": 9, "hearts": 2, "score": 18},
        "discarded": {"points": 12, "hearts": 0, "score": 0},
    }
    before = {**base, "scoring": [{**scoring, "score": 0}]}
    after = {**base, "safe": [["Mo"]], "scoring": [scoring]}
    texts = [event_text(narration, "en", e, seat_name) for e in narration.events(before, after)]
    assert texts == ["Seat 1 scores 9 points \u00d7 2 ♥ = 18 now (castle kept)"]


def test_event_text_names_seats_and_refuses_missing_parameters() -> None:
    texts = Narration(
        events=lambda a, b: [], templates=lambda lang: {"x": "{seat} beats {victim}: {gains}"}
    )
    made = event("x", seat=0, victim=1, gains=[{"seat": 1, "points": -2}])
    assert event_text(texts, "en", made, lambda p: "AB"[p]) == "A beats B: B -2"
    with pytest.raises(KeyError):
        event_text(texts, "en", event("x", seat=0))
