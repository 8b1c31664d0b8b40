"""Terminal text for the Witches of Blackmore, built from view dicts only.

Everything here takes what `WitchesState.view(player)` returns (or an action's description) and
returns text with rich console markup (`[red]red-7[/red]`) in a language (`lang`, the words from
texts.toml): no I/O, no rich import, and nothing but what the view already shows, so a seat is
never told more than it may know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang, seat_name
from spielwerk.games.witches import words
from spielwerk.games.witches.params import PARAMS
from spielwerk.games.witches.words import TEXTS

View = Mapping[str, Any]

CARD_STYLES: dict[str, str] = {
    "red": "bold red",
    "yellow": "bold yellow",
    "green": "bold green",
    "blue": "bold blue",
    "purple": "bold magenta",
    "grey": "bold grey62",
}
"""Console style of each colour's cards (purple is magenta: it reads on every terminal)."""


# ---------------------------------------------------------------------- small pieces
def card(name: str | None, lang: Lang = DEFAULT_LANG) -> str:
    """A card (its id, "red-7") named in `lang` in its colour; `None` (no card) as a dash."""
    if name is None:
        return "-"
    colour = name.partition("-")[0]
    style = CARD_STYLES.get(colour)
    shown = _escape(words.card(lang, name)) if colour in PARAMS.colours else _escape(name)
    return f"[{style}]{shown}[/{style}]" if style else shown


def cards(names: Sequence[str], sep: str = " ", lang: Lang = DEFAULT_LANG) -> str:
    return sep.join(card(n, lang) for n in names) if names else "-"


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """Plain text (an action description in `lang`) with every card name in it coloured."""
    pattern, styles = _card_pattern(lang)
    return pattern.sub(
        lambda m: f"[{styles[m.group(1)]}]{m.group(0)}[/{styles[m.group(1)]}]", _escape(text)
    )


@cache
def _card_pattern(lang: Lang) -> tuple[re.Pattern[str], dict[str, str]]:
    """A card's name in `lang` as a pattern, and the style of each colour's name."""
    styles = {words.colour(lang, c): CARD_STYLES[c] for c in PARAMS.colours}
    colours = "(" + "|".join(map(re.escape, styles)) + ")"
    pattern = re.escape(TEXTS.say(lang, "card", colour="@C@", value="@V@"))
    pattern = pattern.replace(re.escape("@C@"), colours).replace(re.escape("@V@"), "[1-9]")
    return re.compile(r"\b" + pattern + r"\b"), styles


def sort_hand(names: Sequence[str]) -> list[str]:
    """Cards by colour (in the game's colour order), then by value."""
    return sorted(names, key=_card_key)


