"""The shared kernel helpers (`spielwerk.core.kernel_ops`)."""

from __future__ import annotations

import random

import pytest

ops = pytest.importorskip("spielwerk.core.kernel_ops", reason="needs numba")


def test_nth_bit_agrees_with_clearing_the_lowest_bits() -> None:
    """`nth_bit` (one `pdep` where the CPU has it) finds the same bit as the plain loop, on
    random masks of up to 63 bits and every `n` below their count."""
    rng = random.Random(0)
    for _ in range(300):
        mask = rng.getrandbits(rng.randrange(1, 64)) | 1
        for n in range(bin(mask).count("1")):
            expected = [i for i in range(64) if mask >> i & 1][n]
            assert ops.nth_bit(mask, n) == ops._nth_bit_loop(mask, n) == expected


def test_uniform_index_is_the_floor_of_the_uniform_draw_times_the_count() -> None:
    """`uniform_index` (integers only) picks `int(uniform * count)` of the same draw: two
    generators from one seed, one drawing indices and one floats, stay in step."""
    by_index = ops.generator(7)
    by_float = ops.generator(7)
    rng = random.Random(1)
    for _ in range(20_000):
        count = rng.randrange(1, 2**11)
        assert ops.uniform_index(by_index, count) == int(ops.uniform(by_float) * count)
    assert by_index[0] == by_float[0]
