"""The estimators of a balance report, on the rows of finished games.

- `component_effects`: the win-rate effect of each component, from games between equal
  players. Within each game the seats that had a component are compared with those that did
  not (the game's own mean is taken out: a fixed effect per game, so the deal's luck cancels),
  controlling for the seat (seat dummies); one least-squares fit per component, standard
  errors robust to clustering by deal (the rotations of a deal are not independent, CR1
  sandwich), Student-t p-values on deals - 1 degrees of freedom, and two corrections for
  testing many components at once: Holm's (family-wise) and Benjamini-Hochberg's (false
  discovery rate, `scipy.stats.false_discovery_control`). In a cooperative game the unit is
  the game: the team's win against whether anyone in the party had the component.
- `paired_difference`: a line-up entry against the field on the same deals and seats, the
  difference per deal with a t-interval over deals.
- `compensation`: the score bonus per seat that would bring its win rate to the fair share,
  read from the finished games' scores (the bonus a seat needs in each game to win it; a
  komi: bots do not know about it, so it is the bonus that cancels the edge as the games were
  played), with a bootstrap interval over deals.
- `drama`: lead changes and how often the leader after two thirds of the game wins.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from scipy import stats as scipy_stats

from spielwerk.core.components import Component
from spielwerk.sim.balance.play import NO_LEADER, BalanceRow
from spielwerk.sim.stats import mean_interval, wilson_interval


def rotations(lineup: Sequence[str]) -> int:
    """Seat rotations a deal is played with: one where every seat has the same agent (a
    rotation would replay the same game), else one per seat."""
    return 1 if len(set(lineup)) == 1 else len(lineup)


def complete_deals(rows: Sequence[BalanceRow]) -> list[BalanceRow]:
    """Only the rows of deals whose every seat rotation finished (a budget can cut a deal)."""
    count: dict[tuple[str, int], int] = {}
    for row in rows:
        key = (row.spec.variant.label, row.spec.deal)
        count[key] = count.get(key, 0) + 1
    return [
        row
        for row in rows
        if count[(row.spec.variant.label, row.spec.deal)] >= rotations(row.spec.lineup)
    ]


def _cluster_se(x: np.ndarray, residuals: np.ndarray, clusters: np.ndarray) -> np.ndarray | None:
    """CR1 cluster-robust standard errors of a least-squares fit with design `x`."""
    n, k = x.shape
    groups = np.unique(clusters)
    g = len(groups)
    if g < 2 or n <= k:
        return None
    bread = np.linalg.pinv(x.T @ x)
    scores = np.zeros((g, k))
    index = np.searchsorted(groups, clusters)
    np.add.at(scores, index, x * residuals[:, None])
    meat = scores.T @ scores
    scale = g / (g - 1) * (n - 1) / (n - k)
    covariance = scale * bread @ meat @ bread
    errors: np.ndarray = np.sqrt(np.clip(np.diag(covariance), 0.0, None))
    return errors


def holm(p_values: Sequence[float]) -> list[float]:
    """Holm's step-down adjusted p-values (family-wise error)."""
    order = sorted(range(len(p_values)), key=lambda i: p_values[i])
    adjusted = [1.0] * len(p_values)
    running = 0.0
    for rank, i in enumerate(order):
        running = max(running, min(1.0, (len(p_values) - rank) * p_values[i]))
        adjusted[i] = running
    return adjusted


@dataclass(frozen=True, slots=True)
class Design:
    """The games' outcomes and exposures as arrays: one row per seat and game (per game in a
    cooperative game)."""

    outcome: np.ndarray
    games: np.ndarray
    deals: np.ndarray
    seats: np.ndarray
    exposure: Callable[[str], np.ndarray]


def _design(rows: Sequence[BalanceRow], cooperative: bool, keys: Sequence[str]) -> Design:
    column = {key: i for i, key in enumerate(keys)}
    units = len(rows) if cooperative else sum(len(row.win_shares) for row in rows)
    matrix = np.zeros((units, len(keys)))
    outcome: list[float] = []
    games: list[int] = []
    deals: list[int] = []
    seats: list[int] = []
    for game_index, row in enumerate(rows):
        seat_rows = [(0, max(row.win_shares))] if cooperative else enumerate(row.win_shares)
        for seat, share in seat_rows:
            unit = len(outcome)
            outcome.append(share)
            games.append(game_index)
            deals.append(row.spec.deal)
            seats.append(seat)
            for found_seat, found in enumerate(row.exposures):
                if not cooperative and found_seat != seat:
                    continue
                for key, amount in found:
                    if key in column:  # a party's exposure: anyone in it had it
                        i = column[key]
                        matrix[unit, i] = max(matrix[unit, i], amount)

    def exposure(key: str) -> np.ndarray:
        values: np.ndarray = matrix[:, column[key]]
        return values

    return Design(
        np.array(outcome, dtype=float),
        np.array(games),
        np.array(deals),
        np.array(seats),
        exposure,
    )


