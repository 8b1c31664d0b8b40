"""The whole multi-process site on this machine, for trying and testing: a throwaway PostgreSQL
(Debian's server binaries, in a temporary directory), N `spielwerk serve` processes on it, and
nginx in front with the configuration kept beside this module (`nginx.conf`).

    python -m spielwerk.web.local_cluster --processes 2 --port 8000     (make cluster N=2)

prints the address to open and runs until Ctrl-C, then stops everything and removes the
directory. The tests start the same parts (`LocalCluster`). `docs/deploy.md` describes running
them on one or several machines.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import pwd
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from importlib import resources
from pathlib import Path

from spielwerk.web.loadtest import SERVE_COMMAND, free_port

NGINX_CONF = "nginx.conf"
"""The proxy's configuration (a template: @prefix@, @servers@, @listen@ and the limits)."""
DEFAULT_PROXY_LIMITS = {
    "connections_per_address": 64,
    "requests_per_second": 20,
    "request_burst": 60,
}


class MissingPart(RuntimeError):
    """A part the cluster needs is not installed (PostgreSQL's server, nginx)."""


def pg_bin(name: str) -> str | None:
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else shutil.which(name)


def _unprivileged_user() -> str:
    """PostgreSQL refuses to run as root: its own user where the package made one."""
    for name in ("postgres", "nobody"):
        try:
            pwd.getpwnam(name)
            return name
        except KeyError:
            continue
    raise MissingPart("no unprivileged user (postgres or nobody) to run PostgreSQL as")


class ThrowawayPostgres:
    """A PostgreSQL cluster in a temporary directory on a free port, without fsync (it is
    thrown away), run as an unprivileged user when we are root."""

    def __init__(self) -> None:
        initdb, pg_ctl = pg_bin("initdb"), pg_bin("pg_ctl")
        if initdb is None or pg_ctl is None:
            raise MissingPart("PostgreSQL server binaries (initdb, pg_ctl) not found")
        self.initdb, self.pg_ctl = initdb, pg_ctl
        self.port = free_port()
        self.root = Path(tempfile.mkdtemp(prefix="spielwerk-pg-"))
        self.data = self.root / "data"
        self.prefix: list[str] = []
        if os.geteuid() == 0:
            user = _unprivileged_user()
            self.prefix = ["runuser", "-u", user, "--"]
            shutil.chown(self.root, user)
        self.root.chmod(0o755)
        self.started = False
        self._databases = 0

    def _run(self, *args: str) -> None:
        done = subprocess.run(
            [*self.prefix, *args], capture_output=True, timeout=120, cwd=self.root, check=False
        )
        if done.returncode != 0:
            raise RuntimeError(
                f"{args[0]} failed ({done.returncode}):\n{done.stdout.decode()}"
                f"{done.stderr.decode()}"
            )

    def start(self) -> ThrowawayPostgres:
        self._run(self.initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "-E", "UTF8")
        self.resume()
        return self

    def resume(self) -> None:
        """Start the cluster (again, after `halt`), on the same port and data."""
        options = (
            f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=400 "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off"
        )
        log = str(self.root / "log")
        self._run(self.pg_ctl, "-D", str(self.data), "-o", options, "-l", log, "-w", "start")
        self.started = True

    def halt(self) -> None:
        """Stop the cluster as an operator would (`pg_ctl stop -m fast`: open connections are
        cut), keeping its data for `resume`."""
        self._run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-w", "stop")
        self.started = False

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        self._databases += 1
        name = f"spielwerk_{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        try:
            if self.started:
                self._run(self.pg_ctl, "-D", str(self.data), "-m", "immediate", "stop")
        finally:
            shutil.rmtree(self.root, ignore_errors=True)


