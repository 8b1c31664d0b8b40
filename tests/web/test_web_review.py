"""The game review and the hints through the server (`spielwerk/web/review.py`): a finished
table's review for a seat is computed in the bot workers with its progress shown, stored, and
made once; hints go to a seat whose table allows them (its creator enabled them and every
person agreed, or one person plays against bots), for its own decision only, never to a
spectator or for another seat, over HTTP and the websocket alike; the moves played after a
hint are marked in the record and in the list the replay and the result show."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
from web_client import Player
from web_parts import Server, wait_until

import spielwerk
from spielwerk.review.engine import decision_points

GAME = "inkheart_dice"


def post(server: Server, path: str, body: dict[str, Any] | None = None) -> httpx.Response:
    return httpx.post(server.base + path, json=body or {}, timeout=120)


def get(server: Server, path: str) -> httpx.Response:
    return httpx.get(server.base + path, timeout=120)


def finished_table(server: Server) -> str:
    table_id = str(server.create(GAME, ["heuristic", "random", "heuristic"])["id"])
    wait_until(lambda: bool(server.summary(table_id)["finished"]), 180, "the bots' game")
    return table_id


def review_of(server: Server, table_id: str, seat: int) -> dict[str, Any]:
    """Start the review and wait for it, checking that its progress only ever grows."""
    first = post(server, f"/api/tables/{table_id}/review/{seat}")
    assert first.status_code == 200, first.text
    seen = [first.json()]

    def done() -> bool:
        answer = get(server, f"/api/tables/{table_id}/review/{seat}").json()
        seen.append(answer)
        assert answer["state"] in ("running", "done"), answer
        return bool(answer["state"] == "done")

    wait_until(done, 600, "the review")
    running = [a for a in seen if a["state"] == "running" and a["total"] is not None]
    assert all(a["done"] <= a["total"] for a in running)
    assert [a["done"] for a in running] == sorted(a["done"] for a in running)
    review: dict[str, Any] = seen[-1]["review"]
    return review


def test_a_review_is_made_once_for_a_finished_table(shared_server: Server) -> None:
    table_id = finished_table(shared_server)
    record = get(shared_server, f"/api/tables/{table_id}/record").json()
    final = spielwerk.replay(record)
    review = review_of(shared_server, table_id, 1)
    points, forced = decision_points(final, 1)
    assert review["format"] == "spielwerk-review/1" and review["seat"] == 1
    assert [d["step"] for d in review["decisions"]] == [p.step for p in points]
    assert review["forced"] == forced and review["calibrated"] is True
    for decision in review["decisions"]:
        played = decision["moves"][decision["played"]]
        assert played["action"] == record["actions"][decision["step"]]["action"]
        assert played["text"]["de"] and played["text"]["en"]
        assert 0.0 <= played["chance"] <= 1.0
    # Computed once: asked again, it is the stored review at once, the same.
    again = post(shared_server, f"/api/tables/{table_id}/review/1").json()
    assert again == {"state": "done", "review": review}
    assert get(shared_server, f"/api/tables/{table_id}/review/0").json() == {"state": "none"}


def test_what_cannot_be_reviewed_is_refused(shared_server: Server) -> None:
    running = shared_server.create(GAME, ["human", "heuristic", "heuristic"])
    answer = post(shared_server, f"/api/tables/{running['id']}/review/0")
    assert answer.status_code == 409 and "when the game is over" in answer.json()["message"]
    assert post(shared_server, "/api/tables/nosuchtable/review/0").status_code == 404
    table_id = finished_table(shared_server)
    answer = post(shared_server, f"/api/tables/{table_id}/review/3")
    assert answer.status_code == 400 and "no seat 4" in answer.json()["message"]
    assert get(shared_server, f"/api/tables/{running['id']}/hints").status_code == 409


async def my_turn(player: Player, seat: int) -> dict[str, Any]:
    return await player.until(lambda s: s["over"] or seat in s["to_move"], 180)


async def play_to_the_end(player: Player, seat: int, rng: random.Random) -> None:
    while True:
        state = await my_turn(player, seat)
        if state["over"]:
            return
        answer = await player.act(rng.choice(state["legal"])["action"])
        assert answer["type"] != "error", answer


def hint_body(token: str | None, version: int, **extra: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"version": version, **extra}
    if token is not None:
        body["token"] = token
    return body


def test_hints_at_a_solo_table_go_to_the_player_alone(shared_server: Server) -> None:
    created = shared_server.create(GAME, ["human", "heuristic", "heuristic"])
    table_id, token = created["id"], created["seats"][0]["token"]

    async def scenario() -> dict[str, Any]:
        async with (
            Player(shared_server.ws_base, table_id, token) as me,
            Player(shared_server.ws_base, table_id) as watcher,
        ):
            state = await my_turn(me, 0)
            hint = await me.request({"type": "hint", "version": state["version"]})
            assert hint["type"] == "hint", hint
            legal = {str(entry["action"]) for entry in state["legal"]}
            assert 1 <= len(hint["moves"]) <= 3 and len(hint["moves"]) == min(3, len(legal))
            assert all(str(m["action"]) in legal for m in hint["moves"])
            assert all(m["text"] and 0.0 <= m["chance"] <= 1.0 for m in hint["moves"])
            # The same hint over HTTP, for the token's own seat.
            answer = post(
                shared_server, f"/api/tables/{table_id}/hint", hint_body(token, state["version"])
            )
            assert answer.status_code == 200 and answer.json()["moves"] == hint["moves"]
            # Never for another seat, never for a spectator.
            other = await me.request({"type": "hint", "version": state["version"], "seat": 1})
            assert other["type"] == "error" and "no hints for seat 1" in other["message"]
            answer = post(
                shared_server,
                f"/api/tables/{table_id}/hint",
                hint_body(token, state["version"], seat=1),
            )
            assert answer.status_code == 403
            spectator = await watcher.request({"type": "hint", "version": state["version"]})
            assert (
                spectator["type"] == "error" and "spectators get no hints" in spectator["message"]
            )
            assert not any(m.get("type") == "hint" for m in watcher.messages)
            answer = post(
                shared_server, f"/api/tables/{table_id}/hint", {"version": state["version"]}
            )
            assert answer.status_code == 400
            answer = post(
                shared_server, f"/api/tables/{table_id}/hint", hint_body("forged", state["version"])
            )
            assert answer.status_code == 403
            # The hinted move is played; then the game goes on to its end.
            hinted = hint["moves"][0]["action"]
            step = hint["step"]
            assert (await me.act(hinted))["type"] != "error"
            await play_to_the_end(me, 0, random.Random(3))
            return {"step": step, "action": hinted}

    played = asyncio.run(scenario())
    record = get(shared_server, f"/api/tables/{table_id}/record").json()
    marks = record["hints"]
    assert marks == [{"seat": 0, "step": played["step"], "action": played["step"]}]
    assert record["actions"][played["step"]]["action"] == played["action"]
    assert get(shared_server, f"/api/tables/{table_id}/hints").json() == {"hints": marks}


def test_hints_need_the_creator_and_every_player(shared_server: Server) -> None:
    body = {
        "game": GAME,
        "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}],
        "claim": 0,
        "hints": True,
    }
    created = shared_server.claim_all(post(shared_server, "/api/tables", body).json())
    table_id = created["id"]
    tokens = [created["seats"][0]["token"], created["seats"][1]["token"]]

    def status(token: str | None) -> dict[str, Any]:
        answer: dict[str, Any] = post(
            shared_server, f"/api/tables/{table_id}/hints/status", {"token": token}
        ).json()
        return answer

    assert status(tokens[0])["agreed"] == [0] and not status(tokens[0])["available"]
    assert "seat 2 has not agreed" in status(tokens[0])["reason"]

    async def scenario() -> None:
        async with Player(shared_server.ws_base, table_id, tokens[0]) as first:
            state = await my_turn(first, 0)
            refused = await first.request({"type": "hint", "version": state["version"]})
            assert refused["type"] == "error" and "every player's agreement" in refused["message"]
            answer = post(
                shared_server,
                f"/api/tables/{table_id}/hint",
                hint_body(tokens[0], state["version"]),
            )
            assert answer.status_code == 403
            agreed = post(
                shared_server, f"/api/tables/{table_id}/hints/agree", {"token": tokens[1]}
            )
            assert agreed.status_code == 200 and agreed.json()["available"] is True
            hint = await first.request({"type": "hint", "version": state["version"]})
            assert hint["type"] == "hint" and hint["moves"]

    asyncio.run(scenario())
    assert status(None)["available"] is False and "spectators" in status(None)["reason"]


def test_no_hints_where_the_creator_did_not_allow_them(shared_server: Server) -> None:
    created = shared_server.create(GAME, ["human", "human", "heuristic"])
    table_id = created["id"]
    tokens = [seat["token"] for seat in created["seats"][:2]]
    for token in tokens:
        answer = post(shared_server, f"/api/tables/{table_id}/hints/agree", {"token": token})
        assert answer.status_code == 400 and "hints are off" in answer.json()["message"]

    async def scenario() -> None:
        async with Player(shared_server.ws_base, table_id, tokens[0]) as first:
            state = await my_turn(first, 0)
            refused = await first.request({"type": "hint", "version": state["version"]})
            assert refused["type"] == "error" and "hints are off" in refused["message"]

    asyncio.run(scenario())
