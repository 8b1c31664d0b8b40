"""Compiled kernels (Numba, the `kernels` extra): the decorator every kernel function uses, and
the small bit tricks they share.

Kernels are compiled once and cached on disk (`cache=True`). Numba's own cache checks only the
source file of the function itself, so a kernel that calls a kernel in another file would keep
running stale machine code after that other file changed. The cache therefore lives in a
directory named after a hash of every kernel source file (all files named `*kernel*.py` in the
package) and of the Numba version: a change anywhere gives a fresh directory. It is
`$SPIELWERK_CACHE_DIR` if set, else `$XDG_CACHE_HOME/spielwerk` or `~/.cache/spielwerk`
(writable from a fresh clone, an installed package and parallel test workers alike: Numba
writes each cache file atomically).

Without Numba, `available()` is False and importing a kernel module raises ImportError: every
caller falls back to the pure Python engine, which stays the reference.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

F = TypeVar("F", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parent.parent


def available() -> bool:
    """Whether Numba is installed (`pip install 'spielwerk[kernels]'`)."""
    return importlib.util.find_spec("numba") is not None


@cache
def cache_dir() -> Path:
    """Where compiled kernels are cached: one directory per version of the kernel sources."""
    import numba

    digest = hashlib.sha256(numba.__version__.encode())
    for path in sorted(PACKAGE.rglob("*kernel*.py")):
        digest.update(str(path.relative_to(PACKAGE)).encode())
        digest.update(path.read_bytes())
    root = os.environ.get("SPIELWERK_CACHE_DIR")
    if root:
        base = Path(root)
    else:
        xdg = os.environ.get("XDG_CACHE_HOME")
        base = (Path(xdg) if xdg else Path.home() / ".cache") / "spielwerk"
    return base / f"numba-{digest.hexdigest()[:16]}"


def kernel(fn: F) -> F:
    """`numba.njit(cache=True)` with the cache in `cache_dir()` (Numba's global cache setting is
    left as it was: only functions decorated here use that directory)."""
    import numba
    from numba.core import config

    previous = getattr(config, "CACHE_DIR")  # noqa: B009 - untyped module attribute
    setattr(config, "CACHE_DIR", str(cache_dir()))  # noqa: B010
    try:
        compiled: Any = numba.njit(cache=True, nogil=True)(fn)
    finally:
        setattr(config, "CACHE_DIR", previous)  # noqa: B010
    return cast(F, compiled)


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