def wait_healthy(base: str, process: subprocess.Popen[bytes] | None, seconds: float = 180) -> None:
    """Until `base`/healthz answers 200 (a bound, not a measurement)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process is not None and process.poll() is not None:
            raise RuntimeError(f"{base}: the process exited ({process.returncode})")
        with (
            contextlib.suppress(urllib.error.URLError, OSError),
            urllib.request.urlopen(f"{base}/healthz", timeout=5) as answer,
        ):
            if answer.status == 200:
                return
        time.sleep(0.1)
    raise RuntimeError(f"{base} did not come up within {seconds:g} s")


class Nginx:
    """nginx from Debian's package, with `nginx.conf` filled in, in a directory of its own."""

    def __init__(self, port: int, upstreams: list[int], directory: Path, **limits: int) -> None:
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        if not Path(binary).exists():
            raise MissingPart("nginx not found (Debian: apt-get install nginx)")
        self.binary, self.port, self.directory = binary, port, directory
        self.upstreams = upstreams
        self.limits = {**DEFAULT_PROXY_LIMITS, **limits}
        self.process: subprocess.Popen[bytes] | None = None

    def config(self) -> str:
        text = resources.files("spielwerk.web").joinpath(NGINX_CONF).read_text(encoding="utf-8")
        servers = "\n".join(
            f"        server 127.0.0.1:{port} max_fails=1 fail_timeout=3s;"
            for port in self.upstreams
        )
        values = {
            "prefix": str(self.directory),
            "servers": servers,
            "listen": f"127.0.0.1:{self.port}",
            **{k: str(v) for k, v in self.limits.items()},
        }
        for key, value in values.items():
            text = text.replace(f"@{key}@", value)
        return text

    def start(self) -> Nginx:
        self.directory.mkdir(parents=True, exist_ok=True)
        conf = self.directory / "nginx.conf"
        conf.write_text(self.config(), encoding="utf-8")
        command = [self.binary, "-p", str(self.directory), "-c", str(conf), "-g", "daemon off;"]
        log = (self.directory / "nginx.out").open("wb")
        self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_healthy(f"http://127.0.0.1:{self.port}", self.process)
        return self

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # graceful: finish the open requests
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)


class ServeProcess:
    """One `spielwerk serve` behind the proxy."""

    def __init__(self, db_url: str, directory: Path, index: int, extra: list[str]) -> None:
        self.port = free_port()
        self.db_url = db_url
        self.log_path = directory / f"serve-{index}.log"
        self.extra = extra
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> ServeProcess:
        command = [
            *SERVE_COMMAND,
            "--port",
            str(self.port),
            "--db",
            self.db_url,
            "--trusted-proxy",
            "127.0.0.1",  # the proxy: its X-Forwarded-For names the client
            *self.extra,
        ]
        with self.log_path.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
        wait_healthy(self.base, self.process)
        return self

    def kill(self) -> None:
        """SIGKILL: nothing of the process's own shutdown runs."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(30)


class LocalCluster:
    """PostgreSQL, `processes` servers on it and nginx in front: `url` is the site's address."""

    def __init__(
        self,
        processes: int = 2,
        port: int | None = None,
        serve_args: list[str] | None = None,
        db_url: str | None = None,
        **proxy_limits: int,
    ) -> None:
        self.directory = Path(tempfile.mkdtemp(prefix="spielwerk-cluster-"))
        self.postgres: ThrowawayPostgres | None = None
        self.db_url = db_url
        self.count = processes
        self.port = port or free_port()
        self.serve_args = serve_args or []
        self.proxy_limits = proxy_limits
        self.servers: list[ServeProcess] = []
        self.proxy: Nginx | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> LocalCluster:
        try:
            if self.db_url is None:
                self.postgres = ThrowawayPostgres().start()
                self.db_url = self.postgres.create_database()
            for index in range(self.count):
                self.servers.append(
                    ServeProcess(self.db_url, self.directory, index, self.serve_args).start()
                )
            upstreams = [s.port for s in self.servers]
            self.proxy = Nginx(
                self.port, upstreams, self.directory / "nginx", **self.proxy_limits
            ).start()
        except BaseException:
            self.stop()
            raise
        return self

    def stop(self) -> None:
        if self.proxy is not None:
            self.proxy.stop()
        for server in self.servers:
            server.stop()
        if self.postgres is not None:
            self.postgres.stop()
        shutil.rmtree(self.directory, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processes", type=int, default=2, help="spielwerk serve processes")
    parser.add_argument("--port", type=int, default=8000, help="the proxy's port")
    parser.add_argument("--db", help="a PostgreSQL URL to use instead of a throwaway one")
    args = parser.parse_args(argv)
    if not 1 <= args.processes <= 64:
        parser.error(f"--processes must be 1 to 64, not {args.processes}")
    cluster = LocalCluster(args.processes, args.port, db_url=args.db)
    try:
        cluster.start()
    except (MissingPart, RuntimeError) as error:
        print(f"spielwerk: cannot start the cluster: {error}", file=sys.stderr)
        return 2
    ports = ", ".join(str(s.port) for s in cluster.servers)
    print(
        f"spielwerk: the site is at {cluster.url}/ ({args.processes} processes on ports {ports}, "
        f"PostgreSQL {cluster.db_url}, logs in {cluster.directory}); Ctrl-C stops it",
        file=sys.stderr,
    )
    stopping = {signal.SIGINT, signal.SIGTERM}
    signal.pthread_sigmask(signal.SIG_BLOCK, stopping)  # the children started before this
    try:
        signal.sigwait(stopping)
    finally:
        cluster.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
