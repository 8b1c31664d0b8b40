"""Two entrants of a ladder run compared on the games where both sat, paired by deal.

    .venv/bin/python bench/ladder_pair.py bench/results/ladder-witches net:0.25s mcts:0.25s

For each deal, the mean difference of the two entrants' win shares (and scores) over that
deal's games with both at the table (every line-up holding both, every rotation); then the
mean over deals with its 95% interval (Student's t over deals, as the deals are independent
and a deal's games are not). Where the interval of the win-share difference leaves out 0,
the two are apart on the same deals, which the ladder's own ratings (openskill over all
games) may not show yet. Prints one line per measure and each entrant's seconds a decision
in those games.
"""

from __future__ import annotations

import json
import math
import statistics
import sys
from pathlib import Path

from scipy.stats import t as student

from spielwerk.sim.ladder import GAMES_FILE, LadderSetup, plan_ladder, row_from_json


def main() -> None:
    folder, first, second = Path(sys.argv[1]), sys.argv[2], sys.argv[3]
    lines = (folder / GAMES_FILE).read_text(encoding="utf-8").splitlines()
    header = json.loads(lines[0])
    setup = LadderSetup(
        header["game"],
        tuple(header["entrants"]),
        header["players"],
        header["seed"],
        tuple((key, value) for key, value in header["options"]),
        header["cooperative"],
    )
    entries = [json.loads(line) for line in lines[1:]]
    specs = plan_ladder(setup, max(int(e["index"]) for e in entries) + 1)
    by_deal: dict[str, dict[int, list[float]]] = {"win share": {}, "score": {}}
    thinking = {first: [0.0, 0], second: [0.0, 0]}
    games = 0
    for entry in entries:
        row = row_from_json(entry, specs)
        lineup = row.spec.lineup
        if first not in lineup or second not in lineup:
            continue
        games += 1
        seat = {lineup[row.spec.entry_at(s)]: s for s in range(len(lineup))}
        a, b = seat[first], seat[second]
        for measure, values in (("win share", row.win_shares), ("score", row.scores)):
            by_deal[measure].setdefault(row.spec.deal, []).append(values[a] - values[b])
        for name, at in ((first, a), (second, b)):
            if row.think_seconds:
                thinking[name][0] += row.think_seconds[at]
                thinking[name][1] += row.seat_decisions[at]
    print(f"{setup.game}: {first} against {second}, {games} games with both")
    for measure, deals in by_deal.items():
        means = [statistics.mean(values) for values in deals.values()]
        mean = statistics.mean(means)
        half = student.ppf(0.975, len(means) - 1) * statistics.stdev(means) / math.sqrt(len(means))
        print(
            f"  {measure}: {first} - {second} = {mean:.3f} [{mean - half:.3f} to "
            f"{mean + half:.3f}] over {len(means)} deals"
        )
    for name, (seconds, decisions) in thinking.items():
        if decisions:
            print(f"  {name}: {seconds / decisions:.4f} s a decision")


if __name__ == "__main__":
    main()
