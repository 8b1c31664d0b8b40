"""The Tainted Grail scenarios a web table may be played with: chosen by name, never by path.

The server knows the built-in scenarios and, if the operator names one (`spielwerk serve
--scenario-dir DIR`), the files `DIR/NAME.toml`. A client only ever sends a name from that list;
anything else (a path, a name with a slash, an unknown name) gets the same answer, which says
nothing about the server's files. An operator's file is read once per version (at most
`MAX_SCENARIO_BYTES`) into a private snapshot, and the game reads the snapshot: the server and
its bot workers play the same text even if the operator edits the file meanwhile, and the
file's path never reaches a client. Reading and parsing run in worker threads, never on the
event loop (the callers see to that).
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import shutil
import stat
import tempfile
import threading
from pathlib import Path

from spielwerk.web.errors import ClientError

log = logging.getLogger("spielwerk.web")

SCENARIO_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,47}")
"""What a scenario name looks like: the file name without `.toml`; no dots, no slashes."""
MAX_SCENARIO_BYTES = 1_000_000
"""Largest scenario file the server reads (the built-in demo has 13 KB)."""
MAX_LISTED = 200
"""Operator scenarios offered at most (the first by name)."""


class ScenarioCatalog:
    """The built-in scenarios and those in the operator's directory."""

    def __init__(self, directory: str | Path | None = None) -> None:
        self.directory = Path(directory).resolve() if directory is not None else None
        if self.directory is not None and not self.directory.is_dir():
            raise ValueError(f"the scenario directory {str(directory)!r} is not a directory")
        self._snapshots: dict[tuple[str, int, int, int], str] = {}
        self._snapshot_dir: Path | None = None
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ listing
    @staticmethod
    def builtin() -> list[str]:
        from spielwerk.games.tainted_grail.scenario import builtin_names

        return [name for name in builtin_names() if SCENARIO_NAME.fullmatch(name)]

    def operator_names(self) -> list[str]:
        """Names of the operator's scenario files (a cheap directory listing, no parsing)."""
        if self.directory is None:
            return []
        try:
            entries = sorted(os.scandir(self.directory), key=lambda e: e.name)
        except OSError as error:
            log.error("cannot list the scenario directory: %s", error)
            return []
        names = []
        builtin = set(self.builtin())
        for entry in entries:
            name = entry.name.removesuffix(".toml")
            if (
                entry.name.endswith(".toml")
                and SCENARIO_NAME.fullmatch(name)
                and name not in builtin
            ):
                names.append(name)
                if len(names) >= MAX_LISTED:
                    break
        return names

    def names(self) -> list[str]:
        return [*self.builtin(), *self.operator_names()]

    # ------------------------------------------------------------------ resolving
    def resolve(self, name: object) -> str:
        """The value to hand to the game for scenario `name`: the name of a built-in one, or
        the path of a private snapshot of the operator's file. ClientError for anything else,
        with a message that depends on nothing but the known names."""
        if isinstance(name, str) and name in self.builtin():
            return name
        if not isinstance(name, str) or name not in self.operator_names():
            known = ", ".join(self.names())
            raise ClientError(f"unknown scenario: choose one of {known}")
        assert self.directory is not None
        return self._snapshot(name, self.directory / f"{name}.toml")

    def _snapshot(self, name: str, path: Path) -> str:
        try:
            with path.open("rb") as handle:
                info = os.fstat(handle.fileno())
                if not stat.S_ISREG(info.st_mode):
                    raise ClientError(f"scenario {name!r} is not a file")
                if info.st_size > MAX_SCENARIO_BYTES:
                    log.error(
                        "scenario %r: %d bytes, more than the %d a scenario may have",
                        name,
                        info.st_size,
                        MAX_SCENARIO_BYTES,
                    )
                    raise ClientError(
                        f"scenario {name!r} is too large (at most {MAX_SCENARIO_BYTES} bytes)"
                    )
                key = (name, info.st_ino, info.st_size, info.st_mtime_ns)
                with self._lock:
                    known = self._snapshots.get(key)
                if known is not None:
                    return known
                data = handle.read(MAX_SCENARIO_BYTES + 1)
        except OSError as error:
            log.error("scenario %r: cannot read it: %s", name, error)
            raise ClientError(f"scenario {name!r} cannot be read") from None
        if len(data) > MAX_SCENARIO_BYTES:  # it grew while we looked
            raise ClientError(
                f"scenario {name!r} is too large (at most {MAX_SCENARIO_BYTES} bytes)"
            )
        digest = hashlib.sha256(data).hexdigest()
        with self._lock:
            if self._snapshot_dir is None:
                self._snapshot_dir = Path(tempfile.mkdtemp(prefix="spielwerk-scenarios-"))
            target = self._snapshot_dir / f"{digest}.toml"
            if not target.exists():
                partial = target.with_suffix(".part")
                partial.write_bytes(data)
                partial.replace(target)
            self._snapshots[key] = str(target)
        return str(target)

    def close(self) -> None:
        with self._lock:
            if self._snapshot_dir is not None:
                shutil.rmtree(self._snapshot_dir, ignore_errors=True)
                self._snapshot_dir = None
                self._snapshots.clear()
