"""Fixtures of the web tests: servers, PostgreSQL, Chromium (the parts live in web_parts.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from web_parts import (
    CHROMIUM_ARGS,
    PostgresServer,
    Server,
    chromium_available,
    page_in_new_context,
)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'spielwerk.db'}"


@pytest.fixture
def server(sqlite_url: str, tmp_path: Path) -> Iterator[Server]:
    running = Server(sqlite_url, log_path=tmp_path / "serve.log").start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="module")
def shared_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """One server for a whole module (tests that do not care about each other's tables)."""
    scratch = tmp_path_factory.mktemp("shared")
    running = Server(f"sqlite:///{scratch / 'spielwerk.db'}", log_path=scratch / "serve.log")
    running.start()
    try:
        yield running
    finally:
        running.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """One throwaway PostgreSQL server per test process; each test gets its own database."""
    server = PostgresServer()
    try:
        yield server.start()
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres: PostgresServer) -> str:
    """A fresh, empty database on the throwaway server."""
    return postgres.create_database()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Each storage test runs on both backends."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'spielwerk.db'}"
    url: str = request.getfixturevalue("postgres_url")
    return url


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium, headless, driven by Playwright (one per test module)."""
    executable = chromium_available()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=executable, headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def context(browser: Any) -> Iterator[Any]:
    """A fresh browser context (its own cookies and storage) for one test."""
    opened = browser.new_context()
    try:
        yield opened
    finally:
        opened.close()


@pytest.fixture
def german(browser: Any) -> Iterator[Any]:
    """A page in a browser set to German (Accept-Language: de-DE)."""
    with page_in_new_context(browser, locale="de-DE") as opened:
        yield opened
