"""Bots on the server: their thinking runs in worker processes, never on the event loop.

A bot's turn sends the table's game, options, seed and action history (as ids) with the seat,
its spec and a seed to a worker. The worker rebuilds the state (keeping the last states it
built, so a table's next turn only applies the new actions) and asks the agent through the same
`Turn` the terminal and the tournaments use: the bot sees only its seat's view and resampled
states.

Two lanes keep one table's search from holding up another table's quick bot: random and
heuristic bots answer in milliseconds from one worker of their own; MCTS bots share the search
workers. Each table asks for one bot decision at a time, so a table never waits for its own
earlier search. In each lane decisions wait in a `FairQueue` grouped by the client that created
the table: one client's many tables get no more turns than another client's one. No decision
thinks longer than the server's cap (`max_seconds`): an MCTS bot with an iteration budget
stops at the cap too.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, TypeVar

import spielwerk
from spielwerk.agents import AgentSpecError, MCTSAgent, is_search_spec, make_agent
from spielwerk.agents.base import Agent, make_turn
from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.agents.network import ModelError, parse_network_spec
from spielwerk.core.state import State
from spielwerk.web.fairness import FairQueue

log = logging.getLogger("spielwerk.web")

R = TypeVar("R")
W = TypeVar("W")

MAX_MCTS_ITERATIONS = 20_000
MAX_MCTS_SECONDS = 5.0
"""The default cap on a bot's thinking time per move (`spielwerk serve --max-bot-seconds`)."""
WORKER_CACHE_TABLES = 32
"""States a worker keeps between a table's bot turns."""
PARENT_CHECK_SECONDS = 1.0


def check_bot_spec(spec: str, game_name: str, max_seconds: float = MAX_MCTS_SECONDS) -> str:
    """The normalised spec if the server will run it, else AgentSpecError with the reason."""
    spec = spec.strip().lower()
    kind, _, budget = spec.partition(":")
    if kind == "heuristic" and heuristic_factory(game_name) is None:
        raise AgentSpecError(f"there is no heuristic bot for {game_name} yet")
    if kind == "net" and parse_network_spec(budget)[0] is not None:  # never a server file
        raise AgentSpecError("a network bot here plays the shipped model: net or net:BUDGET")
    try:
        make_agent(spec, game_name, 0)  # raises AgentSpecError on anything unknown
    except ModelError as error:  # no network ships for this game, or a bad budget
        raise AgentSpecError(str(error)) from None
    if is_search_spec(spec) and budget:
        if budget.endswith("s"):
            if float(budget[:-1]) > max_seconds:
                raise AgentSpecError(
                    f"an MCTS bot may think at most {max_seconds:g} s a move on this server"
                )
        elif int(budget) > MAX_MCTS_ITERATIONS:
            raise AgentSpecError(f"an MCTS bot may run at most {MAX_MCTS_ITERATIONS} iterations")
    return spec


def sit_in_bot(game_name: str) -> str:
    """The bot that plays for a person who left (or ran out of time): the game's heuristic,
    quick and sensible, or a short search where the game has none."""
    try:
        has_heuristic = heuristic_factory(game_name) is not None
    except Exception:
        has_heuristic = False
    return "heuristic" if has_heuristic else "mcts:300"


def bot_fits(spec: str, max_seconds: float) -> bool:
    """False for a lobby level whose time budget is above the server's cap."""
    budget = spec.partition(":")[2]
    return not (is_search_spec(spec) and budget.endswith("s") and float(budget[:-1]) > max_seconds)


def is_search(spec: str) -> bool:
    """True for the bots that search (and so take the search lane)."""
    return is_search_spec(spec)


@dataclass(frozen=True, slots=True)
class BotRequest:
    """Everything a worker needs to decide for one seat (picklable, small)."""

    table_id: str
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    history: tuple[tuple[int, int], ...]
    """(actor, action id) of every action so far."""
    seat: int
    spec: str
    bot_seed: int
    max_seconds: float = MAX_MCTS_SECONDS
    """The server's cap on thinking time for this decision."""


_worker_states: OrderedDict[str, State] = OrderedDict()
"""In a worker process: the last state built per table (least recently used first)."""


def _state_for(request: BotRequest) -> State:
    """The table's state after `request.history`, from the worker's cache where it can."""
    return state_after(
        request.table_id,
        request.game,
        request.options,
        request.players,
        request.seed,
        request.history,
    )


