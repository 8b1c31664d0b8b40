"""Rate the games of a `spielwerk simulate --out` run without playing them again.

    .venv/bin/python bench/simulation_to_ladder.py SIM_DIR LADDER_DIR
    .venv/bin/spielwerk ladder GAME --entrants LINE,UP -p N -n GAMES --out LADDER_DIR

A simulation of one line-up with as many entrants as seats plays exactly the games of a ladder
of those entrants (same deals, seeds, rotations and agent seeds), so its results.csv becomes the
ladder's games file, and `spielwerk ladder` with the same line-up resumes it: nothing is left to
play, it only rates.
"""

from __future__ import annotations

import csv
import json
import sys
from pathlib import Path

from spielwerk.sim.ladder import GAMES_FILE, setup_ladder


def main() -> None:
    sim_dir, ladder_dir = Path(sys.argv[1]), Path(sys.argv[2])
    summary = json.loads((sim_dir / "summary.json").read_text(encoding="utf-8"))
    if len(summary["variants"]) != 1:
        raise SystemExit("only a simulation without --vary matches a ladder")
    variant = summary["variants"][0]
    lineup = summary["lineup"]
    setup = setup_ladder(summary["game"], lineup, len(lineup), summary["seed"], variant["options"])
    games: dict[int, dict[str, object]] = {}
    with (sim_dir / "results.csv").open(encoding="utf-8") as file:
        for row in csv.DictReader(file):
            game = games.setdefault(
                int(row["game"]),
                {
                    "index": int(row["game"]),
                    "lineup": lineup,
                    "deal": int(row["deal"]),
                    "rotation": int(row["rotation"]),
                    "scores": [0.0] * len(lineup),
                    "win_shares": [0.0] * len(lineup),
                    "decisions": int(row["decisions"]),
                    "steps": int(row["steps"]),
                    "cooperative": setup.cooperative,
                },
            )
            seat = int(row["seat"])
            game["scores"][seat] = float(row["score"])  # type: ignore[index]
            game["win_shares"][seat] = float(row["win_share"])  # type: ignore[index]
    ladder_dir.mkdir(parents=True, exist_ok=True)
    lines = [json.dumps(setup.header())] + [json.dumps(games[i]) for i in sorted(games)]
    (ladder_dir / GAMES_FILE).write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(games)} games of {summary['game']} written to {ladder_dir / GAMES_FILE}")


if __name__ == "__main__":
    main()
