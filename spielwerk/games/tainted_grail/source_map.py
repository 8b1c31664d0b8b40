"""Where a mistake in a scenario file is: its line, and its element by index and id.

The scenario reader and the linter name a field by its path in the data
(`locations[2].arrows[0]`). `SourceMap` turns such a path into what an author looks for: the
line in the file, and the element's id next to its index, so that a problem reads
`table.toml:42: locations[2] 'hut'.x: missing`.

`tomllib` keeps no positions, so the map reads the text itself: table headers (`[scenario]`,
`[[locations]]`, `[[sections.choices]]`) and the keys inside each table. A field of an inline
table (`cost = { energy = 3 }`) is on its key's line; a missing field is on its table's header.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

Part = str | int
"""One step of a field path: a key, or an index into an array of tables."""

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\[\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*([A-Za-z0-9_-]+|\"[^\"]*\"|'[^']*')\s*[.=]")
_PATH_PART = re.compile(r"([^.\[\]]+)|\[(\d+)\]")
_TOML_LINE = re.compile(r"\(at line (\d+), column \d+\)")


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem of a scenario: an error (the scenario cannot be loaded or cannot be won)
    or a warning (a part of it can never come into play)."""

    severity: str  # "error" or "warning"
    path: str  # the field, its elements named by index and id: "locations[2] 'hut'.x"
    message: str
    source: str = ""  # the file as given
    line: int = 0  # 1-based; 0 where no line holds the mistake (a table that is missing)

    def __str__(self) -> str:
        where = self.source + (f":{self.line}" if self.line else "")
        head = f"{where}: " if where else ""
        return f"{head}{self.path}: {self.message}" if self.path else f"{head}{self.message}"


def parse_path(path: str) -> list[Part]:
    """`"locations[2].arrows[0]"` -> `["locations", 2, "arrows", 0]`."""
    parts: list[Part] = []
    for name, index in _PATH_PART.findall(path):
        parts.append(int(index) if index else name)
    return parts


def toml_error_line(message: str) -> int:
    """The line `tomllib` names in a syntax error ("... (at line 3, column 7)"), or 0."""
    found = _TOML_LINE.search(message)
    return int(found.group(1)) if found else 0


class SourceMap:
    """Lines and ids of one scenario text (`data` is what `tomllib` read from it)."""

    def __init__(self, source: str, text: str, data: Mapping[str, Any]) -> None:
        self.source = source
        self.data = data
        self.tables: dict[tuple[Part, ...], int] = {(): 1}
        self.keys: dict[tuple[Part, ...], int] = {}
        self._scan(text)

    def _scan(self, text: str) -> None:
        current: tuple[Part, ...] = ()
        latest: dict[str, tuple[Part, ...]] = {}  # dotted header name -> its last instance
        counts: dict[tuple[Part, ...], int] = {}  # array path -> elements so far
        quote = ""  # the delimiter of a multi-line string we are in
        for number, line in enumerate(text.splitlines(), start=1):
            if quote:
                if line.count(quote) % 2:
                    quote = ""
                continue
            for delimiter in ('"""', "'''"):
                if line.count(delimiter) % 2:
                    quote = delimiter
            header = _HEADER.match(line)
            if header and not quote:
                brackets, dotted = header.group(1), header.group(2)
                names = [n.strip().strip("\"'") for n in dotted.split(".")]
                parent_name = ".".join(names[:-1])
                parent = latest.get(parent_name, tuple(names[:-1])) if parent_name else ()
                path: tuple[Part, ...] = (*parent, names[-1])
                if brackets == "[[":
                    index = counts.get(path, 0)
                    counts[path] = index + 1
                    path = (*path, index)
                latest[".".join(names)] = path
                self.tables[path] = number
                current = path
                continue
            key = _KEY.match(line)
            if key:
                name = key.group(1).strip("\"'")
                self.keys.setdefault((*current, name), number)

    def line(self, parts: list[Part]) -> int:
        """The line of the field, else of the nearest table that holds it (0: none)."""
        for end in range(len(parts), -1, -1):
            prefix = tuple(parts[:end])
            if prefix in self.tables:
                if end < len(parts) and isinstance(parts[end], str):
                    found = self.keys.get((*prefix, parts[end]))
                    if found:
                        return found
                return self.tables[prefix] if prefix else self.keys.get(prefix, 0)
            if prefix in self.keys:
                return self.keys[prefix]
            if end == len(parts) and (*prefix, 0) in self.tables:
                return self.tables[(*prefix, 0)]  # an array of tables as a whole: its first
        return 0

    def name(self, parts: list[Part]) -> str:
        """The path as an author reads it: each element of an array of tables followed by its
        id, if it has one (`locations[2] 'hut'.x`)."""
        text = ""
        cursor: Any = self.data
        for part in parts:
            if isinstance(part, int):
                text += f"[{part}]"
                cursor = cursor[part] if isinstance(cursor, list) and part < len(cursor) else None
                found = cursor.get("id") if isinstance(cursor, dict) else None
                if isinstance(found, str) and found:
                    text += f" {found!r}"
            else:
                text += f".{part}" if text else part
                cursor = cursor.get(part) if isinstance(cursor, dict) else None
        return text

    def diagnostic(self, severity: str, path: str, message: str) -> Diagnostic:
        parts = parse_path(path)
        return Diagnostic(severity, self.name(parts), message, self.source, self.line(parts))