def seat(player: int, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
    return seat_name(lang, player, you=player == viewer)


def wheel_text(view: View, label: str | None = None, lang: Lang = DEFAULT_LANG) -> str:
    """The wheel's current order, highest first, the trump value marked."""
    label = label or TEXTS.say(lang, "render.wheel_label")
    side = _side(view.get("wheel"), lang)
    order = view.get("wheel_order")
    if not order:
        return TEXTS.say(lang, "render.wheel_side", label=label, side=side)
    values = [f"[bold]{v}[/bold]" if i == 0 else str(v) for i, v in enumerate(order)]
    return TEXTS.say(lang, "render.wheel_order", label=label, side=side, order=" > ".join(values))


def render_trick(
    trick: Mapping[str, Any], title: str, viewer: int | None = None, lang: Lang = DEFAULT_LANG
) -> str:
    """One completed trick (an entry of `view["tricks"]`) on one line, after `title`."""
    plays = ", ".join(
        f"{seat(p, viewer, lang)} {card(c, lang)}"
        for p, c in zip(trick["players"], trick["cards"], strict=False)
    )
    line = TEXTS.say(
        lang,
        "render.trick_line",
        title=title,
        plays=plays,
        seat=seat(trick["winner"], viewer, lang),
        points=trick["points"],
    )
    if trick.get("new_trump"):
        line += TEXTS.say(lang, "render.trick_new_trump", card=card(trick["new_trump"], lang))
    return line


# ---------------------------------------------------------------------- the whole table
def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup: the table as its seat sees it."""
    say = TEXTS.say
    viewer = view.get("viewer")
    players = int(view["players"])
    who = say(lang, "spectator") if viewer is None else seat_name(lang, viewer)
    title = f"[bold]{TEXTS.term(lang, 'title')}[/bold]"
    lines = [say(lang, "render.view_of", title=title, who=who)]

    trump = view.get("trump")
    lines.append(
        say(lang, "render.trump_line", card=card(trump, lang), wheel=wheel_text(view, lang=lang))
    )
    pile = view.get("trump_pile") or []
    lines.append(say(lang, "render.trump_pile", cards=cards(pile, lang=lang)))
    draw = say(lang, "render.draw_pile", cards=say(lang, "render.n_cards", n=view["draw_pile"]))
    if view.get("end_phase"):
        draw += f"   [bold]{say(lang, 'render.end_phase_note')}[/bold]"
    lines.append(draw)

    lines.append(say(lang, "render.seats"))
    known = view.get("known_in_hands") or [[] for _ in range(players)]
    for p in range(players):
        marks = []
        if p == view.get("to_move"):
            marks.append(say(lang, "render.to_move"))
        if p == view.get("leader"):
            marks.append(say(lang, "render.leads"))
        row = "  " + say(
            lang,
            "render.seat_row",
            seat=seat(p, viewer, lang),
            cards=say(lang, "render.n_cards", n=view["hand_sizes"][p]),
            points=say(lang, "render.n_points", n=view["scores"][p]),
        )
        if known[p] and p != viewer:
            row += say(lang, "render.holds", cards=cards(sort_hand(known[p]), lang=lang))
        if marks:
            row += f"  <- {', '.join(marks)}"
        lines.append(row)

    tricks = view.get("tricks") or []
    if tricks:
        title = say(lang, "render.last_trick", n=len(tricks))
        lines.append(render_trick(tricks[-1], title, viewer, lang))
    trick = view.get("trick") or []
    if view.get("leader") is not None or trick:
        played = ", ".join(
            f"{seat(t['player'], viewer, lang)} {card(t['card'], lang)}" for t in trick
        )
        played = played or say(lang, "render.nothing_played")
        lines.append(say(lang, "render.trick_so_far", n=len(tricks) + 1, played=played))
    if view.get("trick_winner") is not None:
        winner = seat(view["trick_winner"], viewer, lang)
        lines.append(say(lang, "render.may_change_trump", seat=winner))

    if viewer is not None:
        hand = sort_hand(view.get("hand") or [])
        lines.append(say(lang, "render.your_hand", hand=_hand_markup(hand, trump, lang)))

    result = view.get("result")
    if result:
        winners = ", ".join(seat(w, viewer, lang) for w in result.get("winners", []))
        lines.append("[bold]" + say(lang, "render.game_over", winners=winners) + "[/bold]")
    return "\n".join(lines)


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """What the set-up did, once it is over (the deal is summarised, not told card by card)."""
    players = int(view["players"])
    lines = [
        TEXTS.say(
            lang, "render.dealt", hand=PARAMS.hand_size, players=players, pile=view["draw_pile"]
        )
    ]
    trump = view.get("trump")
    if trump:
        lines.append(TEXTS.say(lang, "render.turned_up", card=card(trump, lang)))
        lines.append(wheel_text(view, TEXTS.say(lang, "render.wheel_label_setup"), lang))
    return lines


def render_changes(before: View, after: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Public events between two views of the same seat: completed tricks, trump cards taken
    from the trump pile, the start of the end phase."""
    viewer = after.get("viewer")
    lines: list[str] = []
    old_tricks = before.get("tricks") or []
    new_tricks = after.get("tricks") or []
    for number in range(len(old_tricks), len(new_tricks)):
        title = TEXTS.say(lang, "render.trick_title", n=number + 1)
        lines.append(render_trick(new_tricks[number], title, viewer, lang))
    old_known = before.get("known_in_hands") or []
    old_pile = list(before.get("trump_pile") or [])
    taken: list[tuple[int, int, str]] = []  # (place in the old trump pile, seat, card)
    for p, names in enumerate(after.get("known_in_hands") or []):
        previous = old_known[p] if p < len(old_known) else []
        for name in names:
            if name not in previous:
                place = old_pile.index(name) if name in old_pile else len(old_pile)
                taken.append((place, p, name))
    if taken:
        takes = ", ".join(
            TEXTS.say(lang, "render.takes", seat=seat(p, viewer, lang), card=card(name, lang))
            for _, p, name in sorted(taken, reverse=True)
        )
        trump = card(after.get("trump"), lang)
        lines.append(TEXTS.say(lang, "render.from_trump_pile", takes=takes, card=trump))
    if after.get("end_phase") and not before.get("end_phase"):
        lines.append(f"[bold]{TEXTS.say(lang, 'render.end_phase')}[/bold]")
    return lines


# ---------------------------------------------------------------------- helpers
def _side(side: object, lang: Lang) -> str:
    return TEXTS.term(lang, side) if side in ("ascending", "descending") else str(side or "?")


def _hand_markup(hand: Sequence[str], trump: str | None, lang: Lang) -> str:
    if not hand:
        return TEXTS.say(lang, "render.no_cards")
    trump_colour = trump.partition("-")[0] if trump else None
    shown = [card(n, lang) + ("*" if n.partition("-")[0] == trump_colour else "") for n in hand]
    note = (
        TEXTS.say(lang, "render.trump_star")
        if trump_colour and any(s.endswith("*") for s in shown)
        else ""
    )
    return " ".join(shown) + note


def _card_key(name: str) -> tuple[int, int]:
    colour, _, value = name.partition("-")
    index = PARAMS.colours.index(colour) if colour in PARAMS.colours else len(PARAMS.colours)
    return index, int(value) if value.isdigit() else 0


def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")
