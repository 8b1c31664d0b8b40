"""Log lines a client cannot forge or inflate.

A request path, a table id or a name a client sends may hold newlines (a forged log line) or
kilobytes of text (a full disk). Every record of the server's loggers becomes one printable line
of bounded length: control characters are written as escapes and long values are cut.
"""

from __future__ import annotations

import logging
import sys

from uvicorn.logging import DefaultFormatter

MAX_LINE = 2000
"""Characters of one log message at most (a traceback is printed apart and is ours)."""
MAX_VALUE = 200
"""Characters of one value in an access-log line at most (the request path)."""


def printable(text: str, limit: int) -> str:
    """`text` with control characters escaped, cut to `limit` characters."""
    if text.isprintable() and len(text) <= limit:
        return text
    clean = "".join(c if c.isprintable() else repr(c)[1:-1] for c in text)
    return clean if len(clean) <= limit else clean[: limit - 1] + "…"


def quoted(value: object, limit: int = 80) -> str:
    """A client's value as it goes into a log line: quoted, escaped and cut."""
    return printable(repr(value), limit)


class OneLine(logging.Filter):
    """Formats the message now and makes it one bounded line (for our own loggers)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.msg = printable(record.getMessage(), MAX_LINE)
        record.args = None
        return True


class BoundedArguments(logging.Filter):
    """Bounds each argument of the record, keeping the arguments (uvicorn's access log
    formats them itself)."""

    def filter(self, record: logging.LogRecord) -> bool:
        if isinstance(record.args, tuple):
            record.args = tuple(
                printable(a, MAX_VALUE) if isinstance(a, str) else a for a in record.args
            )
        return True


def install() -> None:
    """Put the filters on the server's loggers, and give ours a handler as uvicorn's have
    (INFO and above to stderr: a bot's move, a table taken over from another process)
    (idempotent)."""
    ours = logging.getLogger("spielwerk.web")
    if not any(getattr(h, "spielwerk", False) for h in ours.handlers):
        handler = logging.StreamHandler(sys.stderr)
        handler.setFormatter(DefaultFormatter("%(levelprefix)s %(message)s", use_colors=False))
        handler.spielwerk = True  # type: ignore[attr-defined]
        ours.addHandler(handler)
        ours.setLevel(logging.INFO)
        ours.propagate = False
    for name, kind in (
        ("spielwerk.web", OneLine),
        ("uvicorn.error", OneLine),
        ("uvicorn.access", BoundedArguments),
    ):
        logger = logging.getLogger(name)
        if not any(isinstance(f, kind) for f in logger.filters):
            logger.addFilter(kind())
