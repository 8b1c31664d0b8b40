"""Terminal text for Die Holde Isolde, built from view dicts only.

Everything here takes what `IsoldeState.view(player)` returns (or an action's description) and
returns text with rich console markup: no I/O, no rich import, and nothing but what the view
already shows, so a seat is never told more than it may know.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import cache
from itertools import groupby
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang, seat_name
from spielwerk.core.narration import event_text, game_narration
from spielwerk.games.isolde import words
from spielwerk.games.isolde.narrate import tie_break
from spielwerk.games.isolde.params import PARAMS
from spielwerk.games.isolde.words import TEXTS

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


# ---------------------------------------------------------------------- small pieces
def seat(player: int, viewer: int | None = None, lang: Lang = DEFAULT_LANG) -> str:
    style = SEAT_STYLES[player % len(SEAT_STYLES)]
    label = seat_name(lang, player, you=player == viewer)
    return f"[{style}]{label}[/{style}]"


def disc(player: int) -> str:
    style = SEAT_STYLES[player % len(SEAT_STYLES)]
    return f"[{style}]{player + 1}[/{style}]"  # counted from 1, as the seats are


def card(name: str, lang: Lang = DEFAULT_LANG) -> str:
    kind = name.rpartition("-")[0]
    style = CARD_STYLES.get(kind)
    shown = _escape(words.card(lang, name)) if style else _escape(name)
    return f"[{style}]{shown}[/{style}]" if style else shown


def cards(names: Sequence[str], lang: Lang = DEFAULT_LANG) -> str:
    return " ".join(card(n, lang) for n in names) if names else "-"


def board_name(board_id: str, lang: Lang = DEFAULT_LANG) -> str:
    style = CARD_STYLES.get(board_id)
    shown = _escape(words.board(lang, board_id)) if style else _escape(board_id)
    return f"[{style}]{shown}[/{style}]" if style else shown


def colourise(text: str, lang: Lang = DEFAULT_LANG) -> str:
    """Plain text (an action description in `lang`) with card names, boards and seats coloured."""
    cards_re, boards_re, seat_re, card_style, board_style = _patterns(lang)
    text = _escape(text)
    text = cards_re.sub(
        lambda m: f"[{card_style[m.group(1)]}]{m.group(0)}[/{card_style[m.group(1)]}]", text
    )
    text = boards_re.sub(
        lambda m: (
            f"{m.group(1)}[{board_style[m.group(2)]}]{m.group(2)}[/{board_style[m.group(2)]}]"
        ),
        text,
    )
    return seat_re.sub(lambda m: seat(int(m.group(1)) - 1, lang=lang), text)


@cache
def _patterns(
    lang: Lang,
) -> tuple[re.Pattern[str], re.Pattern[str], re.Pattern[str], dict[str, str], dict[str, str]]:
    """Card names, "on <board>" and seats as `lang` writes them, and each name's style."""
    kinds = sorted({k.type for k in PARAMS.kinds}, key=len, reverse=True)
    card_style = {TEXTS.term(lang, f"type_{k}"): CARD_STYLES[k] for k in kinds}
    types = "(" + "|".join(map(re.escape, card_style)) + ")"
    pattern = re.escape(TEXTS.say(lang, "card", type="@T@", value="@V@"))
    pattern = pattern.replace(re.escape("@T@"), types).replace(re.escape("@V@"), "[0-9]+")
    board_style = {words.board(lang, b.id): CARD_STYLES[b.id] for b in PARAMS.boards}
    names = "|".join(map(re.escape, sorted(board_style, key=len, reverse=True)))
    on = "on" if lang == "en" else "auf"
    seat_word = re.escape(seat_name(lang, 0)[:-1])
    return (
        re.compile(r"\b" + pattern + r"\b"),
        re.compile(rf"\b({on} )({names})\b"),
        re.compile(rf"\b{seat_word}(\d)\b"),
        card_style,
        board_style,
    )


