"""Bots in the terminal sit under a name and their level, as at a web table ("Ben (Hard bot)",
„Ben (schwerer Bot)“), in the seats line, the log and the result; `--players` still takes the
seat specs, which the output no longer shows."""

from __future__ import annotations

import re

import pytest
from typer.testing import CliRunner

from spielwerk.agents.strengths import levels
from spielwerk.cli.main import app

WORDS = {
    "en": {"easy": "Easy bot", "medium": "Medium bot", "hard": "Hard bot", "random": "random bot"},
    "de": {
        "easy": "leichter Bot",
        "medium": "mittlerer Bot",
        "hard": "schwerer Bot",
        "random": "Zufallsbot",
    },
}
NAMES = ("Anna", "Ben", "Clara", "David")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_bots_are_named_by_seat_and_level_and_no_spec_is_shown(lang: str) -> None:
    quick = [level for level in levels("witches") if level.key != "strongest"]
    specs = [level.spec for level in quick] + ["random"]
    kinds = [level.key for level in quick] + ["random"]
    command = ["play", "witches", "--players", ",".join(specs), "--seed", "3", "--lang", lang]
    result = CliRunner().invoke(app, command, env={"LC_ALL": "C.UTF-8"})
    assert result.exit_code == 0, result.stderr
    out = result.stdout
    labels = [f"{name} ({WORDS[lang][kind]})" for name, kind in zip(NAMES, kinds, strict=True)]
    seats_line = next(line for line in out.splitlines() if line.startswith(("Seats:", "Plätze:")))
    result_at = out.index("Result" if lang == "en" else "Ergebnis")
    log = out[out.index(seats_line) + len(seats_line) : result_at]
    for label in labels:
        assert label in seats_line
        # The log names every bot by the same name ("Trick 1: Anna (Easy bot) grey-1, ...").
        assert label in log, label
        # And so do the result table and the winner line.
        assert label in out[result_at:], label
    assert not re.search(r"\b(?:seat|Platz) \d", log)  # every seat is a bot's, named
    for spec in ("heuristic", "mcts", "random"):
        assert spec not in out.lower().replace("random bot", ""), spec
