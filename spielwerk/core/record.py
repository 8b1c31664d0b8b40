"""Game records (`spielwerk-record/1`): rebuild a state from its action list, checking each step."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from spielwerk.core.errors import IllegalAction, OptionError, RecordError, UnknownGame
from spielwerk.core.registry import load
from spielwerk.core.state import CHANCE, RECORD_FORMAT, State

MAX_SEED = 2**63 - 1
"""Seeds are 0 .. 2⁶³ - 1 (what a 64-bit signed column and NumPy's generators hold)."""


def _field(record: Mapping[str, Any], name: str, kind: type | tuple[type, ...]) -> Any:
    if name not in record:
        raise RecordError(f"record has no {name!r} field")
    value = record[name]
    if not isinstance(value, kind) or isinstance(value, bool):
        raise RecordError(f"record field {name!r} has the wrong type: {_short(value)}")
    return value


def _short(value: object, limit: int = 120) -> str:
    """A bounded repr for messages (an integer too long to print is described)."""
    try:
        text = repr(value)
    except ValueError:  # an integer beyond Python's digit limit
        return "a very long number"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def replay(record: object) -> State:
    """Rebuild the state a record describes. Raises RecordError on any malformed, illegal or
    inconsistent entry (the message names the entry)."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != RECORD_FORMAT:
        raise RecordError(f"not a {RECORD_FORMAT} record (format: {_short(record.get('format'))})")
    name = _field(record, "game", str)
    options = _field(record, "options", dict)
    players = _field(record, "players", int)
    seed = _field(record, "seed", int)
    if not 0 <= seed <= MAX_SEED:
        raise RecordError(f"record field 'seed' must be 0 to 2**63 - 1, not {_short(seed, 40)}")
    actions = _field(record, "actions", list)
    try:
        state = load(name, **options).new_state(players, seed=seed)
    except (UnknownGame, OptionError) as error:
        raise RecordError(str(error)) from None
    for index, entry in enumerate(actions):
        if not isinstance(entry, Mapping) or "actor" not in entry or "action" not in entry:
            raise RecordError(f"action {index}: each entry needs an 'actor' and an 'action'")
        actor = entry["actor"]
        if actor == "chance":
            player = CHANCE
        elif isinstance(actor, int) and not isinstance(actor, bool):
            player = actor
        else:
            raise RecordError(f"action {index}: actor must be a seat index or 'chance'")
        try:
            action = state.game.action_from_json(entry["action"])
            if player == CHANCE and state.to_move != CHANCE:
                raise IllegalAction("a chance entry where a player is to move")
            if player != CHANCE and state.to_move == CHANCE:
                raise IllegalAction("a player entry where chance is to move")
            state.apply(action, player=player)
        except IllegalAction as error:
            raise RecordError(f"action {index} ({_short(entry['action'])}): {error}") from None
    claimed = record.get("result")
    if claimed is not None:
        if not state.is_terminal():
            raise RecordError("record claims a result but its actions do not end the game")
        if claimed != state.result():
            raise RecordError("record's result differs from the result of replaying it")
    return state


def load_record(text: str) -> State:
    """Parse a record's JSON text and replay it; RecordError for anything that is not a
    valid record (bad JSON, nesting too deep to parse, integers too long to read)."""
    import json  # here, not at the top: most programs never read a record, and it costs start-up

    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise RecordError(f"record is not valid JSON: {error}") from None
    except RecursionError:
        raise RecordError("record is not a record: its JSON is nested too deeply") from None
    except ValueError as error:  # e.g. an integer of more than 4300 digits
        raise RecordError(f"record cannot be read: {error}") from None
    return replay(data)
