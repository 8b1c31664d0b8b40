"""The batched simulators (the compiled kernels): which games have one, and playing a plan
with them.

`spielwerk simulate` uses a game's batched simulator when every seat is `random` and the backend
is local: thousands of games stepped together instead of one at a time. The games are drawn from
one NumPy generator per block of deals, seeded by the run's seed and the block, so results
depend on the seed alone (not on `--jobs`); the rotations of a deal are separate random games
(with every seat random, the seating changes nothing), and a row's `seed` names its plan entry
rather than a scalar replay.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from spielwerk.core.batch import BatchResult
from spielwerk.core.registry import load
from spielwerk.sim.plan import GameSpec
from spielwerk.sim.runner import GameRow, Progress

BatchedSimulator = Callable[..., BatchResult]
BLOCK = 8192
"""Games per batch at most: large enough to amortise NumPy's per-call cost."""
FIRST_BLOCK = 256


def batched_simulator(name: str) -> BatchedSimulator | None:
    """`play_random_batch` of game `name`'s compiled kernel, or None where it has none or
    Numba is missing (the scalar engine then plays every game)."""
    from spielwerk.games.kernels import has_kernel, kernel_rules

    return kernel_rules(name).play_random_batch if has_kernel(name) else None


def warm_up(name: str) -> None:
    """Play one batched game of `name`: a compiled simulator loads (or compiles) its code now."""
    simulate = batched_simulator(name)
    if simulate is not None:
        game = load(name)
        simulate(game, game.min_players, 1, np.random.default_rng(0))


def can_batch(lineup: Sequence[str], backend: str, name: str) -> bool:
    return (
        backend == "local" and all(s == "random" for s in lineup) and bool(batched_simulator(name))
    )


def blocks(games: int) -> list[tuple[int, int]]:
    """(start, stop) of each batch: 256 games first, doubling up to BLOCK, so that the first
    games finish (and Ctrl-C keeps some) within moments even on a busy machine."""
    out = []
    start, size = 0, FIRST_BLOCK
    while start < games:
        out.append((start, min(games, start + size)))
        start += size
        size = min(BLOCK, size * 2)
    return out


def run_batched(
    specs: Sequence[GameSpec], seed: int, progress: Progress | None = None
) -> tuple[list[GameRow], bool]:
    """Play every spec with the batched simulator, block by block (Ctrl-C keeps whole blocks)."""
    rows: list[GameRow] = []
    by_variant: dict[Any, list[GameSpec]] = {}
    for spec in specs:
        by_variant.setdefault(spec.variant, []).append(spec)
    try:
        for variant_index, (variant, group) in enumerate(by_variant.items()):
            game = load(group[0].game, **dict(variant.options))
            simulate = batched_simulator(game.name)
            assert simulate is not None
            players = len(group[0].lineup)
            for block, (start, stop) in enumerate(blocks(len(group))):
                chunk = group[start:stop]
                rng = np.random.default_rng([seed, variant_index, block])
                result = simulate(game, players, len(chunk), rng)
                rows.extend(_rows(chunk, result))
                if progress is not None:
                    progress(len(chunk))
    except KeyboardInterrupt:
        return rows, True
    return rows, False


def _rows(specs: Sequence[GameSpec], result: BatchResult) -> list[GameRow]:
    best = result.scores.max(axis=1, keepdims=True)
    winners = result.scores == best
    shares = winners / winners.sum(axis=1, keepdims=True)
    return [
        GameRow(
            spec=spec,
            scores=tuple(float(s) for s in result.scores[i]),
            win_shares=tuple(float(s) for s in shares[i]),
            decisions=int(result.decisions[i]),
            steps=int(result.steps[i]),
            cooperative=False,
        )
        for i, spec in enumerate(specs)
    ]
