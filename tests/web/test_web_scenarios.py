"""Tainted Grail scenarios over the web (issue 15, item 1): a client names a scenario from the
list the server offers (the built-in ones and the operator's `--scenario-dir`); no value a
client sends ever opens a file, an answer never tells anything about the server's files, an
operator's file is bounded in size and parsed off the event loop, and a table shows the
scenario's name, never a path."""

from __future__ import annotations

import asyncio
import random
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_client import Player
from web_parts import Server

import spielwerk
from spielwerk.games.tainted_grail import scenario as scenario_module
from spielwerk.web.bots import BotPool
from spielwerk.web.options import NAMED_FILE_OPTIONS, TableOptions
from spielwerk.web.protocol import CreateTable, SeatRequest
from spielwerk.web.scenarios import MAX_SCENARIO_BYTES, ScenarioCatalog
from spielwerk.web.storage import Storage
from spielwerk.web.tables import TableHub

DEMO = Path(scenario_module.__file__).with_name("scenarios") / "demo.toml"


def river_text(title: str = "River Crossing") -> str:
    """The demo scenario under another title (a valid scenario the operator added)."""
    return DEMO.read_text(encoding="utf-8").replace(
        'title = "The Ashen Spring"', f'title = "{title}"'
    )


def offered_directory(root: Path) -> Path:
    directory = root / "offered"
    directory.mkdir()
    (directory / "river.toml").write_text(river_text(), encoding="utf-8")
    (directory / "broken.toml").write_text("[scenario\nid = 'no closing bracket'\n")
    (directory / "huge.toml").write_bytes(b"# " + b"x" * (2 * MAX_SCENARIO_BYTES) + b"\n")
    (directory / "notes.txt").write_text("not a scenario")
    return directory


@pytest.fixture(scope="module")
def scenario_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Path]]:
    root = tmp_path_factory.mktemp("scenarios")
    directory = offered_directory(root)
    (root / "elsewhere.toml").write_text(river_text("Elsewhere"), encoding="utf-8")
    server = Server(
        f"sqlite:///{root / 'spielwerk.db'}",
        log_path=root / "serve.log",
        extra_args=["--scenario-dir", str(directory)],
    ).start()
    try:
        yield server, root
    finally:
        server.stop(keep_log=True)


def create(server: Server, scenario: object) -> httpx.Response:
    body = {
        "game": "tainted_grail",
        "options": {"scenario": scenario},
        "seats": [{"kind": "human"}],
        "claim": 0,
    }
    return httpx.post(f"{server.base}/api/tables", json=body, timeout=60)


def test_the_server_offers_its_scenarios_by_name(scenario_server: tuple[Server, Path]) -> None:
    server, _ = scenario_server
    info = httpx.get(f"{server.base}/api/games/tainted_grail", timeout=30).json()
    (option,) = [o for o in info["options"] if o["name"] == "scenario"]
    assert option["choices"] == ["demo", "broken", "huge", "river"]  # built-in first, no .txt


def test_no_value_a_client_sends_opens_a_file(scenario_server: tuple[Server, Path]) -> None:
    """Paths that exist, paths that do not, a valid scenario outside the directory, relative
    tricks: all get the one answer that names the offered scenarios, and nothing else."""
    server, root = scenario_server
    expected = "unknown scenario: choose one of demo, broken, huge, river"
    attempts = [
        "/etc/passwd",
        "/etc/no-such-file",
        "/proc/self/environ",
        str(root / "elsewhere.toml"),
        str(root / "offered" / "river.toml"),
        "../offered/river",
        "offered/river",
        "river.toml",
        "River",
        "notes",
        "",
        7,
    ]
    for value in attempts:
        answer = create(server, value)
        assert answer.status_code == 400, (value, answer.text)
        assert answer.json() == {"type": "error", "message": expected, "code": "refused"}, value
    listing = httpx.get(f"{server.base}/api/tables", timeout=30).json()
    assert not any(
        t["game"] == "tainted_grail" and t["options"]["scenario"] != "demo" for t in listing
    )


