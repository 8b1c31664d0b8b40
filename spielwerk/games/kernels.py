"""The games with a compiled kernel (Numba, the `kernels` extra), one registration line each:
the game's name and where its `KernelRules` is (`spielwerk.core.kernel_game`), which the
harness, the compiled search and the vector environment are built from. Imported only when a
kernel is asked for."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from spielwerk.core.kernel import available, first_use
from spielwerk.core.registry import import_object, load

if TYPE_CHECKING:
    from spielwerk.core.kernel_game import KernelRules

KERNELS: dict[str, str] = {
    "witches": "spielwerk.games.witches.kernel:RULES",
    "inkheart_dice": "spielwerk.games.inkheart_dice.kernel:RULES",
    "isolde": "spielwerk.games.isolde.kernel_hidden:RULES",
    "inkspell": "spielwerk.games.inkspell.kernel:RULES",
}
"""Game name -> "module:RULES" of its kernel (Isolde's is beside its determinization)."""


def has_kernel(name: str) -> bool:
    """Whether game `name` has a kernel and Numba is installed to run it."""
    return name in KERNELS and available()


def kernel_rules(name: str) -> KernelRules:
    """The kernel of game `name` (ValueError if it has none; ImportError without Numba),
    compiled at its first use in this installation (`spielwerk.core.kernel.first_use`)."""
    path = KERNELS.get(name)
    if path is None:
        raise ValueError(f"{name} has no compiled kernel (games with one: {', '.join(KERNELS)})")
    rules = cast("KernelRules", import_object(path))
    game = load(name)
    modules = frozenset({path.partition(":")[0], "spielwerk.core.kernel_game"})

    def warm_up() -> None:
        import numpy as np

        rules.play_random_batch(game, game.min_players, 2, np.random.default_rng(0))

    first_use(f"rules-{name}", modules, f"the kernel of {game.title}", warm_up)
    return rules
