"""Terminal text for Tintenblut, built from view dicts only, in a language.

Everything here takes what `InkspellState.view(player)` returns (or an action's description)
and returns text with rich console markup in `lang` (German or English, the words from
texts.toml and glossary.toml): no I/O, no rich import, and nothing but what the view already
shows (a seat sees its own advantage cards only). Rewards and the track's special spaces come
from the component data (`params.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, LANGUAGES, Lang
from spielwerk.games.inkspell import words
from spielwerk.games.inkspell.params import PARAMS, PROVISION

View = Mapping[str, Any]

SEAT_STYLES = ("bold red", "bold blue", "bold yellow", "bold green")
"""Seat colours, as the rulebook's example players Rot, Blau, Gelb (and Grün)."""
GROUP_STYLES = {"castle": "red", "blue": "blue", "green": "green"}
TILE_STYLES = {"M": "bold magenta", "S": "bold red", "K": "bold cyan", "E": "bold yellow"}

TEXTS = words.TEXTS
_GROUP = dict(zip(PARAMS.location_keys, PARAMS.location_groups, strict=True))
_SPECIAL = {space: PARAMS.location_groups[min(group)] for space, group in PARAMS.special_spaces}
_SPACE_TERM = {"castle": "group_red", "blue": "group_blue", "green": "group_green"}
_SEAT_RE = {
    lang: re.compile(re.escape(words.seat(lang, 998)).replace("999", r"(\d)\b"))
    for lang in LANGUAGES
}


@cache
def _location_pattern(lang: Lang) -> tuple[re.Pattern[str], dict[str, str]]:
    """Every location's name in `lang` as one pattern (longest first), and its key by name."""
    keys = [*PARAMS.location_keys, PARAMS.tintenwelt_key]
    by_name = {_escape(words.location(lang, key)): key for key in keys}
    pattern = "|".join(re.escape(n) for n in sorted(by_name, key=len, reverse=True))
    return re.compile(pattern), by_name


def _short(lang: Lang, index: int) -> str:
    """A location's last word, for the lists of roads (Grenze, Mäusemühle, Hof, ...)."""
    return words.short_location(lang, PARAMS.location_keys[index])


def _group_places(lang: Lang, group: str) -> str:
    return ", ".join(_short(lang, i) for i, g in enumerate(PARAMS.location_groups) if g == group)


def _space_mark(lang: Lang, group: str) -> str:
    return TEXTS.term(lang, f"{_SPACE_TERM[group]}_abbr")


