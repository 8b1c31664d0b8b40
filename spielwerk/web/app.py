"""The web application: lobby and table pages, a small JSON API and one websocket per player.

Pages are static HTML + ES modules (no build step); everything about a game arrives over the
table's websocket, redacted for the seat that holds the token. A seat token never appears in a
URL the server sees: links carry it in the fragment (`/table/ID#token=...`), and the page sends
it in its first websocket message.
"""

from __future__ import annotations

import asyncio
import html
import json
import logging
import math
import re
import time
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from contextlib import asynccontextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError

import spielwerk
from spielwerk.core.i18n import DEFAULT_LANG, Lang, as_lang, texts_of_game
from spielwerk.core.narration import game_narration
from spielwerk.core.state import State
from spielwerk.web import logs
from spielwerk.web.bots import MAX_MCTS_SECONDS, BotPool, bot_fits
from spielwerk.web.catalog import STATIC_DIR, component_data, game_info, web_games
from spielwerk.web.cluster import cluster_for
from spielwerk.web.errors import ClientError, TableNotFound
from spielwerk.web.i18n import LANGUAGES, catalogue, pick_language, translate
from spielwerk.web.invitations import InvitationQuery, invitation_answer
from spielwerk.web.limits import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_CONNECTIONS_PER_ADDRESS,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_TABLES_PER_MINUTE,
    DEFAULT_UPLOADS_PER_MINUTE,
    UPLOAD_QUEUE_SECONDS,
    UPLOADS_AT_ONCE,
    Admission,
    CreationLimit,
    SharedLimit,
)
from spielwerk.web.lobby import DEFAULT_ABANDON_AFTER_HOURS, included_ids, lobby_entry
from spielwerk.web.options import TableOptions
from spielwerk.web.protocol import (
    CLIENT_MESSAGE,
    MAX_BODY_BYTES,
    MAX_MESSAGE_BYTES,
    Act,
    AnyMessage,
    Chat,
    ClaimSeat,
    CreateTable,
    HandOver,
    Hello,
    Hint,
    Ping,
    Rematch,
    Undo,
    error_message,
    ok_message,
    validation_text,
)
from spielwerk.web.replays import MAX_UPLOAD_BYTES, Replay, Replays, seats_of
from spielwerk.web.review import ReviewService, hint_over_socket
from spielwerk.web.review import router as review_router
from spielwerk.web.rules import rules_page_html
from spielwerk.web.scenarios import ScenarioCatalog
from spielwerk.web.storage import DEFAULT_DB_URL, Storage, StorageError
from spielwerk.web.tables import (
    HAND_OVER_AFTER,
    NOT_INVITED,
    Connection,
    DatabaseDown,
    LiveTable,
    TableHub,
    TooManyTables,
    chat_line,
    chat_message,
    state_message,
    table_summary,
    welcome_message,
)

log = logging.getLogger("spielwerk.web")

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

HELLO_TIMEOUT = 15.0
"""Seconds a new websocket has to say hello."""
IDLE_MESSAGES_PER_SECOND = 30
"""A client sending messages that change nothing (pings, refused or malformed ones) faster
than this, over a few seconds, is disconnected. Accepted actions do not count: the game itself
bounds them (each needs its seat's turn)."""
RATE_WINDOW = 3.0
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        b"connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


@dataclass(frozen=True)
class ServerSettings:
    db_url: str = DEFAULT_DB_URL
    bot_workers: int = 1
    bot_delay: float = 0.6
    """Seconds a bot waits before it moves, so people can follow the table."""
    max_connections: int = 8192
    """Connections the process serves at once (beyond: 503); per address far fewer."""
    connections_per_address: int = DEFAULT_CONNECTIONS_PER_ADDRESS
    """Open connections (HTTP and websocket) one client address may hold (0: no limit)."""
    header_timeout: float = DEFAULT_HEADER_TIMEOUT
    """Seconds a request's header may take to arrive."""
    body_timeout: float = DEFAULT_BODY_TIMEOUT
    """Seconds a request's body may take to arrive after its header."""
    admission: Admission = field(default_factory=Admission)
    """Who may hold a websocket at a table: seats always, spectators within limits."""
    tables_per_minute: int = DEFAULT_TABLES_PER_MINUTE
    """New tables (and rematches) one client address may open a minute (0: no limit)."""
    uploads_per_minute: int = DEFAULT_UPLOADS_PER_MINUTE
    """Record files one client address may open in the replay viewer a minute (0: no
    limit)."""
    hand_over_after: float = HAND_OVER_AFTER
    """Seconds a person must be gone before the others may let a bot play for them."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names this server answers to (the `Host` header, without port); empty: any.
    `spielwerk serve` fills in its listening address and localhost (DNS rebinding)."""
    scenario_dir: str | None = None
    """The operator's Tainted Grail scenarios (`NAME.toml`), offered by name with the
    built-in ones."""
    trusted_proxies: tuple[str, ...] = ()
    """Addresses (or networks) of reverse proxies whose X-Forwarded-For names the client;
    without any, the connecting address is the client (`server.py` tells uvicorn)."""
    allowed_origins: tuple[str, ...] = ()
    """Origins (`https://games.example.org`) besides the server's own host that may send
    state-changing requests and open websockets (a proxy that rewrites Host)."""
    dev: bool = False
    """Serve /openapi.json and /docs (the API described for developers)."""
    evict_after: float = 60.0
    """Seconds an idle table (nobody connected, no bot to move) stays in memory."""
    max_idle_tables: int = 256
    """Idle tables kept in memory at most (the least recently used go first)."""
    max_bot_seconds: float = MAX_MCTS_SECONDS
    """No bot thinks longer than this per move; slower specs are refused."""
    bot_tables_per_address: int = 2
    """Unfinished tables of bots only one client address may run at once (0: no limit)."""
    abandon_after: float = DEFAULT_ABANDON_AFTER_HOURS * 3600
    """Seconds without a step after which the lobby lists an unfinished table as abandoned
    (0: never)."""


