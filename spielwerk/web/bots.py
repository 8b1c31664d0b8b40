"""Bots on the server: their thinking runs in worker processes, never on the event loop.

A bot's turn sends the table's record, the seat, its spec and a seed to a worker, which replays
the record and asks the agent through the same `Turn` the terminal and the tournaments use: the
bot sees only its seat's view and resampled states. One table's search therefore never blocks
another table or the websocket pings.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

import spielwerk
from spielwerk.agents import AgentSpecError, make_agent
from spielwerk.agents.base import make_turn
from spielwerk.agents.heuristics import heuristic_factory

log = logging.getLogger("spielwerk.web")

MAX_MCTS_ITERATIONS = 20_000
MAX_MCTS_SECONDS = 10.0


@dataclass(frozen=True, slots=True)
class BotLevel:
    spec: str
    label: str


BOT_LEVELS: tuple[BotLevel, ...] = (
    BotLevel("random", "Random"),
    BotLevel("heuristic", "Heuristic"),
    BotLevel("mcts:300", "MCTS, quick (300 iterations)"),
    BotLevel("mcts:1000", "MCTS (1000 iterations)"),
    BotLevel("mcts:2s", "MCTS, strong (2 s a move)"),
)
"""The strengths the lobby offers; any spec within the limits below is accepted too."""


def check_bot_spec(spec: str, game_name: str) -> str:
    """The normalised spec if the server will run it, else AgentSpecError with the reason."""
    spec = spec.strip().lower()
    kind, _, budget = spec.partition(":")
    if kind == "heuristic" and heuristic_factory(game_name) is None:
        raise AgentSpecError(f"there is no heuristic bot for {game_name} yet")
    make_agent(spec, game_name, 0)  # raises AgentSpecError on anything unknown
    if kind == "mcts" and budget:
        if budget.endswith("s"):
            if float(budget[:-1]) > MAX_MCTS_SECONDS:
                raise AgentSpecError(f"an MCTS bot may think at most {MAX_MCTS_SECONDS:g} s")
        elif int(budget) > MAX_MCTS_ITERATIONS:
            raise AgentSpecError(f"an MCTS bot may run at most {MAX_MCTS_ITERATIONS} iterations")
    return spec


def bot_levels(game_name: str) -> list[dict[str, str]]:
    """The lobby's choices for this game (no heuristic where the game has none)."""
    try:
        has_heuristic = heuristic_factory(game_name) is not None
    except Exception:  # a game whose heuristic does not import yet simply offers none
        has_heuristic = False
    return [
        {"spec": level.spec, "label": level.label}
        for level in BOT_LEVELS
        if level.spec != "heuristic" or has_heuristic
    ]


def choose_action(record: dict[str, Any], seat: int, spec: str, seed: int) -> dict[str, Any]:
    """In a worker: the bot's action (JSON form) at the end of `record`."""
    state = spielwerk.replay(record)
    agent = make_agent(spec, state.game.name, seed)
    turn = make_turn(state, seat, agent.wants_sample, random.Random(seed))
    return agent.act(turn).to_json()


class BotPool:
    """A pool of worker processes (spawned, so they share nothing with the server)."""

    def __init__(self, workers: int) -> None:
        self.workers = max(1, workers)
        self._executor: Executor | None = None

    def _pool(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(self.workers, mp_context=context)
        return self._executor

    async def choose(self, record: dict[str, Any], seat: int, spec: str, seed: int) -> Any:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(
                    self._pool(), choose_action, record, seat, spec, seed
                )
            except BrokenProcessPool:
                log.warning("bot worker died (attempt %d); starting a new pool", attempt)
                self._executor = None
        raise RuntimeError("the bot workers keep failing")

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None
