"""Terminal text for Tintenherz - Das Würfelspiel, built from view dicts only.

Everything here takes what `InkheartDiceState.view(player)` returns (or an action's description)
and returns text with rich console markup: no I/O, no rich import. Card values and hearts come
from the component data (`params.py`); everything else from the view.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.games.inkheart_dice.params import PARAMS

View = Mapping[str, Any]

POSITIVE_STYLE = "bold green"
NEGATIVE_STYLE = "bold red"
HEART = "[red]♥[/red]"

_VALUE_OF = dict(zip(PARAMS.names, PARAMS.values, strict=True))
_HEARTS_OF = dict(zip(PARAMS.names, PARAMS.hearts, strict=True))
_CARD_RE = re.compile(r"\b(" + "|".join(map(re.escape, PARAMS.names)) + r")\b(?: \([+-]\d+♥*\))?")

RULES = """\
16 character cards: 10 positive (+1..+10), 6 negative (-1..-6); some show a heart. 4 castle
cards (1 heart each). 2 dice. 2 to 4 players.
Set-up: the cards are shuffled face down; the top four are turned up in the centre.
A turn: roll both dice, then do one of:
  - take a centre card whose value (negative cards: absolute value) one die or the sum shows:
    a positive card lies unsafe in front of you, a negative one goes under your castle card;
    the centre is refilled from the draw pile;
  - take an opponent's unsafe card that one die or the sum shows (it lies unsafe before you);
  - make one of your own unsafe cards that one die or the sum shows safe (under your castle);
  - or re-roll one or both dice (once per turn); after the re-roll you must act if you can.
With no action possible on the first roll you may also end the turn. One action per turn.
The game ends at once when a centre card cannot be replaced (the 13th card taken from it).
Score: the values of your safe cards times your hearts (safe cards + castle), or discard the
castle with all negative cards: positives times their hearts. The better option is taken.
[design] decisions (shared/rules/inkheart_dice.md): names and hearts of cards the rulebook does
not show; seat 0 starts (option start_player); the game-ending take still counts; the turn
limit max_turns (default 500); the castle option is chosen automatically; ties share the win.\
"""
"""A short summary of the rules and of the gaps filled by design, for `spielwerk rules`."""


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


def seat(player: int, viewer: int | None) -> str:
    return f"seat {player} (you)" if player == viewer else f"seat {player}"


def dice_text(view: View) -> str:
    """The dice, and where the turn stands with the re-roll."""
    dice = view.get("dice")
    if view.get("rerolling"):
        return f"re-rolling {view['rerolling']} {'dice' if view['rerolling'] == 'both' else 'die'}"
    if not dice:
        return "not rolled yet"
    a, b = dice
    text = f"[bold]{a}[/bold] and [bold]{b}[/bold] (sum {a + b})"
    if view.get("phase") == "forced":
        text += ", re-roll used: an action is compulsory"
    elif view.get("rerolled"):
        text += ", re-roll used"
    else:
        text += ", re-roll still possible"
    return text


# ---------------------------------------------------------------------- the whole table
def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup."""
    viewer = view.get("viewer")
    players = int(view["players"])
    who = "spectator" if viewer is None else f"seat {viewer}"
    lines = [f"[bold]Tintenherz - Das Würfelspiel[/bold] - {who}'s view"]
    lines.append(f"Centre: {cards(view.get('centre') or [])}")
    lines.append(
        f"Draw pile: {_count(view['draw_pile'], 'card')}   "
        f"turn {view.get('turn')} of at most {view.get('max_turns')}"
    )
    current = view.get("current")
    if current is not None:
        lines.append(f"Dice ({seat(current, viewer)}): {dice_text(view)}")
    lines.append("Seats:")
    for p in range(players):
        score = view["scores"][p]
        castle = view.get("castle", ["kept"] * players)[p]
        note = " (castle discarded)" if castle == "discarded" else ""
        row = (
            f"  {seat(p, viewer)}: unsafe {cards(view['unsafe'][p])} | "
            f"safe {cards(view['safe'][p])} | {view['hearts'][p]}{HEART} | "
            f"score now {score}{note}"
        )
        if p == current and view.get("to_move") is not None:
            row += "  <- turn"
        lines.append(row)
    result = view.get("result")
    if result:
        winners = ", ".join(seat(w, viewer) for w in result.get("winners", []))
        lines.append(
            f"[bold]Game over[/bold] ({_escape(str(result.get('end')))}). Winner: {winners}"
        )
        for p, detail in enumerate(result.get("scoring", [])):
            kept, discarded = detail["kept"], detail["discarded"]
            lines.append(
                f"  {seat(p, viewer)}: {detail['score']} points - castle kept "
                f"{kept['points']} x {kept['hearts']} = {kept['score']}, castle discarded "
                f"{discarded['points']} x {discarded['hearts']} = {discarded['score']}; "
                f"{detail['castle']}"
            )
    return "\n".join(lines)


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """What the set-up did, once it is over."""
    return [
        f"Four cards are turned up into the centre: {cards(view.get('centre') or [])}; "
        f"{view['draw_pile']} cards stay in the draw pile."
    ]


# ---------------------------------------------------------------------- helpers
def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" if number == 1 else f"{number} {noun}s"


def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")
