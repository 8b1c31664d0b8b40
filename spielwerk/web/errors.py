"""Errors the web layer shows to the person who caused them."""

from __future__ import annotations


class ClientError(Exception):
    """A request the server refuses: the message says why (in English), `code` names the
    refusal so that a page words it in its own language."""

    code = "refused"

    def __init__(self, message: str, code: str | None = None) -> None:
        super().__init__(message)
        if code is not None:
            self.code = code


class TableNotFound(ClientError):
    """No table has that id."""

    code = "no_table"
