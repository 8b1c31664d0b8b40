"""Write the bot levels' ratings from the ladder runs into the package.

    .venv/bin/python bench/ratings_from_ladders.py          # write spielwerk/agents/ratings.toml
    .venv/bin/python bench/ratings_from_ladders.py --check  # exit 1 if the file is not theirs

Reads `bench/results/ladder-GAME/ladder.json` and its `run.txt` (made by `bench/ladders.sh
GAME GAMES`) for every game that has one and writes `spielwerk/agents/ratings.toml`: per game
the ladder's command, games and seed, and per entrant its openskill mu with the 95% interval
and its wall seconds a decision. The lobby's levels read that file
(`spielwerk.agents.strengths`); tests hold the lobby to it (tests/agents/test_strengths.py).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "spielwerk" / "agents" / "ratings.toml"


def quoted(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a TOML basic string is a JSON string


def ratings_text() -> str:
    lines = [
        "# Each game's ladder: openskill mu with its 95% interval and wall seconds a decision per",
        "# entrant, from the runs in bench/results/ladder-GAME (written by",
        "# bench/ratings_from_ladders.py; do not edit). The lobby's levels follow it.",
    ]
    for path in sorted(ROOT.glob("bench/results/ladder-*/ladder.json")):
        ladder = json.loads(path.read_text(encoding="utf-8"))
        run = path.with_name("run.txt")
        command = ""
        if run.is_file():  # the last run of the ladder (a longer one extends the first)
            commands = [
                line.removeprefix("command: ")
                for line in run.read_text(encoding="utf-8").splitlines()
                if line.startswith("command: ")
            ]
            command = commands[-1] if commands else ""
        game = ladder["game"]
        lines += ["", f"[{game}]"]
        lines.append(f"ladder = {quoted(str(path.parent.relative_to(ROOT)))}")
        lines.append(f"command = {quoted(command)}")
        lines.append(f"games = {ladder['games']}")
        lines.append(f"seed = {ladder['seed']}")
        lines += ["", f"[{game}.ratings]"]
        for rating in ladder["ratings"]:
            mu, low, high = (round(rating[k], 2) for k in ("mu", "low", "high"))
            fields = f"mu = {mu}, low = {low}, high = {high}"
            seconds = rating.get("seconds_per_decision")
            if seconds is not None:
                fields += f", seconds = {round(seconds, 4)}"
            lines.append(f"{quoted(rating['entrant'])} = {{ {fields} }}")
    return "\n".join(lines) + "\n"


def main() -> None:
    text = ratings_text()
    if "--check" in sys.argv[1:]:
        if OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT.relative_to(ROOT)} differs from the ladder runs: run this script")
            sys.exit(1)
        print(f"{OUT.relative_to(ROOT)} holds the ladder runs' figures")
        return
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
