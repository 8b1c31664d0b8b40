"""The web pages' languages: gettext catalogues read with Babel, one per language.

Each ``locale/<lang>/LC_MESSAGES/web.po`` maps a key (``status.your_turn``) to the page's text
in that language; placeholders are ``{name}``. The catalogues are read from the ``.po`` files
themselves (Babel's ``read_po``), so there is no compiled ``.mo`` to build or keep in step.
The pages fetch their language's catalogue as JSON (``/api/i18n``) and translate with ``t()``
(static/i18n.js); the language is the one the page asks for, else the best match of the
browser's ``Accept-Language``, else English.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from babel.messages.pofile import read_po

LOCALE_DIR = Path(__file__).parent / "locale"
LANGUAGES: dict[str, str] = {"de": "Deutsch", "en": "English"}
DEFAULT_LANGUAGE = "en"
DOMAIN = "web"

_RANGE = re.compile(r"^\s*([A-Za-z]{1,8})(?:-[A-Za-z0-9]{1,8})*\s*(?:;\s*q\s*=\s*([0-9.]+))?\s*$")


@cache
def catalogue(lang: str) -> dict[str, str]:
    """Every key of `lang`'s catalogue with its text (untranslated and fuzzy entries left out)."""
    if lang not in LANGUAGES:
        raise KeyError(lang)
    path = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"
    with path.open("rb") as file:
        messages = read_po(file, locale=lang, domain=DOMAIN)
    entries: dict[str, str] = {}
    for message in messages:
        if not message.id or message.fuzzy or not isinstance(message.id, str):
            continue
        if isinstance(message.string, str) and message.string:
            entries[message.id] = message.string
    return entries


def translate(lang: str, key: str, **params: object) -> str:
    """`key`'s text in `lang` (English if `lang` lacks it, the key itself if both do)."""
    text = catalogue(lang).get(key) or catalogue(DEFAULT_LANGUAGE).get(key) or key
    return text.format(**params) if params else text


def pick_language(accept_language: str | None, wanted: str | None = None) -> str:
    """The page's language: `wanted` if this server has it, else the first language of the
    ``Accept-Language`` header (by its weights) that it has, else English."""
    if wanted in LANGUAGES:
        return wanted
    ranked: list[tuple[float, int, str]] = []
    for index, part in enumerate((accept_language or "").split(",")):
        match = _RANGE.match(part)
        if not match:
            continue
        try:
            weight = float(match.group(2)) if match.group(2) else 1.0
        except ValueError:
            continue
        ranked.append((-weight, index, match.group(1).lower()))
    for weight, _, lang in sorted(ranked):
        if weight < 0 and lang in LANGUAGES:
            return lang
    return DEFAULT_LANGUAGE
