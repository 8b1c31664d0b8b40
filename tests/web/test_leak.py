"""No byte sent to a seat carries what that seat may not see, over a whole game.

Two human seats and a spectator play a Witches game against two bots through the real server.
Afterwards the game is replayed from the database step by step: every state message a seat got
must hold exactly `view(seat)` at that step and the log as `describe(action, seat)`, and the raw
text of every message (welcome, states, log lines, legal actions) must not contain the name of
any card another seat holds face down at that moment.
"""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from webtest import Server
from wsclient import Player

import spielwerk
from spielwerk.web.storage import Storage


async def _play(player: Player, seed: int) -> None:
    rng = random.Random(seed)
    while True:
        state = await player.until(lambda s: s["over"] or bool(s["legal"]))
        if state["over"]:
            return
        await player.play_random(rng)


def _replay_truth(server: Server, table_id: str) -> dict[str, Any]:
    """Per step: every seat's face-down cards, the views and the log texts per viewer."""
    storage = Storage(server.db_url)
    row = storage.load_table(table_id)
    actions = storage.load_actions(table_id)
    storage.close()
    assert row is not None
    state = spielwerk.load(row.game, **row.options).new_state(row.players, seed=row.seed)
    viewers: list[int | None] = [None, *range(row.players)]
    hidden: list[list[set[str]]] = []
    views: list[dict[int | None, Any]] = []
    texts: dict[int | None, list[str]] = {v: [] for v in viewers}

    def snapshot() -> None:
        own = [state.view(q) for q in range(row.players)]
        hidden.append(
            [set(own[q]["hand"]) - set(own[q]["known_in_hands"][q]) for q in range(row.players)]
        )
        views.append({v: state.view(v) for v in viewers})

    snapshot()
    for stored in actions:
        action = state.game.action_from_json(stored.action)
        for v in viewers:
            texts[v].append(state.describe(action, v))
        state.apply(action, player=stored.actor)
        snapshot()
    assert state.is_terminal()
    return {"hidden": hidden, "views": views, "texts": texts, "players": row.players}


def _check(player: Player, seat: int | None, truth: dict[str, Any]) -> int:
    """Check every message `player` received; returns how many hidden cards were checked."""
    checked = 0
    others = [q for q in range(truth["players"]) if q != seat]
    version = 0
    for raw in player.raw:
        message = json.loads(raw)
        if message["type"] == "state":
            version = message["version"]
            assert message["view"] == truth["views"][version][seat]
            for line in message["log"]:
                assert line["text"] == truth["texts"][seat][line["i"]]
        for q in others:
            for card in truth["hidden"][version][q]:
                assert card not in raw, f"seat {seat} was sent {card} of seat {q}: {raw[:300]}"
                checked += 1
    assert player.log == truth["texts"][seat][: len(player.log)]
    return checked


def test_no_message_carries_another_seats_hidden_cards(server: Server) -> None:
    created: Any = server.create("witches", ["human", "human", "heuristic", "random"])
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
            _play(players[0], 1),
            _play(players[1], 2),
            players[2].until(lambda s: s["over"]),
        )
        for player in players:
            await player.close()
        return players

    first, second, spectator = asyncio.run(scenario())
    truth = _replay_truth(server, table_id)
    assert first.state and first.state["over"] and first.state["result"]
    checks = _check(first, 0, truth) + _check(second, 1, truth) + _check(spectator, None, truth)
    assert checks > 1000  # the check had face-down cards to look for, all game long
    # The spectator never saw any hand at all, and every seat saw the whole public log.
    assert all(json.loads(raw).get("view", {}).get("hand") is None for raw in spectator.raw)
    assert len(first.log) == len(truth["texts"][0])