def host_of(headers: dict[bytes, bytes]) -> str:
    """The host name a request was sent to, lower case, without its port."""
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    if host.startswith("["):  # an IPv6 address: [::1]:8000
        return host[1:].partition("]")[0]
    return host.rpartition(":")[0] if host.count(":") == 1 else host


def origin_allowed(headers: dict[bytes, bytes], allowed: tuple[str, ...]) -> bool:
    """A request a browser sent from another site is refused: its `Origin` must be this
    server's own (the `Host` it was sent to) or one the operator allows. A request without
    `Origin` comes from a program, not a page (browsers send it with every POST and every
    websocket), unless the browser says the request is cross-site."""
    origin = headers.get(b"origin")
    if origin is None:
        return headers.get(b"sec-fetch-site", b"") != b"cross-site"
    text = origin.decode("latin-1").strip().lower().rstrip("/")
    if text in allowed:
        return True
    scheme, _, netloc = text.partition("://")
    host = headers.get(b"host", b"").decode("latin-1").strip().lower()
    return scheme in ("http", "https") and bool(netloc) and netloc == host


def is_json(headers: dict[bytes, bytes]) -> bool:
    content_type = headers.get(b"content-type", b"").decode("latin-1")
    return content_type.split(";")[0].strip().lower() == "application/json"


class _BodyTooLarge(Exception):
    pass


