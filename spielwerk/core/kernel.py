"""Compiled kernels (Numba, the `kernels` extra): the decorator every kernel function uses, and
where their compiled code is cached.

Kernels are compiled once and cached on disk (`cache=True`). Numba's own cache checks only the
source file of the function itself, but a kernel's machine code also holds whatever it read
elsewhere at compile time: the kernels it inlines or calls in other files, and constants that
other modules compute from the game's data file (a hand size from `data.toml`, a table from
`params.py`). A function's cache therefore lives in a directory named after a hash of
everything its code can depend on (`dependencies`): the source of its module and of every
spielwerk module that module imports, directly or through others (function-level imports and
the packages whose `__init__` runs included), the data files (`*.toml`) beside each of them,
and the versions of Numba and llvmlite. Editing any number in a game's `data.toml` gives that
game's kernels a fresh directory, and they are compiled again; other games keep theirs. The
directories sit in `$SPIELWERK_CACHE_DIR` if set, else `$XDG_CACHE_HOME/spielwerk` or
`~/.cache/spielwerk` (writable from a fresh clone, an installed package and parallel test
workers alike: Numba writes each cache file atomically).

Without Numba, `available()` is False and importing a kernel module raises ImportError: every
caller falls back to the pure Python engine, which stays the reference.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.util
import os
import sys
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any, TypeVar, cast

F = TypeVar("F", bound=Callable[..., Any])

PACKAGE = Path(__file__).resolve().parent.parent
ROOT = PACKAGE.name
"""The package's import name: only its own modules are followed."""


def available() -> bool:
    """Whether Numba is installed (`pip install 'spielwerk[kernels]'`)."""
    return importlib.util.find_spec("numba") is not None


def source_file(module: str) -> Path | None:
    """The source of a module or package (None if there is no such file). A spielwerk module's
    is read from the tree, not from `__file__`, which names the C extension of a module mypyc
    compiled; another module's (a test's own kernel) is its `__file__`, once imported."""
    if not _ours(module):
        loaded = sys.modules.get(module)
        path = Path(getattr(loaded, "__file__", None) or "-")
        return path if path.suffix == ".py" and path.is_file() else None
    base = PACKAGE.joinpath(*module.split(".")[1:])
    for path in (base / "__init__.py", base.with_suffix(".py")):
        if path.is_file():
            return path
    return None


def _ours(module: str) -> bool:
    return module == ROOT or module.startswith(ROOT + ".")


@cache
def imported_modules(module: str) -> frozenset[str]:
    """The spielwerk modules that running `module` imports itself: every `import` and `from
    ... import` in its source (in functions too), a name imported from a package counted as
    that package's module where it is one, and the packages above `module`, whose `__init__`
    runs first."""
    path = source_file(module)
    if path is None:
        return frozenset()
    parts = module.split(".")
    found = {".".join(parts[:i]) for i in range(1, len(parts))} if _ours(module) else set()
    for node in ast.walk(ast.parse(path.read_bytes())):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return frozenset(name for name in found if _ours(name) and source_file(name) is not None)


@cache
def dependencies(module: str) -> tuple[Path, ...]:
    """Every file the compiled code of `module`'s kernels can depend on: the sources of
    `module` and of all spielwerk modules it imports, transitively, and the data files
    (`*.toml`) in their directories; sorted."""
    seen: set[str] = set()
    todo = [module]
    while todo:
        name = todo.pop()
        if name not in seen:
            seen.add(name)
            todo.extend(imported_modules(name) - seen)
    files: set[Path] = set()
    for name in seen:
        path = source_file(name)
        if path is not None:
            files.add(path)
            files.update(path.parent.glob("*.toml"))
    return tuple(sorted(files))


def cache_root() -> Path:
    """The directory holding every cache directory of compiled kernels."""
    root = os.environ.get("SPIELWERK_CACHE_DIR")
    if root:
        return Path(root)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "spielwerk"


@cache
def cache_dir(module: str) -> Path:
    """Where the compiled kernels of `module` are cached: one directory per version of
    everything they depend on (`dependencies`) and of the compiler."""
    import llvmlite  # type: ignore[import-untyped] # no stubs
    import numba

    digest = hashlib.sha256(f"numba {numba.__version__} llvmlite {llvmlite.__version__}".encode())
    for path in dependencies(module):
        digest.update(
            str(path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path).encode()
        )
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return cache_root() / f"numba-{digest.hexdigest()[:16]}"


def kernel(fn: F) -> F:
    """`numba.njit(cache=True)` with the cache in `cache_dir` of the function's module
    (Numba's global cache setting is left as it was: only functions decorated here use that
    directory)."""
    return _compiled(fn, {})


def inline_kernel(fn: F) -> F:
    """`kernel` for the small steps of a hot loop: compiled into each caller (Numba inlines it
    at its own IR level, `inline="always"`), so a call costs nothing and passes no arrays
    through a call boundary; called from Python it works like any kernel."""
    return _compiled(fn, {"inline": "always"})


def _compiled(fn: F, options: dict[str, Any]) -> F:
    import numba
    from numba.core import config

    module = fn.__module__
    if source_file(module) is None:
        raise ValueError(f"a kernel must live in a module with a source file, not in {module}")
    previous = getattr(config, "CACHE_DIR")  # noqa: B009 - untyped module attribute
    setattr(config, "CACHE_DIR", str(cache_dir(module)))  # noqa: B010
    try:
        compiled: Any = numba.njit(cache=True, nogil=True, **options)(fn)
    finally:
        setattr(config, "CACHE_DIR", previous)  # noqa: B010
    return cast(F, compiled)
