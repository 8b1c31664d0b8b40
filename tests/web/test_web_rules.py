"""The rules pages (`/rules/GAME?lang=de|en`): each game's rules as spielwerk plays them
(`spielwerk/games/GAME/rules.LANG.md`) rendered as HTML in both languages, with the design
decisions marked and the tags labelled in the file's language; the German and the English file
of a game have the same headings, so a translation cannot silently lose a section; a German
file that is missing falls back to English with a note; nothing in a file reaches the page as
markup; only known games are served. The browser side (axe-core, the links from the lobby and
the table pages) is in test_web_a11y.py."""

from __future__ import annotations

import html
import re
from html.parser import HTMLParser

import httpx
import pytest
from web_parts import Server

import spielwerk
from spielwerk.core.i18n import game_title
from spielwerk.web import rules
from spielwerk.web.rules import heading_counts, render, rules_file, rules_page_html

GAMES = sorted(spielwerk.list_games())
# The German files written with this page; the other games' are translated separately and
# checked as soon as they are there.
GERMAN_REQUIRED = ("witches", "inkheart_dice", "isolde", "inkspell", "tainted_grail")
DESIGN_LABEL = {"en": "[design", "de": "[Entscheidung"}


class Outline(HTMLParser):
    """The headings, list items, table cells and marked tags of a page."""

    def __init__(self) -> None:
        super().__init__()
        self.headings: dict[int, int] = {}
        self.counts = {"li": 0, "td": 0, "script": 0}
        self.design_marked = 0
        self.tag_labels: list[str] = []
        self._in_tag = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if re.fullmatch(r"h[1-6]", tag):
            level = int(tag[1])
            self.headings[level] = self.headings.get(level, 0) + 1
        if tag in self.counts:
            self.counts[tag] += 1
        classes = (dict(attrs).get("class") or "").split()
        if "design" in classes:
            self.design_marked += 1
        if "tag" in classes:
            self._in_tag = True
            self.tag_labels.append("")

    def handle_endtag(self, tag: str) -> None:
        if tag == "span":
            self._in_tag = False

    def handle_data(self, data: str) -> None:
        if self._in_tag:
            self.tag_labels[-1] += data


def outline(page: str) -> Outline:
    parser = Outline()
    parser.feed(page.split("<article", 1)[1])  # the rules text, not the legend above it
    return parser


@pytest.mark.parametrize("game", GAMES)
def test_the_german_and_english_rules_have_the_same_headings(game: str) -> None:
    """Same number of headings of every level: a section missing from one language fails."""
    english = rules_file(game, "en")
    assert english is not None, f"{game} has no rules.en.md"
    german = rules_file(game, "de")
    if german is None:
        assert game not in GERMAN_REQUIRED, f"{game} has no rules.de.md"
        pytest.skip(f"{game}: rules.de.md not written yet (the page falls back to English)")
    assert heading_counts(german) == heading_counts(english)
    assert heading_counts(english)[2] >= 5, "the rules are in sections"


@pytest.mark.parametrize("game", GAMES)
def test_the_rules_page_renders_in_both_languages(shared_server: Server, game: str) -> None:
    """Headings, lists and tables as HTML, design decisions marked and their tags labelled in
    the file's language, the page's words in the asked language, the other language linked,
    and the same strict headers as every page."""
    lobby = httpx.get(shared_server.base + "/", timeout=30)
    for lang in ("en", "de"):
        answer = httpx.get(f"{shared_server.base}/rules/{game}?lang={lang}", timeout=30)
        assert answer.status_code == 200
        page = answer.text
        assert page.startswith(f'<!doctype html><html lang="{lang}">')
        assert f"<title>{html.escape(game_title(game, lang))}: " in page, "the title in lang"
        for header in ("content-security-policy", "x-frame-options", "x-content-type-options"):
            assert answer.headers[header] == lobby.headers[header]
        shown = "de" if lang == "de" and rules_file(game, "de") is not None else "en"
        assert f'<article class="rules" lang="{shown}">' in page
        other = "en" if lang == "de" else "de"
        assert f'href="/rules/{game}?lang={other}"' in page
        text = rules_file(game, shown)
        assert text is not None
        found = outline(page)
        assert found.headings == dict(heading_counts(text))
        assert found.counts["li"] > 5 and found.counts["td"] > 5 and found.counts["script"] == 0
        assert found.design_marked > 0, "design decisions are marked"
        assert any(label.startswith(DESIGN_LABEL[shown]) for label in found.tag_labels)
        unshown = "en" if shown == "de" else "de"
        assert not any(label.startswith(DESIGN_LABEL[unshown]) for label in found.tag_labels)
        assert ('role="note"' in page) == (shown != lang)
        assert " style=" not in page, "the CSP allows no inline style (aligned columns)"


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
    english_only = {"en": rules_file("witches", "en")}
    monkeypatch.setattr(rules, "rules_file", lambda game, lang: english_only.get(lang))
    info = {"title": "The Witches of Blackmore", "min_players": 2, "max_players": 6}
    page = rules_page_html("witches", "de", info)
    assert page is not None
    assert page.startswith('<!doctype html><html lang="de">')
    assert '<p class="note" role="note">Diese Regeln gibt es noch nicht auf Deutsch' in page
    assert '<article class="rules" lang="en">' in page
    assert "[design]" in page and "[Entscheidung]" not in page.split("<article", 1)[1]
    assert "2 bis 6 Spieler" in page


def test_nothing_in_a_rules_file_reaches_the_page_as_markup() -> None:
    text = (
        '# Rules <img src=x onerror="alert(1)">\n\n'
        "<script>alert(2)</script>\n\n"
        "- [a link](javascript:alert(3)) and [design] <b>bold</b>\n"
    )
    page = render(text, "en")
    assert "<script" not in page and "<img" not in page and "<b>" not in page
    assert "&lt;script&gt;" in page and "&lt;img" in page
    assert 'href="javascript' not in page


def test_tags_are_labelled_in_the_files_language_whichever_word_was_written() -> None:
    source = "- a [seed, l. 27] b [design] c [Regelheft] d [public: boxes] e [rules file]\n"
    assert render(source, "de") == (
        '<ul>\n<li class="design">a <span class="tag tag-seed">[Regelheft, l. 27]</span> '
        'b <span class="tag tag-design">[Entscheidung]</span> '
        'c <span class="tag tag-seed">[Regelheft]</span> '
        'd <span class="tag tag-public">[öffentlich: boxes]</span> '
        'e <span class="tag tag-rules-file">[Regeldatei]</span></li>\n</ul>\n'
    )
    english = render("A [Entscheidung] b.\n\n**[design]** named in a legend.\n", "en")
    assert english == (
        '<p class="design">A <span class="tag tag-design">[design]</span> b.</p>\n'
        '<p><strong><span class="tag tag-design">[design]</span></strong> named in a '
        "legend.</p>\n"
    )
    # a link whose text happens to be a tag word stays a link
    assert render("[design](https://example.org)\n", "en") == (
        '<p><a href="https://example.org">design</a></p>\n'
    )
