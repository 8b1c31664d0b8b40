"""`spielwerk serve`: run the web app with uvicorn."""

from __future__ import annotations

import os

import uvicorn

from spielwerk.web.app import ServerSettings, create_app
from spielwerk.web.protocol import MAX_MESSAGE_BYTES
from spielwerk.web.storage import Storage

WS_MAX_SIZE = 4 * MAX_MESSAGE_BYTES
"""Websocket frames above this are not even read: the connection is closed (code 1009)."""


def default_bot_workers() -> int:
    """One bot process per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    bot_workers: int | None = None,
    bot_delay: float = 0.6,
    log_level: str = "info",
) -> None:
    settings = ServerSettings(
        db_url=db_url or ServerSettings.db_url,
        bot_workers=bot_workers or default_bot_workers(),
        bot_delay=bot_delay,
    )
    Storage(settings.db_url).close()  # a bad URL or an unreachable database fails here, early
    uvicorn.run(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        log_level=log_level,
        timeout_graceful_shutdown=3,
    )
