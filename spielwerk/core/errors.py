"""The errors every layer may raise; each carries a message a person can act on."""

from __future__ import annotations


class SpielwerkError(Exception):
    """Base of all spielwerk errors."""


class IllegalAction(SpielwerkError, ValueError):
    """An action that is not legal in the current state; the state is left unchanged."""


class OptionError(SpielwerkError, ValueError):
    """An unknown game option or a value outside its schema."""


class UnknownGame(SpielwerkError, KeyError):
    """No registered game has that name."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else "unknown game"


class RecordError(SpielwerkError, ValueError):
    """A game record that is malformed or does not replay to what it claims."""