def render_board(board: Mapping[str, Any], lang: Lang = DEFAULT_LANG) -> str:
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
    say = TEXTS.say
    rounds = say(
        lang, "render.board_rounds", rounds=",".join(str(r) for r in board["scored_after"])
    )
    now = say(lang, "render.scored_now") if board["scored_this_round"] else ""
    end = "" if board["loops"] else say(lang, "render.ends_at", space=board["spaces"])
    shown = words.board(lang, board["board"])
    width = max(8, 1 + max(len(words.board(lang, b.id)) for b in PARAMS.boards))
    name = board_name(board["board"], lang) + " " * (width - len(shown))
    return f"  {name} {' '.join(cells)}   ({rounds}{end}{now})"


# ---------------------------------------------------------------------- the whole table
def render(view: View, lang: Lang = DEFAULT_LANG) -> str:
    """Everything this view shows, as console markup: the table as its seat sees it."""
    say = TEXTS.say
    viewer = view.get("viewer")
    players = int(view["players"])
    who = say(lang, "spectator") if viewer is None else seat_name(lang, viewer)
    title = f"[bold]{TEXTS.term(lang, 'title')}[/bold]"
    lines = [say(lang, "render.view_of", title=title, who=who)]
    lines.append(
        say(
            lang,
            "render.round_line",
            round=view["round"],
            rounds=view["rounds"],
            seat=seat(view["start_player"], viewer, lang),
            direction=words.direction(lang, view["pass_direction"]),
            phase=say(lang, f"render.phase_{view['phase']}"),
        )
    )
    advanced = [name for name, on in view.get("advanced", {}).items() if on]
    if advanced:
        lines.append(say(lang, "render.advanced", rules=", ".join(advanced)))
    lines.append(say(lang, "render.boards_legend"))
    for board in view["boards"]:
        lines.append(render_board(board, lang))
    shields = ", ".join(f"{seat(p, viewer, lang)} {view['scores'][p]}" for p in range(players))
    lines.append(say(lang, "render.shields", shields=shields))

    if view["phase"] == "draft":
        picked = view.get("picked") or []
        waiting = [seat(p, viewer, lang) for p in range(players) if not picked[p]]
        step = view["draft_step"]
        lines.append(say(lang, "render.draft_step", step=step, seats=", ".join(waiting) or "-"))
    if viewer is not None:
        lines.extend(_private_lines(view, lang))
    played = view.get("played") or []
    if played:
        lines.append(say(lang, "render.played", plays=_plays(played, viewer, lang)))
    pending = view.get("pending_isolde_moves") or []
    if pending:
        moves = ", ".join(f"{seat(m['seat'], viewer, lang)} +{m['steps']}" for m in pending)
        lines.append(say(lang, "render.isolde_moves", moves=moves))
    to_move = view.get("to_move")
    if isinstance(to_move, int):
        lines.append(say(lang, "render.to_move", seat=seat(to_move, viewer, lang)))
    result = view.get("result")
    if result:
        lines.append("[bold]" + _game_over(view, result, viewer, lang) + "[/bold]")
    return "\n".join(lines)


def _plays(plays: Sequence[Mapping[str, Any]], viewer: int | None, lang: Lang) -> str:
    """The cards played, in order: "seat 1 Combat 5 on Joust, seat 2 King 3 on King"."""
    return ", ".join(
        TEXTS.say(
            lang,
            "render.play_on",
            seat=seat(p["seat"], viewer, lang),
            card=card(p["card"], lang),
            board=board_name(p["board"], lang),
        )
        for p in plays
    )


