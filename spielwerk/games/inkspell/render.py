"""Terminal text for Tintenblut, built from view dicts only.

Everything here takes what `InkspellState.view(player)` returns (or an action's description)
and returns text with rich console markup: no I/O, no rich import, and nothing but what the
view already shows (a seat sees its own advantage cards only). Names, rewards and the track's
special spaces come from the component data (`params.py`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.games.inkspell.params import PARAMS

View = Mapping[str, Any]

SEAT_STYLES = ("bold red", "bold blue", "bold yellow", "bold green")
"""Seat colours, as the rulebook's example players Rot, Blau, Gelb (and Grün)."""
GROUP_STYLES = {"castle": "red", "blue": "blue", "green": "green"}
TILE_STYLES = {"M": "bold magenta", "S": "bold red", "K": "bold cyan", "E": "bold yellow"}

_NAME = dict(zip(PARAMS.location_keys, PARAMS.location_names, strict=True))
_NAME[PARAMS.tintenwelt_key] = PARAMS.tintenwelt_name
_GROUP = dict(zip(PARAMS.location_keys, PARAMS.location_groups, strict=True))
_VILLAIN = {k: i for i, k in enumerate(PARAMS.villain_keys)}
_ADVANTAGE = dict(zip(PARAMS.advantage_keys, PARAMS.advantage_names, strict=True))
_SHORT = tuple(name.split()[-1] for name in PARAMS.location_names)
"""Short location names for the road lists: the last word (Grenze, Mäusemühle, Hof, ...)."""
_SPECIAL = {space: PARAMS.location_groups[min(group)] for space, group in PARAMS.special_spaces}
_SPACE_MARK = {"castle": "R", "blue": "B", "green": "G"}
_GROUP_PLACES = {
    group: ", ".join(_SHORT[i] for i, g in enumerate(PARAMS.location_groups) if g == group)
    for group in _SPACE_MARK
}
_LOCATION_RE = re.compile("|".join(re.escape(n) for n in sorted(_NAME.values(), key=len)[::-1]))
_SEAT_RE = re.compile(r"\bseat (\d)\b")

RULES = """\
Tintenblut (Inkspell), 2 to 4 players. Goal: get furthest on the victory track (a loop of 40).
Each player: a figure, 10 location cards (one per location + Die Tintenwelt, each with a
villain number), 2 provisions. Staubfinger starts at Das geheime Lager.
A turn: play a location card and travel there - the first location of the road is free, each
further one costs 1 provision, paid before moving (Die Tintenwelt: anywhere, same cost) - or
pass (the whole turn; your played cards come back at the end of the round). Played cards come
back when your hand is empty. Then: move Staubfinger (1 provision per step; he alone uses the
secret path between the two inns), use one advantage card held since the start of your turn
(Der Schwarze Prinz before moving), take the reward row: upper row alone, lower row with
another figure or Staubfinger. Alone in the Nachtburg: draw a villain card. In a castle
(Ombra, Capricorns Festung, Nachtburg): once 2 provisions -> 1 tile or 2 tiles -> 1 provision.
Convert sets of 2/3/4 different tiles into 2/4/7 spaces, each size once per turn; special
spaces (9 red: castles, 19 blue: Lager/Spielleute/Siechenhaus, 30 green: Grenze/Mühle/Hof,
37 red) may only be entered or crossed from their locations, on every lap.
End of round: the highest number on a last played card draws a villain card and chooses to
start the next round or be last. A Natternkopf: all with the highest villain sum lose half
their tiles (their choice) and provisions, rounded up, and discard their villain cards.
White Women: first to reach green, taken over by overtaking; their player takes one reward.
Reaching 37 ends the game after this round and one more; unused advantage cards then score
(Meggie, Mo, Resa 3, others 1). Ties: more tiles + provisions, else shared.
[design] (shared/rules/inkspell.md, data.toml): the map's roads and all rewards but Ombra's,
villain numbers, villain and advantage card lists and effects, track spaces, the limited
supply paying as far as it goes, Staubfinger as company in the Nachtburg, Roxane/Farid/...,
advantage cards before the reward, the exchange before converting, option max_rounds.\
"""
"""A short summary of the rules and of the gaps filled by design, for `spielwerk rules`."""


# ---------------------------------------------------------------------- small pieces
def seat(player: int, viewer: int | None) -> str:
    style = SEAT_STYLES[player % len(SEAT_STYLES)]
    you = " (you)" if player == viewer else ""
    return f"[{style}]seat {player}[/{style}]{you}"


def location(key: str | None) -> str:
    if key is None:
        return "-"
    style = GROUP_STYLES.get(_GROUP.get(key, ""), "white")
    return f"[{style}]{_escape(_NAME.get(key, key))}[/{style}]"


