"""Statistics of a simulation a designer can trust: intervals and tests, not bare averages.

The games of one deal are not independent (the same cards, often the same play: four copies of
a deterministic bot replay one game four times), so every interval and test treats the *deal*
as the unit of sampling:
- Win rates (a shared win counts as a fraction; a cooperative win counts whole) with 95% Wilson
  score intervals at the effective number of games (games / design effect, the design effect
  estimated from the spread of the deals' means and never taken below 1), per agent and seat.
- Mean scores with 95% Student-t intervals over the deals' means, and score quantiles.
- First-player advantage: seat 0's win rate against the fair 1/n, with a one-sample t-test over
  the deals' means; and a chi-square test of the seats' wins counted per deal (each deal one
  unit) against equal shares (seat effect).
- Game length in decisions (player actions) and steps (chance included).
- Each agent's wall seconds a decision (strength claims are made at equal time per decision).
Everything is a JSON-ready dict, computed per variant.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from typing import Any

from scipy import stats as scipy_stats

from spielwerk.sim.plan import Variant
from spielwerk.sim.runner import GameRow, RunResult

Z95 = 1.959963984540054


def wilson_interval(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (successes and n may be fractional)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    # min/max: at p = 0 or 1 rounding can put a bound a hair past p (a negative error bar).
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def mean_interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and its 95% Student-t interval."""
    n = len(values)
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = statistics.fmean(values)
    if n == 1:
        return (mean, mean, mean)
    half = float(scipy_stats.t.ppf(0.975, n - 1)) * statistics.stdev(values) / math.sqrt(n)
    return (mean, mean - half, mean + half)


def quantiles(values: Sequence[float]) -> dict[str, float]:
    ordered = sorted(values)
    if not ordered:
        return {}
    q1, median, q3 = statistics.quantiles(ordered, n=4) if len(ordered) > 1 else ordered * 3
    return {"min": ordered[0], "q1": q1, "median": median, "q3": q3, "max": ordered[-1]}


def entry_labels(lineup: Sequence[str]) -> list[str]:
    """Names of the line-up entries; a spec that occurs twice is numbered (random#2)."""
    labels = []
    for index, spec in enumerate(lineup):
        if lineup.count(spec) > 1:
            labels.append(f"{spec}#{lineup[: index + 1].count(spec)}")
        else:
            labels.append(spec)
    return labels


Deals = Sequence[Sequence[float]]
"""Values grouped by deal: one list per deal (one value per game of that deal)."""


def _deal_means(groups: Deals) -> list[float]:
    return [statistics.fmean(group) for group in groups if group]


def effective_games(groups: Deals) -> float:
    """The number of independent games these clustered 0-1 outcomes are worth: games divided by
    the design effect (variance over deals / binomial variance), the effect at least 1."""
    values = [v for group in groups for v in group]
    games, means = len(values), _deal_means(groups)
    if games == 0 or len(means) < 2:
        return float(len(means))
    independent = statistics.variance(values) / games  # the mean's variance if independent
    if independent == 0:
        return float(games)
    clustered = statistics.variance(means) / len(means)
    return games / max(1.0, clustered / independent)


def rate(groups: Deals) -> dict[str, float]:
    """Win rate of clustered win shares with its 95% Wilson interval at the effective n."""
    values = [v for group in groups for v in group]
    wins = sum(values)
    p = wins / len(values) if values else 0.0
    n_eff = effective_games(groups)
    low, high = wilson_interval(p * n_eff, n_eff)
    return {"wins": wins, "win_rate": p, "low": low, "high": high, "effective_games": n_eff}


def scores(groups: Deals) -> dict[str, Any]:
    """Mean score with a 95% t-interval over the deals' means, and quantiles of all games."""
    values = [v for group in groups for v in group]
    _, low, high = mean_interval(_deal_means(groups))
    mean = statistics.fmean(values) if values else 0.0
    return {"mean": mean, "low": low, "high": high, "quantiles": quantiles(values)}


