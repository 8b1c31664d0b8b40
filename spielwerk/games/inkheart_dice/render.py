"""Terminal text for Tintenherz - Das Würfelspiel, built from view dicts only.

Everything here takes what `InkheartDiceState.view(player)` returns (or an action's description)
and returns text with rich console markup: no I/O, no rich import. Card values and hearts come
from the component data (`params.py`); everything else from the view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang, seat_name
from spielwerk.games.inkheart_dice import words
from spielwerk.games.inkheart_dice.params import PARAMS
from spielwerk.games.inkheart_dice.words import TEXTS

View = Mapping[str, Any]

POSITIVE_STYLE = "bold green"
NEGATIVE_STYLE = "bold red"
HEART = "[red]♥[/red]"

_VALUE_OF = dict(zip(PARAMS.names, PARAMS.values, strict=True))
_HEARTS_OF = dict(zip(PARAMS.names, PARAMS.hearts, strict=True))
_CARD_RE = re.compile(r"\b(" + "|".join(map(re.escape, PARAMS.names)) + r")\b(?: \([+-]\d+♥*\))?")


# ---------------------------------------------------------------------- small pieces
def card(name: str) -> str:
    """A card with its value and hearts, green if positive, red if negative."""
    value = _VALUE_OF.get(name)
    if value is None:
        return _escape(name)
    style = POSITIVE_STYLE if value > 0 else NEGATIVE_STYLE
    return f"[{style}]{name} {value:+d}[/{style}]" + HEART * _HEARTS_OF[name]


def cards(names: Sequence[str]) -> str:
    return " ".join(card(n) for n in names) if names else "-"


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """An action description with every card in it (`Staubfinger (+5)`) coloured."""
    return _CARD_RE.sub(lambda m: card(m.group(1)), _escape(text))


def seat(player: int, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
    return seat_name(lang, player, you=player == viewer)


def dice_text(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """The dice, and where the turn stands with the re-roll."""
    say = TEXTS.say
    dice = view.get("dice")
    if view.get("rerolling"):
        both = view["rerolling"] == "both"
        return say(lang, "render.rerolling_both" if both else "render.rerolling_one")
    if not dice:
        return say(lang, "render.not_rolled")
    a, b = dice
    text = say(
        lang, "render.rolled", first=f"[bold]{a}[/bold]", second=f"[bold]{b}[/bold]", sum=a + b
    )
    if view.get("phase") == "forced":
        text += say(lang, "render.forced")
    elif view.get("rerolled"):
        text += say(lang, "render.rerolled")
    else:
        text += say(lang, "render.may_reroll")
    return text


# ---------------------------------------------------------------------- the whole table
def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup."""
    say = TEXTS.say
    viewer = view.get("viewer")
    players = int(view["players"])
    who = say(lang, "spectator") if viewer is None else seat_name(lang, viewer)
    title = f"[bold]{TEXTS.term(lang, 'title')}[/bold]"
    lines = [say(lang, "render.view_of", title=title, who=who)]
    lines.append(say(lang, "render.centre", cards=cards(view.get("centre") or [])))
    lines.append(
        say(
            lang,
            "render.draw_pile",
            cards=say(lang, "render.n_cards", n=view["draw_pile"]),
            turn=view.get("turn"),
            max=view.get("max_turns"),
        )
    )
    current = view.get("current")
    if current is not None:
        lines.append(
            say(lang, "render.dice", seat=seat(current, viewer, lang), dice=dice_text(view, lang))
        )
    lines.append(say(lang, "render.seats"))
    for p in range(players):
        castle = view.get("castle", ["kept"] * players)[p]
        note = say(lang, "render.castle_discarded") if castle == "discarded" else ""
        row = (
            "  "
            + say(
                lang,
                "render.seat_row",
                seat=seat(p, viewer, lang),
                unsafe=cards(view["unsafe"][p]),
                safe=cards(view["safe"][p]),
                hearts=f"{view['hearts'][p]}{HEART}",
                score=view["scores"][p],
            )
            + note
        )
        if p == current and view.get("to_move") is not None:
            row += f"  <- {say(lang, 'render.turn')}"
        lines.append(row)
    result = view.get("result")
    if result:
        winners = ", ".join(seat(w, viewer, lang) for w in result.get("winners", []))
        end = _escape(words.end_reason(lang, str(result.get("end"))))
        lines.append("[bold]" + say(lang, "render.game_over", end=end, winners=winners) + "[/bold]")
        for p, detail in enumerate(result.get("scoring", [])):
            kept, discarded = detail["kept"], detail["discarded"]
            lines.append(
                "  "
                + say(
                    lang,
                    "render.scoring",
                    seat=seat(p, viewer, lang),
                    score=detail["score"],
                    kept_points=kept["points"],
                    kept_hearts=kept["hearts"],
                    kept_score=kept["score"],
                    discarded_points=discarded["points"],
                    discarded_hearts=discarded["hearts"],
                    discarded_score=discarded["score"],
                    castle=say(lang, f"render.{detail['castle']}"),
                )
            )
    return "\n".join(lines)


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """What the set-up did, once it is over."""
    shown = cards(view.get("centre") or [])
    return [TEXTS.say(lang, "render.setup", cards=shown, pile=view["draw_pile"])]


# ---------------------------------------------------------------------- helpers
def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")
