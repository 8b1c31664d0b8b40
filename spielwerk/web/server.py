"""`spielwerk serve`: run the web app with uvicorn."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import socket
import sys

import uvicorn

from spielwerk.web.app import ServerSettings, create_app
from spielwerk.web.protocol import MAX_MESSAGE_BYTES
from spielwerk.web.storage import Storage
from spielwerk.web.transport import AddressCap, address_matcher, guarded_protocol

STARTUP_FAILURE = 3
"""The exit code when the server cannot start (uvicorn's)."""
WS_MAX_SIZE = 4 * MAX_MESSAGE_BYTES
"""Websocket frames above this are not even read: the connection is closed (code 1009)."""


def default_bot_workers() -> int:
    """One bot process per core but one (the event loop keeps a core), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


def default_allowed_hosts(host: str) -> tuple[str, ...]:
    """The host names a server listening on `host` answers to in any case: that address and
    localhost; on every interface (0.0.0.0, ::) also this machine's name."""
    names = {host.strip("[]").lower(), "localhost", "127.0.0.1", "::1"}
    if host in ("0.0.0.0", "::", ""):
        names.add(socket.gethostname().lower())
        names.add(socket.getfqdn().lower())
    return tuple(sorted(names))


def serve(
    settings: ServerSettings,
    host: str = "127.0.0.1",
    port: int = 8000,
    log_level: str = "info",
) -> None:
    # The listening address and localhost always; the operator's names (a proxy's) besides.
    hosts = tuple(dict.fromkeys([*default_allowed_hosts(host), *settings.allowed_hosts]))
    settings = dataclasses.replace(settings, allowed_hosts=hosts)
    # A bad URL, an unreachable database or a damaged SQLite file fails here, early.
    Storage(settings.db_url, verify=True).close()
    cap = AddressCap(settings.connections_per_address, address_matcher(settings.trusted_proxies))
    config = uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        # Each client address holds a few connections at most; a request's header and body
        # must arrive in time (slow clients cannot hold the server's connections).
        http=guarded_protocol(cap, settings.header_timeout, settings.body_timeout),
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
        # The process's own bound (file descriptors, memory); one address gets far less.
        limit_concurrency=settings.max_connections,
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