def _demean(values: np.ndarray, groups: np.ndarray) -> np.ndarray:
    sums = np.bincount(groups, weights=values)
    counts = np.bincount(groups)
    centred: np.ndarray = values - (sums / np.maximum(counts, 1))[groups]
    return centred


def component_effects(
    rows: Sequence[BalanceRow], components: Sequence[Component], cooperative: bool
) -> list[dict[str, Any]]:
    """One entry per component with variation: effect on the win rate (per unit of exposure),
    95% interval, p-value, Holm and BH adjusted p-values, exposure rate and the raw win rates
    of seats with and without it; sorted by effect, largest first."""
    if len(rows) < 2:
        return []
    design = _design(rows, cooperative, [c.key for c in components])
    y = design.outcome
    if cooperative:
        controls = np.ones((len(y), 1))
        y_fit = y
    else:
        players = int(design.seats.max()) + 1
        dummies = np.stack([(design.seats == s).astype(float) for s in range(1, players)], axis=1)
        controls = np.stack([_demean(d, design.games) for d in dummies.T], axis=1)
        y_fit = _demean(y, design.games)
    deals = len(np.unique(design.deals))
    found: list[dict[str, Any]] = []
    for component in components:
        x = design.exposure(component.key)
        if np.ptp(x) == 0:
            continue
        x_fit = x if cooperative else _demean(x, design.games)
        if np.allclose(x_fit, 0.0):
            continue  # every seat of every game alike: nothing to compare within a game
        matrix = np.column_stack([x_fit, controls])
        coef, *_ = np.linalg.lstsq(matrix, y_fit, rcond=None)
        se = _cluster_se(matrix, y_fit - matrix @ coef, design.deals)
        if se is None or not se[0] > 0:
            continue
        effect, error = float(coef[0]), float(se[0])
        t_crit = float(scipy_stats.t.ppf(0.975, max(deals - 1, 1)))
        p = float(2 * scipy_stats.t.sf(abs(effect / error), max(deals - 1, 1)))
        held = x > 0
        found.append(
            {
                "key": component.key,
                "item": component.item,
                "kind": component.kind,
                "label": component.label,
                "effect": effect,
                "low": effect - t_crit * error,
                "high": effect + t_crit * error,
                "p_value": p,
                "exposed_share": float(held.mean()),
                "mean_exposure": float(x.mean()),
                "win_with": float(y[held].mean()) if held.any() else math.nan,
                "win_without": float(y[~held].mean()) if (~held).any() else math.nan,
            }
        )
    if found:
        p_values = [entry["p_value"] for entry in found]
        bh = scipy_stats.false_discovery_control(p_values)
        for entry, p_holm, q in zip(found, holm(p_values), bh, strict=True):
            entry["p_holm"] = p_holm
            entry["q_bh"] = float(q)
            entry["significant"] = p_holm < 0.05
    found.sort(key=lambda entry: -entry["effect"])
    return found


def paired_difference(
    rows: Sequence[BalanceRow], field: Sequence[BalanceRow], entry: int = 0
) -> dict[str, Any] | None:
    """Line-up entry `entry` of `rows` against the field's seat it sat in, on the same deal:
    the mean win-share difference with a 95% t-interval over deals (in a cooperative
    game the team's result against the field team's)."""
    base = {r.spec.deal: r for r in field}  # the field plays each deal once (equal seats)
    by_deal: dict[int, list[float]] = {}
    for row in rows:
        other = base.get(row.spec.deal)
        if other is None:
            continue
        seat = (entry + row.spec.rotation) % len(row.spec.lineup)
        mine = max(row.win_shares) if row.cooperative else row.win_shares[seat]
        theirs = max(other.win_shares) if other.cooperative else other.win_shares[seat]
        by_deal.setdefault(row.spec.deal, []).append(mine - theirs)
    means = [statistics.fmean(v) for v in by_deal.values()]
    if not means:
        return None
    mean, low, high = mean_interval(means)
    return {"difference": mean, "low": low, "high": high, "deals": len(means)}


def _fair_bonus(thresholds: np.ndarray, fair: float) -> float:
    """The bonus with which a seat wins a `fair` share of the games: it wins a game when the
    bonus exceeds that game's threshold (the best other score less its own), so the bonus is
    taken between the k-th and (k+1)-th smallest thresholds, k = fair x games (between two
    scores: no ties)."""
    ordered = np.sort(thresholds)
    k = min(max(round(fair * len(ordered)), 1), len(ordered) - 1)
    return float((ordered[k - 1] + ordered[k]) / 2)


