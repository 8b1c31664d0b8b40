"""German and English for the web page shell (lobby, table, replay).

Every key the shell uses (``t("...")`` in its modules, ``data-i18n`` in its pages, ``translate``
on the Python side) has an entry in both catalogues; the server answers in the browser's
language (``Accept-Language``) unless the reader picked another one in the page header, and
the picker's choice sticks in that browser.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
import pytest
from web_parts import Server

from spielwerk.web.i18n import LANGUAGES, catalogue, pick_language, translate

WEB = Path(__file__).resolve().parents[2] / "spielwerk" / "web"
STATIC = WEB / "static"
SHELL = ["lobby", "table", "replay"]
JS_CALL = re.compile(r"""\bt\(\s*["']([\w.]+)["']""")
HTML_KEY = re.compile(r"""data-i18n(?:-[\w-]+)?="([\w.]+)\"""")
PY_CALL = re.compile(r"""\btranslate\(\s*\w+\s*,\s*["']([\w.]+)["']""")
PLACEHOLDER = re.compile(r"\{(\w+)\}")


def used_keys() -> dict[str, str]:
    """Every key the shell uses, with the file that uses it."""
    used: dict[str, str] = {}
    for name in [*SHELL, "i18n", "narration"]:
        for key in JS_CALL.findall((STATIC / f"{name}.js").read_text(encoding="utf-8")):
            used[key] = f"{name}.js"
    for name in SHELL:
        for key in HTML_KEY.findall((STATIC / f"{name}.html").read_text(encoding="utf-8")):
            used[key] = f"{name}.html"
    for path in WEB.glob("*.py"):
        for key in PY_CALL.findall(path.read_text(encoding="utf-8")):
            used[key] = path.name
    return used


def test_every_key_the_shell_uses_has_a_german_and_an_english_text() -> None:
    used = used_keys()
    assert len(used) > 100  # the scan found the shell's t() calls and data-i18n keys
    for lang in LANGUAGES:
        missing = {key: where for key, where in used.items() if key not in catalogue(lang)}
        assert missing == {}, f"{lang} lacks {missing}"


def test_both_catalogues_have_the_same_keys_and_placeholders() -> None:
    german, english = catalogue("de"), catalogue("en")
    assert german.keys() == english.keys()
    for key, text in english.items():
        assert set(PLACEHOLDER.findall(german[key])) == set(PLACEHOLDER.findall(text)), key
    # German speaks to the player in the second person, the buttons in the imperative.
    assert german["table.your_turn"] == "Du bist am Zug."
    assert german["table.take_back"] == "Letzten Zug zurücknehmen"
    assert german["table.play_again"].startswith("Nochmal spielen")
    assert translate("de", "seat.n", n=3) == "Platz 3"
    assert translate("en", "seat.n", n=3) == "Seat 3"


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        ("de-DE,de;q=0.9,en-US;q=0.8,en;q=0.7", "de"),
        ("en-GB,en;q=0.9,de;q=0.8", "en"),
        ("fr-FR, fr;q=0.9, de;q=0.5", "de"),
        ("en;q=0.4, de-AT", "de"),
        ("de;q=0, fr", "en"),
        ("fr", "en"),
        ("", "en"),
        (None, "en"),
        ("*", "en"),
    ],
)
def test_the_language_follows_the_browser_header(header: str | None, expected: str) -> None:
    assert pick_language(header) == expected


def test_a_picked_language_wins_over_the_header() -> None:
    assert pick_language("de-DE", "en") == "en"
    assert pick_language("en-US", "de") == "de"
    assert pick_language("de-DE", "xx") == "de"


def test_the_server_serves_the_catalogue_and_pages_in_the_readers_language(
    shared_server: Server,
) -> None:
    base = shared_server.base
    answer = httpx.get(f"{base}/api/i18n/de", timeout=30)
    assert answer.status_code == 200
    assert answer.json()["messages"]["table.your_turn"] == "Du bist am Zug."
    assert answer.json()["languages"] == {"de": "Deutsch", "en": "English"}
    assert httpx.get(f"{base}/api/i18n/xx", timeout=30).status_code == 404
    german = httpx.get(base, headers={"accept-language": "de-DE,de;q=0.9"}, timeout=30)
    assert '<html lang="de">' in german.text
    english = httpx.get(base, headers={"accept-language": "en-US"}, timeout=30)
    assert '<html lang="en">' in english.text
    picked = httpx.get(
        f"{base}/table/x",
        headers={"accept-language": "de"},
        cookies={"spielwerk-lang": "en"},
        timeout=30,
    )
    assert '<html lang="en">' in picked.text


READY = "() => document.querySelector('#board [data-action-id]') !== null"


def test_a_german_browser_gets_german_pages_and_the_picker_switches_to_english(
    server: Server, german: Any
) -> None:
    page = german
    page.goto(server.base)
    page.wait_for_selector("#seats select", state="attached")
    assert page.evaluate("() => document.documentElement.lang") == "de"
    assert page.inner_text("#create-panel h2") == "Neuer Tisch"
    assert page.inner_text("#create") == "Tisch eröffnen"
    assert page.inner_text("#seats .row span") == "Platz 1"
    assert page.input_value("#lang") == "de"

    created = server.create("inkheart_dice", ["human", "human"])
    page.goto(server.base + created["seats"][0]["url"])
    page.wait_for_function(READY)
    assert page.inner_text("#status") == "Du bist am Zug."
    assert page.inner_text("#conn") == "verbunden"
    assert "Deine Züge" in page.inner_text("aside")
    assert "Spielverlauf" in page.inner_text("aside")
    assert page.inner_text("#seat-label") == "Platz 1"

    page.select_option("#lang", "en")  # the page reloads in English
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_function(READY)
    assert page.inner_text("#status") == "Your turn."
    assert "Your actions" in page.inner_text("aside")
    assert page.input_value("#lang") == "en"

    # The choice sticks in this browser: the lobby is English too, although the browser
    # still asks for German.
    page.goto(server.base)
    page.wait_for_selector("#seats select", state="attached")
    assert page.inner_text("#create-panel h2") == "New table"
    assert page.inner_text("#create") == "Create table"
    page.select_option("#lang", "de")
    page.wait_for_function("() => document.documentElement.lang === 'de'")
    page.wait_for_selector("#seats select", state="attached")
    assert page.inner_text("#create-panel h2") == "Neuer Tisch"
    assert page.errors == []
