"""Small compiled helpers every kernel shares: bit tricks on 64-bit card masks and random
numbers (needs Numba: import only where `spielwerk.core.kernel.available()`)."""

from __future__ import annotations

import numpy as np

from spielwerk.core.kernel import kernel


@kernel
def popcount(x: int) -> int:
    """Set bits of a non-negative 64-bit mask."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return ((x * 0x0101010101010101) >> 56) & 0xFF  # int64 wraps: keep the top byte


@kernel
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask."""
    return popcount((x & -x) - 1)


@kernel
def nth_bit(x: int, n: int) -> int:
    """Index of the `n`-th (from 0) set bit of the mask, lowest first."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)


@kernel
def seed(value: int) -> None:
    """Seed the random numbers of every kernel (Numba keeps one generator per thread, shared by
    all compiled functions)."""
    np.random.seed(value)


@kernel
def uniform(rng: np.ndarray) -> float:
    """A uniform float in [0, 1) from a private generator whose state is `rng[0]` (uint64,
    splitmix64): environments keep one each, so their games do not depend on each other."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return float(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def generator(seed: int) -> np.ndarray:
    """The state of a private generator for `uniform`, from a seed."""
    return np.array([seed % 2**64], dtype=np.uint64)
