"""The games' own words in German and English: one glossary and one text file per game.

Every game keeps its words beside its rules, in two TOML files of its package:

- ``glossary.toml``: the game's terms (nouns and names: "trump", "Stich"), one table per stable
  key with both languages and where each comes from::

      [terms.trump]
      de = "Trumpf"
      en = "trump"
      de_tag = "seed"      # seed (printed in that language's rulebook) | public | design
      en_tag = "design"
      note = "optional: where in the rulebook"

- ``texts.toml``: every sentence the game says (action labels, narration, board and terminal
  texts, option help), one table per key with ``de`` and ``en`` templates::

      [describe.play]
      en = "{seat} plays {card}"
      de = "{seat} spielt {card}"

  ``{name}`` is a parameter; ``{@key}`` is the glossary's term ``key`` in the same language
  (``{@Key}``: with a capital first letter), so a term is written once, in the glossary. A text
  that depends on a count is a pair ``["{n} card", "{n} cards"]`` (one, other), chosen by the
  parameter ``n``. Keys are dotted: ``describe.*`` (actions), ``narrate.*`` (the narration's
  event templates, sent to the browser too), ``option.*`` (option help), anything else for the
  renderers (``board.*`` for the web board, ``render.*`` for the terminal).

Words every game shares ("seat {n}", "nobody") live in ``spielwerk/core/texts.toml``; a game's
own key of the same name wins. The language is always a parameter (``lang``), never a setting
of the process: the rules' state and actions never depend on it, and the same state says the
same thing in either language. A lookup that lacks a language fails loudly (no silent
fallback), and ``tests/core/test_i18n.py`` checks every game's files for completeness.
"""

from __future__ import annotations

import os
import re
import string
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from spielwerk.core.options import OptionSpec

Lang = Literal["de", "en"]
LANGUAGES: tuple[Lang, ...] = ("en", "de")
DEFAULT_LANG: Lang = "en"
TAGS = frozenset({"seed", "public", "design"})

Template = str | tuple[str, str]
"""One language's text: a template, or a pair (one, other) chosen by the count `n`."""

_TERM_REF = re.compile(r"\{@(\w+)\}")


class TextError(ValueError):
    """A glossary or text file that is malformed, or a text asked for that it lacks."""


def as_lang(value: object) -> Lang:
    """`value` if it names a language spielwerk speaks, else TextError."""
    if value not in LANGUAGES:
        raise TextError(f"no language {value!r}: choose one of {', '.join(LANGUAGES)}")
    return "de" if value == "de" else "en"


def lang_from_environment(environ: Mapping[str, str] | None = None) -> Lang:
    """The terminal's language from the locale (LC_ALL, LC_MESSAGES, LANG, the first that is
    set wins, as gettext reads them): German for ``de_DE.UTF-8`` and the like, else English."""
    env = os.environ if environ is None else environ
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = env.get(name)
        if value:
            code = value.split(".")[0].split("_")[0].split("-")[0].lower()
            return as_lang(code) if code in LANGUAGES else DEFAULT_LANG
    return DEFAULT_LANG


@dataclass(frozen=True, slots=True)
class Term:
    """One glossary entry: the term in both languages and where each comes from."""

    key: str
    de: str
    en: str
    de_tag: str
    en_tag: str
    note: str = ""

    def __call__(self, lang: Lang) -> str:
        return self.de if lang == "de" else self.en