# ---------------------------------------------------------------------- small pieces
def seat(player: int, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
    style = SEAT_STYLES[player % len(SEAT_STYLES)]
    you = TEXTS.say(lang, "render.you") if player == viewer else ""
    return f"[{style}]{words.seat(lang, player)}[/{style}]{you}"


def location(key: str | None, lang: Lang = DEFAULT_LANG) -> str:
    if key is None:
        return "-"
    style = GROUP_STYLES.get(_GROUP.get(key, ""), "white")
    return f"[{style}]{_escape(words.location(lang, key))}[/{style}]"


def tiles_text(tiles: Mapping[str, int], lang: Lang = DEFAULT_LANG) -> str:
    parts = [
        f"[{TILE_STYLES[k]}]{words.letter(lang, k)}[/{TILE_STYLES[k]}]x{n}"
        for k, n in tiles.items()
        if n
    ]
    return " ".join(parts) if parts else TEXTS.say(lang, "render.no_tiles")


def villain(key: str, lang: Lang = DEFAULT_LANG) -> str:
    return f"[red]{_escape(words.villain(lang, key))}[/red]"


def reward_text(row: Sequence[tuple[str, int]], lang: Lang = DEFAULT_LANG) -> str:
    """A reward row in short: (("E", 3), ("V", 1)) -> "EEE+V" (English "HHH+A")."""
    return "+".join(words.letter(lang, what) * amount for what, amount in row)


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """An action description in `lang` with locations and seats coloured."""
    text = _escape(text)
    pattern, by_name = _location_pattern(lang)
    text = pattern.sub(lambda m: location(by_name[m.group(0)], lang), text)
    return _SEAT_RE[lang].sub(lambda m: seat(int(m.group(1)) - 1, None, lang), text)


# ---------------------------------------------------------------------- map and track
def map_lines(view: View, viewer: int | None, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Each location with its reward rows, its roads and who stands there."""
    players = int(view["players"])
    ww = view.get("white_women")
    letters = ", ".join(
        f"{words.letter(lang, k)} {name}"
        for k, name in [
            *((k, words.tile(lang, k)) for k in PARAMS.tile_keys),
            (PROVISION, TEXTS.term(lang, "provision")),
            ("V", TEXTS.term(lang, "advantage_card")),
        ]
    )
    lines = [TEXTS.say(lang, "render.map_head", letters=letters)]
    names = [words.location(lang, key) for key in PARAMS.location_keys]
    width = max(len(name) for name in names)
    for i, key in enumerate(PARAMS.location_keys):
        here = [seat(p, viewer, lang) for p in range(players) if view["positions"][p] == key]
        if ww is not None and view["positions"][ww] == key:
            here.append(f"[bold white]{TEXTS.term(lang, 'white_women')}[/bold white]")
        if view["staubfinger"] == key:
            here.append(f"[grey70]{TEXTS.term(lang, 'staubfinger')}[/grey70]")
        roads = ", ".join(_short(lang, n) for n in PARAMS.neighbours[i])
        roads += "".join(
            ", " + TEXTS.say(lang, "render.secret_path", place=_short(lang, n))
            for n in PARAMS.secret_neighbours[i]
        )
        style = GROUP_STYLES.get(_GROUP[key], "white")
        name = _escape(names[i].ljust(width))
        solo, shared = reward_text(PARAMS.solo[i], lang), reward_text(PARAMS.shared[i], lang)
        who = f"  <- {', '.join(here)}" if here else ""
        lines.append(f"  [{style}]{name}[/{style}] {solo:>5} | {shared:<5} ({roads}){who}")
    return lines


def track_lines(view: View, viewer: int | None, lang: Lang = DEFAULT_LANG) -> list[str]:
    """The victory track as a strip of one lap: special spaces marked (R red, B blue, G green;
    they count on every lap), each seat's stone by its number (* for several on one space)."""
    players = int(view["players"])
    length = PARAMS.track_length
    cells = ["."] * length
    for space, group in _SPECIAL.items():
        style = GROUP_STYLES[group]
        cells[space] = f"[{style}]{_space_mark(lang, group)}[/{style}]"
    stones: dict[int, list[int]] = {}
    for p in range(players):
        stones.setdefault(view["scores"][p] % length, []).append(p)
    for space, seats in stones.items():
        style = SEAT_STYLES[seats[0] % len(SEAT_STYLES)] if len(seats) == 1 else "bold"
        mark = str(seats[0] + 1) if len(seats) == 1 else "*"
        cells[space] = f"[{style}]{mark}[/{style}]"
    specials = ", ".join(
        f"{space} {_space_mark(lang, group)} ({_group_places(lang, group)})"
        for space, group in _SPECIAL.items()
    )
    return [
        TEXTS.say(lang, "render.track_head", length=length, cells="".join(cells)),
        TEXTS.say(
            lang,
            "render.track_specials",
            specials=specials,
            ww=PARAMS.white_women_space,
            end=PARAMS.end_trigger,
        ),
    ]


# ---------------------------------------------------------------------- the whole table
def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup in `lang`."""
    say = TEXTS.say
    viewer = view.get("viewer")
    players = int(view["players"])
    who = say(lang, "spectator") if viewer is None else words.seat(lang, viewer)
    title = f"[bold]{TEXTS.term(lang, 'game')}[/bold]"
    lines = [say(lang, "render.view_of", title=title, who=who, round=view["round"])]
    if view.get("final_round"):
        lines[0] += f" [bold red]{say(lang, 'render.final_round')}[/bold red]"
    elif view.get("end_triggered"):
        lines[0] += f" [red]{say(lang, 'render.end_triggered')}[/red]"
    lines += map_lines(view, viewer, lang)
    lines += track_lines(view, viewer, lang)
    deck = view["villain_deck"]
    tiers = (
        say(lang, "render.deck_tiers", counts=deck)
        if len(deck) > 1
        else say(lang, "render.deck_rebuilt", count=deck[0])
    )
    lines.append(
        say(
            lang,
            "render.supply",
            tiles=tiles_text({k: view["supply"][k] for k in PARAMS.tile_keys}, lang),
            provisions=words.provisions(lang, view["supply"]["P"]),
            deck=tiers,
            discarded=len(view["villain_discard"]),
            advantage=view["advantage_deck"],
        )
    )
    current = view.get("current")
    for p in range(players):
        score = view["scores"][p]
        lap = (
            say(lang, "render.lap", n=score // PARAMS.track_length + 1)
            if score >= PARAMS.track_length
            else ""
        )
        marks = []
        if p == view.get("start_player"):
            marks.append(say(lang, "render.mark_start"))
        if view.get("white_women") == p:
            marks.append(TEXTS.term(lang, "white_women"))
        if view["passed"][p]:
            marks.append(say(lang, "render.mark_passed"))
        if p == current and view.get("to_move") is not None:
            marks.append(say(lang, "render.mark_turn"))
        if p == view.get("to_move") and p != current:
            marks.append(say(lang, "render.mark_choose"))
        villains = ", ".join(villain(v, lang) for v in view["villains"][p]) or "-"
        lines.append(
            say(
                lang,
                "render.seat_line",
                seat=seat(p, viewer, lang),
                score=score,
                lap=lap,
                tiles=tiles_text(view["tiles"][p], lang),
                provisions=words.provisions(lang, view["provisions"][p]),
                villains=villains,
                sum=view["villain_sums"][p],
                advantage=say(lang, "advantage_cards", n=view["advantage_counts"][p]),
            )
            + (rf"  \[{', '.join(marks)}]" if marks else "")
        )
        lines.append(say(lang, "render.hand", cards=_names(view["hands"][p], lang)))
        played = _names(view["played"][p], lang) or "-"
        lines.append(say(lang, "render.played", cards=played, number=view["last_played"][p]))
    own = view.get("advantage")
    if own is not None:
        names = ", ".join(words.advantage(lang, a) for a in own) or say(lang, "none")
        lines.append(say(lang, "render.own_advantage", cards=names))
        playable = view.get("playable_advantage")
        if playable:
            usable = ", ".join(words.advantage(lang, a) for a in playable)
            lines.append(say(lang, "render.usable", cards=usable))
    for loss in view.get("natternkopf_losses") or []:
        lines.append(
            say(lang, "render.still_loses", seat=seat(loss["seat"], viewer, lang), n=loss["tiles"])
        )
    result = view.get("result")
    if result:
        winners = ", ".join(seat(w, viewer, lang) for w in result["winners"])
        lines.append(
            say(lang, "render.game_over", reason=_reason(result["end"], lang), winners=winners)
        )
        revealed = view.get("revealed_advantage") or []
        for p in range(players):
            cards = ", ".join(words.advantage(lang, a) for a in revealed[p]) if revealed else ""
            lines.append(
                say(
                    lang,
                    "render.final_line",
                    seat=seat(p, viewer, lang),
                    score=result["scores"][p],
                    points=result["advantage_points"][p],
                    cards=cards or "-",
                    count=result["tiles_and_provisions"][p],
                )
            )
    return "\n".join(lines)


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Where the figures stand once the set-up is over."""
    players = int(view["players"])
    places = ", ".join(
        f"{seat(p, None, lang)} {location(view['positions'][p], lang)}" for p in range(players)
    )
    place = location(view["staubfinger"], lang)
    return [TEXTS.say(lang, "render.setup", places=places, place=place)]


def render_changes(before: View, after: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Public events between two views: scores, villain cards drawn, a Natternkopf and whom it
    strikes, the White Women, new rounds."""
    say = TEXTS.say
    lines = []
    viewer = after.get("viewer")
    players = range(int(after["players"]))
    for p in players:
        if after["scores"][p] != before["scores"][p]:
            lines.append(
                say(lang, "render.moves_to", seat=seat(p, viewer, lang), score=after["scores"][p])
            )
        old, new = before["villains"][p], after["villains"][p]
        if len(new) > len(old) and new[: len(old)] == old:
            drawn = ", ".join(villain(v, lang) for v in new[len(old) :])
            lines.append(say(lang, "render.draws", seat=seat(p, viewer, lang), villains=drawn))
    seen = {*before["villain_discard"], *(v for front in before["villains"] for v in front)}
    now = [*after["villain_discard"], *(v for front in after["villains"] for v in front)]
    for card in now:
        if card in seen or PARAMS.villain_keys.index(card) not in PARAMS.natternkopf:
            continue
        struck = [
            seat(p, viewer, lang)
            for p in players
            if not after["villains"][p]
            and (
                before["villains"][p]
                or before["provisions"][p] > after["provisions"][p]
                or sum(before["tiles"][p].values()) > sum(after["tiles"][p].values())
                or any(loss["seat"] == p for loss in after["natternkopf_losses"])
            )
        ]
        whom = ", ".join(struck) or say(lang, "render.nobody_to_lose")
        lines.append(say(lang, "render.strikes", villain=villain(card, lang), whom=whom))
    if (
        after.get("white_women") != before.get("white_women")
        and after.get("white_women") is not None
    ):
        lines.append(
            say(lang, "narrate.white_women", seat=seat(after["white_women"], viewer, lang))
        )
    if after["round"] != before["round"] and after["round"]:
        lines.append(
            say(
                lang,
                "render.new_round",
                round=after["round"],
                seat=seat(after["start_player"], viewer, lang),
            )
        )
    return lines


# ---------------------------------------------------------------------- helpers
def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")


def _names(keys: Sequence[str], lang: Lang) -> str:
    return ", ".join(_escape(words.location(lang, k)) for k in keys)


def _reason(end: str, lang: Lang) -> str:
    """Why the game ended ("end trigger", "round limit") in `lang`."""
    return TEXTS.say(lang, f"reason.{end.replace(' ', '_')}")