class GuardMiddleware:
    """Bounds every HTTP request body, adds the security headers to every response, and
    refuses what a page of another site would send: a state-changing request (POST) or a
    websocket from a foreign `Origin`, and a POST that is not JSON (a form or `text/plain`,
    which a foreign page can send without asking)."""

    def __init__(
        self,
        app: ASGIApp,
        limit: int = MAX_BODY_BYTES,
        allowed_origins: tuple[str, ...] = (),
        open_paths: frozenset[str] = frozenset(),
        large_bodies: dict[str, int] | None = None,
        allowed_hosts: tuple[str, ...] = (),
    ) -> None:
        self.app = app
        self.allowed_hosts = frozenset(h.lower() for h in allowed_hosts)
        """Host names answered (empty: any): a page of another name that resolves to this
        server (DNS rebinding) is refused."""
        self.limit = limit
        self.large_bodies = large_bodies or {}
        """Paths that take a larger body (a record file opened in the replay viewer)."""
        self.allowed_origins = tuple(o.lower().rstrip("/") for o in allowed_origins)
        self.open_paths = open_paths
        """Paths served without the Content-Security-Policy (`--dev`'s /docs)."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        headers = dict(scope.get("headers") or [])
        if scope["type"] in ("http", "websocket") and not self._host_allowed(headers):
            if scope["type"] == "websocket":
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # answered with 403
            else:
                await _send_error(send, 421, "this server does not answer to that host name")
            return
        if scope["type"] == "websocket":
            if not origin_allowed(headers, self.allowed_origins):
                await receive()  # websocket.connect
                await send({"type": "websocket.close", "code": 1008})  # answered with 403
                return
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        if scope["method"] not in ("GET", "HEAD", "OPTIONS"):
            if not origin_allowed(headers, self.allowed_origins):
                await _send_error(send, 403, "requests from another site's page are refused")
                return
            if not is_json(headers):
                await _send_error(send, 415, "send JSON (Content-Type: application/json)")
                return
        limit = self.large_bodies.get(scope["path"], self.limit)
        declared = headers.get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > limit):
            await _send_error(send, 413, f"request body larger than {limit} bytes")
            return
        received = 0
        started = False

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise _BodyTooLarge
            return message

        async def guarded_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                extra = SECURITY_HEADERS
                if scope["path"] in self.open_paths:
                    extra = [h for h in SECURITY_HEADERS if h[0] != b"content-security-policy"]
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        try:
            await self.app(scope, limited_receive, guarded_send)
        except _BodyTooLarge:
            if not started:
                await _send_error(send, 413, f"request body larger than {limit} bytes")

    def _host_allowed(self, headers: dict[bytes, bytes]) -> bool:
        return not self.allowed_hosts or host_of(headers) in self.allowed_hosts


async def _send_error(send: Send, status: int, text: str) -> None:
    body = json.dumps(error_message(text)).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                *SECURITY_HEADERS,
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})


LANG_COOKIE = "spielwerk-lang"  # the language picker's choice (static/i18n.js)


def _page(name: str, request: Request) -> HTMLResponse:
    """A page in the reader's language: the picker's cookie, else ``Accept-Language``; the
    page's i18n.js loads that language's words (or the one picked in this browser)."""
    lang = pick_language(request.headers.get("accept-language"), request.cookies.get(LANG_COOKIE))
    text = (STATIC_DIR / name).read_text(encoding="utf-8")
    return HTMLResponse(text.replace('<html lang="en">', f'<html lang="{lang}">', 1))


def _error(status: int, text: str, code: str = "refused") -> JSONResponse:
    return JSONResponse(error_message(text, code=code), status_code=status)


def client_address(request: Request | WebSocket) -> str:
    """The client's address (from the trusted proxy's X-Forwarded-For where there is one:
    uvicorn puts it in the scope)."""
    return request.client.host if request.client else "unknown"


def create_app(settings: ServerSettings | None = None) -> FastAPI:
    settings = settings or ServerSettings()
    table_options = TableOptions(ScenarioCatalog(settings.scenario_dir))

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        logs.install()
        storage = Storage(settings.db_url)
        # Several processes may share a PostgreSQL database: they hear of each other's
        # changes and take turns moving for a table (web/cluster.py).
        cluster = cluster_for(storage.url, storage.is_sqlite)
        hub = TableHub(
            storage,
            BotPool(settings.bot_workers),
            bot_delay=settings.bot_delay,
            admission=settings.admission,
            options=table_options,
            evict_after=settings.evict_after,
            max_idle_tables=settings.max_idle_tables,
            max_bot_seconds=settings.max_bot_seconds,
            bot_tables_per_client=settings.bot_tables_per_address,
            hand_over_after=settings.hand_over_after,
            cluster=cluster,
        )
        await cluster.start(hub.on_change, hub.on_ownership_lost)
        app.state.hub = hub
        if cluster.shared:
            limits["tables"] = SharedLimit("tables", settings.tables_per_minute, storage)
            limits["uploads"] = SharedLimit("uploads", settings.uploads_per_minute, storage)
        app.state.replays = Replays()
        app.state.reviews = ReviewService(hub)
        hub.start_sweeping()
        # Bots of tables left unfinished by a stop (or a crash) move on by themselves.
        hub.resuming = True  # from the first request on: /healthz says so until it is done
        resuming = asyncio.create_task(hub.resume_bots(), name="resume-bots")
        adopting = (
            asyncio.create_task(hub.adopt_orphans_forever(), name="adopt-orphans")
            if cluster.shared
            else None
        )
        try:
            yield
        finally:
            resuming.cancel()
            if adopting is not None:
                adopting.cancel()
            await hub.close()
            await cluster.close()
            storage.close()
            table_options.scenarios.close()

    app = FastAPI(
        title="spielwerk",
        lifespan=lifespan,
        openapi_url="/openapi.json" if settings.dev else None,
        docs_url="/docs" if settings.dev else None,
        redoc_url=None,
    )
    # Per address: in memory for one process (SQLite); in the database where several
    # processes share it (PostgreSQL), so that the limits hold for the whole site.
    limits: dict[str, CreationLimit | SharedLimit] = {
        "tables": CreationLimit(settings.tables_per_minute),
        "uploads": CreationLimit(settings.uploads_per_minute),
    }

    async def wait_for_turn(request: Request | WebSocket, kind: str, address: str) -> float:
        limit = limits[kind]
        if isinstance(limit, CreationLimit):
            return limit.wait_seconds(address)
        try:
            return await hub_of(request)._in_db(limit.wait_seconds, address)
        except StorageError as error:
            log.error("counting %s of a client: %s", kind, error.__cause__ or error)
            return 0.0  # a database that does not answer fails the request itself

    uploading = asyncio.Semaphore(UPLOADS_AT_ONCE)
    app.add_middleware(
        GuardMiddleware,
        allowed_origins=settings.allowed_origins,
        open_paths=frozenset({"/docs"} if settings.dev else ()),
        large_bodies={"/api/replays": MAX_UPLOAD_BYTES},
        allowed_hosts=settings.allowed_hosts,
    )
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")
    app.include_router(review_router)  # the game review and the hints

    def hub_of(request: Request | WebSocket) -> TableHub:
        hub: TableHub = request.app.state.hub
        return hub

    def info_of(game: str, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
        """The game's description with the choices this server offers for options that name
        a file (the scenarios), its texts in `lang`."""
        info = game_info(game, lang)
        info["bots"] = [b for b in info["bots"] if bot_fits(b["spec"], settings.max_bot_seconds)]
        for option in info["options"]:
            choices = table_options.choices(game, option["name"])
            if choices is not None:
                option["choices"] = choices
        return info

    # ------------------------------------------------------------------ pages
    @app.get("/", response_class=HTMLResponse)
    async def lobby_page(request: Request) -> HTMLResponse:
        return _page("lobby.html", request)

    @app.get("/table/{table_id}", response_class=HTMLResponse)
    async def table_page(table_id: str, request: Request) -> HTMLResponse:
        return _page("table.html", request)

    @app.get("/table/{table_id}/replay", response_class=HTMLResponse)
    async def table_replay_page(table_id: str, request: Request) -> HTMLResponse:
        return _page("replay.html", request)

    @app.get("/replay/{upload_id}", response_class=HTMLResponse)
    async def upload_replay_page(upload_id: str, request: Request) -> HTMLResponse:
        return _page("replay.html", request)

    @app.get("/rules/{game}", response_class=HTMLResponse)
    async def rules_page(game: str, request: Request, lang: str | None = None) -> Response:
        wanted = lang if lang in LANGUAGES else request.cookies.get(LANG_COOKIE)
        page_lang = pick_language(request.headers.get("accept-language"), wanted)
        if game not in web_games():
            return HTMLResponse(
                f"<p>{html.escape(translate(page_lang, 'rules.no_such_game'))}</p>",
                status_code=404,
            )
        page = rules_page_html(game, page_lang, game_info(game, as_lang(page_lang)))
        if page is None:
            return HTMLResponse(
                f"<p>{html.escape(translate(page_lang, 'rules.no_rules'))}</p>", status_code=404
            )
        return HTMLResponse(page)

    # ------------------------------------------------------------------ API
    @app.get("/api/i18n/{lang}")
    async def i18n_catalogue(lang: str) -> Response:
        """The page shell's words in `lang` (de, en), for static/i18n.js."""
        if lang not in LANGUAGES:
            return _error(404, f"no language {lang!r}: {', '.join(LANGUAGES)}")
        return JSONResponse({"lang": lang, "languages": LANGUAGES, "messages": catalogue(lang)})

    @app.get("/api/games")
    async def list_games(lang: str = DEFAULT_LANG) -> list[dict[str, Any]]:
        chosen = as_lang(pick_language(None, lang))
        return [info_of(name, chosen) for name in web_games()]

    @app.get("/api/games/{game}")
    async def describe_game(game: str, lang: str = DEFAULT_LANG) -> Response:
        """The game's description, component data and its own texts in `lang` (de, en):
        `narration` (event templates) and `texts` (every text of the game's texts.toml,
        the glossary's terms as `@key`) for the board scripts."""
        if game not in web_games():
            return _error(404, "no such game")
        chosen = as_lang(pick_language(None, lang))
        try:
            info = info_of(game, chosen)
        except ClientError as error:
            return _error(404, str(error))
        narration = dict(game_narration(game).templates(chosen))
        texts = texts_of_game(game)
        words = {**texts.catalogue(chosen), **texts.term_catalogue(chosen)}
        return JSONResponse(
            {
                **info,
                "lang": chosen,
                "data": component_data(game),
                "narration": narration,
                "texts": words,
            }
        )

    @app.get("/api/tables")
    async def list_tables(request: Request, include: str | None = None) -> Response:
        """The newest tables and those `include` names (comma-separated ids: the tables this
        browser plays at), each with its lobby state, age and idle time."""
        try:
            listed = await hub_of(request).list_tables(include=included_ids(include))
            now = time.time()
            return JSONResponse([lobby_entry(t, now, settings.abandon_after) for t in listed])
        except StorageError as error:
            log.error("listing tables: %s", error.__cause__ or error)
            return _error(503, "the database did not answer; try again")

    async def too_many_tables(request: Request | WebSocket, address: str) -> str | None:
        """Why `address` may not open another table now (counting it if it may)."""
        wait = await wait_for_turn(request, "tables", address)
        if wait <= 0:
            return None
        return (
            f"too many new tables from this address (at most {settings.tables_per_minute} a "
            f"minute): try again in {math.ceil(wait)} s"
        )

    def limited(text: str) -> JSONResponse:
        answer = _error(429, text)
        seconds = re.search(r"in (\d+) s$", text)
        if seconds:
            answer.headers["Retry-After"] = seconds.group(1)
        return answer

    @app.post("/api/tables")
    async def create_table(request: Request) -> Response:
        address = client_address(request)
        refused = await too_many_tables(request, address)
        if refused is not None:
            return limited(refused)
        body = await request.body()
        try:
            spec = CreateTable.model_validate_json(body)
        except ValidationError as error:
            return _error(422, f"bad table request: {validation_text(error)}")
        try:
            new = await hub_of(request).create(spec, address)
        except TooManyTables as error:
            return _error(429, str(error))
        except ClientError as error:
            return _error(400, str(error))
        await request.app.state.reviews.note_new_table(new.id, spec.hints, new.seat)
        url = f"/table/{new.id}"

        def seat_answer(seat: int, kind: str, bot: str | None) -> dict[str, Any]:
            """The creator's own seat comes with its token; every other human seat with an
            invitation, which the first person to open it turns into a token of their own."""
            answer: dict[str, Any] = {"seat": seat, "kind": kind, "bot": bot, "url": None}
            answer.update(token=None, invitation=None)
            if seat == new.seat and new.token is not None:
                answer.update(token=new.token, url=f"{url}#token={new.token}")
            elif seat in new.invitations:
                invitation = new.invitations[seat]
                answer.update(invitation=invitation, url=f"{url}#invite={invitation}")
            return answer

        return JSONResponse(
            {
                "id": new.id,
                "url": url,
                "spectator_url": url,
                "seats": [seat_answer(i, s.kind, s.bot) for i, s in enumerate(spec.seats)],
            },
            status_code=201,
        )

    @app.post("/api/tables/{table_id}/claim")
    async def claim_seat(request: Request, table_id: str) -> Response:
        """The first person to open a seat's invitation takes the seat: a fresh token that
        only they receive, and the display name they chose."""
        try:
            claim = ClaimSeat.model_validate_json(await request.body())
        except ValidationError as error:
            return _error(422, f"bad claim: {validation_text(error)}")
        try:
            table_id, seat, token = await hub_of(request).claim(
                table_id, claim.invitation, claim.name
            )
        except TableNotFound as error:
            return _error(404, str(error), error.code)
        except DatabaseDown as error:
            return _error(503, str(error), error.code)
        except ClientError as error:
            return _error(403, str(error), error.code)
        url = f"/table/{table_id}"
        return JSONResponse(
            {"table": table_id, "seat": seat, "token": token, "url": f"{url}#token={token}"}
        )

    def refusal(error: ClientError) -> JSONResponse:
        """The answer to a lookup that failed: unknown table, bad id, no database."""
        if isinstance(error, TableNotFound):
            return _error(404, str(error), error.code)
        if isinstance(error, DatabaseDown):
            return _error(503, str(error), error.code)
        return _error(400, str(error), error.code)

    @app.post("/api/tables/{table_id}/invitation")
    async def read_invitation(request: Request, table_id: str) -> Response:
        """What an invitation opens (the game, its seat, who invites): nothing is claimed."""
        try:
            query = InvitationQuery.model_validate_json(await request.body())
            answer = await invitation_answer(hub_of(request).stored_row, table_id, query.invitation)
        except ValidationError as error:
            return _error(422, f"bad invitation: {validation_text(error)}")
        except ClientError as error:
            return refusal(error)
        if answer is None:
            return _error(403, NOT_INVITED, "not_invited")
        return JSONResponse(answer)

    @app.get("/api/tables/{table_id}")
    async def get_table(request: Request, table_id: str) -> Response:
        try:
            return JSONResponse(await hub_of(request).summary(table_id))
        except ClientError as error:
            return refusal(error)

    @app.get("/api/tables/{table_id}/record")
    async def get_record(request: Request, table_id: str) -> Response:
        """The finished game as a spielwerk record (`spielwerk replay` plays it back). Only at
        the end: the record holds every chance outcome, hidden cards included. An unfinished
        table is answered from its row, without rebuilding it."""
        hub = hub_of(request)
        try:
            if not (await hub.summary(table_id))["finished"]:
                return _error(409, "the record is published when the game is over")
            table = await hub.get(table_id)
        except ClientError as error:
            return refusal(error)
        if not table.state.is_terminal():
            return _error(409, "the record is published when the game is over")
        record = table.state.to_record()
        record["options"] = dict(table.row.options)  # a scenario's name, never a server path
        hints = await request.app.state.reviews.marks(table)  # the moves played after a hint
        if hints:
            record["hints"] = hints
        return JSONResponse(
            record,
            headers={"Content-Disposition": f'attachment; filename="{table_id}.json"'},
        )

    # ------------------------------------------------------------------ replays
    async def table_replay(request: Request, table_id: str) -> Replay | Response:
        """The replay of a finished table (a running one's would show every hidden card)."""
        replays: Replays = request.app.state.replays
        found = replays.of_table(table_id)
        if found is not None:
            return found
        hub = hub_of(request)
        try:
            if not (await hub.summary(table_id))["finished"]:
                return _error(409, "the replay is published when the game is over")
            table = await hub.get(table_id)
        except ClientError as error:
            return refusal(error)
        if not table.state.is_terminal():
            return _error(409, "the replay is published when the game is over")
        seats = seats_of(table.row.players, table_summary(table.row)["seats"])
        chat = [chat_line(line) for line in table.chat]
        replay = await hub._in_thread(Replay, table.state.clone(), table.names(), seats, chat)
        replays.keep_table(table_id, replay)
        return replay

    def upload_replay(request: Request, upload_id: str) -> Replay | Response:
        found = request.app.state.replays.of_upload(upload_id)
        if found is None:
            return _error(404, "no such replay: opened records are kept a while only")
        replay: Replay = found
        return replay

    def viewer_of(replay: Replay, seat: int | None) -> int | None:
        if seat is not None and not 0 <= seat < replay.final.num_players:
            raise ClientError(f"seat {seat} is not a seat of this game")
        return seat

    async def replay_answer(
        request: Request,
        replay: Replay | Response,
        seat: int | None,
        step: int | None,
        lang: str = DEFAULT_LANG,
    ) -> Response:
        if isinstance(replay, Response):
            return replay
        hub = hub_of(request)
        chosen = as_lang(pick_language(None, lang))
        try:
            viewer = viewer_of(replay, seat)
            if step is None:
                return JSONResponse(await hub._in_thread(replay.summary, viewer, chosen))
            if not 0 <= step <= replay.steps:
                raise ClientError(f"step {step} is not between 0 and {replay.steps}")
            return JSONResponse(await hub._in_thread(replay.step, step, viewer, chosen))
        except ClientError as error:
            return _error(400, str(error))

    @app.get("/api/tables/{table_id}/replay")
    async def get_table_replay(
        request: Request, table_id: str, seat: int | None = None, lang: str = DEFAULT_LANG
    ) -> Response:
        found = await table_replay(request, table_id)
        return await replay_answer(request, found, seat, None, lang)

    @app.get("/api/tables/{table_id}/replay/{step}")
    async def get_table_replay_step(
        request: Request,
        table_id: str,
        step: int,
        seat: int | None = None,
        lang: str = DEFAULT_LANG,
    ) -> Response:
        found = await table_replay(request, table_id)
        return await replay_answer(request, found, seat, step, lang)

    def checked_record(body: bytes) -> State:
        """A record sent from a browser, replayed. Its options pass the web's checks first:
        a scenario is a name this server offers, never a path (as for a new table)."""
        try:
            data = json.loads(body.decode())
        except RecursionError:
            raise ClientError("not a spielwerk record: its JSON is nested too deeply") from None
        if not isinstance(data, dict) or not isinstance(data.get("options"), dict):
            return spielwerk.replay(data)  # the record's own messages for its shape
        game = data.get("game")
        if not isinstance(game, str) or game not in web_games():
            raise ClientError(f"not a spielwerk record of a game played here: {str(game)[:40]!r}")
        checked = table_options.check(game, data["options"])
        return spielwerk.replay({**data, "options": table_options.load_options(game, checked)})

    @app.post("/api/replays")
    async def open_record(request: Request) -> Response:
        """Any spielwerk record, opened in the replay viewer: checked by replaying it; kept in
        memory (the newest, within MAX_UPLOADS and MAX_UPLOAD_STEPS) under a random id. Each
        address opens a few a minute; the server replays one at a time (a replay is Python
        work that would otherwise crowd out the tables), so a body is read only once its
        turn has come."""
        wait = await wait_for_turn(request, "uploads", client_address(request))
        if wait > 0:
            return limited(
                f"too many records opened from this address (at most "
                f"{settings.uploads_per_minute} a minute): try again in {math.ceil(wait)} s"
            )
        try:
            await asyncio.wait_for(uploading.acquire(), UPLOAD_QUEUE_SECONDS)
        except TimeoutError:
            answer = _error(503, "the server is opening other records: try again in a moment")
            answer.headers["Retry-After"] = "5"
            return answer
        try:
            body = await request.body()
            try:
                final = await hub_of(request)._in_thread(checked_record, body)
            except ClientError as error:
                return _error(400, str(error))
            except (spielwerk.SpielwerkError, UnicodeDecodeError, ValueError) as error:
                return _error(400, f"not a spielwerk record: {error}")
            replay = await hub_of(request)._in_thread(
                Replay, final, [None] * final.num_players, seats_of(final.num_players)
            )
        finally:
            uploading.release()
        upload_id = request.app.state.replays.upload(replay)
        return JSONResponse({"id": upload_id, "url": f"/replay/{upload_id}"}, status_code=201)

    @app.get("/api/replays/{upload_id}")
    async def get_upload(
        request: Request, upload_id: str, seat: int | None = None, lang: str = DEFAULT_LANG
    ) -> Response:
        return await replay_answer(request, upload_replay(request, upload_id), seat, None, lang)

    @app.get("/api/replays/{upload_id}/{step}")
    async def get_upload_step(
        request: Request,
        upload_id: str,
        step: int,
        seat: int | None = None,
        lang: str = DEFAULT_LANG,
    ) -> Response:
        found = upload_replay(request, upload_id)
        return await replay_answer(request, found, seat, step, lang)

    @app.get("/healthz")
    async def health(request: Request) -> dict[str, Any]:
        """Liveness, and how much the server holds in memory (tables rebuilt from the
        database, open websockets): both fall back to zero when everybody has left. Also how
        many tables were rebuilt since the start, and whether the start-up still resumes the
        tables where the server is to move."""
        hub = hub_of(request)
        return {
            "status": "ok",
            "live_tables": len(hub.tables),
            "connections": hub.connections,
            "spectators": hub.spectators,
            "tables_loaded": hub.loaded,
            "resuming": hub.resuming,
        }

    # ------------------------------------------------------------------ websocket
    @app.websocket("/ws/tables/{table_id}")
    async def table_socket(websocket: WebSocket, table_id: str) -> None:
        await websocket.accept()
        session = _Session(websocket)
        hub = hub_of(websocket)
        try:
            hello = await session.hello()
            if hello is None:
                return
            try:
                table = await hub.get(table_id)
            except ClientError as error:
                await session.fail(str(error), 4404)
                return
            seat = None
            if hello.token is not None:
                seat = await hub.seat_of(table, hello.token)
                if seat is None:
                    await session.fail("this seat token does not belong to this table", 4403)
                    return
            try:
                connection = hub.join(table, seat, hello.lang, client_address(websocket))
            except ClientError as error:
                await session.fail(str(error), 4429)
                return
            try:
                await session.send(welcome_message(table, seat, hub.hand_over_after))
                await session.serve(
                    hub, table, connection, lambda address: too_many_tables(websocket, address)
                )
            finally:
                hub.leave(table, connection)
        except WebSocketDisconnect:
            pass

    return app


