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

Nothing is compiled at install time: each game's kernels are compiled the first time a
process asks for them (`first_use`), with a line on stderr saying so, and loaded from the cache
by every later process. Two processes that need the same game at once compile it once: the
second waits for the first's lock and then loads its files.

Without Numba, `available()` is False and importing a kernel module raises ImportError: every
caller falls back to the pure Python engine, which stays the reference.
"""

from __future__ import annotations

import ast
import fcntl
import hashlib
import importlib.util
import os
import sys
import time
from collections.abc import Callable
from functools import cache
from pathlib import Path
from types import FunctionType, ModuleType
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
def cache_dir(modules: frozenset[str]) -> Path:
    """Where the compiled kernels that read `modules` (a function's own module, and for a
    closure the modules of what it closes over: `closure_modules`) are cached: one directory
    per version of everything they depend on (`dependencies`) and of the compiler."""
    import llvmlite  # type: ignore[import-untyped] # no stubs
    import numba

    files = sorted({path for module in modules for path in dependencies(module)})
    digest = hashlib.sha256(f"numba {numba.__version__} llvmlite {llvmlite.__version__}".encode())
    for path in files:
        digest.update(
            str(path.relative_to(PACKAGE) if path.is_relative_to(PACKAGE) else path).encode()
        )
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return cache_root() / f"numba-{digest.hexdigest()[:16]}"


_warmed: set[Path] = set()
"""The markers of `first_use` this process has passed or is passing (a warm-up that builds
kernels of its own game again must not wait for its own lock)."""


def first_use(key: str, modules: frozenset[str], what: str, warm_up: Callable[[], object]) -> None:
    """Before `modules`' kernels first run: compile them by `warm_up` (which calls each once)
    unless the cache already holds them, saying so on stderr; `what` names them for a reader
    ("the kernel of Die Holde Isolde"). A marker file beside the cache directory of `modules`
    (`cache_dir`, so any edit they depend on asks again) records that `key`'s warm-up ran; a
    file lock makes a second process that asks meanwhile wait and then load what the first
    compiled."""
    directory = cache_dir(modules)
    marker = directory / f"warmed-{key}"
    if marker in _warmed:
        return
    _warmed.add(marker)
    if marker.exists():
        return
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / f"warmed-{key}.lock", "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # released when the file is closed
        if marker.exists():  # another process compiled them while this one waited
            return
        print(
            f"spielwerk: compiling {what} (once: later runs read it from {cache_root()})",
            file=sys.stderr,
            flush=True,
        )
        start = time.perf_counter()
        warm_up()
        marker.touch()
        print(
            f"spielwerk: {what} compiled in {time.perf_counter() - start:.0f} s",
            file=sys.stderr,
            flush=True,
        )


def kernel(fn: F) -> F:
    """`numba.njit(cache=True)` with the cache in the `cache_dir` of what the function reads
    (Numba's global cache setting is left as it was: only functions decorated here use that
    directory).

    `fn` may be a closure, made by a function that builds one game's version of a shared
    kernel (the harness of `spielwerk.core.kernel_game`, the compiled search): what it closes
    over, other kernels, modules and plain numbers, is part of its code. Numba keys a closure's
    cache on a pickle of those values, which names each kernel by an identifier drawn afresh in
    every process, so its cache would never be found again; here the key names them by module
    and qualified name instead (`describe`), and every such closure gets files of its own."""
    return _compiled(fn, {})


def inline_kernel(fn: F) -> F:
    """`kernel` for the small steps of a hot loop: compiled into each caller (Numba inlines it
    at its own IR level, `inline="always"`), so a call costs nothing and passes no arrays
    through a call boundary; called from Python it works like any kernel."""
    return _compiled(fn, {"inline": "always"})


def closure_modules(fn: Callable[..., Any]) -> frozenset[str]:
    """The modules whose code and constants a function's compiled code can hold: its own, and
    for a closure those of the kernels, functions and modules it closes over, transitively."""
    modules = {fn.__module__}
    for value in _cell_values(fn):
        for part in value if isinstance(value, tuple) else (value,):
            if isinstance(part, ModuleType):
                modules.add(part.__name__)
            elif (function := _python_function(part)) is not None:
                modules |= closure_modules(function)
    return frozenset(modules)


def _python_function(value: object) -> FunctionType | None:
    """The Python function of a kernel (Numba's dispatcher) or a plain function, else None."""
    function = getattr(value, "py_func", value)
    return function if isinstance(function, FunctionType) else None


def describe(value: object) -> str:
    """A closure's captured value as its cache key sees it: the same text in every process
    for the same code (a kernel or function by module, qualified name and what it captures
    itself; a module by name; numbers, text and arrays by value). TypeError for anything else,
    which could not be keyed faithfully."""
    if isinstance(value, ModuleType):
        return f"module {value.__name__}"
    if isinstance(value, bool | int | float | str | None):
        return repr(value)
    if isinstance(value, tuple):
        return "(" + ", ".join(describe(part) for part in value) + ")"
    if type(value).__name__ == "ndarray" and type(value).__module__ == "numpy":
        import numpy as np

        data = hashlib.sha256(np.ascontiguousarray(value).tobytes()).hexdigest()
        return f"array {value.dtype} {value.shape} {data}"  # type: ignore[attr-defined]
    fn = _python_function(value)
    if fn is not None:
        inner = ", ".join(f"{name}={describe(cell)}" for name, cell in _cells(fn))
        kind = "kernel" if hasattr(value, "py_func") else "function"
        return f"{kind} {fn.__module__}.{fn.__qualname__}({inner})"
    raise TypeError(f"a kernel cannot close over {value!r}: it has no stable description")


def _cells(fn: Callable[..., Any]) -> list[tuple[str, object]]:
    closure = getattr(fn, "__closure__", None) or ()
    names = fn.__code__.co_freevars
    return [(name, cell.cell_contents) for name, cell in zip(names, closure, strict=True)]


def _cell_values(fn: Callable[..., Any]) -> list[object]:
    return [value for _, value in _cells(fn)]


def _compiled(fn: F, options: dict[str, Any]) -> F:
    import numba
    from numba.core import config

    if source_file(fn.__module__) is None:
        raise ValueError(f"a kernel must live in a module with a source file, not {fn.__module__}")
    closure = fn.__closure__ is not None
    previous = getattr(config, "CACHE_DIR")  # noqa: B009 - untyped module attribute
    setattr(config, "CACHE_DIR", str(cache_dir(closure_modules(fn))))  # noqa: B010
    try:
        compiled: Any = numba.njit(cache=not closure, nogil=True, **options)(fn)
        if closure:
            compiled._cache = _closure_cache(fn)
    finally:
        setattr(config, "CACHE_DIR", previous)  # noqa: B010
    return cast(F, compiled)


def _closure_cache(fn: Callable[..., Any]) -> Any:
    """Numba's cache of one function, for a closure: keyed on `describe` of what it captures
    (not on Numba's pickle of it), in index and data files named after that key, so that the
    versions of one shared kernel for different games never share a file."""
    from numba.core.caching import FunctionCache, IndexDataCacheFile

    captured = ", ".join(f"{name}={describe(value)}" for name, value in _cells(fn)).encode()
    tag = hashlib.sha256(captured).hexdigest()

    class ClosureCache(FunctionCache):
        def __init__(self) -> None:
            super().__init__(fn)  # type: ignore[no-untyped-call]
            self._cache_file = IndexDataCacheFile(  # type: ignore[no-untyped-call]
                cache_path=self._cache_path,
                filename_base=f"{self._impl.filename_base}-{tag[:16]}",
                source_stamp=self._impl.locator.get_source_stamp(),
            )

        def _index_key(self, sig: Any, codegen: Any) -> Any:
            # The module by name too: code compiled where it ran as __main__ (or a process
            # pool's __mp_main__) names that module, which no other process can import.
            code = hashlib.sha256(fn.__code__.co_code).hexdigest()
            return (sig, codegen.magic_tuple(), (code, tag, fn.__module__, fn.__qualname__))

    return ClosureCache()
