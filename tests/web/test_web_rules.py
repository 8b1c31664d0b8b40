"""The rules pages (`/rules/GAME?lang=de|en`): how to play each game, written for players
(`spielwerk/games/GAME/how_to_play.LANG.md`), in both languages with the same sections (the
goal, the components, the set-up, a turn, the scoring, the end); none of the developer's
material (provenance tags, code, tests: those are in docs/games/); the pictures of the
components drawn in Chromium by the game's own board script; nothing in a file reaches the page
as markup; only known games are served; a missing German text falls back to English with a
note. The axe-core checks of these pages are in test_web_a11y.py."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Any

import httpx
import pytest
from test_web_browser import PHONE, Page
from web_parts import Server

import spielwerk
from spielwerk.core import howto
from spielwerk.core.howto import how_to_play_file, without_pictures
from spielwerk.core.i18n import game_title
from spielwerk.web import rules
from spielwerk.web.rules import heading_counts, render, rules_page_html

GAMES = sorted(spielwerk.list_games())
SECTIONS = {
    "en": (
        "Goal",
        "Components",
        "Set-up",
        ("A turn", "A round", "A day"),
        "Scoring",
        "End of the game",
    ),
    "de": (
        "Spielziel",
        "Spielmaterial",
        "Spielaufbau",
        ("Ein Zug", "Eine Runde", "Ein Tag"),
        "Wertung",
        "Spielende",
    ),
}
"""The sections every game's page has, in this order (the turn's name fits the game)."""
DEVELOPER_WORDS = re.compile(
    r"\[(?:seed|public|design|rules file|Regelheft|öffentlich|Entscheidung|Regeldatei)\b"
    r"|returns\(\)|result\(\)|\.py\b|\.toml\b|\btest_\w+|[Tt]ensor|\bview\(|resample|"
    r"spielwerk/|shared/|\bseed\b|`"
)
"""What a player's page never says: provenance tags, code, files, tests, internals."""


