"""Build exact Tainted Grail positions on the test table (`table.toml`, a small scenario made
for these tests) or on the demo scenario.

Every random event is a chance action (the event revealed at dawn, the test die, the guardian
die), so a test fixes the whole game by choosing those actions. Actions are applied through
the public API in their JSON form; a few literal situations (a character's energy, a menhir's
dial) are set on the state directly, as a player would set up the table.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import spielwerk
from spielwerk.core.conformance import play_on
from spielwerk.core.i18n import Lang
from spielwerk.core.state import CHANCE, State
from spielwerk.games.tainted_grail import words
from spielwerk.games.tainted_grail.state import TaintedGrailState

TABLE = str(Path(__file__).with_name("table.toml"))
ADA, BEN, CAI, DAG = range(4)


def new_game(players: int = 1, scenario: str = TABLE, seed: int = 0) -> TaintedGrailState:
    state = spielwerk.load("tainted_grail", scenario=scenario).new_state(players, seed=seed)
    assert isinstance(state, TaintedGrailState)
    return state


def act(state: State, kind: str, player: int | None = None, **params: Any) -> None:
    state.apply({"type": kind, **params}, player=player)


def travel(state: State, to: str) -> None:
    act(state, "travel", to=to)


def choose(state: State, label: str) -> None:
    """Pick the option of the pending story text whose label is `label`."""
    decision = state.view(None)["decision"]
    for option in decision["options"]:
        if option["label"] == label:
            act(state, "choose", option=option["option"])
            return
    raise AssertionError(f"no option {label!r} in {decision['options']}")


def roll(state: State, value: int) -> None:
    act(state, "roll", value=value)


def legal(state: State, player: int | None = None) -> list[dict[str, Any]]:
    return [a.to_json() for a in state.legal_actions(player)]


def legal_types(state: State) -> set[str]:
    return {a.type for a in state.legal_actions()}


def character(state: State, c: int) -> dict[str, Any]:
    view: dict[str, Any] = state.view(None)
    return dict(view["characters"][c])


def locations(state: State) -> set[str]:
    return {place["id"] for place in state.view(None)["locations"]}


def pending(state: TaintedGrailState) -> str:
    return str(state.pending[0]) if state.pending else ""


def finish_day(
    state: TaintedGrailState,
    *,
    eat: bool = True,
    event: str | None = None,
    guardian: str = "stay",
) -> None:
    """Run on to the next moment a character is asked to act in the day phase: everyone
    still to act passes, each character eats (or not), buys no improvement and equips nothing
    more; the dawn reveals `event` (or the first event left in the deck) and every guardian
    die shows `guardian`. Called during a dawn, it finishes that dawn only. Stops early at a
    story choice (the test answers it) and at the end of the game."""
    day = state.day if state.phase != "day" else state.day + 1
    for _ in play_on(state, 2_000):
        kind = pending(state)
        if kind == "act" and state.day >= day:
            return
        if kind == "choose":
            return
        if state.to_move == CHANCE:
            if kind == "event":
                act(state, "event", event=event or _deck_ids(state)[0])
            elif kind == "gdie":
                act(state, "guardian_die", face=guardian)
            else:
                raise AssertionError(f"finish_day met a {kind} chance node")
        elif kind == "act":
            act(state, "pass")
        elif kind == "rest":
            act(state, "eat" if eat else "fast")
        elif kind == "improve":
            act(state, "skip_improvement")
        elif kind == "equip":
            act(state, "equip_done")
        elif kind == "join":
            act(state, "decline")
        else:
            raise AssertionError(f"finish_day met a {kind} decision")


def _deck_ids(state: TaintedGrailState) -> list[str]:
    events = state.game.scenario.events
    return [events[e].id for e in state.deck]


def log_lines(state: TaintedGrailState, lang: Lang = "en") -> list[str]:
    """The game log in words (the state keeps each entry as a text key and parameters)."""
    table = state.game.translations
    return [words.line(lang, key, dict(params), table) for key, params in state.log]


def log_since(state: TaintedGrailState, start: int) -> list[str]:
    return log_lines(state)[start:]
