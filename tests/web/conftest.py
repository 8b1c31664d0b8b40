"""Fixtures of the web tests: servers, PostgreSQL, Chromium (the parts live in webtest.py)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from webtest import CHROMIUM, PostgresServer, Server, missing


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'spielwerk.db'}"


@pytest.fixture
def server(sqlite_url: str) -> Iterator[Server]:
    running = Server(sqlite_url).start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a whole module (tests that do not care about each other's tables)."""
    path = tmp_path_factory.mktemp("shared") / "spielwerk.db"
    running = Server(f"sqlite:///{path}").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    server = PostgresServer().start()
    try:
        yield server
    finally:
        server.stop()


_databases = iter(range(10**6))


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """A fresh, empty database on the throwaway server."""
    return postgres.create_database(f"spielwerk_{os.getpid()}_{next(_databases)}")


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on both backends."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'spielwerk.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture
def chromium_path() -> str:
    if not Path(CHROMIUM).exists():
        missing(f"Chromium not found at {CHROMIUM}")
    return CHROMIUM
