"""Digests of seeded games that a restructuring of rules, kernels or bots must not change.

Run it on two checkouts and compare the output line by line, e.g. before and after a change:

    git worktree add /tmp/before <commit>
    (cd /tmp/before && SPIELWERK_PURE_PYTHON=1 SPIELWERK_CACHE_DIR=/tmp/before-cache \\
        PYTHONPATH=/tmp/before .venv-of-any-checkout/bin/python bench/seeded_digests.py) > before
    .venv/bin/python bench/seeded_digests.py > after && diff before after

Each line is one family of games and a hash of their action histories (or of the policy's
actions): heuristic games (rules the heuristics call), the learned rollout policies' games in
the kernels, and the moves of the compiled search (`mcts:200`) and of the shipped networks'
search (`net:100`, at the player count each network was trained for).
"""

from __future__ import annotations

import hashlib
import importlib
from typing import Any

import numpy as np

import spielwerk
from spielwerk.agents import make_agent
from spielwerk.core.kernel_ops import generator
from spielwerk.sim.match import play_game

NETWORK_PLAYERS = {"witches": 4, "isolde": 4}
"""Players at the tables of the networks trained for a count other than 3."""


def digest(value: object) -> str:
    return hashlib.sha256(repr(value).encode()).hexdigest()[:16]


def kernel_of(name: str) -> Any:
    try:
        from spielwerk.games.kernels import kernel_rules
    except ImportError:  # before 2026-11-28 each kernel module was its own description
        return importlib.import_module(f"spielwerk.games.{name}.kernel")
    return kernel_rules(name)


def rollout_module(name: str) -> Any:
    try:
        return importlib.import_module(f"spielwerk.agents.rollouts.{name}")
    except ImportError:  # before the policies moved to the agents layer
        module = "kernel" if name == "witches" else "kernel_policy"
        return importlib.import_module(f"spielwerk.games.{name}.{module}")


def main() -> None:
    for game, players in (("witches", 4), ("inkspell", 3), ("inkheart_dice", 3)):
        games = []
        for seed in range(6):
            agents = [make_agent("heuristic", game, seed=seed * 7 + i) for i in range(players)]
            state = play_game(spielwerk.load(game), agents, seed=seed)
            games.append((state.history, state.result()["scores"]))
        print(f"heuristic {game}", digest(games))
    for name, players in (("witches", 4), ("isolde", 3), ("inkspell", 3)):
        rules, policy, game = kernel_of(name), rollout_module(name), spielwerk.load(name)
        weights = np.random.default_rng(5).normal(size=policy.NUM_ROLLOUT_FEATURES)
        rng = generator(11)
        games = []
        for _ in range(30):
            s = rules.initial(game, players)
            actions = np.empty(rules.max_game_steps(game), dtype=np.int64)
            extra = (-1,) if name == "inkspell" else ()
            steps = policy.policy_game(s, weights, actions, rng, *extra)
            games.append(actions[:steps].tolist())
        print(f"policy {name}", digest(games))
    for game in ("witches", "inkheart_dice", "isolde", "inkspell"):
        for spec in ("mcts:200", "net:100"):
            players = NETWORK_PLAYERS.get(game, 3) if spec.startswith("net") else 3
            agents = [make_agent(spec, game, seed=3)]
            agents += [make_agent("random", game, seed=i) for i in range(players - 1)]
            state = play_game(spielwerk.load(game), agents, seed=4)
            print(f"{spec} {game} {players}p", digest(state.history))


if __name__ == "__main__":
    main()