def tiles_text(tiles: Mapping[str, int]) -> str:
    parts = [f"[{TILE_STYLES[k]}]{k}[/{TILE_STYLES[k]}]x{n}" for k, n in tiles.items() if n]
    return " ".join(parts) if parts else "no tiles"


def villain(key: str) -> str:
    return f"[red]{_escape(PARAMS.villain_label(_VILLAIN[key]))}[/red]"


def reward_text(row: Sequence[tuple[str, int]]) -> str:
    """A reward row in short: (("E", 3), ("V", 1)) -> "EEE+V"."""
    return "+".join(what * amount for what, amount in row)


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """An action description with locations and seats coloured."""
    text = _escape(text)
    text = _LOCATION_RE.sub(lambda m: location(_key_of(m.group(0))), text)
    return _SEAT_RE.sub(lambda m: seat(int(m.group(1)), None), text)


def _key_of(name: str) -> str:
    return next(k for k, n in _NAME.items() if n == name)


# ---------------------------------------------------------------------- map and track
def map_lines(view: View, viewer: int | None) -> list[str]:
    """Each location with its reward rows, its roads and who stands there."""
    players = int(view["players"])
    ww = view.get("white_women")
    lines = [
        "Map - reward alone | with company (M Mut, S Stärke, K Klugheit, E Ehre, P provision, "
        "V advantage card); roads; who is there:"
    ]
    width = max(len(name) for name in PARAMS.location_names)
    for i, key in enumerate(PARAMS.location_keys):
        here = [seat(p, viewer) for p in range(players) if view["positions"][p] == key]
        if ww is not None and view["positions"][ww] == key:
            here.append("[bold white]White Women[/bold white]")
        if view["staubfinger"] == key:
            here.append("[grey70]Staubfinger[/grey70]")
        roads = ", ".join(_SHORT[n] for n in PARAMS.neighbours[i])
        roads += "".join(f", secret path {_SHORT[n]}" for n in PARAMS.secret_neighbours[i])
        style = GROUP_STYLES.get(_GROUP[key], "white")
        name = _escape(_NAME[key].ljust(width))
        rewards = f"{reward_text(PARAMS.solo[i]):>5} | {reward_text(PARAMS.shared[i]):<5}"
        who = f"  <- {', '.join(here)}" if here else ""
        lines.append(f"  [{style}]{name}[/{style}] {rewards} ({roads}){who}")
    return lines


def track_lines(view: View, viewer: int | None) -> list[str]:
    """The victory track as a strip of one lap: special spaces marked (R red, B blue, G green;
    they count on every lap), each seat's stone by its number (* for several on one space)."""
    players = int(view["players"])
    length = PARAMS.track_length
    cells = ["."] * length
    for space, group in _SPECIAL.items():
        style = GROUP_STYLES[group]
        cells[space] = f"[{style}]{_SPACE_MARK[group]}[/{style}]"
    stones: dict[int, list[int]] = {}
    for p in range(players):
        stones.setdefault(view["scores"][p] % length, []).append(p)
    for space, seats in stones.items():
        style = SEAT_STYLES[seats[0] % len(SEAT_STYLES)] if len(seats) == 1 else "bold"
        mark = str(seats[0]) if len(seats) == 1 else "*"
        cells[space] = f"[{style}]{mark}[/{style}]"
    specials = ", ".join(
        f"{space} {_SPACE_MARK[group]} ({_GROUP_PLACES[group]})"
        for space, group in _SPECIAL.items()
    )
    return [
        f"Track, one lap of {length} (0 = start): |{''.join(cells)}|",
        f"  special spaces, on every lap: {specials}; {PARAMS.white_women_space}: the White "
        f"Women; reaching {PARAMS.end_trigger} starts the end",
    ]


