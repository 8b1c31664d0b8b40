"""Real parts for the web tests (conftest.py makes fixtures of them): `spielwerk serve` in a
subprocess on a free loopback port, a throwaway PostgreSQL server, Debian's Chromium.

Missing system parts (Chromium, PostgreSQL) skip their tests on a developer's machine but fail
them under CI (`CI` set), where `.ci/run` installs them.
"""

from __future__ import annotations

import errno
import os
import signal
import subprocess
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from spielwerk.web.loadtest import SERVE_COMMAND, free_port
from spielwerk.web.local_cluster import MissingPart, ThrowawayPostgres
from spielwerk.web.storage import Storage

CHROMIUM = os.environ.get("SPIELWERK_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    # Without these Chromium calls home, and the closed network refuses its connections.
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def missing(reason: str) -> None:
    """Skip on a developer's machine, fail in CI: CI must run every web test."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must have it: see .ci/run)")
    pytest.skip(reason)


def alive(pid: int) -> bool:
    """True while `pid` runs (a zombie has finished)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[0]
    except OSError:
        return False
    return state != "Z"


def wait_until(condition: Callable[[], bool], timeout: float, what: str) -> None:
    """Poll `condition` until it holds; fail (not a timed assertion: the bound is generous)
    if it never does."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"{what}: not within {timeout} s")
        time.sleep(0.1)


class Server:
    """`spielwerk serve` as a child process (so it can be killed with SIGKILL)."""

    def __init__(
        self,
        db_url: str,
        port: int | None = None,
        bot_delay: float = 0.0,
        bot_workers: int = 1,
        log_path: Path | None = None,
        tables_per_minute: int = 0,  # tests open many tables from one address
        bot_tables_per_address: int = 0,  # ... many of them of bots only
        extra_args: Sequence[str] = (),
        evict_after: float = 1.0,  # idle tables leave memory soon: rebuilding gets exercised
        per_address_limits: bool = False,  # every test client comes from 127.0.0.1
    ) -> None:
        self.db_url = db_url
        unlimited = [
            "--connections-per-address",
            "0",
            "--spectators-per-address",
            "0",
            "--uploads-per-minute",
            "0",
        ]
        self.extra_args = [
            "--evict-after",
            str(evict_after),
            "--bot-tables-per-address",
            str(bot_tables_per_address),
            *([] if per_address_limits else unlimited),
            *extra_args,
        ]
        """More `spielwerk serve` options."""
        self.tables_per_minute = tables_per_minute
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.bot_workers = bot_workers
        self.process: subprocess.Popen[bytes] | None = None
        self._own_log = log_path is None
        if log_path is None:  # a scratch file, removed by stop()
            handle, name = tempfile.mkstemp(prefix="spielwerk-serve-", suffix=".log")
            os.close(handle)
            log_path = Path(name)
        self.log_path = log_path

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        command = [
            *SERVE_COMMAND,
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-workers",
            str(self.bot_workers),
            "--bot-delay",
            str(self.bot_delay),
            "--tables-per-minute",
            str(self.tables_per_minute),
            *self.extra_args,
        ]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        # A bound, not a measurement: a start-up on a busy machine takes seconds, not minutes.
        deadline = time.monotonic() + 180
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.stop(keep_log=True)  # no server left behind by a start that failed
        raise RuntimeError(f"the server did not come up:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(30)

    def descendants(self) -> set[int]:
        """Pids of the server's child processes (bot workers and their helpers), from /proc."""
        assert self.process is not None
        parents: dict[int, int] = {}
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:
                continue
            parents[int(stat.parent.name)] = int(fields[1])
        found: set[int] = set()
        frontier = {self.process.pid}
        while frontier:
            frontier = {pid for pid, parent in parents.items() if parent in frontier} - found
            found |= frontier
        return found

    def stop(self, keep_log: bool = False) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)
        if self._own_log and not keep_log:
            self.log_path.unlink(missing_ok=True)

    def health(self) -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(f"{self.base}/healthz", timeout=60).json()
        return answer

    def create(self, game: str, seats: list[str], **options: object) -> dict[str, Any]:
        """Create a table: seats are "human" or a bot spec."""
        body = {
            "game": game,
            "options": options,
            "seats": [
                {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats
            ],
        }
        response = httpx.post(f"{self.base}/api/tables", json=body, timeout=60)
        assert response.status_code == 201, response.text
        return self.claim_all(response.json())

    def claim(self, table_id: str, invitation: str, name: str | None = None) -> httpx.Response:
        body: dict[str, Any] = {"invitation": invitation}
        if name is not None:
            body["name"] = name
        return httpx.post(f"{self.base}/api/tables/{table_id}/claim", json=body, timeout=60)

    def claim_all(self, created: dict[str, Any]) -> dict[str, Any]:
        """Every invitation of a new table taken, as its players would ("Player N"): the
        creation answer with each human seat's token and link filled in."""
        for seat in created["seats"]:
            if seat["invitation"]:
                answer = self.claim(created["id"], seat["invitation"], f"Player {seat['seat']}")
                assert answer.status_code == 200, answer.text
                seat["token"], seat["url"] = answer.json()["token"], answer.json()["url"]
        return created

    def summary(self, table_id: str) -> dict[str, Any]:
        answer: dict[str, Any] = httpx.get(f"{self.base}/api/tables/{table_id}", timeout=30).json()
        return answer

    def steps(self, table_id: str) -> int:
        return int(self.summary(table_id)["steps"])


# ---------------------------------------------------------------------- PostgreSQL
class PostgresServer(ThrowawayPostgres):
    """The project's throwaway PostgreSQL (spielwerk.web.local_cluster); without its server
    binaries the test is skipped (failed under CI)."""

    def __init__(self) -> None:
        try:
            super().__init__()
        except MissingPart as error:
            missing(str(error))


# ---------------------------------------------------------------------- a full disk
@contextmanager
def small_filesystem(path: Path, megabytes: int = 4) -> Iterator[Path]:
    """A real file system of `megabytes` (tmpfs) mounted at `path`, so a test can fill it up:
    writes then fail with ENOSPC as on a full disk. Mounting needs root (CI runs as root)."""
    path.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        missing("a full-disk test mounts a small tmpfs, which needs root")
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", f"size={megabytes}m,mode=0777", "tmpfs", str(path)],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if mounted.returncode != 0:
        missing(f"cannot mount a tmpfs here: {mounted.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True, timeout=60, check=False)


def fill_up(directory: Path) -> Path:
    """Write a file into `directory` until its file system has no block left; the file."""
    filler = directory / "filler"
    descriptor = os.open(filler, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        for chunk in (1 << 16, 1 << 12, 1 << 9, 1):
            try:
                while True:
                    os.write(descriptor, b"\0" * chunk)
            except OSError as error:
                if error.errno != errno.ENOSPC:
                    raise
    finally:
        os.close(descriptor)
    return filler


# ---------------------------------------------------------------------- Chromium
def chromium_available() -> str:
    if not Path(CHROMIUM).exists():
        missing(f"Chromium not found at {CHROMIUM} (apt-get install chromium)")
    try:
        import playwright  # noqa: F401
    except ImportError:
        missing("the playwright package is not installed (the dev extra)")
    return CHROMIUM


def stored_record(storage: Storage, table_id: str) -> dict[str, Any]:
    """The table as the database holds it, written as a spielwerk record (built here from the
    rows, not by the server, so replaying it checks what was stored)."""
    row = storage.load_table(table_id)
    assert row is not None
    return {
        "format": "spielwerk-record/1",
        "game": row.game,
        "options": row.options,
        "players": row.players,
        "seed": row.seed,
        "actions": [
            {"actor": "chance" if a.actor < 0 else a.actor, "action": a.action}
            for a in storage.load_actions(table_id)
        ],
    }


@contextmanager
def page_in_new_context(browser: Any, **context_options: Any) -> Iterator[Any]:
    """A page in a fresh browser context (e.g. `locale="de-DE"`), its script errors collected
    in `page.errors`; the context is closed afterwards."""
    context = browser.new_context(**context_options)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.errors = errors
    try:
        yield opened
    finally:
        context.close()


def games_by_language(games: Iterable[str], langs: Iterable[str], turn: int) -> list[Any]:
    """pytest params (game, lang) for a whole game played in the browser per pair: by default
    each game in one language, the languages taking turns down the sorted games from `turn`
    (tests that use different turns cover both languages of every game between them), the
    other pairs with `-m slow`."""
    langs = sorted(langs)
    return [
        pytest.param(
            game,
            lang,
            marks=() if (i + turn) % len(langs) == j else pytest.mark.slow,
            id=f"{game}-{lang}",
        )
        for i, game in enumerate(sorted(games))
        for j, lang in enumerate(langs)
    ]
