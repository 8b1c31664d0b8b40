"""Narration: what a player at the real table would notice, as structured events.

An event is data, `{"key": "trick_won", "params": {"seat": 2, "points": 14}}`, never English: a
game's `narrate` module (`spielwerk/games/<game>/narrate.py`, beside its text module) derives the
events from two views of one viewer (`events(before, after)`), so a seat is told exactly what
its view already shows and nothing more. The templates of every key are the game's texts
`narrate.<key>` in its `texts.toml` (German and English, `spielwerk.core.i18n`); the module
holds `explain(view)`, the breakdown of a finished game's result, and may hold
`value_text(lang, name, value)`, a parameter's value in words (a card id "red-7" as "Rot 7"),
None where the value is shown as it is. (A game not yet converted keeps an English `TEXTS` dict
in its narrate module, used for every language.)

Parameters that name seats are written so a page can put the seat's display name in: `seat`,
`winner`, `victim`, any key ending in `_seat` (one seat index), and `seats` (a list). Every
other parameter is shown as it is, but `gains` (a list of `{"seat", "points"}`: "Anna +3, Ben
-1", or "nobody"), `plays` (a list of `[seat, thing]`: "Anna Red 7, Ben Blue 3", each thing
worded by `value_text(lang, "play", thing)`) and `mark_...` (what the board highlights; not in
the text). An event may fold its action's log line into a group of lines (`folded`).
"""

from __future__ import annotations

import importlib
import importlib.util
import itertools
import string
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from spielwerk.core.i18n import Lang, Template, game_texts, shared_texts
from spielwerk.core.i18n import seat_name as counted_seat

View = Mapping[str, Any]
Event = dict[str, Any]
"""`{"key": str, "params": dict}`; optionally `"quiet": True` (the action's own log line says it
already: a page only highlights it), `"mark"` (what to highlight on the board) and `"fold"`
(`{"group", "part"}`: how the log folds the action's line into its neighbours, `folded`)."""

SEAT_PARAMS = frozenset({"seat", "winner", "victim", "seats"})


def event(key: str, quiet: bool = False, **params: Any) -> Event:
    """One event; `quiet` ones are for the board's highlight only."""
    made: Event = {"key": key, "params": params}
    if quiet:
        made["quiet"] = True
    return made


FOLD = "fold"
"""The key of an event that only folds its line into its group (`folded` without a part)."""


def folded(
    group: str, part: str | None = None, key: str = FOLD, quiet: bool = True, **params: Any
) -> Event:
    """An event that folds its action's log line into the lines around it: a page shows the
    consecutive lines whose events fold into the same `group` (a deal, a trick) as one line,
    whose text is the newest event of each `part`, in the order the parts first came ("Trick
    3: Ada Red 7, Bea Blue 3 → Bea takes 10 points" and "you draw Green 1"); a fold without a
    part only hides its line in the group (another seat is dealt a card). Quiet unless said
    otherwise: whoever reads the actions one by one (`spielwerk replay --step`) has each
    action's own line, and is told only what the line does not say (a trick's winner)."""
    made = event(key, quiet=quiet, **params)
    made["fold"] = {"group": group, "part": part}
    return made


def is_seat_param(name: str) -> bool:
    return name in SEAT_PARAMS or name.endswith("_seat")


ValueText = Callable[[Lang, str, Any], "str | None"]


def _no_templates(lang: Lang) -> Mapping[str, Template]:
    return {}


@dataclass(frozen=True, slots=True)
class Narration:
    """A game's narration: events between two views, their templates in a language, the
    explanation of a result, and how a parameter's value reads in a language."""

    events: Callable[[View, View], list[Event]]
    templates: Callable[[Lang], Mapping[str, Template]] = _no_templates
    explain: Callable[[View], dict[str, Any]] | None = None
    value_text: ValueText | None = None


def _no_events(before: View, after: View) -> list[Event]:
    return []


SILENT = Narration(events=_no_events)