# ---------------------------------------------------------------------- the whole table
def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup."""
    viewer = view.get("viewer")
    players = int(view["players"])
    who = "spectator" if viewer is None else f"seat {viewer}"
    lines = [f"[bold]Tintenblut[/bold] - {who}'s view - round {view['round']}"]
    if view.get("final_round"):
        lines[0] += " [bold red](final round)[/bold red]"
    elif view.get("end_triggered"):
        lines[0] += " [red](end triggered: one more round after this one)[/red]"
    lines += map_lines(view, viewer)
    lines += track_lines(view, viewer)
    deck = view["villain_deck"]
    tiers = f"{deck} (I/II/III)" if len(deck) > 1 else f"{deck[0]} (II and III, rebuilt)"
    lines.append(
        f"Supply: {tiles_text({k: view['supply'][k] for k in PARAMS.tile_keys})}, "
        f"{view['supply']['P']} provisions; villain deck {tiers}, "
        f"{len(view['villain_discard'])} discarded; advantage deck {view['advantage_deck']}"
    )
    current = view.get("current")
    for p in range(players):
        score = view["scores"][p]
        lap = f" (lap {score // PARAMS.track_length + 1})" if score >= PARAMS.track_length else ""
        marks = []
        if p == view.get("start_player"):
            marks.append("start")
        if view.get("white_women") == p:
            marks.append("White Women")
        if view["passed"][p]:
            marks.append("passed")
        if p == current and view.get("to_move") is not None:
            marks.append("<- turn")
        if p == view.get("to_move") and p != current:
            marks.append("<- to choose")
        villains = ", ".join(villain(v) for v in view["villains"][p]) or "-"
        lines.append(
            f"{seat(p, viewer)}: score {score}{lap} | {tiles_text(view['tiles'][p])} | "
            f"{view['provisions'][p]} provisions | villains {villains} "
            f"(sum {view['villain_sums'][p]}) | {view['advantage_counts'][p]} advantage cards"
            + (rf"  \[{', '.join(marks)}]" if marks else "")
        )
        lines.append(f"    hand: {_names(view['hands'][p])}")
        played = _names(view["played"][p]) or "-"
        lines.append(f"    played: {played} (last number {view['last_played'][p]})")
    own = view.get("advantage")
    if own is not None:
        names = ", ".join(_ADVANTAGE[a] for a in own) or "none"
        lines.append(f"Your advantage cards: {names}")
        playable = view.get("playable_advantage")
        if playable:
            lines.append(f"  usable this turn: {', '.join(_ADVANTAGE[a] for a in playable)}")
    for loss in view.get("natternkopf_losses") or []:
        lines.append(
            f"Natternkopf: {seat(loss['seat'], viewer)} still gives up {loss['tiles']} tiles"
        )
    result = view.get("result")
    if result:
        winners = ", ".join(seat(w, viewer) for w in result["winners"])
        lines.append(f"[bold]Game over[/bold] ({result['end']}). Winner: {winners}")
        revealed = view.get("revealed_advantage") or []
        for p in range(players):
            cards = ", ".join(_ADVANTAGE[a] for a in revealed[p]) if revealed else ""
            lines.append(
                f"  {seat(p, viewer)}: {result['scores'][p]} ({result['advantage_points'][p]} "
                f"from advantage cards: {cards or '-'}), tiles + provisions "
                f"{result['tiles_and_provisions'][p]}"
            )
    return "\n".join(lines)


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Where the figures stand once the set-up is over."""
    players = int(view["players"])
    places = ", ".join(f"{seat(p, None)} {location(view['positions'][p])}" for p in range(players))
    return [f"The figures are placed: {places}; Staubfinger at {location(view['staubfinger'])}."]


def render_changes(before: View, after: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Public events between two views: scores, villain cards drawn, a Natternkopf and whom it
    strikes, the White Women, new rounds."""
    lines = []
    viewer = after.get("viewer")
    players = range(int(after["players"]))
    for p in players:
        if after["scores"][p] != before["scores"][p]:
            lines.append(f"{seat(p, viewer)} moves to {after['scores'][p]} on the track")
        old, new = before["villains"][p], after["villains"][p]
        if len(new) > len(old) and new[: len(old)] == old:
            lines.append(
                f"{seat(p, viewer)} draws {', '.join(villain(v) for v in new[len(old) :])}"
            )
    seen = {*before["villain_discard"], *(v for front in before["villains"] for v in front)}
    now = [*after["villain_discard"], *(v for front in after["villains"] for v in front)]
    for card in now:
        if card in seen or _VILLAIN[card] not in PARAMS.natternkopf:
            continue
        struck = [
            seat(p, viewer)
            for p in players
            if not after["villains"][p]
            and (
                before["villains"][p]
                or before["provisions"][p] > after["provisions"][p]
                or sum(before["tiles"][p].values()) > sum(after["tiles"][p].values())
                or any(loss["seat"] == p for loss in after["natternkopf_losses"])
            )
        ]
        whom = ", ".join(struck) or "nobody who has anything to lose"
        lines.append(
            f"{villain(card)} strikes {whom}: half the tiles and provisions lost, the villain "
            "cards discarded"
        )
    if (
        after.get("white_women") != before.get("white_women")
        and after.get("white_women") is not None
    ):
        lines.append(f"The White Women go to {seat(after['white_women'], viewer)}")
    if after["round"] != before["round"] and after["round"]:
        lines.append(
            f"[bold]Round {after['round']}[/bold], {seat(after['start_player'], viewer)} starts"
        )
    return lines


# ---------------------------------------------------------------------- helpers
def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")


def _names(keys: Sequence[str]) -> str:
    return ", ".join(_escape(_NAME.get(k, k)) for k in keys)
