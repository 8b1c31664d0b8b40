"""Errors the web layer shows to the person who caused them."""

from __future__ import annotations


class ClientError(Exception):
    """A request the server refuses; the message is shown to the person who sent it."""


class TableNotFound(ClientError):
    """No table has that id."""
