"""The lobby's HTTP side and `spielwerk serve` itself: every registered game is offered with its
own board, options, bots and rules page; tables are listed without secrets; the command says
where the lobby is, and refuses a bad database or a taken port with a clear message."""

from __future__ import annotations

import socket
import subprocess

import httpx
import pytest
from web_parts import SERVE_COMMAND, Server, wait_until

import spielwerk


def test_every_registered_game_is_offered_with_its_own_board(shared_server: Server) -> None:
    games = httpx.get(f"{shared_server.base}/api/games", timeout=30).json()
    assert sorted(g["name"] for g in games) == sorted(spielwerk.list_games())
    for game in games:
        loaded = spielwerk.load(game["name"])
        assert (game["min_players"], game["max_players"]) == (
            loaded.min_players,
            loaded.max_players,
        )
        assert game["renderer"] == f"/static/games/{game['name']}.js"
        script = httpx.get(shared_server.base + game["renderer"], timeout=30)
        assert script.status_code == 200 and "export function render" in script.text
        levels = game["bots"]  # the four levels, weakest first (tests/web/test_web_bot_levels.py)
        assert [b["level"] for b in levels] == ["easy", "medium", "hard", "strongest"]
        assert levels[-1]["spec"] == "best"
        offered = [s.name for s in loaded.option_specs]
        assert [o["name"] for o in game["options"]] == offered
        rules = httpx.get(shared_server.base + game["rules_url"], timeout=30)
        assert rules.status_code == 200 and loaded.title in rules.text
        assert '<article class="rules"' in rules.text


def test_the_planted_imbalance_is_no_option_of_a_table(shared_server: Server) -> None:
    """The imbalance planted for `spielwerk balance` (`spielwerk.sim.variants`) is not a rule:
    the lobby never lists it and a client that names it is refused, nothing created."""
    info = httpx.get(f"{shared_server.base}/api/games/witches", timeout=30).json()
    assert "plant" not in [o["name"] for o in info["options"]]
    before = httpx.get(f"{shared_server.base}/api/tables", timeout=30).json()
    body = {
        "game": "witches",
        "options": {"plant": "grey-9"},
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}],
    }
    answer = httpx.post(f"{shared_server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 400
    assert "unknown option 'plant'" in answer.json()["message"]
    assert httpx.get(f"{shared_server.base}/api/tables", timeout=30).json() == before


def test_the_lobby_and_table_pages_are_served_with_a_strict_policy(shared_server: Server) -> None:
    for path in ("/", "/table/anything"):
        page = httpx.get(shared_server.base + path, timeout=30)
        assert page.status_code == 200 and page.text.startswith("<!doctype html>")
        policy = page.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "unsafe-inline" not in policy
        assert page.headers["x-frame-options"] == "DENY"
    assert httpx.get(f"{shared_server.base}/rules/chess", timeout=30).status_code == 404
    assert httpx.get(f"{shared_server.base}/api/games/chess", timeout=30).status_code == 404


def test_tables_are_listed_newest_first_without_tokens(shared_server: Server) -> None:
    first = shared_server.create("witches", ["human", "random"])
    second = shared_server.create("inkheart_dice", ["human", "human", "heuristic"])
    listing = httpx.get(f"{shared_server.base}/api/tables", timeout=30)
    tables = listing.json()
    ids = [t["id"] for t in tables]
    assert ids.index(second["id"]) < ids.index(first["id"])
    entry = tables[ids.index(second["id"])]
    assert entry["game"] == "inkheart_dice" and entry["players"] == 3
    assert [s["kind"] for s in entry["seats"]] == ["human", "human", "bot"]
    assert entry["seats"][2]["bot"] == "heuristic"
    for created in (first, second):
        for seat in created["seats"]:
            if seat["token"]:
                assert seat["token"] not in listing.text
                assert seat["url"].endswith(f"#token={seat['token']}")  # never sent to a server


def _serve(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*SERVE_COMMAND, *args], capture_output=True, text=True, timeout=120, check=False
    )


def test_serve_says_where_the_lobby_is(server: Server) -> None:
    assert f"spielwerk: the lobby is at http://127.0.0.1:{server.port}/" in server.log()


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["--db", "nosuchdb://x/y"], 2, "cannot open the database: not a database URL"),
        (["--db", "postgresql://nobody@127.0.0.1:1/none"], 2, "cannot open the database"),
        (["--port", "0"], 2, "--port must be 1..65535, not 0"),
        (["--bot-delay", "-1"], 2, "--bot-delay must not be negative"),
        (["--tables-per-minute", "-1"], 2, "--tables-per-minute must not be negative"),
        (["--trusted-proxy", "my-proxy"], 2, "--trusted-proxy 'my-proxy' is not an address"),
        (["--allowed-origin", "games.example"], 2, "write it as https://host"),
        (["--scenario-dir", "/no/such/dir"], 2, "is not a directory"),
    ],
)
def test_serve_refuses_bad_settings(args: list[str], code: int, message: str) -> None:
    done = _serve(*args)
    assert done.returncode == code
    assert message in done.stderr


def test_serve_on_a_taken_port_says_so(sqlite_url: str) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        done = _serve("--port", str(port), "--db", sqlite_url)
    assert done.returncode == 3
    assert "address already in use" in done.stderr
    assert "the lobby is at" not in done.stderr


def test_a_finished_table_offers_its_record_and_an_unfinished_one_does_not(
    shared_server: Server,
) -> None:
    """The record (every chance outcome, hidden cards included) is published at the end only;
    `spielwerk.replay` plays it back to the same result."""
    running = shared_server.create("witches", ["human", "random"])
    early = httpx.get(f"{shared_server.base}/api/tables/{running['id']}/record", timeout=30)
    assert early.status_code == 409 and "when the game is over" in early.json()["message"]
    missing = httpx.get(f"{shared_server.base}/api/tables/nope/record", timeout=30)
    assert missing.status_code == 404

    bots = shared_server.create("inkheart_dice", ["random", "random", "heuristic"])
    url = f"{shared_server.base}/api/tables/{bots['id']}"
    wait_until(lambda: httpx.get(url, timeout=30).json()["finished"], 60, "the bots to finish")
    answer = httpx.get(f"{url}/record", timeout=30)
    assert answer.status_code == 200
    assert f'filename="{bots["id"]}.json"' in answer.headers["content-disposition"]
    record = answer.json()
    assert set(record) == {"format", "game", "options", "players", "seed", "actions", "result"}
    state = spielwerk.replay(record)
    assert state.is_terminal() and state.result() == record["result"]
