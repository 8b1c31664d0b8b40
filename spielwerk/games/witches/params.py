"""All constants of the Witches of Blackmore in one place, read from `data.toml`.

Cards are small ints: `card = colour * VALUES + (value - 1)`, so colour and value are one
division away and a hand is a short list of ints.
"""

from __future__ import annotations

from dataclasses import dataclass

from spielwerk.core.data import read_toml


@dataclass(frozen=True, slots=True)
class WitchesParams:
    colours: tuple[str, ...]
    values: int
    hand_size: int
    min_players: int
    max_players: int
    start_player: int

    @property
    def num_cards(self) -> int:
        return len(self.colours) * self.values

    def colour(self, card: int) -> int:
        return card // self.values

    def value(self, card: int) -> int:
        return card % self.values + 1

    def card(self, colour: int, value: int) -> int:
        return colour * self.values + value - 1

    def card_name(self, card: int) -> str:
        return f"{self.colours[self.colour(card)]}-{self.value(card)}"

    def card_from_name(self, name: str) -> int:
        colour, _, value = name.partition("-")
        return self.card(self.colours.index(colour), int(value))

    def wheel_order(self, trump_value: int, descending: bool) -> list[int]:
        """The wheel's ranking of values, highest first (rulebook: "Werte")."""
        step = -1 if descending else 1
        return [(trump_value - 1 + step * i) % self.values + 1 for i in range(self.values)]

    def rank_table(self, descending: bool) -> tuple[tuple[int, ...], ...]:
        """`table[trump_value][value]` is the value's place on the wheel, 0 = highest."""
        table: list[tuple[int, ...]] = [()]
        for trump_value in range(1, self.values + 1):
            order = self.wheel_order(trump_value, descending)
            places = (order.index(v) for v in range(1, self.values + 1))
            table.append((self.values, *places))  # index 0: no card has value 0
        return tuple(table)


def _load() -> WitchesParams:
    data = read_toml(__package__)
    cards, setup = data["cards"], data["setup"]
    return WitchesParams(
        colours=tuple(cards["colours"]),
        values=int(cards["values"]),
        hand_size=int(setup["hand_size"]),
        min_players=int(setup["min_players"]),
        max_players=int(setup["max_players"]),
        start_player=int(setup["start_player"]),
    )


PARAMS = _load()
"""Read once when the game package is imported; immutable."""
