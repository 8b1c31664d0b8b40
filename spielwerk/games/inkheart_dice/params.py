"""All constants of Tintenherz - Das Würfelspiel in one place, read from `data.toml`.

Cards are small ints: the positive cards first, by value (Darius +1 = 0 .. Zauberzunge +10 = 9),
then the negative ones by absolute value (Fulvio -1 = 10 .. Capricorn -6 = 15). A set of cards
matched by a roll is a bit mask, precomputed for all 36 rolls.
"""

from __future__ import annotations

from dataclasses import dataclass

from spielwerk.core.data import read_toml


@dataclass(frozen=True, slots=True)
class InkheartParams:
    names: tuple[str, ...]
    values: tuple[int, ...]
    hearts: tuple[int, ...]
    castle_hearts: int
    faces: int
    centre_size: int
    min_players: int
    max_players: int
    start_player: int
    max_turns: int
    match_masks: tuple[tuple[int, ...], ...]
    """`match_masks[a][b]`: bit `c` set if card `c` may be taken with the roll (a, b)."""

    @property
    def num_cards(self) -> int:
        return len(self.names)

    @property
    def num_positive(self) -> int:
        """Positive cards have ids 0 .. num_positive-1."""
        return sum(1 for v in self.values if v > 0)

    def card_name(self, card: int) -> str:
        return self.names[card]

    def card_from_name(self, name: str) -> int:
        return self.names.index(name)

    def label(self, card: int) -> str:
        """Name with value and hearts, as in the rulebook: "Capricorn (-6♥)"."""
        value = self.values[card]
        return f"{self.names[card]} ({value:+d}{'♥' * self.hearts[card]})"

    def matches(self, card: int, a: int, b: int) -> bool:
        """One die or the sum of both shows the card's absolute value. [seed]"""
        return bool(self.match_masks[a][b] >> card & 1)


def _match_masks(values: tuple[int, ...], faces: int) -> tuple[tuple[int, ...], ...]:
    table: list[tuple[int, ...]] = []
    for a in range(faces + 1):
        row = []
        for b in range(faces + 1):
            shown = {a, b, a + b} if a and b else set()
            row.append(sum(1 << c for c, v in enumerate(values) if abs(v) in shown))
        table.append(tuple(row))
    return tuple(table)


def _load() -> InkheartParams:
    data = read_toml(__package__)
    # Positives first by value, then negatives by absolute value: the id layout relies on it.
    cards = sorted(data["cards"], key=lambda c: (c["value"] < 0, abs(c["value"])))
    values = tuple(int(c["value"]) for c in cards)
    faces = int(data["dice"]["faces"])
    if int(data["dice"]["count"]) != 2:
        raise ValueError("Tintenherz is played with exactly two dice")
    if len({abs(v) for v in values if v > 0}) != sum(1 for v in values if v > 0):
        raise ValueError("positive card values must be distinct")
    setup = data["setup"]
    return InkheartParams(
        names=tuple(str(c["name"]) for c in cards),
        values=values,
        hearts=tuple(int(c["hearts"]) for c in cards),
        castle_hearts=int(data["castle"]["hearts"]),
        faces=faces,
        centre_size=int(setup["centre"]),
        min_players=int(setup["min_players"]),
        max_players=int(setup["max_players"]),
        start_player=int(setup["start_player"]),
        max_turns=int(setup["max_turns"]),
        match_masks=_match_masks(values, faces),
    )


PARAMS = _load()
"""Read once when the game package is imported; immutable."""