def state_after(
    table_id: str,
    game: str,
    options: dict[str, Any],
    players: int,
    seed: int,
    history: tuple[tuple[int, int], ...],
) -> State:
    """In a worker: table `table_id`'s state after `history`, built on the last state this
    worker built for it where that is a prefix (a table's next turn applies only the new
    actions). The game review's work in the same workers uses it too."""
    state = _worker_states.pop(table_id, None)
    actions = list(history)
    if (
        state is None
        or state.game.name != game
        or len(state.history) > len(actions)
        or state.history != actions[: len(state.history)]
    ):
        state = spielwerk.load(game, **options).new_state(players, seed=seed)
    for actor, action_id in actions[len(state.history) :]:
        # The server validated every stored action; a bad one still fails loudly here.
        state.apply(action_id, player=actor)
    _worker_states[table_id] = state
    while len(_worker_states) > WORKER_CACHE_TABLES:
        _worker_states.popitem(last=False)
    return state


def capped(agent: Agent, max_seconds: float) -> Agent:
    """The agent, thinking at most `max_seconds` a move whatever its own budget."""
    from spielwerk.agents.kernel_mcts import KernelMCTSAgent  # the compiled search, same budget
    from spielwerk.agents.kernel_network import KernelNetworkAgent
    from spielwerk.agents.network import FittingNetworkAgent, NetworkAgent

    if isinstance(agent, FittingNetworkAgent):  # `best` as a network or the search it replaced
        agent.adjust(lambda inner: capped(inner, max_seconds))
        return agent
    search = agent.search if isinstance(agent, NetworkAgent) else agent  # thinks by its search
    if isinstance(search, MCTSAgent | KernelMCTSAgent | KernelNetworkAgent):
        search.seconds = max_seconds if search.seconds is None else min(search.seconds, max_seconds)
    return agent


def choose_action(request: BotRequest) -> int:
    """In a worker: the id of the bot's action after the request's history."""
    state = _state_for(request)
    agent = capped(make_agent(request.spec, request.game, request.bot_seed), request.max_seconds)
    rng = random.Random(request.bot_seed)
    turn = make_turn(state, request.seat, agent.wants_sample, rng)
    return agent.act(turn).id


def _exit_with_parent(parent: int) -> None:
    """In a worker: exit as soon as the server process is gone. A server killed with SIGKILL
    cannot stop its workers, and a worker waiting for work would otherwise live on."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


class _Lane:
    """A pool of worker processes (spawned, so they share nothing with the server), rebuilt
    if a worker dies, fed by a fair queue."""

    def __init__(self, name: str, workers: int) -> None:
        self.name = name
        self.workers = max(1, workers)
        self._executor: Executor | None = None
        self.queue = FairQueue(self.workers)

    def _pool(self) -> Executor:
        if self._executor is None:
            context = multiprocessing.get_context("spawn")
            self._executor = ProcessPoolExecutor(
                self.workers,
                mp_context=context,
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._executor

    async def run(self, request: BotRequest, group: str) -> int:
        async with self.queue.turn(group):
            return await self._run(request)

    async def _run(self, request: BotRequest) -> int:
        return await self._work(choose_action, request)

    async def call(self, work: Callable[[R], W], request: R, group: str) -> W:
        """`work(request)` in this lane's workers, queued fairly with the bots' decisions
        (the game review and the hints think here too, `spielwerk.web.review`)."""
        async with self.queue.turn(group):
            return await self._work(work, request)

    async def _work(self, work: Callable[[R], W], request: R) -> W:
        loop = asyncio.get_running_loop()
        for attempt in (1, 2):
            try:
                return await loop.run_in_executor(self._pool(), work, request)
            except BrokenProcessPool:
                log.warning("%s bot worker died (attempt %d); new workers", self.name, attempt)
                self._executor = None
        raise RuntimeError(f"the {self.name} bot workers keep failing")

    def close(self) -> None:
        if self._executor is not None:
            self._executor.shutdown(wait=False, cancel_futures=True)
            self._executor = None


class BotPool:
    """The quick lane (random, heuristic: one worker) and the search lane (MCTS)."""

    def __init__(self, search_workers: int) -> None:
        self.quick = _Lane("quick", 1)
        self.search = _Lane("search", search_workers)

    async def choose(self, request: BotRequest, group: str = "") -> int:
        """The bot's decision; `group` (the table creator) decides its place in the queue."""
        lane = self.search if is_search(request.spec) else self.quick
        return await lane.run(request, group or request.table_id)

    def close(self) -> None:
        self.quick.close()
        self.search.close()


def bot_request(
    table_id: str,
    state: State,
    seat: int,
    spec: str,
    bot_seed: int,
    max_seconds: float = MAX_MCTS_SECONDS,
) -> BotRequest:
    """The request for `seat`'s decision now."""
    return BotRequest(
        table_id=table_id,
        game=state.game.name,
        options=dict(state.game.options),
        players=state.num_players,
        seed=state.seed,
        history=tuple(state.history),
        seat=seat,
        spec=spec,
        bot_seed=bot_seed,
        max_seconds=max_seconds,
    )
