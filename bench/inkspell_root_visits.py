"""Do Tintenblut's compiled and Python `mcts` seats search alike? Root visit shares compared.

On mid-game decisions of 3 players (`mid_game_state`, one seed per decision), 16 searches of
each seat at 300 iterations (`mcts` compiled, `mcts-py` the Python `MCTSAgent`, seeds 0-15)
from the same Turn: the mean visit share of every legal move, and how far apart the two seats'
means are in standard errors. The same algorithm gives differences of noise (about one move in
twenty beyond 2). Nothing is asserted; a probe for docs/agents.md.

    PYTHONPATH=. .venv/bin/python bench/inkspell_root_visits.py
"""

from __future__ import annotations

import random

import numpy as np

from spielwerk.agents import make_agent
from spielwerk.agents.base import make_turn
from spielwerk.agents.kernel_mcts import KernelMCTSAgent
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.bench.measure import mid_game_state

SEARCHES = 16
ITERATIONS = 300


def main() -> None:
    largest = 0.0
    moves = 0
    for k, decisions in enumerate((20, 60, 100, 140, 180, 220, 260, 300)):
        state = mid_game_state("inkspell", 3, decisions=decisions, seed=40 + k)
        seat = state.to_move
        if state.is_terminal() or not isinstance(seat, int):
            continue
        turn = make_turn(state, seat, True, random.Random(k))
        legal = turn.legal_actions
        if len(legal) < 2:
            continue
        compiled, python = [], []
        for r in range(SEARCHES):
            fast = make_agent(f"mcts:{ITERATIONS}", "inkspell", seed=r)
            assert isinstance(fast, KernelMCTSAgent)
            visits, _ = fast.root(turn)
            compiled.append(visits / visits.sum())
            slow = make_agent(f"mcts-py:{ITERATIONS}", "inkspell", seed=r)
            assert isinstance(slow, MCTSAgent)
            root = slow.search(turn)
            counts = [root.children[a.id].visits if a.id in root.children else 0 for a in legal]
            python.append(np.array(counts, dtype=float) / sum(counts))
        a, b = np.array(compiled), np.array(python)
        error = np.sqrt(a.var(0) / SEARCHES + b.var(0) / SEARCHES) + 1e-12
        z = np.abs(a.mean(0) - b.mean(0)) / error
        largest = max(largest, float(z.max()))
        moves += len(legal)
        print(
            f"decision {decisions}: {len(legal)} moves, largest difference {z.max():.2f} "
            f"standard errors; top share compiled {a.mean(0).max():.2f}, "
            f"Python {b.mean(0).max():.2f}"
        )
    print(f"largest of {moves} moves: {largest:.2f} standard errors")


if __name__ == "__main__":
    main()
