"""Component data: the TOML file inside a game's package, read when the game is imported.

Read through the package's own loader (what `importlib.resources` and `pkgutil.get_data` do
too, so a zipped package works), without importing `importlib.resources`: that import alone
costs more than the rest of a game's start-up.
"""

from __future__ import annotations

import os
import sys
import tomllib
from typing import Any


def read_toml(package: str, name: str = "data.toml") -> dict[str, Any]:
    """The TOML file `name` beside the modules of `package` (an imported package), parsed."""
    module = sys.modules[package]
    loader: Any = module.__spec__.loader if module.__spec__ else None
    if module.__file__ is None or not hasattr(loader, "get_data"):
        raise FileNotFoundError(f"{package} has no files to read {name} from")
    path = os.path.join(os.path.dirname(module.__file__), name)
    text: bytes = loader.get_data(path)
    return tomllib.loads(text.decode("utf-8"))
