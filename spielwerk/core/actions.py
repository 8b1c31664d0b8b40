"""Actions: small immutable values with an integer id and a JSON form.

Each game builds the table of all its actions once (`ActionTable`); states hand out those
interned objects, so an action costs nothing to copy and compares by value.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from spielwerk.core.errors import IllegalAction

JSONScalar = str | int | float | bool | None


@dataclass(frozen=True, slots=True)
class Action:
    """One action: `id` is its integer encoding, `type` and `params` its JSON form."""

    id: int
    type: str
    params: tuple[tuple[str, JSONScalar], ...] = ()

    def to_json(self) -> dict[str, JSONScalar]:
        return {"type": self.type, **dict(self.params)}

    def __str__(self) -> str:
        args = " ".join(f"{k}={v}" for k, v in self.params)
        return f"{self.type} {args}".rstrip()


def json_key(data: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
    """A hashable key of an action's JSON form, independent of key order."""
    return tuple(sorted(data.items()))


class ActionTable:
    """All actions of a game, indexed by id and by JSON form.

    Player actions take ids `0 .. num_player_actions-1`; chance actions follow them.
    """

    def __init__(self, player_actions: Iterable[Action], chance_actions: Iterable[Action]):
        players = tuple(player_actions)
        self.actions: tuple[Action, ...] = players + tuple(chance_actions)
        self.num_player_actions = len(players)
        self.num_chance_actions = len(self.actions) - len(players)
        for index, action in enumerate(self.actions):
            if action.id != index:
                raise ValueError(f"action ids must be dense: {action} sits at {index}")
        self._by_json = {json_key(a.to_json()): a for a in self.actions}

    def __len__(self) -> int:
        return len(self.actions)

    def __getitem__(self, action_id: int) -> Action:
        return self.actions[action_id]

    def from_json(self, data: object) -> Action:
        if not isinstance(data, Mapping) or not isinstance(data.get("type"), str):
            raise IllegalAction(f"an action must be an object with a 'type', got {data!r}")
        try:
            return self._by_json[json_key(data)]
        except (KeyError, TypeError):
            raise IllegalAction(f"no such action in this game: {dict(data)!r}") from None
