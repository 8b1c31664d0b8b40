"""Game options: a small declared schema with defaults, parsed from Python values or CLI text."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from spielwerk.core.errors import OptionError

OptionValue = str | int | bool


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One option of a game: its name, type, default, and allowed values (if a choice)."""

    name: str
    type: type[str] | type[int] | type[bool]
    default: OptionValue
    help: str
    choices: tuple[OptionValue, ...] | None = None
    minimum: int | None = None
    maximum: int | None = None
    seat: bool = False
    """The value is a seat as the rules count it, from 0 (a start player): people read and pick
    it counted from 1 ("seat 1"), in the lobby and the terminal."""

    def validate(self, value: object) -> OptionValue:
        """Return the value if it fits the schema, converting CLI text where unambiguous."""
        if isinstance(value, str) and self.type is not str:
            value = self._from_text(value)
        # bool is a subclass of int: reject it where an int is wanted and vice versa.
        if type(value) is not self.type:
            raise OptionError(f"option {self.name!r} takes a {self.type.__name__}, got {value!r}")
        assert isinstance(value, str | int | bool)
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise OptionError(f"option {self.name!r} must be one of {allowed}; got {value!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.minimum is not None and value < self.minimum:
                raise OptionError(f"option {self.name!r} must be >= {self.minimum}; got {value}")
            if self.maximum is not None and value > self.maximum:
                raise OptionError(f"option {self.name!r} must be <= {self.maximum}; got {value}")
        return value

    def _from_text(self, text: str) -> OptionValue:
        if self.type is bool:
            lowered = text.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return True
            if lowered in ("0", "false", "no", "off"):
                return False
            raise OptionError(f"option {self.name!r} takes true or false; got {text!r}")
        try:
            return int(text.strip())
        except ValueError:
            raise OptionError(f"option {self.name!r} takes an integer; got {text!r}") from None


def resolve_options(
    specs: tuple[OptionSpec, ...], given: Mapping[str, Any]
) -> dict[str, OptionValue]:
    """Defaults overlaid with the given values; unknown names and bad values raise OptionError."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        known = ", ".join(sorted(by_name)) or "none"
        raise OptionError(f"unknown option {unknown[0]!r} (this game's options: {known})")
    return {
        spec.name: spec.validate(given[spec.name]) if spec.name in given else spec.default
        for spec in specs
    }
