"""Evaluation games during training: the network's search against the heuristic and against
the previous network, with seat rotation over the same deals.

A line-up entry is "net" (search guided by the current network), "previous" (the same search
with the network of the last evaluation) or "heuristic". In a cooperative game every seat of
a game plays the same entry, and the win rate of the whole team is what counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from spielwerk.agents.base import Agent
from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.agents.network import build_model, network_player
from spielwerk.core.registry import load
from spielwerk.sim.match import play_game

NET = "net"
PREVIOUS = "previous"
HEURISTIC = "heuristic"


@dataclass(frozen=True)
class EvalTask:
    game: str
    options: tuple[tuple[str, Any], ...]
    seats: tuple[str, ...]
    """The entry in each seat (already rotated)."""
    seed: int
    iterations: int
    exploration: float
    metadata: dict[str, Any]
    params: dict[str, npt.NDArray[np.float32]]
    previous: dict[str, npt.NDArray[np.float32]] | None = None


@dataclass(frozen=True)
class EvalResult:
    seats: tuple[str, ...]
    win_shares: tuple[float, ...]
    cooperative: bool


def play_eval(task: EvalTask) -> EvalResult:
    game = load(task.game, **dict(task.options))
    agents: list[Agent] = []
    for seat, entry in enumerate(task.seats):
        seed = task.seed * 131 + seat
        if entry == HEURISTIC:
            factory = heuristic_factory(task.game)
            if factory is None:
                raise ValueError(f"{task.game} has no heuristic bot to evaluate against")
            agents.append(factory(seed))
            continue
        params = task.params if entry == NET else task.previous
        if params is None:
            raise ValueError("no previous network to evaluate against")
        model = build_model(task.metadata, params, "the training network")
        agents.append(network_player(model, task.iterations, None, seed, task.exploration))
    state = play_game(game, agents, seed=task.seed)
    result = state.result()
    winners = set(result["winners"])
    cooperative = bool(result.get("cooperative"))
    share = 1.0 if cooperative else 1.0 / max(len(winners), 1)
    shares = tuple(share if seat in winners else 0.0 for seat in range(state.num_players))
    return EvalResult(task.seats, shares, cooperative)


def play_evals(tasks: Sequence[EvalTask]) -> list[EvalResult]:
    return [play_eval(task) for task in tasks]


def lineups(opponent: str, players: int, cooperative: bool) -> list[tuple[str, ...]]:
    """The rotations of one net against `players - 1` opponents; a cooperative game plays a
    whole net team and a whole opponent team instead."""
    if cooperative:
        return [(NET,) * players, (opponent,) * players]
    base = (NET,) + (opponent,) * (players - 1)
    return [base[-r:] + base[:-r] if r else base for r in range(players)]


def win_rate(results: Sequence[EvalResult], entry: str = NET) -> tuple[float, int]:
    """Mean win share of `entry`'s seats (its team's wins in a cooperative game), and the
    number of games it played."""
    shares = []
    for result in results:
        mine = [s for s, e in zip(result.win_shares, result.seats, strict=True) if e == entry]
        if mine:
            shares.append(max(mine) if result.cooperative else sum(mine))
    return (sum(shares) / len(shares) if shares else 0.0), len(shares)


def summarise(
    results: Sequence[EvalResult], against: Sequence[str], cooperative: bool
) -> dict[str, float | int]:
    """One learning-curve point from evaluation games, `against[i]` being the opponent of game
    i: the net's win rate against each opponent (`vs_heuristic`, `vs_previous`) and its game
    count; in a cooperative game also the opponent team's win rate on the same deals
    (`heuristic_team`), as the net team's games have no opponent seat in them."""
    point: dict[str, float | int] = {}
    for opponent in dict.fromkeys(against):
        played = [r for r, o in zip(results, against, strict=True) if o == opponent]
        rate, count = win_rate(played, NET)
        point[f"vs_{opponent}"] = round(rate, 4)
        point[f"vs_{opponent}_games"] = count
        if cooperative:
            point[f"{opponent}_team"] = round(win_rate(played, opponent)[0], 4)
    return point