def _private_lines(view: View, lang: Lang) -> list[str]:
    say = TEXTS.say
    lines = []
    if view["phase"] == "draft":
        lines.append(say(lang, "render.pick_from", cards=cards(view.get("packet") or [], lang)))
        lines.append(say(lang, "render.you_kept", cards=cards(view.get("kept") or [], lang)))
        for step, (got, gave) in enumerate(
            zip(view.get("received") or [], [*(view.get("passed") or []), None], strict=False)
        ):
            key = "render.step_dealt" if step == 0 else "render.step_got"
            text = "  " + say(lang, key, step=step + 1, cards=cards(got, lang))
            if gave is not None:
                text += say(lang, "render.passed_on", cards=cards(gave, lang))
            lines.append(text)
    elif view["phase"] == "deal":
        lines.append(say(lang, "render.dealt_so_far", cards=cards(view.get("packet") or [], lang)))
    else:
        lines.append(say(lang, "render.your_hand", cards=cards(view.get("hand") or [], lang)))
    return lines


def render_setup(view: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """The deal of round 1, summarised once it is over."""
    return [
        TEXTS.say(
            lang,
            "render.setup",
            players=view["players"],
            seat=seat(view["start_player"], lang=lang),
            direction=words.direction(lang, view["pass_direction"]),
        )
    ]


def render_changes(before: View, after: View, lang: Lang = DEFAULT_LANG) -> list[str]:
    """Public events between two views of one seat: the end of the draft, Isolde moves,
    awards, a summary of a finished round's plays, the reset and the new round."""
    say = TEXTS.say
    viewer = after.get("viewer")
    lines: list[str] = []
    new_round = after["round"] != before["round"] or (
        after.get("result") is not None and before.get("result") is None
    )
    if before["phase"] == "play" and (new_round or after["phase"] != "play"):
        plays = (after.get("last_round_played") if new_round else after.get("played")) or []
        summary = _plays(plays, viewer, lang)
        lines.append(say(lang, "render.round_plays", round=before["round"], plays=summary or "-"))
    if before["phase"] == "draft" and after["phase"] != "draft":
        lines.append(say(lang, "render.draft_over"))
    for move in after["isolde_moves"][len(before["isolde_moves"]) :]:
        lines.append(
            say(
                lang,
                "render.isolde_move",
                place=move["place"],
                seat=seat(move["seat"], viewer, lang),
                steps=move["steps"],
                board=board_name(move["board"], lang),
            )
        )
    new_awards = after["awards"][len(before["awards"]) :]
    for round_number, group in groupby(new_awards, key=lambda a: a["round"]):
        text = ", ".join(
            f"{board_name(a['board'], lang)} {seat(a['seat'], viewer, lang)} {a['points']:+d}"
            for a in group
        )
        lines.append(say(lang, "render.scoring", round=round_number, awards=text))
    if new_round and after.get("result") is None:
        if before["round"] == PARAMS.reset_after_round:
            lines.append(say(lang, "render.reset"))
        lines.append(
            say(
                lang,
                "render.new_round",
                round=after["round"],
                seat=seat(after["start_player"], viewer, lang),
                direction=words.direction(lang, after["pass_direction"]),
            )
        )
    if after.get("result") and not before.get("result"):
        result = after["result"]
        winners = ", ".join(seat(w, viewer, lang) for w in result["winners"])
        scores = ", ".join(
            f"{seat(p, viewer, lang)} {points}" for p, points in enumerate(result["scores"])
        )
        lines.append(say(lang, "render.game_over_short", scores=scores, winners=winners))
    return lines


def _escape(text: str) -> str:
    """Escape rich markup: an opening bracket is written `\\[`."""
    return text.replace("[", "\\[")


def _game_over(view: View, result: Mapping[str, Any], viewer: int | None, lang: Lang) -> str:
    """The winners, and the tie-break in words when equal points had to be parted."""
    say = TEXTS.say

    def names(seats: Sequence[int]) -> str:
        return ", ".join(seat(p, viewer, lang) for p in seats)

    winners = list(result.get("winners", []))
    scores = list(view.get("scores") or result.get("scores") or [])
    parted = tie_break(scores, winners)
    if parted is None:
        return say(lang, "render.game_over", winners=names(winners))
    tie = event_text(game_narration("isolde"), lang, parted, lambda p: seat(p, viewer, lang))
    return say(lang, "render.game_over_tie", winners=names(winners), tie_break=tie)