@cache
def game_narration(name: str) -> Narration:
    """The narration of game `name` (SILENT if the game has none)."""
    from spielwerk.core.errors import UnknownGame
    from spielwerk.core.registry import game_class

    try:
        package = game_class(name).__module__.rpartition(".")[0]
        found = bool(package) and importlib.util.find_spec(f"{package}.narrate") is not None
    except (UnknownGame, ModuleNotFoundError):
        found = False
    if not found:
        return SILENT
    module = importlib.import_module(f"{package}.narrate")
    legacy: Mapping[str, str] | None = getattr(module, "TEXTS", None)
    if legacy is not None:  # not yet converted: English for every language
        fixed = dict(legacy)

        def templates(lang: Lang) -> Mapping[str, Template]:
            return fixed
    else:
        texts = game_texts(package)

        @cache  # the texts are read once; every event of every step words from them
        def templates(lang: Lang) -> Mapping[str, Template]:
            return texts.catalogue(lang, "narrate.")

    return Narration(
        events=module.events,
        templates=templates,
        explain=getattr(module, "explain", None),
        value_text=getattr(module, "value_text", None),
    )


def rules_seat_name(lang: Lang) -> Callable[[int], str]:
    """Seats as a person counts them, from 1 (the rules' seat 0 is "seat 1", „Platz 1“): what
    the web pages replace by a player's name and the terminal keeps."""
    return lambda p: counted_seat(lang, p)


def event_text(
    narration: Narration,
    lang: Lang,
    made: Event,
    seat_name: Callable[[int], str] | None = None,
) -> str:
    """The event in words in `lang`: its template, seats named by `seat_name` (default: "seat
    1" for the rules' seat 0), other values as the game words them."""
    seat_name = seat_name or rules_seat_name(lang)
    if made["key"] == FOLD:
        return ""  # a fold without a part says nothing: its line is hidden in its group
    template = narration.templates(lang).get(made["key"])
    if template is None:
        raise KeyError(f"no text for event {made['key']!r}")
    values: dict[str, object] = {}
    for name, value in made["params"].items():
        if is_seat_param(name) and isinstance(value, int):
            values[name] = seat_name(value)
        elif name == "gains":
            values[name] = ", ".join(
                f"{seat_name(g['seat'])} {g['points']:+d}" for g in value
            ) or shared_texts().say(lang, "nobody")
        elif is_seat_param(name) and isinstance(value, list):
            values[name] = ", ".join(seat_name(p) for p in value)
        elif name == "plays" and isinstance(value, list):
            values[name] = ", ".join(
                f"{seat_name(p)} {_worded(narration, lang, 'play', thing)}" for p, thing in value
            )
        else:
            values[name] = _worded(narration, lang, name, value)
    if isinstance(template, tuple):
        template = template[0] if made["params"].get("n") == 1 else template[1]
    fields = {f for _, f, _, _ in string.Formatter().parse(template) if f}
    missing = fields - values.keys()
    if missing:
        raise KeyError(f"event {made['key']!r} lacks {sorted(missing)}")
    return template.format(**values)


def _worded(narration: Narration, lang: Lang, name: str, value: Any) -> str:
    """A parameter's value as the game words it (`value_text`), else as it is."""
    worded = narration.value_text(lang, name, value) if narration.value_text else None
    return str(value) if worded is None else worded


def worded(narration: Narration, lang: Lang, made: Event) -> Event:
    """The event with its `text` in `lang`, seats counted from 1 (a page puts names in): what
    the web sends, so a browser needs no templates of its own."""
    return {**made, "text": event_text(narration, lang, made)}


def worded_explanation(
    narration: Narration, lang: Lang, explained: Mapping[str, Any]
) -> dict[str, Any]:
    """An `explain(view)` result with every event in it worded in `lang`."""

    def word(item: Any) -> Any:
        if isinstance(item, dict) and "key" in item and "params" in item:
            return worded(narration, lang, item)
        if isinstance(item, dict):
            return {k: word(v) for k, v in item.items()}
        if isinstance(item, list):
            return [word(v) for v in item]
        return item

    result: dict[str, Any] = word(dict(explained))
    return result


def narrate_steps(name: str, views: Sequence[View]) -> list[list[Event]]:
    """Events between consecutive views of one viewer (a step's worth each)."""
    narration = game_narration(name)
    return [narration.events(a, b) for a, b in itertools.pairwise(views)]
