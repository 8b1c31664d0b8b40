"""`mypyc_attr`, the mark of a class that the compiled rules (spielwerk.native) leave open to
Python subclasses, without importing mypy_extensions at run time.

mypyc reads the decorator while it type-checks (where TYPE_CHECKING holds and the name is
mypy_extensions' own); a running program, compiled or not, only needs it to do nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from mypy_extensions import mypyc_attr as mypyc_attr
else:

    def mypyc_attr(*_flags: object, **_settings: object) -> object:
        return lambda cls: cls
