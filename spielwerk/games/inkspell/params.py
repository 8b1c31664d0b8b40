"""All constants of Tintenblut in one place, read from `data.toml`.

Components are small ints: tile kinds 0..3 (Mut, Stärke, Klugheit, Ehre), locations 0..8 in the
data file's order (location card 9 is Die Tintenwelt), villain cards 0..14 and advantage card
*types* 0..10 (the 27 advantage cards are that many copies of 11 types; copies are alike).
Road distances between locations are precomputed.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass
from itertools import combinations

from spielwerk.core.data import read_toml

PROVISION = "P"
ADVANTAGE = "V"

Reward = tuple[tuple[str, int], ...]
"""One reward row: (what, amount) entries; what is a tile key, "P" or "V"."""


@dataclass(frozen=True, slots=True)
class InkspellParams:
    min_players: int
    max_players: int
    start_player: int
    start_provisions: int
    max_rounds: int
    # supply
    tile_keys: tuple[str, ...]
    tile_names: tuple[str, ...]
    tile_counts: tuple[int, ...]
    provisions: int
    # map
    location_keys: tuple[str, ...]
    location_names: tuple[str, ...]
    location_groups: tuple[str, ...]
    solo: tuple[Reward, ...]
    shared: tuple[Reward, ...]
    neighbours: tuple[tuple[int, ...], ...]
    """Road neighbours of each location (figures and Staubfinger)."""
    secret_neighbours: tuple[tuple[int, ...], ...]
    """Neighbours over the secret path (Staubfinger only)."""
    distance: tuple[tuple[int, ...], ...]
    """Shortest road distance between two locations (the secret path excluded)."""
    staubfinger_start: int
    castles: frozenset[int]
    lonely_villain_location: int
    tintenwelt_key: str
    tintenwelt_name: str
    location_numbers: tuple[tuple[int, ...], ...]
    """Villain number of location card c (0..8 locations, 9 Die Tintenwelt) of seat p."""
    # villain cards
    villain_keys: tuple[str, ...]
    villain_names: tuple[str, ...]
    villain_tiers: tuple[int, ...]
    villain_values: tuple[int, ...]
    natternkopf: frozenset[int]
    # advantage cards
    advantage_keys: tuple[str, ...]
    advantage_names: tuple[str, ...]
    advantage_counts: tuple[int, ...]
    advantage_effects: tuple[str, ...]
    advantage_points: tuple[int, ...]
    nessel_amount: int
    # track
    track_length: int
    white_women_space: int
    end_trigger: int
    special_spaces: tuple[tuple[int, frozenset[int]], ...]
    """(space on the loop, the locations that allow entering or crossing it)."""
    conversion_steps: tuple[tuple[int, int], ...]
    """(set size, steps) for the allowed set sizes."""
    exchange_rate: int
    speckfuerst_castle_rate: int

    @property
    def num_kinds(self) -> int:
        return len(self.tile_keys)

    @property
    def num_locations(self) -> int:
        return len(self.location_keys)

    @property
    def tintenwelt(self) -> int:
        """The location card index of Die Tintenwelt (after the nine locations)."""
        return len(self.location_keys)

    @property
    def num_location_cards(self) -> int:
        return len(self.location_keys) + 1

    @property
    def num_villains(self) -> int:
        return len(self.villain_keys)

    @property
    def num_advantage_types(self) -> int:
        return len(self.advantage_keys)

    def location_card_key(self, card: int) -> str:
        return self.tintenwelt_key if card == self.tintenwelt else self.location_keys[card]

    def advantage_of(self, effect: str) -> int:
        """The advantage card type with this effect (each effect but "none" has one type)."""
        return self.advantage_effects.index(effect)

    def villain_label(self, villain: int) -> str:
        """Name with tier and value: "Natternkopf (II, 3)"."""
        tier = "I" * self.villain_tiers[villain]
        return f"{self.villain_names[villain]} ({tier}, {self.villain_values[villain]})"

    def kinds_key(self, kinds: tuple[int, ...]) -> str:
        """Tile kinds as a short text: (0, 2) -> "MK"."""
        return "".join(self.tile_keys[k] for k in kinds)


def tile_sets(num_kinds: int, sizes: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    """Every set of different kinds of the given sizes, smallest sizes first."""
    return tuple(c for size in sizes for c in combinations(range(num_kinds), size))


def _distances(neighbours: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], ...]:
    table = []
    for start in range(len(neighbours)):
        dist = [-1] * len(neighbours)
        dist[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in neighbours[here]:
                if dist[nxt] < 0:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        if min(dist) < 0:
            raise ValueError("the road map must connect every location")
        table.append(tuple(dist))
    return tuple(table)


def _reward(entries: list[list[object]], allowed: set[str]) -> Reward:
    row = tuple((str(what), int(str(amount))) for what, amount in entries)
    for what, _ in row:
        if what not in allowed:
            raise ValueError(f"unknown reward {what!r}")
    return row


def _load() -> InkspellParams:
    data = read_toml(__package__)
    setup = data["setup"]
    tiles = data["tiles"]
    tile_keys = tuple(str(t["key"]) for t in tiles)
    locations = data["locations"]
    keys = tuple(str(loc["key"]) for loc in locations)
    index = {key: i for i, key in enumerate(keys)}
    allowed = {*tile_keys, PROVISION, ADVANTAGE}
    roads: list[set[int]] = [set() for _ in keys]
    for a, b in data["map"]["roads"]:
        roads[index[a]].add(index[b])
        roads[index[b]].add(index[a])
    secret: list[set[int]] = [set() for _ in keys]
    a, b = data["map"]["secret_path"]
    secret[index[a]].add(index[b])
    secret[index[b]].add(index[a])
    neighbours = tuple(tuple(sorted(n)) for n in roads)
    groups = tuple(str(loc["group"]) for loc in locations)
    castle_group = str(data["map"]["castle_group"])
    numbers = tuple(
        tuple(int(n) for n in data["location_numbers"][f"seat{p}"])
        for p in range(int(setup["max_players"]))
    )
    flat = [n for row in numbers for n in row]
    if len(set(flat)) != len(flat) or any(len(row) != len(keys) + 1 for row in numbers):
        raise ValueError("every seat needs one distinct villain number per location card")
    villains = data["villains"]
    advantages = data["advantages"]
    effects = tuple(str(a["effect"]) for a in advantages)
    active = [e for e in effects if e != "none"]
    if len(set(active)) != len(active):
        raise ValueError("each advantage effect belongs to exactly one card type")
    track = data["track"]
    special = tuple(
        (
            int(s["space"]),
            frozenset(i for i, g in enumerate(groups) if g == str(s["group"])),
        )
        for s in track["special"]
    )
    steps = tuple(sorted((int(k), int(v)) for k, v in data["conversion"]["steps"].items()))
    nessel = next(a for a in advantages if a["effect"] == "provisions")
    return InkspellParams(
        min_players=int(setup["min_players"]),
        max_players=int(setup["max_players"]),
        start_player=int(setup["start_player"]),
        start_provisions=int(setup["start_provisions"]),
        max_rounds=int(setup["max_rounds"]),
        tile_keys=tile_keys,
        tile_names=tuple(str(t["name"]) for t in tiles),
        tile_counts=tuple(int(t["count"]) for t in tiles),
        provisions=int(data["supply"]["provisions"]),
        location_keys=keys,
        location_names=tuple(str(loc["name"]) for loc in locations),
        location_groups=groups,
        solo=tuple(_reward(loc["solo"], allowed) for loc in locations),
        shared=tuple(_reward(loc["shared"], allowed) for loc in locations),
        neighbours=neighbours,
        secret_neighbours=tuple(tuple(sorted(n)) for n in secret),
        distance=_distances(neighbours),
        staubfinger_start=index[str(data["map"]["staubfinger_start"])],
        castles=frozenset(i for i, g in enumerate(groups) if g == castle_group),
        lonely_villain_location=index[str(data["map"]["lonely_villain_location"])],
        tintenwelt_key=str(data["map"]["tintenwelt"]),
        tintenwelt_name=str(data["map"]["tintenwelt_name"]),
        location_numbers=numbers,
        villain_keys=tuple(str(v["key"]) for v in villains),
        villain_names=tuple(str(v["name"]) for v in villains),
        villain_tiers=tuple(int(v["tier"]) for v in villains),
        villain_values=tuple(int(v["value"]) for v in villains),
        natternkopf=frozenset(i for i, v in enumerate(villains) if v.get("natternkopf", False)),
        advantage_keys=tuple(str(a["key"]) for a in advantages),
        advantage_names=tuple(str(a["name"]) for a in advantages),
        advantage_counts=tuple(int(a["count"]) for a in advantages),
        advantage_effects=effects,
        advantage_points=tuple(int(a["points"]) for a in advantages),
        nessel_amount=int(nessel["amount"]),
        track_length=int(track["length"]),
        white_women_space=int(track["white_women"]),
        end_trigger=int(track["end_trigger"]),
        special_spaces=special,
        conversion_steps=steps,
        exchange_rate=int(data["exchange"]["rate"]),
        speckfuerst_castle_rate=int(data["exchange"]["speckfuerst_castle_rate"]),
    )


PARAMS = _load()
"""Read once when the game package is imported; immutable."""