def fields_of(template: str) -> set[str]:
    """The parameter names a template uses."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


class Texts:
    """A game's words: its glossary terms and its text templates, in every language."""

    def __init__(
        self,
        name: str,
        terms: Mapping[str, Term],
        raw: Mapping[str, Mapping[Lang, Template]],
        parent: Texts | None = None,
    ) -> None:
        self.name = name
        self.terms = dict(terms)
        self.raw = dict(raw)
        """Every key's templates as written, term references unresolved."""
        self.parent = parent
        self._resolved: dict[Lang, dict[str, Template]] = {
            lang: {key: self._resolve(key, by_lang[lang], lang) for key, by_lang in raw.items()}
            for lang in LANGUAGES
        }

    # ------------------------------------------------------------------ lookups
    def term(self, lang: Lang, key: str) -> str:
        """The glossary's term `key` in `lang` (a game's own, else the shared one)."""
        found = self.terms.get(key)
        if found is not None:
            return found(lang)
        if self.parent is not None:
            return self.parent.term(lang, key)
        raise TextError(f"{self.name}: no term {key!r} in the glossary")

    def template(self, lang: Lang, key: str) -> Template:
        """`key`'s template in `lang`, its term references filled in."""
        found = self._resolved[lang].get(key)
        if found is not None:
            return found
        if self.parent is not None:
            return self.parent.template(lang, key)
        raise TextError(f"{self.name}: no text {key!r}")

    def say(self, lang: Lang, key: str, /, **params: object) -> str:
        """`key`'s text in `lang` with its parameters filled in (a pair by the count `n`)."""
        template = self.template(lang, key)
        if isinstance(template, tuple):
            template = template[0] if params.get("n") == 1 else template[1]
        try:
            return template.format(**params)
        except (KeyError, IndexError) as error:
            raise TextError(f"{self.name}: text {key!r} lacks the parameter {error}") from None

    def has(self, key: str) -> bool:
        return key in self.raw or (self.parent is not None and self.parent.has(key))

    def catalogue(self, lang: Lang, prefix: str = "") -> dict[str, Template]:
        """Every text (shared ones included) in `lang` whose key starts with `prefix`, the
        prefix cut off: what a browser page gets (``/api/games/<game>?lang=``)."""
        merged: dict[str, Template] = (
            self.parent.catalogue(lang, prefix) if self.parent is not None else {}
        )
        merged.update(
            {k[len(prefix) :]: v for k, v in self._resolved[lang].items() if k.startswith(prefix)}
        )
        return merged

    def term_catalogue(self, lang: Lang) -> dict[str, str]:
        """Every term (shared ones included) in `lang`, keyed ``@key``: for the board scripts."""
        merged = self.parent.term_catalogue(lang) if self.parent is not None else {}
        merged.update({f"@{key}": term(lang) for key, term in self.terms.items()})
        return merged

    # ------------------------------------------------------------------ building
    def _resolve(self, key: str, template: Template, lang: Lang) -> Template:
        if isinstance(template, tuple):
            one, other = (self._resolve(key, part, lang) for part in template)
            assert isinstance(one, str) and isinstance(other, str)
            return one, other

        def term(match: re.Match[str]) -> str:
            name = match.group(1)
            try:
                word = self.term(lang, name.lower() if name[:1].isupper() else name)
            except TextError:
                raise TextError(f"{self.name}: text {key!r} names no term {name!r}") from None
            return _capital(word) if name[:1].isupper() else word

        return _TERM_REF.sub(term, template)


# ---------------------------------------------------------------------- loading
def _read(package: str, file: str) -> dict[str, object]:
    from importlib import resources  # here: importing it costs start-up milliseconds

    path = resources.files(package) / file
    if not path.is_file():
        return {}
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as error:
        raise TextError(f"{package}/{file}: {error}") from None


def parse_glossary(data: Mapping[str, object], where: str) -> dict[str, Term]:
    """The terms of a glossary file's contents; TextError names the first malformed one."""
    table = data.get("terms", {})
    if not isinstance(table, dict):
        raise TextError(f"{where}: [terms] must be a table")
    terms: dict[str, Term] = {}
    for key, entry in table.items():
        if not isinstance(entry, dict):
            raise TextError(f"{where}: terms.{key} must be a table")
        unknown = set(entry) - {"de", "en", "de_tag", "en_tag", "note"}
        if unknown:
            raise TextError(f"{where}: terms.{key} has unknown fields {sorted(unknown)}")
        for field in ("de", "en", "de_tag", "en_tag"):
            if not isinstance(entry.get(field), str) or not entry[field].strip():
                raise TextError(f"{where}: terms.{key} lacks {field}")
        for field in ("de_tag", "en_tag"):
            if entry[field] not in TAGS:
                raise TextError(
                    f"{where}: terms.{key}.{field} is {entry[field]!r}, not one of "
                    f"{', '.join(sorted(TAGS))}"
                )
        terms[key] = Term(
            key,
            entry["de"],
            entry["en"],
            entry["de_tag"],
            entry["en_tag"],
            str(entry.get("note", "")),
        )
    return terms


