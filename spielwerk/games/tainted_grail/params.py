"""The engine constants of Tainted Grail's day cycle, read from `data.toml`.

Everything a scenario describes (map, menhirs, events, characters, ...) lives in the scenario
files (`scenario.py` reads them); what is left here are the numbers of the rules themselves.
"""

from __future__ import annotations

from dataclasses import dataclass

from spielwerk.core.data import read_toml

DIRECTIONS = ("N", "E", "S", "W")
"""Compass directions on the grid; y grows to the south."""
STEP = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}
STAY = "stay"
GUARDIAN_FACES = (*DIRECTIONS, STAY)
"""Every face a guardian die may show."""
FACE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}
"""A direction face in words (the log and the action texts speak in sentences)."""


@dataclass(frozen=True, slots=True)
class GrailParams:
    min_players: int
    max_players: int
    explore_cost: int
    travel_cost: int
    default_max_energy: int
    food_eaten: int
    rest_health: int
    rest_terror: int
    hungry_energy: int
    starving_health: int
    wyrdness_terror: int
    default_menhir_dial: tuple[int, ...]
    test_die_faces: int
    guardian_die: tuple[str, ...]
    win_bonus: int


def _load() -> GrailParams:
    data = read_toml(__package__)
    rest = data["rest"]
    die = tuple(str(face) for face in data["dice"]["guardian_die"])
    if any(face not in GUARDIAN_FACES for face in die):
        raise ValueError(f"guardian die faces must be among {GUARDIAN_FACES}")
    return GrailParams(
        min_players=int(data["players"]["min"]),
        max_players=int(data["players"]["max"]),
        explore_cost=int(data["costs"]["explore"]),
        travel_cost=int(data["costs"]["travel"]),
        default_max_energy=int(data["characters"]["default_max_energy"]),
        food_eaten=int(rest["food_eaten"]),
        rest_health=int(rest["health_gained"]),
        rest_terror=int(rest["terror_lost"]),
        hungry_energy=int(rest["hungry_energy"]),
        starving_health=int(rest["starving_health"]),
        wyrdness_terror=int(data["wyrdness"]["terror_per_dawn"]),
        default_menhir_dial=tuple(int(v) for v in data["menhirs"]["default_dial"]),
        test_die_faces=int(data["dice"]["test_die_faces"]),
        guardian_die=die,
        win_bonus=int(data["score"]["win_bonus"]),
    )


PARAMS = _load()
"""Read once when the game package is imported; immutable."""
