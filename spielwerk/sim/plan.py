"""Which games a simulation plays: deals, seat rotations and option variants.

A *deal* is a game seed. Each deal is played once per rotation of the line-up through the seats
(entry e sits in seat (e + rotation) mod n), so every agent meets the same deals from every seat
and seat and luck effects cancel. Variants (`--vary`) replay the same deals with other option
values, so their comparison is paired too. Everything a game needs is in its GameSpec, so a
result depends on the spec alone: the same on one core, many, or a Ray cluster.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from spielwerk.agents import make_agent
from spielwerk.core.errors import OptionError
from spielwerk.sim.variants import load_variant


@dataclass(frozen=True, slots=True)
class Variant:
    """One combination of option values; `label` names what differs (empty without --vary)."""

    label: str
    options: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class GameSpec:
    """One game of a simulation, complete enough to be played anywhere."""

    index: int
    game: str
    variant: Variant
    lineup: tuple[str, ...]
    deal: int
    seed: int
    rotation: int

    def entry_at(self, seat: int) -> int:
        """The line-up entry sitting in `seat`."""
        return (seat - self.rotation) % len(self.lineup)

    def agent_seed(self, seat: int) -> int:
        return (self.seed * 1009 + self.rotation) * 31 + seat


def parse_vary(items: Sequence[str]) -> list[tuple[str, list[str]]]:
    """`key=v1,v2` strings into (key, values); several keys give every combination."""
    varied: list[tuple[str, list[str]]] = []
    for item in items:
        key, sep, values = item.partition("=")
        key = key.strip()
        choices = [value.strip() for value in values.split(",")]
        if not sep or not key or not all(choices):
            raise OptionError(f"bad --vary {item!r}: write it as key=value1,value2")
        if any(key == other for other, _ in varied):
            raise OptionError(f"--vary names {key!r} twice")
        if len(set(choices)) != len(choices):
            raise OptionError(f"--vary {key} repeats a value")
        varied.append((key, choices))
    return varied


def make_variants(
    game: str, options: Mapping[str, str], varied: Sequence[tuple[str, Sequence[str]]]
) -> list[Variant]:
    """Every combination of the varied values on top of the fixed options, each validated."""
    for key, _ in varied:
        if key in options:
            raise OptionError(f"option {key!r} is both fixed (--option) and varied (--vary)")
    variants = []
    for combination in itertools.product(*(values for _, values in varied)):
        chosen = dict(zip((key for key, _ in varied), combination, strict=True))
        load_variant(game, **options, **chosen)  # an unknown option or bad value fails here
        label = ", ".join(f"{key}={value}" for key, value in chosen.items())
        variants.append(Variant(label, tuple(sorted({**options, **chosen}.items()))))
    return variants


def plan_games(
    game: str,
    lineup: Sequence[str],
    games: int,
    seed: int = 0,
    options: Mapping[str, str] | None = None,
    vary: Sequence[tuple[str, Sequence[str]]] = (),
) -> list[GameSpec]:
    """The games of a simulation: `games` per variant, rounded up to whole deals (a deal is
    played once per seat rotation)."""
    if games < 1:
        raise OptionError(f"--games must be at least 1, not {games}")
    variants = make_variants(game, dict(options or {}), vary)
    players = len(lineup)
    for variant in variants:  # player-count checks that depend on the options
        load_variant(game, **dict(variant.options)).new_state(players, seed=seed)
    for spec in lineup:
        make_agent(spec, game, seed=0)
    deals = math.ceil(games / players)
    specs: list[GameSpec] = []
    for variant in variants:
        for deal in range(deals):
            for rotation in range(players):
                specs.append(
                    GameSpec(len(specs), game, variant, tuple(lineup), deal, seed + deal, rotation)
                )
    return specs
