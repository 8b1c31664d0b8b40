"""Terminal text for Die Holde Isolde, built from view dicts only.

Everything here takes what `IsoldeState.view(player)` returns (or an action's description) and
returns text with rich console markup: no I/O, no rich import, and nothing but what the view
already shows, so a seat is never told more than it may know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from itertools import groupby
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.games.isolde.params import PARAMS

View = Mapping[str, Any]

SEAT_STYLES = ("bold red", "bold blue", "bold green", "bold yellow", "bold magenta")
"""The colour of each seat's discs."""
CARD_STYLES: dict[str, str] = {
    "isolde": "bold magenta",
    "combat": "bold red",
    "joust": "bold red",
    "tourney": "red",
    "studies": "bold cyan",
    "king": "bold yellow",
    "quest": "bold green",
    "charity": "bold blue",
}
"""Console style of each card type and board."""

_CARD_RE = re.compile(
    r"\b("
    + "|".join(sorted({k.type for k in PARAMS.kinds}, key=len, reverse=True))
    + r")-([0-9]+)\b"
)

RULES = """\
Die Holde Isolde (Nicolas Poncin), 2-5 players, 6 rounds. 52 cards: isolde, combat (moves on
joust OR tourney, chosen when played), studies, king, quest, charity; values 2-5.
Seven boards, each with one disc per player on its start space. A round:
1. The start player deals 5 cards to everyone from the full reshuffled deck.
2. Draft, simultaneously: keep 1 card face down, pass the rest (left in rounds 1, 3, 5, right
   in rounds 2, 4, 6); repeat until everyone kept 5 (the last card comes without a choice).
3. From the start player, clockwise: each plays 4 cards, one per turn, moving its disc on the
   card's board by its value. A disc landing on others lies on top and is ahead of them. The
   fifth card is discarded unseen. The king's board ends at space 12; the others loop (laps).
4. Scoring. Isolde first (every round): ranks are fixed, then 3rd, 2nd, 1st move one own disc
   on any board +1/+2/+3. Joust, tourney (every round), quest (round 6): 3/2/1 points.
   Studies (every round), charity (round 6): last -3, second-to-last -1. King (rounds 3, 6):
   spaces 6-11 give 6 points, space 12 gives 12. The last place is never rewarded (3 players:
   no 3rd place; 2 players: only 1st place, only the last's -3). A disc on the start space is
   last and wins nothing; on studies/charity every disc on the start space takes -3.
5. After round 3 every board but quest and charity goes back to the start.
6. The start player passes to the left.
Most points after round 6 wins; a tie goes to the disc further ahead on Isolde's board.
Advanced options: advanced_start_player_tiebreak (the start player may go on top of its stack
on one board before scoring), advanced_isolde_setback (who got an Isolde move steps back 1 on
Isolde's board), advanced_reset (after round 3 the discs keep their order on spaces 0, 1, 2...),
advanced (all three). quest_first_points: the quest's first prize (3; public sources say 17).
[design] (shared/rules/isolde.md, docs/games/isolde.md): card split per value, 15 spaces per
looping board, king/quest/charity scoring rounds [public], seat 0 starts, the deal begins with
the start player, ties on equal distance after a move back go under the stack.\
"""
"""A short summary of the rules and of the gaps filled by design, for `spielwerk rules`."""


# ---------------------------------------------------------------------- small pieces
def seat(player: int, viewer: int | None = None) -> str:
    style = SEAT_STYLES[player % len(SEAT_STYLES)]
    label = f"seat {player}" + (" (you)" if player == viewer else "")
    return f"[{style}]{label}[/{style}]"


def disc(player: int) -> str:
    style = SEAT_STYLES[player % len(SEAT_STYLES)]
    return f"[{style}]{player}[/{style}]"


def card(name: str) -> str:
    style = CARD_STYLES.get(name.rpartition("-")[0])
    return f"[{style}]{name}[/{style}]" if style else _escape(name)


def cards(names: Sequence[str]) -> str:
    return " ".join(card(n) for n in names) if names else "-"


def board_name(board_id: str) -> str:
    style = CARD_STYLES.get(board_id)
    return f"[{style}]{board_id}[/{style}]" if style else _escape(board_id)


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """Plain text (an action description) with card names, boards and seats coloured."""
    text = _escape(text)
    text = _CARD_RE.sub(lambda m: card(m.group(0)), text)
    text = re.sub(
        r"\bon (joust|tourney|studies|king|quest|charity|isolde)\b",
        lambda m: "on " + board_name(m.group(1)),
        text,
    )
    return re.sub(r"\bseat (\d)\b", lambda m: seat(int(m.group(1))), text)


def render_board(board: Mapping[str, Any]) -> str:
    """One board as a track on one line: the start space `S`, then spaces 1, 2, ... (`·` where
    no disc stands); a stack is written bottom/top, so its top disc (ahead) comes last. A disc
    with a lap behind it carries one `'` per lap."""
    stacks: dict[int, list[str]] = {}
    for disc_view in reversed(board["discs"]):  # rear first: a stack bottom first
        space = int(disc_view["space"])
        laps = int(disc_view["laps"])
        stacks.setdefault(space, []).append(disc(disc_view["seat"]) + "'" * laps)
    cells = []
    for space in range(int(board["spaces"]) + 1):
        label = "S:" if space == 0 else ""
        here = stacks.get(space)
        cells.append(label + ("/".join(here) if here else ("-" if space == 0 else "·")))
    rounds = ",".join(str(r) for r in board["scored_after"])
    now = ", [bold]scored now[/bold]" if board["scored_this_round"] else ""
    end = "" if board["loops"] else ", ends at " + str(board["spaces"])
    name = board_name(board["board"]) + " " * (8 - len(board["board"]))
    return f"  {name} {' '.join(cells)}   (rounds {rounds}{end}{now})"