def parse_texts(data: Mapping[str, object], where: str) -> dict[str, dict[Lang, Template]]:
    """The texts of a text file's contents, keys dotted (``describe.play``): every entry has
    a template per language, with the same parameters in each."""
    found: dict[str, dict[Lang, Template]] = {}

    def walk(prefix: str, table: Mapping[str, object]) -> None:
        if any(lang in table for lang in LANGUAGES):
            entry: dict[Lang, Template] = {}
            for lang in LANGUAGES:
                value = table.get(lang)
                if isinstance(value, str) and value:
                    entry[lang] = value
                elif (
                    isinstance(value, list)
                    and len(value) == 2
                    and all(isinstance(v, str) and v for v in value)
                ):
                    entry[lang] = (value[0], value[1])
                else:
                    raise TextError(f"{where}: {prefix} lacks its {lang} text")
            extra = set(table) - set(LANGUAGES) - {"note"}
            if extra:
                raise TextError(f"{where}: {prefix} has unknown fields {sorted(extra)}")
            found[prefix] = entry
            return
        for key, value in table.items():
            if not isinstance(value, dict):
                raise TextError(f"{where}: {prefix + '.' if prefix else ''}{key} is not a text")
            walk(f"{prefix}.{key}" if prefix else key, value)

    walk("", data)
    return found


@cache
def shared_texts() -> Texts:
    """The words every game shares (``spielwerk/core/texts.toml``)."""
    package = "spielwerk.core"
    return Texts(
        "core",
        parse_glossary(_read(package, "glossary.toml"), f"{package}/glossary.toml"),
        parse_texts(_read(package, "texts.toml"), f"{package}/texts.toml"),
    )


class _GameTexts(Texts):
    """A game's `Texts`, read from its package's files when first used: a program that never
    shows a text (a simulation, the start of a server) does not parse them."""

    def __init__(self, package: str) -> None:  # Texts.__init__ runs on first use
        self._package = package

    def __getattr__(self, attribute: str) -> Any:
        # Called only for an attribute not set yet: every one but `_package` until the read.
        if attribute.startswith("__") or attribute == "_package":
            raise AttributeError(attribute)
        package = self._package
        Texts.__init__(
            self,
            package.rpartition(".")[2],
            parse_glossary(_read(package, "glossary.toml"), f"{package}/glossary.toml"),
            parse_texts(_read(package, "texts.toml"), f"{package}/texts.toml"),
            parent=shared_texts(),
        )
        return object.__getattribute__(self, attribute)


@cache
def game_texts(package: str) -> Texts:
    """The words of the game whose package is `package` (``spielwerk.games.witches``), read
    once from its ``glossary.toml`` and ``texts.toml``, when first used."""
    return _GameTexts(package)


def texts_of_game(name: str) -> Texts:
    """The words of the registered game `name` (its package's files)."""
    from spielwerk.core.registry import game_class

    return game_texts(game_class(name).__module__.rpartition(".")[0])


def game_title(game: str, lang: Lang) -> str:
    """The game's title in `lang`: the glossary's term ``title`` (else ``game``), else the
    game class's own title."""
    texts = texts_of_game(game)
    for key in ("title", "game"):
        term = texts.terms.get(key)
        if term is not None:
            return term(lang)
    from spielwerk.core.registry import game_class

    return game_class(game).title


def seat_name(lang: Lang, player: int, you: bool = False) -> str:
    """A seat as a person reads it, counted from 1: the rules' seat 0 is "seat 1" („Platz 1“);
    `you` adds "(you)". Pages put a player's name in its place (`nameSeats` in
    ``static/narration.js`` knows both words)."""
    return shared_texts().say(lang, "seat_you" if you else "seat", n=player + 1)


def option_label(game: str, option: str, lang: Lang) -> str:
    """An option's name as a player reads it in `lang` ("Hexenrad"): the game's text
    ``option_label.<name>`` (every option a player may set has one; TextError if not)."""
    return texts_of_game(game).say(lang, f"option_label.{option}")


def option_value(game: str, spec: OptionSpec, value: object, lang: Lang) -> str:
    """An option's value as a player reads it in `lang`: a seat counted from 1 ("Platz 1"),
    yes or no, the game's text ``option_value.<name>.<value>`` ("absteigend"), else the value
    as it is (a number, the name of an operator's scenario file)."""
    if spec.seat and isinstance(value, int) and not isinstance(value, bool):
        return _capital(seat_name(lang, value))
    if isinstance(value, bool):
        return shared_texts().say(lang, f"option_value.{'yes' if value else 'no'}")
    texts = texts_of_game(game)
    key = f"option_value.{spec.name}.{value}"
    return texts.say(lang, key) if texts.has(key) else str(value)


def option_help(game: str, option: str, english: str, lang: Lang) -> str:
    """An option's help in `lang`: the game's text ``option.<name>``, else `english` (the
    option's own help; tests/core/test_i18n.py checks that the English text is that one)."""
    texts = texts_of_game(game)
    key = f"option.{option}"
    return texts.say(lang, key) if key in texts.raw else english
