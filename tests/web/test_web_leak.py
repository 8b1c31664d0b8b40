"""No byte sent to a seat carries what that seat may not see, over whole games of every game.

Two human seats and a spectator play each game (against bots where the game seats more) through
the real server, every message kept exactly as it arrived. Afterwards the game is replayed from
the database step by step and each connection's messages are checked three ways:

1. Every state message is exactly the message built from the replayed truth for that viewer:
   `view(viewer)`, the viewer's legal actions with their texts, the log as
   `describe(action, viewer)`, whose turn, the result. Nothing else rides along.
2. No message (welcome, states, errors) holds the name of any card another seat holds face down
   at that moment, unless the viewer may know that name anyway (a card of the same kind in its
   own hand, on the table or in its log).
3. Every state message is also exactly what the server would have sent had the hidden cards been
   dealt differently: rebuilt from `resample(viewer)` of the truth (a state the viewer cannot tell
   apart from it, history rewritten to match), it is byte for byte the same. So the messages
   carry nothing beyond the viewer's information, whatever form a leak would take.
"""

from __future__ import annotations

import asyncio
import json
import random
import re
from typing import Any

import pytest
from web_client import Player, play_to_the_end
from web_parts import Server

import spielwerk
from spielwerk.core.narration import game_narration, worded
from spielwerk.core.state import CHANCE, State
from spielwerk.core.undo import last_step_by
from spielwerk.web.storage import Storage, TableRow
from spielwerk.web.tables import deciders, explanation, undo_offered

TABLES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "witches": (["human", "human", "heuristic", "random"], {}),
    "isolde": (["human", "human", "random"], {}),
    "inkspell": (["human", "human", "random"], {}),
    "inkheart_dice": (["human", "human", "random"], {"max_turns": 30}),
    "tainted_grail": (["human", "human"], {}),
}
HIDDEN_CARDS = {"witches", "isolde", "inkspell"}
"""The games in which a seat holds cards others may not see."""
RESAMPLES_PER_VIEWER = 40


def expected_state_message(
    state: State,
    viewer: int | None,
    texts: list[str],
    events: list[list[dict[str, Any]]],
    actors: list[int],
    log_from: int,
    names: list[str | None],
    row: TableRow,
) -> dict[str, Any]:
    """The state message for `viewer` at `state`, as the protocol (docs/web.md) defines it:
    "take back" offered where the undo rule allows it (drawn as the server draws)."""
    over = state.is_terminal()
    legal = (
        []
        if viewer is None
        else [
            {"id": a.id, "action": a.to_json(), "text": state.label(a, viewer, "en")}
            for a in state.legal_actions(viewer)
        ]
    )
    message = {
        "type": "state",
        "version": len(state.history),
        "seat": viewer,
        "to_move": deciders(state),
        "over": over,
        "result": state.result() if over else None,
        "explanation": explanation(state, viewer, "en") if over else None,
        "view": state.view(viewer),
        "legal": legal,
        "log_from": log_from,
        "log": [
            {
                "i": i,
                "actor": None if actors[i] == CHANCE else actors[i],
                "text": texts[i],
                "events": events[i],
            }
            for i in range(log_from, len(state.history))
        ],
        "broken": None,
        "trouble": None,  # no failed write in this test
        "names": names,
        "devices": None if viewer is None else 1,  # one connection per seat here
        "notice": None,  # nobody takes a move back here
        "may_undo": viewer is not None and last_step_by(state, viewer) and undo_offered(row, state),
        "rematch": None,
        "clock": None,  # no move clock at these tables
    }
    parsed: dict[str, Any] = json.loads(json.dumps(message))
    return parsed


def narration(state: State) -> Any:
    return game_narration(state.game.name)


def replay_texts(state: State, viewer: int | None) -> tuple[list[str], list[list[dict[str, Any]]]]:
    """`describe(action, viewer)` of every action in `state`'s history, replayed from the
    start, and the events the game's narration derives from the viewer's views around it."""
    game = state.game
    replayed = game.new_state(state.num_players, seed=state.seed)
    texts, events = [], []
    before = replayed.view(viewer)
    for actor, action_id in state.history:
        action = game.actions[action_id]
        texts.append(replayed.describe(action, viewer))
        replayed.apply(action, player=actor)
        after = replayed.view(viewer)
        said = narration(state)
        events.append([worded(said, "en", made) for made in said.events(before, after)])
        before = after
    return texts, events


class Truth:
    """The game as stored, replayed: the state after every step."""

    def __init__(self, server: Server, table_id: str) -> None:
        storage = Storage(server.db_url)
        row = storage.load_table(table_id)
        actions = storage.load_actions(table_id)
        storage.close()
        assert row is not None
        self.row = row
        self.players = row.players
        self.names = [seat.name for seat in row.seats]  # as claimed: "Player N"; bots None
        state = spielwerk.load(row.game, **row.options).new_state(row.players, seed=row.seed)
        self.states = [state.clone()]
        for stored in actions:
            state.apply(state.game.action_from_json(stored.action), player=stored.actor)
            self.states.append(state.clone())
        assert state.is_terminal()
        self.actors = [actor for actor, _ in state.history]
        viewers: list[int | None] = [None, *range(row.players)]
        logs = {v: replay_texts(state, v) for v in viewers}
        self.texts = {v: log[0] for v, log in logs.items()}
        self.events = {v: log[1] for v, log in logs.items()}