def seconds_per_decision(seats: Sequence[tuple[GameRow, int]]) -> float | None:
    """Mean wall seconds a decision over these (game, seat) pairs; None where not measured
    (the batched simulator) or the seat never chose."""
    timed = [(row, seat) for row, seat in seats if row.seat_decisions]
    decisions = sum(row.seat_decisions[seat] for row, seat in timed)
    if len(timed) < len(seats) or decisions == 0:
        return None
    return sum(row.think_seconds[seat] for row, seat in timed) / decisions


def summarise_variant(
    variant: Variant, lineup: Sequence[str], rows: Sequence[GameRow]
) -> dict[str, Any]:
    players = len(lineup)
    by_deal: dict[int, list[GameRow]] = {}
    for row in rows:
        by_deal.setdefault(row.spec.deal, []).append(row)
    deals = list(by_deal.values())
    cooperative = any(row.cooperative for row in rows)

    def entry_seat(row: GameRow, entry: int) -> int:
        return (entry + row.spec.rotation) % players

    agents: list[dict[str, Any]] = []
    for entry, label in enumerate(entry_labels(lineup)):
        shares = [[row.win_shares[entry_seat(row, entry)] for row in deal] for deal in deals]
        points = [[row.scores[entry_seat(row, entry)] for row in deal] for deal in deals]
        agents.append(
            {"agent": label, "spec": lineup[entry], "games": len(rows)}
            | rate(shares)
            | {"score": scores(points)}
            | {
                "seconds_per_decision": seconds_per_decision(
                    [(row, entry_seat(row, entry)) for row in rows]
                )
            }
        )
    seat_shares = [
        [[row.win_shares[seat] for row in deal] for deal in deals] for seat in range(players)
    ]
    seats: list[dict[str, Any]] = [
        {"seat": seat, "games": len(rows)}
        | rate(seat_shares[seat])
        | {"score": scores([[row.scores[seat] for row in deal] for deal in deals])}
        for seat in range(players)
    ]
    decisions = [[float(row.decisions) for row in deal] for deal in deals]
    return {
        "variant": variant.label,
        "options": dict(variant.options),
        "games": len(rows),
        "deals": len(deals),
        "cooperative": cooperative,
        "agents": agents,
        "seats": seats,
        "first_player": None if cooperative else _first_player(seat_shares[0], players),
        "seat_effect": None if cooperative else _seat_effect(seat_shares),
        "length": {
            "decisions": scores(decisions),
            "steps_mean": statistics.fmean(row.steps for row in rows) if rows else 0.0,
        },
    }


def _first_player(shares: Deals, players: int) -> dict[str, Any] | None:
    """Seat 0 against the fair share 1/n: one-sample t-test over the deals' means."""
    means = _deal_means(shares)
    if len(means) < 2:
        return None
    fair = 1.0 / players
    if statistics.pvariance(means) == 0:  # every deal alike: no spread to test against
        p_value = 1.0 if means[0] == fair else 0.0
    else:
        p_value = float(scipy_stats.ttest_1samp(means, fair).pvalue)
    result = rate(shares)
    return result | {
        "fair": fair,
        "advantage": result["win_rate"] - fair,
        "p_value": p_value,
    }


def _seat_effect(seat_shares: Sequence[Deals]) -> dict[str, Any] | None:
    """Chi-square test of the seats' wins against equal shares, each deal counted once (its
    mean over the rotations), so correlated rotations do not inflate the evidence."""
    totals = [sum(_deal_means(shares)) for shares in seat_shares]
    if sum(totals) <= 0:
        return None
    expected = [sum(totals) / len(totals)] * len(totals)
    test = scipy_stats.chisquare(totals, expected)
    return {"chi2": float(test.statistic), "p_value": float(test.pvalue)}


def summarise(result: RunResult, game: str, lineup: Sequence[str], seed: int) -> dict[str, Any]:
    """The whole simulation: one summary per variant, in plan order."""
    variants: dict[Variant, list[GameRow]] = {}
    for row in result.rows:
        variants.setdefault(row.spec.variant, []).append(row)
    return {
        "game": game,
        "lineup": list(lineup),
        "seed": seed,
        "planned_games": result.planned,
        "games": len(result.rows),
        "complete": result.complete,
        "interrupted": result.interrupted,
        "variants": [
            summarise_variant(variant, lineup, rows) for variant, rows in variants.items()
        ],
    }
