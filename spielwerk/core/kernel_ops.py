"""Small compiled helpers every kernel shares: bit tricks on 64-bit card masks and random
numbers (needs Numba: import only where `spielwerk.core.kernel.available()`).

Every random number of a kernel comes from a generator state passed in explicitly (`uniform`,
splitmix64 in one uint64): a draw costs about a nanosecond and a half, where NumPy's global
generator inside Numba (`np.random.random()`) costs some nine, and two games or searches
never share a stream."""

from __future__ import annotations

from typing import Any

import numpy as np
from llvmlite import binding, ir  # type: ignore[import-untyped] # no stubs
from numba.core import config, types
from numba.cpython.unsafe.numbers import trailing_zeros
from numba.extending import intrinsic

from spielwerk.core.kernel import inline_kernel, kernel


@intrinsic
def _count_ones(typing_context: Any, x: Any) -> Any:
    """LLVM's `ctpop`: one `popcnt` instruction on CPUs that have it."""
    if not isinstance(x, types.Integer):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        return builder.ctpop(args[0])

    return x(x), codegen


@inline_kernel
def popcount(x: int) -> int:
    """Set bits of a non-negative 64-bit mask."""
    return _count_ones(x)  # type: ignore[call-arg] # typing context: given by Numba


@inline_kernel
def lowest_bit(x: int) -> int:
    """Index of the lowest set bit of a non-zero mask (`tzcnt`)."""
    return trailing_zeros(x)  # type: ignore[call-arg] # typing context: given by Numba


SLOW_PDEP_CPUS = ("bdver4", "znver1", "znver2")
"""AMD CPUs whose `pdep` is microcode taking up to some 300 cycles: the loop is faster there."""
HAS_PDEP = (
    getattr(config, "CPU_NAME") is None  # noqa: B009 - untyped attribute
    and bool(binding.get_host_cpu_features().get("bmi2"))
    and binding.get_host_cpu_name() not in SLOW_PDEP_CPUS
)
"""Whether kernels are compiled for this CPU and it has a fast BMI2 `pdep` (Intel since 2013,
AMD since Zen 3)."""


@intrinsic
def _deposit_bits(typing_context: Any, source: Any, mask: Any) -> Any:
    """LLVM's `pdep`: the low bits of `source` deposited, in order, at the set bits of `mask`."""
    if not (isinstance(source, types.Integer) and isinstance(mask, types.Integer)):
        return None

    def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
        word = ir.IntType(64)
        deposit = builder.module.declare_intrinsic(
            "llvm.x86.bmi.pdep.64", fnty=ir.FunctionType(word, [word, word])
        )
        return builder.call(deposit, [builder.sext(a, word) if a.type != word else a for a in args])

    return types.int64(source, mask), codegen


@inline_kernel
def _nth_bit_deposit(x: int, n: int) -> int:
    """Index of the `n`-th (from 0) set bit of the mask, lowest first (`pdep`, then `tzcnt`):
    no loop, so no branch missed on a random `n`."""
    return lowest_bit(_deposit_bits(1 << n, x))  # type: ignore[call-arg] # typing context: Numba


@inline_kernel
def _nth_bit_loop(x: int, n: int) -> int:
    """Index of the `n`-th (from 0) set bit of the mask, lowest first."""
    for _ in range(n):
        x &= x - 1
    return lowest_bit(x)


nth_bit = _nth_bit_deposit if HAS_PDEP else _nth_bit_loop
"""Index of the `n`-th (from 0) set bit of the mask, lowest first: one `pdep` where the CPU
has it (a random `n` makes the loop's exit a missed branch), else the loop."""


@inline_kernel
def _draw_bits(rng: np.ndarray) -> np.uint64:
    """The next 53 random bits of a private generator whose state is `rng[0]` (uint64,
    splitmix64): environments keep one each, so their games do not depend on each other."""
    rng[0] += np.uint64(0x9E3779B97F4A7C15)
    z = rng[0]
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z = z ^ (z >> np.uint64(31))
    return z >> np.uint64(11)


@inline_kernel
def uniform(rng: np.ndarray) -> float:
    """A uniform float in [0, 1) from the generator `rng` (`_draw_bits`)."""
    return float(_draw_bits(rng)) * (1.0 / 9007199254740992.0)


@inline_kernel
def uniform_index(rng: np.ndarray, count: int) -> int:
    """`int(uniform(rng) * count)` for a count below 2**11, from the same draw in integers
    (the draw's 53 bits times the count, the top bits kept): no conversion to and from a float,
    some 10% of Isolde's random play. The two agree unless the float product rounds up onto
    the next integer (the exact product a few units of 2**-53 below it): fewer than 2 * count
    of the 2**53 values of a draw, where this one is the exact floor."""
    return int((_draw_bits(rng) * np.uint64(count)) >> np.uint64(53))


SOFTMAX_FLOOR = -64.0
"""Logits this far below the best move's get probability 0 (e^-64 is nothing anyway)."""


@inline_kernel
def softmax_draw(ids: np.ndarray, odds: np.ndarray, count: int, rng: np.ndarray) -> int:
    """One of `ids[:count]` drawn from the softmax of the logits `odds[:count]` (overwritten),
    the learned rollout policies' draw. e^x is taken as (1 + x/64)^64: within 4% of it down to
    x = -3, below which moves are hardly chosen, six multiplications instead of a call to
    `exp`. A single move is returned without a draw from `rng`."""
    if count == 1:
        return int(ids[0])
    top = odds[0]
    for i in range(1, count):
        if odds[i] > top:
            top = odds[i]
    total = 0.0
    for i in range(count):
        y = 1.0 + (odds[i] - top) / -SOFTMAX_FLOOR
        if y < 0.0:
            y = 0.0
        y *= y
        y *= y
        y *= y
        y *= y
        y *= y
        y *= y
        odds[i] = y
        total += y
    u = uniform(rng) * total
    for i in range(count - 1):
        u -= odds[i]
        if u < 0.0:
            return int(ids[i])
    return int(ids[count - 1])


@kernel
def new_generator(seed: int) -> np.ndarray:
    """The state of a private generator for `uniform`, from a seed (in a kernel)."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed)
    return rng


def generator(seed: int) -> np.ndarray:
    """The state of a private generator for `uniform`, from a seed."""
    return np.array([seed % 2**64], dtype=np.uint64)
