"""Defences below the web app, where a connection is accepted and its request read: one client
address holds at most a few connections, and a request's header and body must arrive in time.

uvicorn reads a request's header for as long as the client cares to send it, and its
`limit_concurrency` counts such half-sent requests too: a few thousand sockets that each send
a header line now and then (slowloris) made every request of everybody answer 503. Here every
connection is counted against its address from the moment it is accepted, whatever it turns
into (a request, a websocket), and a request whose header is not complete within
`header_timeout` seconds, or whose body is not complete within `body_timeout` seconds of its
header, is answered 408 and closed. A reverse proxy in front adds the same on its side
(`docs/security.md`); its own address is then exempt from the cap here, since every client
arrives through it.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from spielwerk.web.limits import DEFAULT_BODY_TIMEOUT, DEFAULT_HEADER_TIMEOUT

SWEEP_EVERY = 1024
"""Accepted connections between two sweeps of the addresses whose connections all closed."""


def address_matcher(networks: Sequence[str]) -> Callable[[str], bool]:
    """A test of whether an address lies in one of `networks` ("10.0.0.1", "10.0.0.0/8")."""
    parsed = [ipaddress.ip_network(n, strict=False) for n in networks]

    def matches(address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in network for network in parsed)

    return matches


@dataclass
class AddressCap:
    """How many connections each client address holds open, and whether it may open one more.

    A connection is remembered by its transport until the transport closes, whichever protocol
    (HTTP or websocket) it is handed to, so no protocol needs to say when it ends."""

    per_address: int
    """At most this many open connections per address (0: no limit)."""
    exempt: Callable[[str], bool] = lambda address: False
    """Addresses the cap does not apply to (the operator's reverse proxies)."""
    _open: dict[str, set[asyncio.BaseTransport]] = field(default_factory=dict)
    _admitted: int = 0

    def admit(self, address: str, transport: asyncio.BaseTransport) -> bool:
        """True (and counted) if `address` may hold one more connection."""
        if self.per_address == 0 or self.exempt(address):
            return True
        self._admitted += 1
        if self._admitted % SWEEP_EVERY == 0:
            self.sweep()
        held = self._open.setdefault(address, set())
        held.difference_update([t for t in held if t.is_closing()])
        if len(held) >= self.per_address:
            return False
        held.add(transport)
        return True

    def sweep(self) -> None:
        """Forget closed connections, and addresses left with none."""
        for address in list(self._open):
            held = self._open[address]
            held.difference_update([t for t in held if t.is_closing()])
            if not held:
                del self._open[address]

    def held(self, address: str) -> int:
        """Open connections of `address` now."""
        return sum(1 for t in self._open.get(address, ()) if not t.is_closing())


def _plain_response(status: int, reason: str, text: str) -> bytes:
    body = text.encode()
    return (
        f"HTTP/1.1 {status} {reason}\r\ncontent-type: text/plain; charset=utf-8\r\n"
        f"content-length: {len(body)}\r\nconnection: close\r\n\r\n"
    ).encode() + body


TOO_MANY = _plain_response(
    429, "Too Many Requests", "too many connections from your address: close some and try again"
)
TOO_SLOW = _plain_response(408, "Request Timeout", "the request did not arrive in time")


def guarded_protocol(
    cap: AddressCap,
    header_timeout: float = DEFAULT_HEADER_TIMEOUT,
    body_timeout: float = DEFAULT_BODY_TIMEOUT,
) -> type[asyncio.Protocol]:
    """uvicorn's HTTP/1.1 protocol with the cap and the deadlines (for `uvicorn.Config`'s
    `http`)."""

    class GuardedH11Protocol(H11Protocol):
        _deadline: asyncio.TimerHandle | None = None
        _deadline_for: Any = None
        """The client's h11 state the running deadline is for (IDLE: the header,
        SEND_BODY: the body)."""
        _refused = False

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            peer = transport.get_extra_info("peername")
            address = peer[0] if isinstance(peer, tuple) else ""
            if not cap.admit(address, transport):
                # Refused before uvicorn sets anything up: an address hammering the port
                # costs little more than the accept.
                self._refused = True
                transport.write(TOO_MANY)
                transport.close()
                return
            super().connection_made(transport)
            self._watch()

        def data_received(self, data: bytes) -> None:
            if self._refused:
                return
            super().data_received(data)
            self._watch()

        def connection_lost(self, exc: Exception | None) -> None:
            if self._refused:
                return
            self._stop_deadline()
            super().connection_lost(exc)

        def on_response_complete(self) -> None:
            super().on_response_complete()
            self._watch()

        def _watch(self) -> None:
            """Start the deadline of what the client is sending now, or stop it when that
            has arrived. Between requests uvicorn's keep-alive timeout closes the
            connection; once a new request's first bytes are in, its header has
            `header_timeout` seconds."""
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                self._stop_deadline()  # closed, or handed to the websocket protocol
                return
            state = self.conn.their_state
            if state is h11.IDLE and self.timeout_keep_alive_task is None:
                self._start_deadline(state, header_timeout)
            elif state is h11.SEND_BODY:
                self._start_deadline(state, body_timeout)
            else:
                self._stop_deadline()

        def _start_deadline(self, state: Any, seconds: float) -> None:
            if self._deadline is not None and self._deadline_for is state:
                return  # running already: it is for the whole header (or body)
            self._stop_deadline()
            self._deadline_for = state
            self._deadline = self.loop.call_later(seconds, self._too_slow)

        def _stop_deadline(self) -> None:
            if self._deadline is not None:
                self._deadline.cancel()
            self._deadline = self._deadline_for = None

        def _too_slow(self) -> None:
            self._deadline = self._deadline_for = None
            if self.transport.is_closing() or self.transport.get_protocol() is not self:
                return
            if self.cycle is None or not self.cycle.response_started:
                self.transport.write(TOO_SLOW)
            self.transport.close()

    return GuardedH11Protocol
