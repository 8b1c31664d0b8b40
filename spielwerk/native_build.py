"""Build the compiled rules (`spielwerk.native`) in place with mypyc.

    SPIELWERK_PURE_PYTHON=1 python -m spielwerk.native_build  # build (`make install` runs it)
    python -m spielwerk.native_build --status  # what runs now: compiled or source, and why

It needs mypy (the dev extra), setuptools and a C compiler; some 40 s. SPIELWERK_PURE_PYTHON
keeps this process itself on the source (a stale build would only warn).
"""

from __future__ import annotations

import argparse
import os
from collections.abc import Sequence

from spielwerk import native


def build(jobs: int = 2) -> None:
    """Compile `COMPILED` in place with mypyc (needs mypy, setuptools and a C compiler)."""
    from mypyc.build import mypycify
    from setuptools import Distribution  # type: ignore[import-untyped]
    from setuptools.command.build_ext import build_ext  # type: ignore[import-untyped]

    root = os.path.dirname(native.PACKAGE_DIR)
    previous = os.getcwd()
    os.chdir(root)  # mypyc reads the mypy settings of pyproject.toml and writes build/ here
    try:
        sources = [os.path.relpath(native.paths(m)[0], root) for m in native.COMPILED]
        extensions = mypycify(
            sources, opt_level="3", group_name=native.GROUP, target_dir="build/mypyc"
        )
        # A bare Distribution: setup() would also read pyproject.toml's packaging metadata.
        command = build_ext(Distribution({"ext_modules": extensions}))
        command.inplace = True
        command.parallel = jobs
        command.force = True  # its up-to-date test misses changes to the generated C
        command.build_temp = os.path.join("build", "mypyc-temp")
        command.ensure_finalized()
        # This process may have the old build loaded: unlink it (the mapping keeps its inode)
        # rather than let the copy overwrite a file in use.
        for old in [native.group_library(), *(native.paths(m)[1] for m in native.COMPILED)]:
            if os.path.exists(old):
                os.unlink(old)
        command.run()
    finally:
        os.chdir(previous)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m spielwerk.native_build", description=__doc__)
    parser.add_argument("--status", action="store_true", help="say what runs; build nothing")
    args = parser.parse_args(argv)
    if args.status:
        print(native.why_source() or "compiled rules in use: " + ", ".join(native.COMPILED))
        return
    build()
    problem = native.why_source(heed_environment=False)
    print(problem or "compiled rules built: " + ", ".join(native.COMPILED))


if __name__ == "__main__":
    main()
