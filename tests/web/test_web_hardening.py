"""What an anonymous client on the internet can try over HTTP (issue 15, items 7, 8, 9, 11, 13):
forge its address, post from another site's page, forge or flood the log, ask for endless
games, read the API description. Each is refused and changes nothing."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_parts import Server
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

import spielwerk

TWO_HUMANS = {"game": "witches", "seats": [{"kind": "human"}, {"kind": "human"}]}


def table_count(server: Server) -> int:
    return len(httpx.get(f"{server.base}/api/tables", timeout=30).json())


def post(server: Server, address: str | None = None, **kwargs: Any) -> httpx.Response:
    headers = dict(kwargs.pop("headers", {}))
    if address is not None:
        headers["X-Forwarded-For"] = address
    if "json" not in kwargs and "content" not in kwargs:
        kwargs["json"] = TWO_HUMANS
    return httpx.post(f"{server.base}/api/tables", headers=headers, timeout=60, **kwargs)


# ---------------------------------------------------------------------- item 7
def test_forwarded_for_counts_only_from_a_configured_proxy(tmp_path: Path) -> None:
    """Without --trusted-proxy, X-Forwarded-For is ignored: a local client naming a new
    address with every request is still one client for the per-address limit."""
    server = Server(f"sqlite:///{tmp_path / 'a.db'}", tables_per_minute=2).start()
    try:
        codes = [post(server, f"10.9.9.{i}").status_code for i in range(4)]
        assert codes == [201, 201, 429, 429]
    finally:
        server.stop()
    # Behind a proxy the operator names, the header is the client: each address has its own
    # window, and the proxy's own requests count for the proxy.
    proxied = Server(
        f"sqlite:///{tmp_path / 'b.db'}",
        tables_per_minute=2,
        extra_args=["--trusted-proxy", "127.0.0.1"],
    ).start()
    try:
        codes = [post(proxied, "10.0.0.1").status_code for _ in range(3)]
        assert codes == [201, 201, 429]
        assert post(proxied, "10.0.0.2").status_code == 201
        assert post(proxied).status_code == 201  # the proxy itself
    finally:
        proxied.stop()


# ---------------------------------------------------------------------- item 8
def test_pages_of_other_sites_cannot_create_tables_or_open_websockets(
    shared_server: Server,
) -> None:
    before = table_count(shared_server)
    body = b'{"game": "witches", "seats": [{"kind": "human"}, {"kind": "human"}]}'
    # What a foreign page can send without a CORS preflight: text/plain, a form.
    plain = post(shared_server, content=body, headers={"Content-Type": "text/plain"})
    assert plain.status_code == 415
    assert plain.json()["message"] == "send JSON (Content-Type: application/json)"
    form = post(shared_server, data={"game": "witches"})
    assert form.status_code == 415
    assert post(shared_server, content=body, headers={}).status_code == 415  # no type at all
    # JSON from a page of another site (or a sandboxed one) is refused too.
    for origin in ("http://evil.example", "null", "http://127.0.0.1.evil.example"):
        foreign = post(shared_server, headers={"Origin": origin})
        assert foreign.status_code == 403, origin
        assert foreign.json()["message"] == "requests from another site's page are refused"
    cross = post(shared_server, headers={"Sec-Fetch-Site": "cross-site"})
    assert cross.status_code == 403
    assert table_count(shared_server) == before
    # The server's own pages, and programs (no Origin), may.
    own = post(shared_server, headers={"Origin": shared_server.base})
    assert own.status_code == 201
    assert post(shared_server).status_code == 201
    table_id = own.json()["id"]

    async def websockets() -> None:
        url = f"{shared_server.ws_base}/ws/tables/{table_id}"
        with pytest.raises(InvalidStatus) as refused:
            async with connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
                pass
        assert refused.value.response.status_code == 403
        async with connect(url, origin=shared_server.base) as ws:  # type: ignore[arg-type]
            await ws.send('{"type": "hello"}')
            assert '"welcome"' in await asyncio.wait_for(ws.recv(), 30)

    asyncio.run(websockets())


def test_an_operator_may_allow_another_origin(tmp_path: Path) -> None:
    server = Server(
        f"sqlite:///{tmp_path / 'a.db'}",
        extra_args=["--allowed-origin", "https://games.example.org"],
    ).start()
    try:
        assert post(server, headers={"Origin": "https://games.example.org"}).status_code == 201
        assert post(server, headers={"Origin": "https://other.example.org"}).status_code == 403
    finally:
        server.stop()


# ---------------------------------------------------------------------- item 9
def test_client_text_cannot_forge_or_flood_the_log(tmp_path: Path) -> None:
    """Names with newlines and kilobytes of text, in paths and websocket URLs: every log line
    the server writes stays one line, and short."""
    server = Server(f"sqlite:///{tmp_path / 'a.db'}", log_path=tmp_path / "serve.log").start()
    try:
        size = len(server.log().encode())
        padding = "a" * 3000
        requests = 0
        with httpx.Client(timeout=30) as client:
            for index in range(150):
                for path in (
                    f"/api/games/x{index}%0AINJECTED%20{padding}",
                    f"/rules/x{index}%0D%0AINJECTED%20{padding}",
                    f"/api/tables/x{index}%0AINJECTED",
                ):
                    assert client.get(server.base + path).status_code in (400, 404)
                    requests += 1

        async def sockets() -> None:
            for index in range(20):
                url = f"{server.ws_base}/ws/tables/y{index}%0AINJECTED"
                async with connect(url) as ws:
                    await ws.send('{"type": "hello"}')
                    await asyncio.wait_for(ws.recv(), 30)

        asyncio.run(sockets())
        server.stop(keep_log=True)
        text = server.log()
        grown = len(text.encode()) - size
        assert grown < (requests + 20) * 400, f"{grown} bytes of log for {requests} requests"
        assert not any(line.startswith("INJECTED") for line in text.splitlines())
    finally:
        server.stop()


# ---------------------------------------------------------------------- item 11
def test_every_number_option_of_every_game_has_an_upper_bound() -> None:
    for name in spielwerk.list_games():
        for spec in spielwerk.load(name).option_specs:
            if spec.type is int:
                assert spec.maximum is not None, (name, spec.name)


@pytest.mark.parametrize(
    ("game", "option", "players", "maximum"),
    [
        ("inkheart_dice", "max_turns", 2, 5000),
        ("inkspell", "max_rounds", 2, 600),
        ("isolde", "quest_first_points", 2, 100),
    ],
)
def test_number_options_beyond_their_bound_are_refused(
    shared_server: Server, game: str, option: str, players: int, maximum: int
) -> None:
    before = table_count(shared_server)
    for value in (10**9, 10**100, maximum + 1):
        body = {"game": game, "options": {option: value}, "seats": [{"kind": "human"}] * players}
        answer = post(shared_server, json=body)
        assert answer.status_code in (400, 422), (value, answer.text)
        if value < 2**63:
            assert f"must be <= {maximum}" in answer.json()["message"]
    assert table_count(shared_server) == before
    body = {"game": game, "options": {option: maximum}, "seats": [{"kind": "human"}] * players}
    assert post(shared_server, json=body).status_code == 201


# ---------------------------------------------------------------------- item 13
def test_the_api_description_is_served_only_in_dev_mode(shared_server: Server) -> None:
    for path in ("/openapi.json", "/docs", "/redoc", "/docs/oauth2-redirect"):
        assert httpx.get(shared_server.base + path, timeout=30).status_code == 404, path


def test_dev_mode_serves_the_api_description(tmp_path: Path) -> None:
    server = Server(f"sqlite:///{tmp_path / 'a.db'}", extra_args=["--dev"]).start()
    try:
        description = httpx.get(f"{server.base}/openapi.json", timeout=30)
        assert description.status_code == 200
        assert "/api/tables" in description.json()["paths"]
        assert httpx.get(f"{server.base}/docs", timeout=30).status_code == 200
    finally:
        server.stop()