class Outline(HTMLParser):
    """The headings (level and text), the pictures and the scripts of a page's article."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: list[tuple[int, str]] = []
        self.pieces: list[str] = []
        self.scripts = 0
        self._heading: int | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = int(tag[1])
            self.headings.append((self._heading, ""))
        if tag == "script":
            self.scripts += 1
        piece = dict(attrs).get("data-piece")
        if piece is not None:
            self.pieces.append(piece)

    def handle_endtag(self, tag: str) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            self._heading = None

    def handle_data(self, data: str) -> None:
        if self._heading is not None:
            level, text = self.headings[-1]
            self.headings[-1] = (level, text + data)


def article(page: str) -> str:
    return page.split("<article", 1)[1].split("</article>", 1)[0]


def outline(page: str) -> Outline:
    parser = Outline()
    parser.feed("<article" + article(page))
    return parser


def sections(markdown: str) -> list[str]:
    parser = Outline()
    parser.feed(render(markdown))
    return [text for level, text in parser.headings if level == 2]


@pytest.mark.parametrize("game", GAMES)
def test_every_game_has_the_players_sections_in_both_languages(game: str) -> None:
    """Goal, components, set-up, a turn, scoring and the end, in this order, in German and in
    English; the two texts have as many headings of each level (nothing lost in translation)."""
    texts = {lang: how_to_play_file(game, lang) for lang in ("en", "de")}
    for lang, text in texts.items():
        assert text is not None, f"{game} has no how_to_play.{lang}.md"
        found = [s for s in sections(text) if s not in ("Playing here", "Hier am Bildschirm")]
        assert len(found) == len(SECTIONS[lang]), found
        for heading, wanted in zip(found, SECTIONS[lang], strict=True):
            assert heading in wanted if isinstance(wanted, tuple) else heading == wanted
        assert DEVELOPER_WORDS.findall(without_pictures(text)) == []
    assert texts["de"] is not None and texts["en"] is not None
    assert heading_counts(texts["de"]) == heading_counts(texts["en"])
    assert re.findall(r"piece:[^)]*", texts["de"]) == re.findall(r"piece:[^)]*", texts["en"])


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_is_the_players_text_in_both_languages(
    shared_server: Server, game: str
) -> None:
    """The page in the asked language: its headings, its pictures as placeholders for the
    board script, none of the developer's words, the other language linked, the same strict
    headers as every page."""
    lobby = httpx.get(shared_server.base + "/", timeout=30)
    for lang in ("en", "de"):
        answer = httpx.get(f"{shared_server.base}/rules/{game}?lang={lang}", timeout=30)
        assert answer.status_code == 200
        page = answer.text
        assert page.startswith(f'<!doctype html><html lang="{lang}">')
        assert f"<title>{html.escape(game_title(game, lang))}: " in page, "the title in lang"
        for header in ("content-security-policy", "x-frame-options", "x-content-type-options"):
            assert answer.headers[header] == lobby.headers[header]
        assert f'<article class="rules" lang="{lang}"' in page
        other = "en" if lang == "de" else "de"
        assert f'href="/rules/{game}?lang={other}"' in page
        text = how_to_play_file(game, lang)
        assert text is not None
        found = outline(page)
        assert [t for level, t in found.headings if level == 2] == sections(text)
        assert found.pieces, "pictures of the components"
        assert found.scripts == 0 and " style=" not in page, "the CSP allows no inline style"
        shown = re.sub(r"<[^>]+>", " ", article(page).split(">", 1)[1])
        assert DEVELOPER_WORDS.findall(html.unescape(shown)) == []
        assert 'role="note"' not in page


@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_pictures_are_drawn_by_the_games_board_scripts(
    shared_server: Server, browser: Any, lang: str
) -> None:
    """In Chromium every placeholder of every game's page is drawn by the game's board script
    (an SVG or the board's own HTML, the same classes as at the table), with its caption, and
    the page fits a phone's width."""
    context = browser.new_context(locale="de-DE" if lang == "de" else "en-GB")
    try:
        page = Page(context, PHONE)
        for game in GAMES:
            page.goto(f"{shared_server.base}/rules/{game}?lang={lang}")
            page.page.wait_for_function("() => document.body.dataset.pieces !== undefined")
            assert page.page.evaluate("() => document.body.dataset.pieces") == "drawn", game
            pieces = page.page.evaluate(
                """() => [...document.querySelectorAll("article .piece")].map((p) => ({
                  piece: p.dataset.piece,
                  drawn: p.querySelector(".piece-art > :is(svg, div, p)") !== null,
                  caption: p.querySelector(".piece-caption").textContent,
                  width: p.querySelector(".piece-art").getBoundingClientRect().width }))"""
            )
            missing = [p for p in pieces if not (p["drawn"] and p["caption"] and p["width"] > 20)]
            assert pieces and missing == [], game
            assert page.fits_width(), f"{game}: {page.too_wide()}"
        assert page.errors == []
    finally:
        context.close()


def test_without_a_choice_the_browser_language_is_used(shared_server: Server) -> None:
    """No `?lang`: the picker's cookie, else Accept-Language, else English, as on every page;
    an unknown `?lang` counts as none."""
    url = f"{shared_server.base}/rules/witches"
    german = {"accept-language": "de-DE,de;q=0.9,en;q=0.5"}
    assert '<html lang="de">' in httpx.get(url, headers=german, timeout=30).text
    assert '<html lang="de">' in httpx.get(url + "?lang=xx", headers=german, timeout=30).text
    assert '<html lang="en">' in httpx.get(url, timeout=30).text
    cookie = {"cookie": "spielwerk-lang=en", **german}
    assert '<html lang="en">' in httpx.get(url, headers=cookie, timeout=30).text
    assert '<html lang="de">' in httpx.get(url + "?lang=de", headers=cookie, timeout=30).text


@pytest.mark.parametrize(
    "path", ["/rules/chess", "/rules/..%2F..%2Fpyproject", "/rules/witches%00", "/rules/__init__"]
)
def test_only_known_games_have_a_rules_page(shared_server: Server, path: str) -> None:
    for lang in ("en", "de"):
        answer = httpx.get(f"{shared_server.base}{path}?lang={lang}", timeout=30)
        assert answer.status_code == 404
        assert "<article" not in answer.text


def test_a_missing_german_text_falls_back_to_english_with_a_note(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    english_only = {"en": how_to_play_file("witches", "en")}
    monkeypatch.setattr(howto, "how_to_play_file", lambda game, lang: english_only.get(lang))
    info = {
        "title": "The Witches of Blackmore",
        "min_players": 2,
        "max_players": 6,
        "renderer": "/static/games/witches.js",
    }
    page = rules_page_html("witches", "de", info)
    assert page is not None
    assert page.startswith('<!doctype html><html lang="de">')
    assert '<p class="note" role="note">Diese Regeln gibt es noch nicht auf Deutsch' in page
    assert '<article class="rules" lang="en"' in page
    assert "2 bis 6 Spieler" in page
    assert 'data-seat-word="Player {n}"' in page, "the pictures' words in the text's language"


def test_nothing_in_a_rules_file_reaches_the_page_as_markup() -> None:
    text = (
        '# Rules <img src=x onerror="alert(1)">\n\n'
        "<script>alert(2)</script>\n\n"
        "- [a link](javascript:alert(3)) and <b>bold</b>\n"
        "- ![an image from elsewhere](https://example.org/x.png) "
        '![a "quoted" piece](piece:card/red-7"onclick="alert(4)) '
        "![<b>caption</b>](piece:card/red-7)\n"
    )
    page = render(text)
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;" in page and "&lt;img" in page
    assert 'href="javascript' not in page
    assert "example.org" not in page and "an image from elsewhere" in page
    assert not re.search(r"\sonclick", page), "a quote cannot end the attribute"
    assert re.findall(r'data-piece="([^"]*)"', page) == [
        "card/red-7%22onclick=%22alert(4)",
        "card/red-7",
    ]
    assert '<span class="piece-caption">&lt;b&gt;caption&lt;/b&gt;</span>' in page


def test_the_start_view_is_a_spectators_view_of_a_game_just_dealt() -> None:
    """The pictures of the boards are drawn from `view(None)` after the deal: nothing a seat
    holds face down is in the page."""
    for game in GAMES:
        view = rules.start_view(game)
        assert '"viewer":null' in view
    assert '"hand":null' in rules.start_view("witches")
