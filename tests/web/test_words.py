"""What a player reads, in every game, in German and English, on the web and in the terminal
(issue 36, items 5, 6 and 8).

A whole game of every game is played in Chromium by two people (Ada and Bea, each in a
browser of their language) against a bot where the game wants more seats, and every text the
pages show at any moment is collected: the page's text, the names of controls (`aria-label`),
tooltips (`title`, SVG `<title>`), the SVG labels and the choices of every list. The terminal
plays every game with bots (`spielwerk play`) and walks a record step by step as a seat
(`spielwerk replay --step`). Then:

- Seats are counted from 1 (item 5): every "seat N" / „Platz N“ is a seat of the table
  (1 to the number of players), and the seat it names is the seat it stands for: inside a
  seat's panel, chip or marker (`data-seat`, `data-mark`: the seat's number and shape on the
  board) only that seat's own number appears.
- No internal id and no other language (item 6): no id-shaped token (`yellow-1`,
  `studies-3`, `start_player`, `planted_double=none`) anywhere, and on a German page or
  terminal no word that only the English texts have (the games', the terminal's and the web
  pages' catalogues).
- The log groups what belongs together and says nothing twice (item 8): the deal is one line
  and so is a trick (Witches), an event under a line never repeats the line or another
  event, the same line never comes twice in a row, and no line ends in a bare number after
  a number ("dawn step 1: 1").

`spielwerk rules` is left out: its summary is the rules' developer version until the "How to
play" pages (issue 36, item 4) replace it.
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from test_web_browser import Page, play_to_the_end
from typer.testing import CliRunner
from web_parts import Server

import spielwerk
from spielwerk.cli.main import app
from spielwerk.core.i18n import LANGUAGES, Lang, shared_texts, texts_of_game
from spielwerk.web.i18n import catalogue

LOCALES = {"en": "en-GB", "de": "de-DE"}
NAMES = ("Ada", "Bea")
GAMES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "witches": (["human", "human", "random"], {}),
    "inkheart_dice": (["human", "human"], {"max_turns": 40}),
    "isolde": (["human", "human", "random"], {}),
    "inkspell": (["human", "human"], {"max_rounds": 8}),
    "tainted_grail": (["human", "human"], {}),
}
"""Each game's seats (two people, a bot where a third seat makes the game richer) and options
that keep a whole game short."""

# ---------------------------------------------------------------------- the checks
SEAT_WORDS = r"(?<![^\W\d_])(?:[Ss]eat|[Pp]latz) (\d+)(?!\d)"
"""A seat as a game writes it, in either language ("seat 3", „Platz 3“)."""
ID_SHAPES = (
    re.compile(r"(?<![\w-])[^\W\d_]+(?:-[^\W\d_]+)*-\d+(?!\w)"),  # yellow-1, studies-3
    re.compile(r"(?<!\w)[a-z]+(?:_[a-z0-9]+)+(?!\w)"),  # start_player, board_joust
    re.compile(r"(?<!\w)\w+=\w+"),  # planted_double=none
    re.compile(r"\[object \w+\]|\bundefined\b|\bNaN\b"),  # a value printed by mistake
)
WORD = re.compile(r"[^\W\d_]{3,}")
GERMAN_TOO = {"still"}
"""Words of the English texts that German has too („Das Rad steht still“)."""
BARE_NUMBER = re.compile(r"\d\D*:\s*\d+$")
"""A line ending in a bare number after a number: "dawn step 1: 1", "end of day 5: 0"."""
BOT_LABEL = re.compile(r"\((?:bot|Bot) [^)]*\)")
"""A bot's label at the table ("Seat 3 (bot random)"): its words are issue 36 item 2's."""


def seat_problems(texts: Iterable[str], players: int) -> list[str]:
    """Every seat a text names that is no seat of the table (counted from 1)."""
    return [
        f"seat {n} of {players} in {text!r}"
        for text in texts
        for n in map(int, re.findall(SEAT_WORDS, text))
        if not 1 <= n <= players
    ]


def id_problems(texts: Iterable[str]) -> list[str]:
    """Every id-shaped token (a key of the code, not a word of the game) in the texts."""
    return [
        f"{found!r} in {text!r}"
        for text in texts
        for shape in ID_SHAPES
        for found in shape.findall(text)
    ]


def english_only_words(games: Iterable[str]) -> set[str]:
    """Words only the English texts have: of these games, the shared texts and the web pages
    (a German text that uses one is English)."""
    words: dict[Lang, set[str]] = {lang: set() for lang in LANGUAGES}
    sources = [shared_texts(), *(texts_of_game(g) for g in games)]
    for lang in LANGUAGES:
        for texts in sources:
            for key in texts.raw:
                template = texts.template(lang, key)
                for part in template if isinstance(template, tuple) else (template,):
                    words[lang] |= {w.lower() for w in WORD.findall(part)}
            words[lang] |= {w.lower() for t in texts.terms.values() for w in WORD.findall(t(lang))}
        words[lang] |= {w.lower() for m in catalogue(lang).values() for w in WORD.findall(m)}
    return words["en"] - words["de"] - GERMAN_TOO


def english_problems(texts: Iterable[str], english: set[str]) -> list[str]:
    """The English words in German texts (a bot's label aside: issue 36 item 2; and the
    language picker's "English", a language named in its own words)."""
    return [
        f"{word!r} in {text!r}"
        for text in texts
        if text != "English"
        for word in WORD.findall(BOT_LABEL.sub("", text))
        if word.lower() in english
    ]


def report(problems: dict[str, list[str]]) -> str:
    """The problems found, item by item, each told once (the first dozen of each item)."""
    return "\n".join(
        f"{item} ({len(set(found))}):\n  " + "\n  ".join(sorted(set(found))[:12])
        for item, found in problems.items()
        if found
    )


def word_set(text: str) -> set[str]:
    return set(re.findall(r"[\w+-]+", text.lower()))


def log_problems(entries: list[dict[str, Any]]) -> list[str]:
    """What makes a log noisy: an event that only repeats its line or another event, the same
    line twice in a row, a bare number."""
    found = []
    previous = None
    for entry in entries:
        line, events = entry["line"], entry["events"]
        if line == previous:
            found.append(f"the same line twice: {line!r}")
        previous = line
        for k, text in enumerate(events):
            said = [line, *events[:k], *events[k + 1 :]]
            if any(word_set(text) <= word_set(other) for other in said):
                found.append(f"{text!r} says nothing new under {line!r}")
        found += [f"a bare number: {t!r}" for t in [line, *events] if BARE_NUMBER.search(t)]
    return found


# ---------------------------------------------------------------------- the browser
READER = (Path(__file__).parent / "words_reader.js").read_text()
"""Reads a page as it changes (words_reader.js); `window.__readWords()` answers every text it
showed and every seat named against its shape."""

LOG = """() => [...document.querySelectorAll("#log li:not(.notice)")].map((li) => ({
  line: li.querySelector(".line").innerText,
  events: [...li.querySelectorAll(".event")].map((e) => e.innerText),
}))"""


@dataclass
class Played:
    """What the pages of one whole game showed."""

    players: int
    said: set[str] = field(default_factory=set)
    wrong_seats: set[str] = field(default_factory=set)
    logs: list[list[dict[str, Any]]] = field(default_factory=list)


def create_table(server: Server, game: str, seats: list[str], options: dict[str, Any]) -> list[str]:
    """A table whose first person is Ada (she creates it) and second Bea (invited): their
    seat links."""
    body = {
        "game": game,
        "options": options,
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        "claim": 0,
        "name": NAMES[0],
    }
    created = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert created.status_code == 201, created.text
    links = []
    for seat in created.json()["seats"]:
        if seat.get("url") and seat.get("token"):
            links.append(seat["url"])
        elif seat.get("invitation"):
            claimed = server.claim(created.json()["id"], seat["invitation"], NAMES[len(links)])
            assert claimed.status_code == 200, claimed.text
            links.append(claimed.json()["url"])
    return links


def play_and_read(server: Server, browser: Any, game: str, lang: str) -> Played:
    """A whole game of `game` clicked through by Ada and Bea in `lang`: everything they read."""
    seats, options = GAMES[game]
    links = create_table(server, game, seats, options)
    played = Played(players=len(seats))
    contexts = [browser.new_context(locale=LOCALES[lang]) for _ in links]
    try:
        for context in contexts:  # reading from the page's first paint on
            context.add_init_script(f'document.addEventListener("DOMContentLoaded", ({READER}));')
        pages = [Page(context) for context in contexts]
        for page, link in zip(pages, links, strict=True):
            page.goto(server.base + link)
        play_to_the_end(pages, random.Random(sum(map(ord, game + lang))))
        for page in pages:
            page.page.locator("#result").wait_for()
            read = page.page.evaluate("() => window.__readWords()")
            played.said |= set(read["said"])
            played.wrong_seats |= set(read["wrong"])
            played.logs.append(page.page.evaluate(LOG))
            assert page.errors == [], page.errors
    finally:
        for context in contexts:
            context.close()
    return played


@pytest.mark.parametrize(
    ("game", "lang"),
    [
        pytest.param(game, lang, marks=() if lang == "de" else pytest.mark.slow)
        for game in sorted(GAMES)
        for lang in sorted(LOCALES)
    ],
)
def test_a_whole_game_reads_as_the_box_would(
    shared_server: Server, browser: Any, game: str, lang: str
) -> None:
    """Seats from 1 and each where it belongs (item 5), no id and no English on a German page
    (item 6), a log without noise (item 8): everything Ada and Bea read in a whole game. By
    default in German, which is checked for all of that and for English words too; the
    English pages with `-m slow` (test_web_a11y and test_web_board_fit play them by default)."""
    played = play_and_read(shared_server, browser, game, lang)
    said = sorted(played.said)
    problems = {
        "seats counted from 1": seat_problems(said, played.players),
        "seats against their shapes": sorted(played.wrong_seats),
        "ids": id_problems(said),
        "English on a German page": english_problems(said, english_only_words([game]))
        if lang == "de"
        else [],
        "log": [p for log in played.logs for p in log_problems(log)],
    }
    assert not any(problems.values()), report(problems)


# ---------------------------------------------------------------------- the terminal
TERMINAL_SEATS = {
    "witches": "heuristic,random,random",
    "inkheart_dice": "heuristic,random",
    "isolde": "heuristic,random,random",
    "inkspell": "heuristic,random",
    "tainted_grail": "heuristic,random",
}
TERMINAL_OPTIONS = {"inkheart_dice": ["max_turns=60"], "inkspell": ["max_rounds=20"]}


def terminal(args: list[str], input: str | None = None) -> str:
    result = CliRunner().invoke(app, args, input=input, env={"LC_ALL": "C.UTF-8"})
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


@pytest.mark.parametrize("lang", sorted(LOCALES))
@pytest.mark.parametrize("game", sorted(GAMES))
def test_the_terminal_reads_as_the_box_would(game: str, lang: str, tmp_path: Path) -> None:
    """A whole game of bots in the terminal and its record walked step by step as seat 1:
    seats from 1, no id, no English in German."""
    record = tmp_path / "game.json"
    options = [arg for o in TERMINAL_OPTIONS.get(game, []) for arg in ("--option", o)]
    command = ["play", game, "-p", TERMINAL_SEATS[game], "--seed", "3", "--lang", lang]
    played = terminal([*command, *options, "--record", str(record)])
    players = len(TERMINAL_SEATS[game].split(","))
    steps = len(json.loads(record.read_text())["actions"])
    walked = terminal(
        ["replay", str(record), "--step", "--seat", "1", "--lang", lang], input="\n" * (steps + 1)
    )
    lines = [line.strip() for text in (played, walked) for line in text.splitlines()]
    lines = [line for line in lines if line and str(tmp_path) not in line]
    seats = re.findall(r"^\s*│\s*(\d+)\s*│", played, re.MULTILINE)  # the result's Seat column
    problems = {
        "seats counted from 1": seat_problems(lines, players)
        + ([] if seats == [str(p) for p in range(1, players + 1)] else [f"result: {seats}"]),
        "ids": id_problems(lines),
        "English in German": english_problems(lines, english_only_words([game]))
        if lang == "de"
        else [],
    }
    assert not any(problems.values()), report(problems)


# ---------------------------------------------------------------------- the lobby
@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_lobby_names_every_option_and_value_in_the_pages_language(
    shared_server: Server, browser: Any, lang: str
) -> None:
    """Every game's options in the lobby by their names in the page's language, their values
    in words (a seat counted from 1, „absteigend“, „ja“), no id, no English in German."""
    context = browser.new_context(locale=LOCALES[lang])
    try:
        page = Page(context)
        page.goto(shared_server.base + "/")
        page.page.wait_for_function("() => document.querySelector('#game option') !== null")
        said: list[str] = []
        for game in spielwerk.list_games():
            page.page.select_option("#game", game)
            page.page.select_option("#players", str(spielwerk.load(game).max_players))
            # the options (the seats' bot levels are issue 36 item 2's)
            said += page.page.locator("#options").inner_text().splitlines()
            said += page.page.eval_on_selector_all(
                "#options option, #options label",
                "nodes => nodes.map((n) => n.textContent + ' ' + (n.title || ''))",
            )
        said = [line.strip() for line in said if line.strip()]
        starts = page.page.eval_on_selector_all(
            "#option-start_player option", "nodes => nodes.map((n) => [n.value, n.textContent])"
        )
        seat = "Platz" if lang == "de" else "Seat"
        assert starts and all(text == f"{seat} {int(v) + 1}" for v, text in starts), starts
        problems = id_problems(said) + seat_problems(said, 6)
        if lang == "de":
            problems += english_problems(said, english_only_words(spielwerk.list_games()))
            assert {"Hexenrad", "Startspieler", "absteigend", "Szenario"} <= {
                w for line in said for w in re.split(r"[\s:()]+", line)
            }
        assert problems == []
        assert page.errors == []
    finally:
        context.close()