def leaves(data: Any) -> list[str]:
    """Every string in a JSON value, keys included."""
    if isinstance(data, str):
        return [data]
    if isinstance(data, dict):
        return [*data.keys(), *(s for value in data.values() for s in leaves(value))]
    if isinstance(data, list):
        return [s for value in data for s in leaves(value)]
    return []


def mentions(text: str, name: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def secrets(truth: Truth, step: int, viewer: int | None) -> set[str]:
    """Names other seats hold privately at `step` that `viewer` has no way to know."""
    state = truth.states[step]
    public = set(leaves(state.view(None)))
    own = set(leaves(state.view(viewer))) | public
    own_texts = truth.texts[viewer][:step]
    hidden: set[str] = set()
    for seat in range(truth.players):
        if seat != viewer:
            hidden |= set(leaves(state.view(seat))) - public
    return {
        name
        for name in hidden
        if name not in own and not any(mentions(text, name) for text in own_texts)
    }


def check_connection(player: Player, viewer: int | None, truth: Truth, seed: int) -> int:
    """All three checks on one connection; the number of (message, secret) pairs checked."""
    checked = 0
    step = 0
    resample_rng = random.Random(seed)
    state_messages = [json.loads(raw) for raw in player.raw if '"type":"state"' in raw]
    to_resample = set(
        resample_rng.sample(
            range(len(state_messages)), min(RESAMPLES_PER_VIEWER, len(state_messages))
        )
    )
    index = 0
    for raw in player.raw:
        message = json.loads(raw)
        if message["type"] == "state":
            step = message["version"]
            state = truth.states[step]
            texts = truth.texts[viewer]
            expected = expected_state_message(
                state,
                viewer,
                texts,
                truth.events[viewer],
                truth.actors,
                message["log_from"],
                truth.names,
                truth.row,
            )
            # Who is at the table right now is about connections, not the game: public, and
            # of a fixed shape (checked here, then taken as sent).
            for seat in message["seats_now"]:
                assert set(seat) == {"here", "away", "sit_in"}, seat
                assert isinstance(seat["here"], bool) and seat["sit_in"] is False
                assert seat["away"] is None or isinstance(seat["away"], int | float)
            expected["seats_now"] = message["seats_now"]
            assert message == expected, f"step {step}: the message differs from the truth"
            if index in to_resample:
                sample = state.resample(viewer, resample_rng)
                assert len(sample.history) == step
                sample_message = expected_state_message(
                    sample,
                    viewer,
                    *replay_texts(sample, viewer),
                    [actor for actor, _ in sample.history],
                    message["log_from"],
                    truth.names,
                    truth.row,
                )
                sample_message["seats_now"] = message["seats_now"]
                assert message == sample_message, f"step {step}: the message tells states apart"
            index += 1
        strings = leaves(message)
        for name in secrets(truth, step, viewer):
            assert not any(mentions(s, name) for s in strings), (
                f"viewer {viewer} was sent {name!r} at step {step}: {raw[:300]}"
            )
            checked += 1
    assert player.log == truth.texts[viewer][: len(player.log)]
    return checked


@pytest.mark.parametrize("game", sorted(TABLES))
def test_no_message_carries_what_its_viewer_may_not_see(server: Server, game: str) -> None:
    seats, options = TABLES[game]
    created = server.create(game, seats, **options)
    table_id = created["id"]
    tokens = [created["seats"][0]["token"], created["seats"][1]["token"]]

    async def scenario() -> list[Player]:
        players = [
            Player(server.ws_base, table_id, tokens[0]),
            Player(server.ws_base, table_id, tokens[1]),
            Player(server.ws_base, table_id),
        ]
        for player in players:
            await player.join()
        await asyncio.gather(
            play_to_the_end(players[0], random.Random(1)),
            play_to_the_end(players[1], random.Random(2)),
            players[2].until(lambda s: s["over"], timeout=600),
        )
        for player in players:
            await player.close()
        return players

    first, second, spectator = asyncio.run(scenario())
    truth = Truth(server, table_id)
    assert first.state and first.state["over"] and first.state["result"]
    checks = sum(
        check_connection(player, viewer, truth, seed)
        for seed, (player, viewer) in enumerate(((first, 0), (second, 1), (spectator, None)))
    )
    if game in HIDDEN_CARDS:
        assert checks > 50  # there were face-down cards to look for, all game long
    # Every connection saw the whole log, as its viewer may see it.
    for player, viewer in ((first, 0), (second, 1), (spectator, None)):
        assert player.log == truth.texts[viewer]
