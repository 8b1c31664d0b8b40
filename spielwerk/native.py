"""The rules' hot modules compiled by mypyc, and the guard that never runs a stale build.

mypyc compiles the same typed Python source that is the reference (nothing is written twice)
into C extensions placed beside it: `spielwerk/core/state.<abi>.so` next to `state.py`, plus
the group's shared library `spielwerk/_rules__mypyc.<abi>.so`. CPython imports an extension
before a source file of the same name, so a build left over from older source would run old
rules. `guard()`, called by `spielwerk/__init__.py` before any rule is imported, prevents that:
when a compiled module is older than its source, or `SPIELWERK_PURE_PYTHON` is set, every
module of the group is imported from its source instead (all or none: the compiled modules
refer to each other's classes directly). Without a build there is nothing to do.

The build is `python -m spielwerk.native_build` (`make install` runs it; it needs a C compiler).
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Sequence
    from types import ModuleType

COMPILED = (
    "spielwerk.core.state",
    "spielwerk.games.witches.state",
    "spielwerk.games.witches.actions",
    "spielwerk.games.inkheart_dice.state",
    "spielwerk.games.isolde.state",
    "spielwerk.games.inkspell.state",
    "spielwerk.games.tainted_grail.state",
)
"""The modules mypyc compiles: the State base class, every game's rules (its `state.py`) and
Witches' action layout, whose constants the public API's path reads (`docs/performance.md`,
"Compiled rules")."""
GROUP = "spielwerk._rules"
"""The group's shared library, which holds the code of every compiled module."""
PURE_VARIABLE = "SPIELWERK_PURE_PYTHON"

PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))
_SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]


def paths(module: str) -> tuple[str, str]:
    """The source file of a compiled module and its extension, beside it."""
    relative = os.path.join(*module.split(".")[1:])
    base = os.path.join(PACKAGE_DIR, relative)
    return base + ".py", base + _SUFFIX


def group_library() -> str:
    return os.path.join(PACKAGE_DIR, GROUP.split(".")[-1] + "__mypyc" + _SUFFIX)


def why_source(*, heed_environment: bool = True) -> str | None:
    """Why the compiled modules are not used (None when they are); without
    `heed_environment`, whether the build itself is usable."""
    if heed_environment and os.environ.get(PURE_VARIABLE):
        return f"{PURE_VARIABLE} is set"
    if not os.path.exists(group_library()):
        return "not built (python -m spielwerk.native_build builds them)"
    for module in COMPILED:
        source, extension = paths(module)
        try:
            if os.stat(extension).st_mtime < os.stat(source).st_mtime:
                return f"{os.path.relpath(extension, PACKAGE_DIR)} is older than its source"
        except FileNotFoundError:
            return f"{module} is not built"
    return None


class _SourceFinder:
    """Imports the compiled modules from their `.py` source, ahead of the extension finder (a
    meta path finder by its `find_spec`: importlib.abc would cost start-up milliseconds)."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        import importlib.util

        source, _ = paths(fullname)
        return importlib.util.spec_from_file_location(fullname, source)


_reason: str | None = "the guard has not run"


def guard() -> None:
    """Decide once, before any rule is imported, whether the compiled modules may run."""
    global _reason
    _reason = why_source()
    if _reason is None or any(isinstance(f, _SourceFinder) for f in sys.meta_path):
        return
    sys.meta_path.insert(0, _SourceFinder())
    if os.path.exists(group_library()) and not os.environ.get(PURE_VARIABLE):
        import warnings

        warnings.warn(
            f"spielwerk runs its rules from source: {_reason}; `make install` or "
            "`python -m spielwerk.native_build` rebuilds them",
            RuntimeWarning,
            stacklevel=2,
        )


def status() -> dict[str, object]:
    """Whether the compiled rules run, which modules, and otherwise why not (imports them all,
    so that the answer is what they run as, not what a build on disk would give)."""
    import importlib

    files = [importlib.import_module(m).__file__ or "" for m in COMPILED]
    compiled = _reason is None and all(f.endswith(_SUFFIX) for f in files)
    return {"compiled": compiled, "modules": list(COMPILED), "reason": _reason}
