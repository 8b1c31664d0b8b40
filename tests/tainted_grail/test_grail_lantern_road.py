"""The second scenario, The Lantern Road (`lantern_road.toml`), written from the format section
of docs/games/tainted_grail.md alone: it loads, passes the conformance checks
and plays to a win by its own rules."""

from __future__ import annotations

from pathlib import Path

import pytest
from grail_table import (
    act,
    character,
    choose,
    finish_day,
    legal,
    log_lines,
    new_game,
    pending,
    roll,
    travel,
)

import spielwerk
from spielwerk.core.conformance import run_conformance

ROAD = str(Path(__file__).with_name("lantern_road.toml"))
WREN = 0


@pytest.mark.parametrize("players", [1, 2])
def test_the_lantern_road_passes_the_conformance_checks(players: int) -> None:
    game = spielwerk.load("tainted_grail", scenario=ROAD)
    report = run_conformance(game, players, seed=players, every=2)
    assert report.steps > 0 and report.result["cooperative"] is True


def test_the_lantern_road_is_won_by_kindling_the_beacon() -> None:
    """Wren alone: past the Toll-Keeper to the shrine on day 1, where she relights its menhir
    before dawn would discard the far end of the road; the flame and the beacon on day 2."""
    state = new_game(1, scenario=ROAD)
    travel(state, "bridge")
    travel(state, "toll")
    assert "Wren meets the Toll-Keeper" in log_lines(state)
    choose(state, "Knock him down")
    roll(state, 2)  # strength 2 + staff 1 + 2 = 5
    assert state.view(None)["guardians"] == []
    travel(state, "shrine")
    act(state, "location_action", action="relight")
    assert character(state, WREN)["energy"] == 0 and legal(state) == [{"type": "pass"}]
    act(state, "pass")
    finish_day(state, event="road_calls")
    view = state.view(None)
    assert view["time_dials"] == {"the Long Dusk": 4}
    assert {"id": "shrine_stone", "location": "shrine", "x": 3, "y": 1, "dial": 3} in (
        view["menhirs"]
    )
    assert {p["id"] for p in view["locations"]} == {
        "gate",
        "bridge",
        "toll",
        "well",
        "shrine",
        "beacon",
    }
    act(state, "explore")
    choose(state, "Take the flame")
    assert "Shrine Flame" in [i["name"] for i in character(state, WREN)["items"]]
    travel(state, "beacon")
    assert {"type": "location_action", "action": "kindle"} in legal(state)
    act(state, "location_action", action="kindle")
    assert state.is_terminal()
    result = state.result()
    assert result["outcome"] == "win" and result["days"] == 2
    assert result["reason"] == "the beacon burns on the hill"


def test_turning_back_from_the_toll_keeper_is_an_arrival_at_the_bridge() -> None:
    """`move_to` moves the characters and they arrive there (rules file: arrival "by any
    means"); the bridge's coin opens the keeper's gate for the next visit."""
    state = new_game(1, scenario=ROAD)
    travel(state, "bridge")
    act(state, "explore")
    choose(state, "Prise it out")
    roll(state, 3)  # cunning 1 + 3 = 4
    travel(state, "toll")
    choose(state, "Turn back")
    assert character(state, WREN)["location"] == "bridge"
    assert pending(state) == "act"
    travel(state, "toll")
    labels = [o["label"] for o in state.view(None)["decision"]["options"]]
    assert labels[0] == "Pay with the old coin"
    choose(state, "Pay with the old coin")
    assert state.view(None)["guardians"] == []
