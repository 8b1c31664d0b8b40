"""The replay API behind the replay viewer (`/table/ID/replay`, `/replay/ID`): a finished
table's history step by step for any viewer, records opened from a file, and what is refused.
The viewer itself is driven in Chromium by test_web_browser.py."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from web_parts import Server, wait_until

import spielwerk
from spielwerk.core.conformance import play_on
from spielwerk.core.state import CHANCE


def finished_table(server: Server, game: str = "witches") -> str:
    created = server.create(game, ["random", "random", "random"])
    table_id = str(created["id"])

    def finished() -> bool:
        answer = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=30).json()
        return bool(answer["finished"])

    wait_until(finished, 120, "the bots did not finish the game")
    return table_id


def get(server: Server, path: str) -> httpx.Response:
    return httpx.get(server.base + path, timeout=60)


def test_a_finished_table_replays_for_every_viewer(shared_server: Server) -> None:
    table_id = finished_table(shared_server)
    record = get(shared_server, f"/api/tables/{table_id}/record").json()
    truth = spielwerk.replay(record)
    steps = len(record["actions"])
    for seat in (None, 0, 2):
        query = "" if seat is None else f"?seat={seat}"
        summary = get(shared_server, f"/api/tables/{table_id}/replay{query}").json()
        assert summary["steps"] == steps and summary["renderer"] == "/static/games/witches.js"
        assert len(summary["log"]) == steps
        won = ("trick_won", "trick_won_new_trump")
        assert sum(e["key"] in won for line in summary["log"] for e in line["events"]) == (
            len(truth.view(None)["tricks"])
        )
        last = get(shared_server, f"/api/tables/{table_id}/replay/{steps}{query}").json()
        assert last["view"] == truth.view(seat) and last["over"] is True
        assert last["explanation"]["rows"][0]["total"] == truth.result()["scores"][0]
        middle = get(shared_server, f"/api/tables/{table_id}/replay/40{query}").json()
        state = spielwerk.load("witches").new_state(3, seed=record["seed"])
        for actor, action_id in truth.history[:40]:
            state.apply(state.game.actions[action_id], player=actor)
        assert middle["view"] == state.view(seat) and middle["over"] is False
    for bad in (f"/replay/{steps + 1}", "/replay/-1", "/replay?seat=3", "/replay/2?seat=-1"):
        answer = get(shared_server, f"/api/tables/{table_id}{bad}")
        assert answer.status_code == 400, (bad, answer.text)
    assert get(shared_server, f"/table/{table_id}/replay").status_code == 200


def test_an_unfinished_table_has_no_replay(shared_server: Server) -> None:
    """A running game's replay would show every card dealt: refused until the end."""
    created = shared_server.create("witches", ["human", "random", "random"])
    for path in ("/replay", "/replay/0", "/replay/0?seat=0"):
        answer = get(shared_server, f"/api/tables/{created['id']}{path}")
        assert answer.status_code == 409, answer.text
    assert get(shared_server, "/api/tables/nosuchtable/replay").status_code == 404


def random_record(game: str, players: int, seed: int, **options: Any) -> dict[str, Any]:
    state = spielwerk.load(game, **options).new_state(players, seed=seed)
    rng = random.Random(seed)
    for _ in play_on(state):
        if state.to_move == CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            to_move = state.to_move
            seat = min(to_move) if isinstance(to_move, frozenset) else to_move
            state.apply(rng.choice(state.legal_actions(seat)), player=seat)
    return state.to_record()


def post_record(server: Server, body: bytes) -> httpx.Response:
    return httpx.post(
        f"{server.base}/api/replays",
        content=body,
        headers={"content-type": "application/json"},
        timeout=60,
    )


def test_a_record_file_opens_and_bad_ones_are_refused(shared_server: Server) -> None:
    # A long Tintenblut game: larger than the 16 KiB other requests may send.
    record = random_record("inkspell", 3, 5)
    body = json.dumps(record).encode()
    assert len(body) > 16_384
    answer = post_record(shared_server, body)
    assert answer.status_code == 201, answer.text
    opened = answer.json()
    summary = get(shared_server, f"/api/replays/{opened['id']}").json()
    assert summary["steps"] == len(record["actions"]) and summary["game"] == "inkspell"
    assert get(shared_server, opened["url"]).status_code == 200
    last = get(shared_server, f"/api/replays/{opened['id']}/{summary['steps']}?seat=1").json()
    assert last["over"] is True and last["result"] == record["result"]

    assert post_record(shared_server, b"{not json").status_code == 400
    assert post_record(shared_server, b"[" * 100_000).status_code == 400
    tampered = {**record, "actions": record["actions"][:5] + record["actions"][6:]}
    assert post_record(shared_server, json.dumps(tampered).encode()).status_code == 400
    # A scenario is a name the server offers, never a path to a server file.
    grail = random_record("tainted_grail", 1, 2)
    for path in ("/etc/passwd", "../../secret.toml"):
        sneaky = {**grail, "options": {**grail["options"], "scenario": path}}
        answer = post_record(shared_server, json.dumps(sneaky).encode())
        assert answer.status_code == 400 and "unknown scenario" in answer.json()["message"]
    assert post_record(shared_server, json.dumps(grail).encode()).status_code == 201
    too_big = post_record(shared_server, b" " * (2 * 1024 * 1024 + 1))
    assert too_big.status_code == 413
    assert get(shared_server, "/api/replays/nosuchreplay").status_code == 404
