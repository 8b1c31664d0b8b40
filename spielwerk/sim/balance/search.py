"""The rule-variant search: `--tune key=lo..hi` (or `key=a,b,c`) and a `--target` such as
`first_player<0.02` (seat 0's edge, in absolute value), `length=40..60` (decisions per game),
`seat_spread<0.05` or `win_rate>0.5` (a cooperative team's).

A range is searched coarse to fine: at most five values spread over it first, then the values
between the best one's neighbours. A value *meets* the target when its estimate does, and
meets it *with confidence* when its whole 95% interval does.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from spielwerk.core.errors import OptionError
from spielwerk.sim.variants import load_variant

METRICS = ("first_player", "length", "seat_spread", "win_rate")
COARSE = 5


@dataclass(frozen=True, slots=True)
class Target:
    metric: str
    low: float
    high: float
    text: str

    def meets(self, value: float) -> bool:
        return self.low <= value <= self.high

    def distance(self, value: float) -> float:
        return 0.0 if self.meets(value) else min(abs(value - self.low), abs(value - self.high))


def parse_target(text: str) -> Target:
    """`metric<x`, `metric>x` or `metric=lo..hi`; first_player is taken in absolute value."""
    match = re.fullmatch(
        r"\s*([a-z_]+)\s*(<|>|=)\s*(-?\d+(?:\.\d+)?)(?:\.\.(-?\d+(?:\.\d+)?))?\s*", text
    )
    if not match or match[1] not in METRICS:
        raise OptionError(
            f"bad --target {text!r}: write e.g. first_player<0.02, length=40..60, "
            f"seat_spread<0.05 or win_rate>0.5 (metrics: {', '.join(METRICS)})"
        )
    name, op, first, second = match.groups()
    try:
        value = float(first)
        upper = float(second) if second is not None else None
    except ValueError:
        raise OptionError(f"bad number in --target {text!r}") from None
    metric = "first_player_abs" if name == "first_player" else name
    if op == "=":
        if upper is None:
            raise OptionError(f"--target {text!r}: a range is written lo..hi")
        return Target(metric, min(value, upper), max(value, upper), text.strip())
    if upper is not None:
        raise OptionError(f"--target {text!r}: a range needs =, as in length=40..60")
    if op == "<":
        return Target(metric, float("-inf"), value, text.strip())
    return Target(metric, value, float("inf"), text.strip())


@dataclass(frozen=True, slots=True)
class Tune:
    key: str
    values: tuple[str, ...]
    """Every value to consider, in order (a range lists all its integers)."""
    numeric: bool


def parse_tune(game: str, text: str, options: dict[str, str]) -> Tune:
    """`key=lo..hi` (an integer option) or `key=a,b,c`; every value checked against the game."""
    key, sep, values = text.partition("=")
    key = key.strip()
    if not sep or not key or not values.strip():
        raise OptionError(f"bad --tune {text!r}: write it as key=lo..hi or key=a,b,c")
    if key in options:
        raise OptionError(f"option {key!r} is both fixed (--option) and tuned (--tune)")
    if ".." in values:
        lo_text, _, hi_text = values.partition("..")
        try:
            lo, hi = int(lo_text), int(hi_text)
        except ValueError:
            raise OptionError(f"--tune {text!r}: a range is two integers, lo..hi") from None
        if hi < lo:
            raise OptionError(f"--tune {text!r}: the range is empty")
        tune = Tune(key, tuple(str(v) for v in range(lo, hi + 1)), True)
    else:
        choices = tuple(v.strip() for v in values.split(","))
        if not all(choices) or len(set(choices)) != len(choices):
            raise OptionError(f"--tune {text!r}: give distinct values, key=a,b,c")
        tune = Tune(key, choices, False)
    for value in (tune.values[0], tune.values[-1]) if tune.numeric else tune.values:
        load_variant(game, **options, **{key: value})  # an unknown option or bad value fails
    return tune


def coarse_values(tune: Tune) -> list[str]:
    """The first values to try: every choice, or at most COARSE spread over a range."""
    if not tune.numeric or len(tune.values) <= COARSE:
        return list(tune.values)
    last = len(tune.values) - 1
    picks = sorted({round(i * last / (COARSE - 1)) for i in range(COARSE)})
    return [tune.values[i] for i in picks]


def refine_values(tune: Tune, tried: Sequence[str], best: str) -> list[str]:
    """Untried values between the best value's tried neighbours (at most three)."""
    if not tune.numeric:
        return []
    order = sorted(int(v) for v in tried)
    position = order.index(int(best))
    low = order[position - 1] if position > 0 else int(best)
    high = order[position + 1] if position + 1 < len(order) else int(best)
    between = [v for v in range(low + 1, high) if str(v) not in tried]
    if len(between) <= 3:
        return [str(v) for v in between]
    step = len(between) / 4
    return sorted({str(between[int(step * (i + 1))]) for i in range(3)}, key=int)
