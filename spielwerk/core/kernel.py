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
    return _compiled(fn, {})


def inline_kernel(fn: F) -> F:
    """`kernel` for the small steps of a hot loop: compiled into each caller (Numba inlines it
    at its own IR level, `inline="always"`), so a call costs nothing and passes no arrays
    through a call boundary; called from Python it works like any kernel."""
    return _compiled(fn, {"inline": "always"})


def _compiled(fn: F, options: dict[str, Any]) -> F:
    import numba
    from numba.core import config

    previous = getattr(config, "CACHE_DIR")  # noqa: B009 - untyped module attribute
    setattr(config, "CACHE_DIR", str(cache_dir()))  # noqa: B010
    try:
        compiled: Any = numba.njit(cache=True, nogil=True, **options)(fn)
    finally:
        setattr(config, "CACHE_DIR", previous)  # noqa: B010
    return cast(F, compiled)
