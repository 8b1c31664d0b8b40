"""Write the lobby strengths' ratings from the ladder runs into the package.

    .venv/bin/python bench/ratings_from_ladders.py

Reads `bench/results/ladder-GAME/ladder.json` (made by `bench/ladders.sh GAME GAMES`) for every
game that has one and writes `spielwerk/agents/ratings.toml`: per game and seat spec, the
openskill mu and its 95% interval, with the ladder's games and seed. The lobby's labels read
that file (`spielwerk.agents.strengths`); a test checks it against the ladder files.
"""

from __future__ import annotations

import json
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "spielwerk" / "agents" / "ratings.toml"


def main() -> None:
    lines = [
        "# The lobby strengths' ratings: openskill mu and its 95% interval from the ladder runs",
        "# in bench/results/ladder-GAME (written by bench/ratings_from_ladders.py; do not edit).",
    ]
    for path in sorted(ROOT.glob("bench/results/ladder-*/ladder.json")):
        ladder = json.loads(path.read_text(encoding="utf-8"))
        lines += ["", f"[{ladder['game']}]"]
        lines.append(f'ladder = "{path.parent.relative_to(ROOT)}"')
        lines.append(f"games = {ladder['games']}")
        for rating in ladder["ratings"]:
            mu, low, high = (round(rating[k], 2) for k in ("mu", "low", "high"))
            lines.append(f'"{rating["entrant"]}" = {{ mu = {mu}, low = {low}, high = {high} }}')
    OUT.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