async def _no_limit(address: str) -> str | None:
    return None


class _Session:
    """One websocket: sends are serialised; the receive loop validates every message."""

    def __init__(self, websocket: WebSocket) -> None:
        self.websocket = websocket
        self._send_lock = asyncio.Lock()
        self._recent: list[float] = []
        self.too_many_tables: Callable[[str], Awaitable[str | None]] = _no_limit
        """Why an address may not open another table now (a rematch), or None."""

    async def send(self, message: dict[str, Any]) -> None:
        text = json.dumps(message, separators=(",", ":"))
        async with self._send_lock:
            await self.websocket.send_text(text)

    async def error(self, text: str, ref: int | None = None, code: str = "refused") -> None:
        await self.send(error_message(text, ref, code))

    async def fail(self, text: str, code: int) -> None:
        with suppress(Exception):
            await self.error(text)
            await self.websocket.close(code=code, reason=text[:100])

    async def receive(self) -> str | None:
        """The next text message; None when the client has gone. Oversized or binary
        messages are answered with an error and yield an empty string."""
        message = await self.websocket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text = message.get("text")
        if text is None:
            await self.error("send JSON text messages, not binary ones")
            return ""
        if len(text.encode("utf-8")) > MAX_MESSAGE_BYTES:
            await self.error(f"message larger than {MAX_MESSAGE_BYTES} bytes refused")
            return ""
        now = time.monotonic()
        self._recent = [t for t in self._recent if now - t < RATE_WINDOW]
        self._recent.append(now)
        if len(self._recent) > RATE_WINDOW * IDLE_MESSAGES_PER_SECOND:
            await self.fail("too many messages", 4429)
            return None
        return str(text)

    def parse(self, text: str) -> AnyMessage | str:
        """The message, or the reason it is refused."""
        try:
            return CLIENT_MESSAGE.validate_json(text)
        except ValidationError as error:
            return f"malformed message: {validation_text(error)}"

    async def hello(self) -> Hello | None:
        try:
            text = await asyncio.wait_for(self.receive(), HELLO_TIMEOUT)
        except TimeoutError:
            await self.fail("say hello first", 4408)
            return None
        if text is None:
            return None
        parsed = self.parse(text) if text else "empty message"
        if not isinstance(parsed, Hello):
            reason = parsed if isinstance(parsed, str) else "the first message must be hello"
            await self.fail(reason, 4400)
            return None
        return parsed

    async def serve(
        self,
        hub: TableHub,
        table: LiveTable,
        connection: Connection,
        too_many_tables: Callable[[str], Awaitable[str | None]],
    ) -> None:
        self.too_many_tables = too_many_tables
        sender = asyncio.create_task(self._push_states(table, connection))
        try:
            while True:
                text = await self.receive()
                if text is None:
                    break
                if not text:
                    continue
                parsed = self.parse(text)
                if isinstance(parsed, str):
                    await self.error(parsed)
                elif isinstance(parsed, Ping):
                    await self.send({"type": "pong"})
                elif isinstance(parsed, Hello):
                    await self.error("already joined: reconnect to change seats")
                elif isinstance(parsed, Undo | Rematch):
                    await self._seat_request(hub, table, connection, parsed)
                elif isinstance(parsed, Chat):
                    await self._chat(hub, table, connection, parsed)
                elif isinstance(parsed, HandOver):
                    await self._hand_over(hub, table, connection, parsed)
                elif isinstance(parsed, Hint):  # answered on this connection only
                    reviews = self.websocket.app.state.reviews
                    seat, lang = connection.seat, connection.lang
                    await hint_over_socket(reviews, table, seat, lang, parsed, self.send)
                else:
                    await self._act(hub, table, connection, parsed)
        finally:
            sender.cancel()
            with suppress(asyncio.CancelledError, Exception):
                await sender

    async def _act(
        self, hub: TableHub, table: LiveTable, connection: Connection, message: Act
    ) -> None:
        seat, ref = connection.seat, message.ref
        if seat is None:
            await self.error("spectators cannot act: open a seat link to play", ref, "spectator")
            return
        if message.seat is not None and message.seat != seat:
            text = f"your token is for seat {seat}: you cannot act for seat {message.seat}"
            await self.error(text, ref, "wrong_seat")
            return
        try:
            version = await hub.act(table, seat, dict(message.action), message.version)
        except ClientError as error:
            await self.error(str(error), ref, error.code)
            return
        if self._recent:
            self._recent.pop()  # an accepted action does not count against the rate
        await self.send(ok_message(ref, version))

    async def _seat_request(
        self, hub: TableHub, table: LiveTable, connection: Connection, message: Undo | Rematch
    ) -> None:
        seat, ref = connection.seat, message.ref
        if seat is None:
            await self.error("spectators cannot act: open a seat link to play", ref, "spectator")
            return
        try:
            if isinstance(message, Undo):
                version = await hub.undo(table, seat, message.version)
                await self.send(ok_message(ref, version))
            else:
                # A new deal is a new table: it counts against the address's limit (a chain
                # of rematches is no way round it); joining one started already does not.
                if table.row.rematch is None:
                    refused = await self.too_many_tables(connection.address)
                    if refused is not None:
                        await self.error(refused, ref, "too_many_new_tables")
                        return
                rematch = await hub.rematch(table, seat)
                await self.send({"type": "rematch", "ref": ref, "table": rematch})
        except ClientError as error:
            await self.error(str(error), ref, error.code)

    async def _chat(
        self, hub: TableHub, table: LiveTable, connection: Connection, message: Chat
    ) -> None:
        try:
            await hub.chat(table, connection, message)
        except ClientError as error:
            await self.error(str(error), message.ref, error.code)
            return
        if self._recent:
            self._recent.pop()  # a line written counts against the chat's rate, not this one
        await self.send({"type": "ok", "ref": message.ref, "version": table.version})

    async def _hand_over(
        self, hub: TableHub, table: LiveTable, connection: Connection, message: HandOver
    ) -> None:
        if connection.seat is None:
            await self.error(
                "spectators cannot act: open a seat link to play", message.ref, "spectator"
            )
            return
        try:
            await hub.hand_over(table, connection.seat, message.seat)
        except ClientError as error:
            await self.error(str(error), message.ref, error.code)
            return
        await self.send({"type": "ok", "ref": message.ref, "version": table.version})

    async def _push_states(self, table: LiveTable, connection: Connection) -> None:
        try:
            while True:
                await connection.wake.wait()
                connection.wake.clear()
                if connection.closing is not None:  # the hub lets this connection go
                    await self.fail(connection.closing[1], connection.closing[0])
                    return
                if connection.dirty:
                    connection.dirty = False
                    await self.send(state_message(table, connection))
                chat = chat_message(table, connection)
                if chat is not None:
                    await self.send(chat)
        except (WebSocketDisconnect, OSError):  # the client has gone
            return
        except Exception:  # a bug: this connection cannot go on
            log.exception("table %s: sending a state failed; closing the connection", table.id)
            with suppress(Exception):
                await self.websocket.close(code=1011, reason="internal error")
