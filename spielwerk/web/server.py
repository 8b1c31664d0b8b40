"""`spielwerk serve`: run the web app with uvicorn."""

from __future__ import annotations

import contextlib
import os
import socket
import sys
from collections.abc import Sequence

import uvicorn

from spielwerk.web.app import ServerSettings, create_app
from spielwerk.web.protocol import MAX_MESSAGE_BYTES
from spielwerk.web.storage import Storage

STARTUP_FAILURE = 3
"""The exit code when the server cannot start (uvicorn's)."""
CONNECTION_MARGIN = 256
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
    tables_per_minute: int = ServerSettings.tables_per_minute,
    scenario_dir: str | None = None,
    trusted_proxies: Sequence[str] = (),
    allowed_origins: Sequence[str] = (),
    dev: bool = False,
    evict_after: float = ServerSettings.evict_after,
    max_idle_tables: int = ServerSettings.max_idle_tables,
    max_bot_seconds: float = ServerSettings.max_bot_seconds,
    bot_tables_per_address: int = ServerSettings.bot_tables_per_address,
    abandon_after_hours: float = ServerSettings.abandon_after / 3600,
) -> None:
    settings = ServerSettings(
        db_url=db_url or ServerSettings.db_url,
        bot_workers=bot_workers or default_bot_workers(),
        bot_delay=bot_delay,
        tables_per_minute=tables_per_minute,
        scenario_dir=scenario_dir,
        trusted_proxies=tuple(trusted_proxies),
        allowed_origins=tuple(allowed_origins),
        dev=dev,
        evict_after=evict_after,
        max_idle_tables=max_idle_tables,
        max_bot_seconds=max_bot_seconds,
        bot_tables_per_address=bot_tables_per_address,
        abandon_after=abandon_after_hours * 3600,
    )
    Storage(settings.db_url).close()  # a bad URL or an unreachable database fails here, early
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        ws_max_size=WS_MAX_SIZE,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
        # No compression: it costs more CPU than the few kilobytes of a state message are
        # worth, and it keeps compression side channels (secret and chosen text in one
        # compressed frame) out of the question.
        ws_per_message_deflate=False,
        log_level=log_level,
        # X-Forwarded-For is believed only from the proxies the operator names: from anybody
        # else it would let one client pass for many (the per-address limits).
        proxy_headers=bool(settings.trusted_proxies),
        forwarded_allow_ips=list(settings.trusted_proxies),
        timeout_graceful_shutdown=3,
        # Sockets still saying hello count too: the websockets the hub admits, plus a margin.
        limit_concurrency=settings.max_connections + CONNECTION_MARGIN,
    )
    server = _AnnouncingServer(config)
    with contextlib.suppress(KeyboardInterrupt):
        server.run()
    if not server.started:
        sys.exit(STARTUP_FAILURE)  # e.g. the port is taken (uvicorn said so)


class _AnnouncingServer(uvicorn.Server):
    """Says where the lobby is once the socket listens (not before: the port may be taken)."""

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets)
        if self.started:
            host = self.config.host
            shown = f"[{host}]" if ":" in host else host
            sys.stderr.write(f"spielwerk: the lobby is at http://{shown}:{self.config.port}/\n")
            sys.stderr.flush()