# ---------------------------------------------------------------------- the whole table
def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup: the table as its seat sees it."""
    viewer = view.get("viewer")
    players = int(view["players"])
    who = "spectator" if viewer is None else f"seat {viewer}"
    lines = [f"[bold]Die Holde Isolde[/bold] - {who}'s view"]
    lines.append(
        f"Round {view['round']}/{view['rounds']}   start player (Excalibur): "
        f"{seat(view['start_player'], viewer)}   hands pass {view['pass_direction']}   "
        f"phase: {view['phase']}"
    )
    advanced = [name for name, on in view.get("advanced", {}).items() if on]
    if advanced:
        lines.append("Advanced rules: " + ", ".join(advanced))
    lines.append(
        "Boards (S = start space, then spaces 1, 2, ...; a stack bottom/top, the top disc is "
        "ahead; ' = a lap):"
    )
    for board in view["boards"]:
        lines.append(render_board(board))
    shields = ", ".join(f"{seat(p, viewer)} {view['scores'][p]}" for p in range(players))
    lines.append(f"Shields: {shields}")

    if view["phase"] == "draft":
        picked = view.get("picked") or []
        waiting = [seat(p, viewer) for p in range(players) if not picked[p]]
        lines.append(f"Draft step {view['draft_step']}: still to pick {', '.join(waiting) or '-'}")
    if viewer is not None:
        lines.extend(_private_lines(view))
    played = view.get("played") or []
    if played:
        plays = ", ".join(
            f"{disc(p['seat'])}:{card(p['card'])}>{board_name(p['board'])}" for p in played
        )
        lines.append(f"Played this round: {plays}")
    pending = view.get("pending_isolde_moves") or []
    if pending:
        moves = ", ".join(f"{seat(m['seat'], viewer)} +{m['steps']}" for m in pending)
        lines.append(f"Isolde moves still to make: {moves}")
    to_move = view.get("to_move")
    if isinstance(to_move, int):
        lines.append(f"To move: {seat(to_move, viewer)}")
    result = view.get("result")
    if result:
        winners = ", ".join(seat(w, viewer) for w in result.get("winners", []))
        lines.append(f"[bold]Game over.[/bold] Winner: {winners} ({result.get('tie_break')})")
    return "\n".join(lines)


def _private_lines(view: View) -> list[str]:
    lines = []
    if view["phase"] == "draft":
        lines.append(f"Your cards to pick from: {cards(view.get('packet') or [])}")
        lines.append(f"You kept: {cards(view.get('kept') or [])}")
        for step, (got, gave) in enumerate(
            zip(view.get("received") or [], [*(view.get("passed") or []), None], strict=False)
        ):
            text = f"  step {step + 1}: {'dealt' if step == 0 else 'got'} {cards(got)}"
            if gave is not None:
                text += f"; passed on {cards(gave)}"
            lines.append(text)
    elif view["phase"] == "deal":
        lines.append(f"Dealt to you so far: {cards(view.get('packet') or [])}")
    else:
        lines.append(f"Your hand: {cards(view.get('hand') or [])}")
    return lines


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """The deal of round 1, summarised once it is over."""
    return [
        f"Round 1: {view['players']} seats, 5 cards dealt to each; "
        f"{seat(view['start_player'])} holds Excalibur; hands pass {view['pass_direction']}."
    ]


def render_changes(before: View, after: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Public events between two views of one seat: the end of the draft, Isolde moves,
    awards, a summary of a finished round's plays, the reset and the new round."""
    viewer = after.get("viewer")
    lines: list[str] = []
    new_round = after["round"] != before["round"] or (
        after.get("result") is not None and before.get("result") is None
    )
    if before["phase"] == "play" and (new_round or after["phase"] != "play"):
        plays = (after.get("last_round_played") if new_round else after.get("played")) or []
        summary = ", ".join(
            f"{disc(p['seat'])}:{card(p['card'])}>{board_name(p['board'])}" for p in plays
        )
        lines.append(f"Round {before['round']} plays: {summary or '-'}")
    if before["phase"] == "draft" and after["phase"] != "draft":
        lines.append("Draft over: everyone holds 5 cards.")
    for move in after["isolde_moves"][len(before["isolde_moves"]) :]:
        lines.append(
            f"Isolde place {move['place']}: {seat(move['seat'], viewer)} moves "
            f"+{move['steps']} on {board_name(move['board'])}"
        )
    new_awards = after["awards"][len(before["awards"]) :]
    for round_number, group in groupby(new_awards, key=lambda a: a["round"]):
        text = ", ".join(
            f"{board_name(a['board'])} {seat(a['seat'], viewer)} {a['points']:+d}" for a in group
        )
        lines.append(f"Scoring of round {round_number}: {text}")
    if new_round and after.get("result") is None:
        if before["round"] == PARAMS.reset_after_round:
            lines.append("Reset after round 3: the discs go back (quest and charity stay).")
        lines.append(
            f"[bold]Round {after['round']}[/bold]: {seat(after['start_player'], viewer)} "
            f"starts; hands pass {after['pass_direction']}."
        )
    if after.get("result") and not before.get("result"):
        result = after["result"]
        winners = ", ".join(seat(w, viewer) for w in result["winners"])
        lines.append(f"[bold]Game over[/bold]: shields {result['scores']}; winner {winners}")
    return lines


def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")
