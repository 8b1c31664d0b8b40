"""Throughput of the batched simulators (the compiled kernels)."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

import spielwerk
from spielwerk.sim.batched import batched_simulator


def batched_throughput(name: str, players: int, games: int) -> dict[str, Any]:
    """Games and steps per second of one batch of `games` random games (after a warm-up)."""
    simulate = batched_simulator(name)
    if simulate is None:
        raise ValueError(f"{name} has no batched simulator")
    game = spielwerk.load(name)
    simulate(game, players, 64, np.random.default_rng(1))  # warm-up: imports, allocation
    start = time.perf_counter()
    result = simulate(game, players, games, np.random.default_rng(0))
    elapsed = time.perf_counter() - start
    return {
        "players": players,
        "games": games,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "steps_per_s": float(result.steps.sum()) / elapsed,
    }
