"""The terminal in German and English: `--lang de|en` on play, replay and rules, else the
locale's language (LC_ALL, LC_MESSAGES, LANG), else English."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from spielwerk.cli.main import app

ENGLISH = {"LC_ALL": "C.UTF-8"}


def run(args: list[str], env: dict[str, str] | None = None, input: str | None = None) -> str:
    result = CliRunner().invoke(app, args, input=input, env=env or ENGLISH)
    assert result.exit_code == 0, (result.stdout, result.stderr)
    return result.stdout


def test_a_human_plays_witches_in_german() -> None:
    """The table, the choices (in the second person), the log and the result speak German."""
    out = run(
        ["play", "witches", "--players", "human,random", "--seed", "4", "--lang", "de"],
        input="1\n" * 60,
    )
    assert "Deine Möglichkeiten:" in out
    assert "1) Spiele " in out
    assert "Kartenstapel" in out and "Hexenrad" in out and "Deine Handkarten" in out
    assert "wird als erster Trumpf aufgedeckt" in out
    assert "Spiel vorbei" in out and "Ergebnis" in out and "Sieger" in out
    for english in ("Your choices", "Draw pile", "Trump pile", "Your hand", "plays "):
        assert english not in out


def test_the_locale_chooses_german_and_lang_overrules_it(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    german = {"LANG": "de_DE.UTF-8"}
    out = run(
        ["play", "witches", "--players", "random,random", "--seed", "2", "--record", str(record)],
        env=german,
    )
    assert "Spielprotokoll gespeichert" in out
    assert "Record written" in run(
        [
            "play",
            "witches",
            "--players",
            "random,random",
            "--seed",
            "2",
            "--record",
            str(record),
            "--lang",
            "en",
        ],
        env=german,
    )
    replayed = run(["replay", str(record), "--step"], env=german, input="\n" * 400)
    assert "Aktionen nachgespielt" in replayed and "Schritt 1 von" in replayed
    assert "spielt" in replayed and "Das Ende des Protokolls." in replayed
    assert json.loads(record.read_text())["game"] == "witches"
    english = run(["replay", str(record), "--lang", "en"], env=german)
    assert "actions replayed" in english


def test_rules_in_german_and_english() -> None:
    german = run(["rules", "witches", "--lang", "de"])
    assert "Spielziel" in german and "Trumpfstapel" in german and "Magiepunkte" in german
    assert "welche Seite des Hexenrades oben liegt" in german  # the option's help
    english = run(["rules", "witches", "--lang", "en"])
    assert "Goal" in english and "trump pile" in english


def test_an_unknown_language_is_a_usage_error() -> None:
    result = CliRunner().invoke(app, ["rules", "witches", "--lang", "fr"], env=ENGLISH)
    assert result.exit_code == 2
    assert "--lang 'fr'" in result.stderr