def compensation(
    rows: Sequence[BalanceRow], players: int, resamples: int = 400, seed: int = 0
) -> list[dict[str, Any]]:
    """Per seat, the score bonus (negative: a penalty) that alone would make its win rate the
    fair 1/n, with a 95% bootstrap interval over deals."""
    if len(rows) < 2 or rows[0].cooperative:
        return []
    scores = np.array([row.scores for row in rows], dtype=float)
    deals = np.array([row.spec.deal for row in rows])
    fair = 1.0 / players
    unique = np.unique(deals)
    rng = np.random.default_rng(seed)
    if len(unique) == len(rows):  # one game a deal: resample the games
        draws = list(rng.integers(0, len(rows), (resamples, len(rows))))
    else:
        members = [np.flatnonzero(deals == d) for d in unique]
        draws = [
            np.concatenate([members[i] for i in rng.integers(0, len(unique), len(unique))])
            for _ in range(resamples)
        ]
    found = []
    for seat in range(players):
        others = np.delete(scores, seat, axis=1).max(axis=1)
        thresholds = others - scores[:, seat]
        boot = sorted(_fair_bonus(thresholds[draw], fair) for draw in draws)
        found.append(
            {
                "seat": seat,
                "bonus": _fair_bonus(thresholds, fair),
                "low": boot[int(0.025 * (len(boot) - 1))],
                "high": boot[int(0.975 * (len(boot) - 1))],
            }
        )
    return found


def drama(rows: Sequence[BalanceRow]) -> dict[str, Any]:
    """Lead changes per game and how often the sole leader after two thirds of the decisions
    goes on to win (a shared win counts as its share)."""
    changes = [float(row.lead_changes) for row in rows]
    led = [row for row in rows if row.leader_two_thirds != NO_LEADER]
    wins = sum(row.win_shares[row.leader_two_thirds] for row in led)
    low, high = wilson_interval(wins, len(led))
    mean, c_low, c_high = mean_interval(changes)
    return {
        "lead_changes": {"mean": mean, "low": c_low, "high": c_high},
        "lead_changes_hist": _histogram([int(c) for c in changes]),
        "games_with_leader_at_two_thirds": len(led),
        "leader_at_two_thirds_wins": wins / len(led) if led else math.nan,
        "leader_low": low,
        "leader_high": high,
    }


def _histogram(values: Sequence[int]) -> dict[str, int]:
    counts: dict[int, int] = {}
    for value in values:
        counts[value] = counts.get(value, 0) + 1
    return {str(k): counts[k] for k in sorted(counts)}


def agreement(rows: Sequence[BalanceRow]) -> dict[str, dict[str, float]]:
    """Per watched strategy: decisions where its rule had an opinion, and the share of them
    where the watched agent chose as the rule would."""
    totals: dict[str, list[int]] = {}
    for row in rows:
        for spec, narrowed, agreed in row.agreement:
            total = totals.setdefault(spec, [0, 0])
            total[0] += narrowed
            total[1] += agreed
    found = {}
    for spec, (narrowed, agreed) in totals.items():
        low, high = wilson_interval(agreed, narrowed)
        found[spec] = {
            "decisions": narrowed,
            "agreed": agreed,
            "share": agreed / narrowed if narrowed else math.nan,
            "low": low,
            "high": high,
        }
    return found


def metric(summary: Mapping[str, Any], name: str) -> tuple[float, float, float] | None:
    """A variant's value of a tuning metric with its 95% interval: `first_player` (seat 0's
    edge over the fair share), `first_player_abs`, `length` (decisions per game),
    `seat_spread` (best seat's win rate minus the worst's; no interval) or `win_rate` (the
    first line-up entry's, e.g. a cooperative team's)."""
    if name in ("first_player", "first_player_abs"):
        first = summary.get("first_player")
        if not first:
            return None
        fair = first["fair"]
        values = (first["advantage"], first["low"] - fair, first["high"] - fair)
        if name == "first_player":
            return values
        lo, hi = values[1], values[2]
        inner = 0.0 if lo <= 0.0 <= hi else min(abs(lo), abs(hi))
        return (abs(values[0]), inner, max(abs(lo), abs(hi)))
    if name == "length":
        length = summary["length"]["decisions"]
        return (length["mean"], length["low"], length["high"])
    if name == "seat_spread":
        rates = [seat["win_rate"] for seat in summary["seats"]]
        spread = max(rates) - min(rates)
        return (spread, spread, spread)
    if name == "win_rate":
        agent = summary["agents"][0]
        return (agent["win_rate"], agent["low"], agent["high"])
    raise ValueError(f"unknown metric {name!r}")
