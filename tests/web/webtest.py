"""Real parts for the web tests (conftest.py makes fixtures of them): `spielwerk serve` in a
subprocess on a free loopback port, a throwaway PostgreSQL server, Debian's Chromium.

Missing system parts (Chromium, PostgreSQL) skip their tests on a developer's machine but fail
them under CI (`CI=true`), where `.ci/run` installs them.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
import pytest

CHROMIUM = os.environ.get("SPIELWERK_CHROMIUM", "/usr/bin/chromium")


def missing(reason: str) -> None:
    """Skip on a developer's machine, fail in CI: CI must run every web test."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must have it: see .ci/run)")
    pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Server:
    """`spielwerk serve` as a child process (so it can be killed with SIGKILL)."""

    def __init__(self, db_url: str, port: int | None = None, bot_delay: float = 0.0) -> None:
        self.db_url = db_url
        self.port = port or free_port()
        self.bot_delay = bot_delay
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(tempfile.mkstemp(prefix="spielwerk-serve-", suffix=".log")[1])

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        return f"ws://127.0.0.1:{self.port}"

    def start(self) -> Server:
        command = [
            sys.executable,
            "-c",
            "from spielwerk.cli.main import main; main()",
            "serve",
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--bot-workers",
            "1",
            "--bot-delay",
            str(self.bot_delay),
        ]
        log = self.log_path.open("ab")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited:\n{self.log()}")
            try:
                if httpx.get(f"{self.base}/healthz", timeout=1).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        raise RuntimeError(f"the server did not come up:\n{self.log()}")

    def log(self) -> str:
        return self.log_path.read_text(errors="replace")

    def kill(self) -> None:
        """SIGKILL: no shutdown code runs at all."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)

    def create(self, game: str, seats: list[str], **options: object) -> dict[str, object]:
        """Create a table: seats are "human" or a bot spec."""
        body = {
            "game": game,
            "options": options,
            "seats": [
                {"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats
            ],
        }
        response = httpx.post(f"{self.base}/api/tables", json=body, timeout=30)
        assert response.status_code == 201, response.text
        created: dict[str, object] = response.json()
        return created


# ---------------------------------------------------------------------- PostgreSQL
def _pg_bin(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


class PostgresServer:
    """A throwaway PostgreSQL cluster in a temporary directory on a free port (as the
    `postgres` user when we are root: PostgreSQL refuses to run as root)."""

    def __init__(self) -> None:
        initdb, pg_ctl = _pg_bin("initdb"), _pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            missing("PostgreSQL server binaries (initdb, pg_ctl) not found")
        assert initdb is not None and pg_ctl is not None
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="spielwerk-pg-"))
        self.data = self.root / "data"
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            self.prefix = ["runuser", "-u", "postgres", "--"]
            shutil.chown(self.root, "postgres")
        self.root.chmod(0o755)

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self.prefix, *args], check=True, capture_output=True, timeout=120, cwd=self.root
        )

    def start(self) -> PostgresServer:
        self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        options = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            self.pg_ctl,
            "-D",
            str(self.data),
            "-o",
            options,
            "-l",
            str(self.root / "log"),
            "-w",
            "start",
        )
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)
