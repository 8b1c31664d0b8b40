"""`spielwerk review RECORD --seat N`: the review as a table in the player's language (seats
from 1, the game's own words for the moves), `--out` writes its JSON and chart, and every bad
argument gets one clear line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.cli.main import app
from spielwerk.sim.match import play_game

ENGLISH = {"LC_ALL": "C.UTF-8", "COLUMNS": "160"}
RAW_ACTION = re.compile(r"\{'type'|\"type\"|card=|choice=")


def record(tmp_path: Path, name: str, lineup: str, seed: int) -> Path:
    game = spielwerk.load(name)
    seats = lineup.split(",")
    final = play_game(game, [make_agent(x, name, seed + s) for s, x in enumerate(seats)], seed)
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(final.to_record()), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def dice_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Tintenherz game whose second seat plays at random (its review has marks)."""
    return record(
        tmp_path_factory.mktemp("review"), "inkheart_dice", "heuristic,random,mcts:300", 4
    )


def review(args: list[str], env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["review", *args], env=env or ENGLISH)
    return result.exit_code, result.stdout, result.stderr


def test_a_review_in_english_names_the_moves_in_the_games_words(dice_game: Path) -> None:
    code, out, err = review([str(dice_game), "--seat", "2", "--lang", "en"])
    assert code == 0, (out, err)
    assert "Review of Tintenherz" in out and "for seat 2" in out
    assert "Your move" in out and "Best moves" in out and "Drop" in out
    assert "calibrated on" in out  # Tintenherz with 3 players is measured
    assert re.search(r"\b(inaccuracy|mistake|blunder)\b", out)
    assert re.search(r"(Take|Re-roll) ", out)  # the game's own button texts
    assert "decisions judged" in out
    assert not RAW_ACTION.search(out)


def test_a_review_in_german_speaks_german(dice_game: Path) -> None:
    code, out, err = review([str(dice_game), "--seat", "2", "--lang", "de"])
    assert code == 0, (out, err)
    assert "Analyse von" in out and "für Platz 2" in out
    assert "Dein Zug" in out and "Beste Züge" in out and "Verlust" in out
    assert "geeicht an" in out
    assert re.search(r"\b(Ungenauigkeit|Fehler|Patzer)\b", out)
    assert re.search(r"(Nimm|Würfle) ", out)
    assert "Entscheidungen bewertet" in out
    for english in ("Your move", "Review of", "blunder", "mistake", "Take "):
        assert english not in out
    assert not RAW_ACTION.search(out)


def test_out_writes_the_review_and_its_chart(dice_game: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "reviews"
    code, out, err = review([str(dice_game), "--seat", "1", "--out", str(out_dir)])
    assert code == 0, (out, err)
    data = json.loads((out_dir / "inkheart_dice-seat1-review.json").read_text())
    assert data["format"] == "spielwerk-review/1" and data["seat"] == 0
    assert data["decisions"] and all(d["moves"] for d in data["decisions"])
    first = data["decisions"][0]
    assert first["moves"][first["played"]]["text"]["de"]
    chart = (out_dir / "inkheart_dice-seat1-review.png").read_bytes()
    assert chart.startswith(b"\x89PNG")
    assert "inkheart_dice-seat1-review.json" in out


@pytest.fixture(scope="module")
def witches_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Witches with 3 players: no network was trained for it, no calibration measured."""
    return record(tmp_path_factory.mktemp("witches"), "witches", "heuristic,random,random", 2)


def test_a_table_no_measurement_covers_says_it_is_uncalibrated(witches_game: Path) -> None:
    path = witches_game
    code, out, err = review([str(path), "--seat", "3", "--lang", "en"])
    assert code == 0, (out, err)
    assert "Uncalibrated" in out and "plain search" in out
    code, out, err = review([str(path), "--seat", "3", "--lang", "de"])
    assert "Nicht geeicht" in out and "einfachen Suche" in out


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--seat", "0"], "--seat must be a seat of this game: 1 to 3"),
        (["--seat", "4"], "--seat must be a seat of this game: 1 to 3"),
        (["--seat", "1", "--lang", "fr"], "--lang 'fr'"),
        (["--seat", "1", "--seed", "-1"], "--seed must be 0"),
    ],
)
def test_bad_arguments_get_one_clear_line(dice_game: Path, args: list[str], expected: str) -> None:
    code, out, err = review([str(dice_game), *args])
    assert code == 2 and out == ""
    assert err.startswith("spielwerk: error: ") and expected in err and len(err.splitlines()) == 1


def test_bad_records_and_outputs_get_one_clear_line(dice_game: Path, tmp_path: Path) -> None:
    code, _, err = review([str(tmp_path / "missing.json"), "--seat", "1"])
    assert code == 2 and "cannot access" in err
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    code, _, err = review([str(broken), "--seat", "1"])
    assert code == 2 and "not valid JSON" in err
    unfinished = tmp_path / "unfinished.json"
    data = json.loads(dice_game.read_text())
    data["actions"] = data["actions"][:40]
    data["result"] = None
    unfinished.write_text(json.dumps(data), encoding="utf-8")
    code, _, err = review([str(unfinished), "--seat", "1"])
    assert code == 2 and "only a finished game can be reviewed" in err
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    code, _, err = review([str(dice_game), "--seat", "1", "--out", str(a_file)])
    assert code == 2 and "is a file, not a directory" in err


def test_hindsight_is_a_labelled_column_of_its_own(witches_game: Path, dice_game: Path) -> None:
    code, out, err = review([str(witches_game), "--seat", "2", "--hindsight", "--lang", "en"])
    assert code == 0, (out, err)
    assert "Hindsight: all cards open" in out and "never sets a mark" in out
    code, out, err = review([str(witches_game), "--seat", "2", "--hindsight", "--lang", "de"])
    assert "Im Nachhinein: alle Karten offen" in out and "bestimmt keine Bewertung" in out
    code, out, err = review([str(dice_game), "--seat", "2", "--hindsight", "--lang", "en"])
    assert code == 0 and "hides nothing that could be opened" in out
    assert "Hindsight: all cards open" not in out