def test_oversized_and_broken_scenarios_are_refused_without_their_contents(
    scenario_server: tuple[Server, Path],
) -> None:
    server, _ = scenario_server
    huge = create(server, "huge")
    assert huge.status_code == 400
    assert (
        huge.json()["message"]
        == f"scenario 'huge' is too large (at most {MAX_SCENARIO_BYTES} bytes)"
    )
    broken = create(server, "broken")
    assert broken.status_code == 400
    assert broken.json()["message"] == (
        "scenario 'broken' cannot be played: it has errors (see the server's log)"
    )
    # The operator reads why in the server's log.
    assert "not valid TOML" in server.log() and "more than the" in server.log()


def test_a_named_scenario_is_played_and_shown_by_its_name_only(tmp_path: Path) -> None:
    directory = offered_directory(tmp_path)
    server = Server(
        f"sqlite:///{tmp_path / 'spielwerk.db'}",
        log_path=tmp_path / "serve.log",
        extra_args=["--scenario-dir", str(directory)],
    ).start()
    try:
        created = create(server, "river")
        assert created.status_code == 201, created.text
        table_id = created.json()["id"]
        token = created.json()["seats"][0]["token"]
        texts = [
            httpx.get(f"{server.base}/api/tables", timeout=30).text,
            httpx.get(f"{server.base}/api/tables/{table_id}", timeout=30).text,
        ]
        summary = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=30).json()
        assert summary["options"] == {"scenario": "river"}

        async def play(moves: int) -> dict[str, Any]:
            async with Player(server.ws_base, table_id, token) as player:
                assert player.welcome is not None
                texts.append(str(player.raw))
                rng = random.Random(4)
                for _ in range(moves):
                    await player.until(lambda s: bool(s["legal"]) or s["over"])
                    if player.state and player.state["over"]:
                        break
                    await player.play_random(rng)
                assert player.state is not None
                return player.state

        before = asyncio.run(play(3))
        assert before["view"]["scenario"] == "River Crossing"
        # The table survives a restart: rebuilt from the name alone.
        server.stop(keep_log=True)
        server.start()
        after = asyncio.run(play(0))
        assert after["version"] == before["version"] and after["view"] == before["view"]
        for text in texts:
            assert str(directory) not in text and "spielwerk-scenarios" not in text
    finally:
        server.stop()


def test_every_text_option_of_every_game_is_a_choice_or_a_named_file() -> None:
    """The web passes no free text to a game: a new text option must declare its choices or
    be resolved by name like the scenario, or the web refuses it."""
    for name in spielwerk.list_games():
        for spec in spielwerk.load(name).option_specs:
            if spec.type is str and spec.choices is None:
                assert (name, spec.name) in NAMED_FILE_OPTIONS, (name, spec.name)


def test_scenarios_are_read_and_parsed_off_the_event_loop(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    directory = tmp_path / "offered"
    directory.mkdir()
    # A title no other test uses: the parsed-scenario cache cannot answer from memory.
    (directory / "fresh.toml").write_text(river_text(f"Fresh {random.random()}"))
    threads: list[int] = []
    parse = scenario_module.parse_scenario

    def spying_parse(text: str, source: str = "<text>") -> Any:
        threads.append(threading.get_ident())
        return parse(text, source)

    monkeypatch.setattr(scenario_module, "parse_scenario", spying_parse)
    catalog = ScenarioCatalog(directory)
    read = catalog._snapshot

    def spying_read(name: str, path: Path) -> str:
        threads.append(threading.get_ident())
        return read(name, path)

    monkeypatch.setattr(catalog, "_snapshot", spying_read)

    async def scenario() -> None:
        hub = TableHub(
            Storage(f"sqlite:///{tmp_path / 'db'}"), BotPool(1), options=TableOptions(catalog)
        )
        request = CreateTable(
            game="tainted_grail", options={"scenario": "fresh"}, seats=[SeatRequest(kind="human")]
        )
        table_id = (await hub.create(request)).id
        table = await hub.get(table_id)
        assert table.row.options == {"scenario": "fresh"}
        await hub.close()

    asyncio.run(scenario())
    assert len(threads) >= 2  # the file was read and parsed ...
    assert threading.get_ident() not in threads  # ... and never on the event loop's thread
    catalog.close()
