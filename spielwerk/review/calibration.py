"""From a search's values to winning chances, and how well those chances were measured.

A search's mean value of a move is in its own units: a win share under random or learned
rollouts (Witches, Isolde), a win share plus a small score term (Tintenherz, Tainted Grail), a
squashed lead on the victory track or in the heuristic's estimate (Tintenblut). None of them
is a probability that the seat wins a real game. So each game's values are mapped by a
logistic curve, chance = 1 / (1 + exp(-(slope x value + intercept))) (Platt scaling, Platt
1999), fitted on positions of finished games among different bots to what happened in those
games, and then checked on other positions of other games, held out from the fit
(`bench/review_calibration.py` does both and writes `calibration.toml`; docs/review.md has the
figures). The curve is monotone, so it never changes which move the search prefers; it changes
how much a drop in value is worth.

A review states whether its chances are calibrated: they are where the held-out positions
were measured for this game, this player count and this search, and the measurement passed
(`CALIBRATED_ERROR`, and a Brier score below the base rate's). Elsewhere the raw value,
clipped to 0..1, is shown, and the review says it is uncalibrated.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import numpy as np

from spielwerk.core.data import read_toml

CALIBRATED_ERROR = 0.05
"""The largest reliability error (the bins' weighted mean gap between predicted chance and
observed win rate, on held-out positions) that still counts as calibrated."""
RELIABILITY_BINS = 10


@dataclass(frozen=True, slots=True)
class Calibration:
    """The measured map of one game, player count and search."""

    game: str
    players: int
    method: str
    iterations: int
    slope: float
    intercept: float
    fit_positions: int
    held_out_positions: int
    brier: float
    base_brier: float
    reliability_error: float

    @property
    def calibrated(self) -> bool:
        return self.reliability_error <= CALIBRATED_ERROR and self.brier < self.base_brier

    def chance(self, value: float) -> float:
        return logistic(self.slope * value + self.intercept)


def logistic(x: float) -> float:
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


@cache
def calibrations() -> dict[tuple[str, int], Calibration]:
    """Every measured map (`calibration.toml` beside this module), by game and player count."""
    data = read_toml("spielwerk.review", "calibration.toml")
    found: dict[tuple[str, int], Calibration] = {}
    for entry in data.get("calibration", []):
        item = Calibration(**entry)
        found[(item.game, item.players)] = item
    return found


def calibration_for(game: str, players: int, method: str, iterations: int) -> Calibration | None:
    """The map measured for exactly this game, player count and search; None if there is
    none (then the review's figures are uncalibrated)."""
    item = calibrations().get((game, players))
    if item is None or item.method != method or item.iterations != iterations:
        return None
    return item


def uncalibrated_chance(value: float) -> float:
    """A search value shown as a chance without a measured map: clipped to 0..1."""
    return min(1.0, max(0.0, value))


# ---------------------------------------------------------------------- fitting and measuring
def fit_logistic(values: Sequence[float], outcomes: Sequence[float]) -> tuple[float, float]:
    """Slope and intercept of the logistic curve that best predicts `outcomes` (win shares in
    0..1) from `values`, by maximum likelihood (Newton's method, with a small ridge on the
    slope so that perfectly separated data still gives a finite curve)."""
    x = np.asarray(values, dtype=np.float64)
    y = np.asarray(outcomes, dtype=np.float64)
    if len(x) < 2:
        raise ValueError("fitting a calibration needs at least two positions")
    slope, intercept = 0.0, 0.0
    ridge = 1e-3
    for _ in range(100):
        z = np.clip(slope * x + intercept, -40.0, 40.0)
        p = 1.0 / (1.0 + np.exp(-z))
        w = p * (1.0 - p)
        g_slope = float(np.sum((p - y) * x)) + ridge * slope
        g_intercept = float(np.sum(p - y))
        h_ss = float(np.sum(w * x * x)) + ridge
        h_si = float(np.sum(w * x))
        h_ii = float(np.sum(w)) + 1e-9
        det = h_ss * h_ii - h_si * h_si
        if det <= 0:
            break
        step_slope = (h_ii * g_slope - h_si * g_intercept) / det
        step_intercept = (h_ss * g_intercept - h_si * g_slope) / det
        slope -= step_slope
        intercept -= step_intercept
        if abs(step_slope) + abs(step_intercept) < 1e-10:
            break
    return slope, intercept


@dataclass(frozen=True, slots=True)
class Reliability:
    """Predicted chances against outcomes: the Brier score, the base rate's, and the bins of
    a reliability diagram."""

    brier: float
    base_brier: float
    base_rate: float
    error: float
    """The bins' gap between mean prediction and observed rate, weighted by their counts."""
    bins: list[tuple[float, float, int]]
    """(mean predicted chance, observed win rate, positions) of each non-empty bin."""


def reliability(
    chances: Sequence[float], outcomes: Sequence[float], bins: int = RELIABILITY_BINS
) -> Reliability:
    """How well `chances` predicted `outcomes` (win shares in 0..1)."""
    p = np.asarray(chances, dtype=np.float64)
    y = np.asarray(outcomes, dtype=np.float64)
    if len(p) == 0 or len(p) != len(y):
        raise ValueError("reliability needs as many outcomes as chances, at least one")
    base_rate = float(y.mean())
    brier = float(np.mean((p - y) ** 2))
    base_brier = float(np.mean((base_rate - y) ** 2))
    index = np.minimum((p * bins).astype(np.int64), bins - 1)
    table: list[tuple[float, float, int]] = []
    error = 0.0
    for b in range(bins):
        chosen = index == b
        count = int(chosen.sum())
        if not count:
            continue
        predicted, observed = float(p[chosen].mean()), float(y[chosen].mean())
        table.append((predicted, observed, count))
        error += count * abs(predicted - observed)
    return Reliability(brier, base_brier, base_rate, error / len(p), table)
