"""Probe a candidate `best` configuration (bench/results/strength/probes-*.md).

    .venv/bin/python bench/probe_best.py GAME LINEUP GAMES JOBS field=value ...

Sets `BEST_CONFIGS[GAME]` to the game's `mcts` configuration with the given SearchConfig fields
replaced (None, True, False, numbers, text), then plays LINEUP with seat rotation; worker
processes inherit the setting (they are forked). SEED in the environment sets the first deal.
"""

from __future__ import annotations

import os
import sys
import time
from dataclasses import replace

from spielwerk.agents import configs
from spielwerk.sim.tournament import markdown_table, run_tournament


def value(text: str) -> object:
    if text in ("True", "False"):
        return text == "True"
    if text == "None":
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def main() -> None:
    game, lineup = sys.argv[1], sys.argv[2].split(",")
    games, jobs = int(sys.argv[3]), int(sys.argv[4])
    fields = {key: value(text) for key, _, text in (a.partition("=") for a in sys.argv[5:])}
    config = replace(configs.MCTS_CONFIGS.get(game, configs.PLAIN), **fields)  # type: ignore[arg-type]
    configs.BEST_CONFIGS[game] = config
    print("config:", config.describe(), fields, flush=True)
    print("load before:", os.getloadavg(), flush=True)
    start = time.perf_counter()
    stats = run_tournament(game, lineup, games, seed=int(os.environ.get("SEED", "0")), jobs=jobs)
    print(f"{time.perf_counter() - start:.0f} s; load after: {os.getloadavg()}")
    print(markdown_table(stats), flush=True)


if __name__ == "__main__":
    main()
