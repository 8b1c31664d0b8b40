"""Playing the planned games: in this process, in local worker processes, or as Ray tasks.

Games are sent in chunks (a random game can take well under a millisecond, a task's overhead
more); each game's result depends on its GameSpec alone, and results come back sorted by game
index, so every backend and job count gives identical results. Ctrl-C cancels the games not yet
started, lets running chunks finish, and returns what finished (see `interrupt_flag`).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import FrameType
from typing import Any

from spielwerk.agents import make_agent
from spielwerk.agents.base import Agent
from spielwerk.core.state import CHANCE, State
from spielwerk.sim.match import ThinkTime, play_game
from spielwerk.sim.plan import GameSpec
from spielwerk.sim.variants import is_planted, load_variant

BACKENDS = ("local", "ray")


@dataclass(frozen=True, slots=True)
class GameRow:
    """The outcome of one game, per seat (index = seat)."""

    spec: GameSpec
    scores: tuple[float, ...]
    win_shares: tuple[float, ...]
    """1 split among the winners; a cooperative game gives every winner a whole 1."""
    decisions: int
    """Player actions (chance steps not counted)."""
    steps: int
    """All actions, chance steps included."""
    cooperative: bool
    think_seconds: tuple[float, ...] = field(default=(), compare=False)
    """Wall seconds each seat's agent spent choosing (empty where not measured: the batched
    simulator). Not compared: a rerun plays the same game in other times."""
    seat_decisions: tuple[int, ...] = field(default=(), compare=False)
    """Decisions each seat made (with `think_seconds`: seconds per decision)."""


@dataclass
class RunResult:
    rows: list[GameRow]
    planned: int
    interrupted: bool = False

    @property
    def complete(self) -> bool:
        return not self.interrupted and len(self.rows) == self.planned


Progress = Callable[[int], None]
"""Called with the number of games just finished."""
RowsHook = Callable[[Sequence["GameRow"]], None]
"""Called with the rows of the games just finished, as they come in (e.g. to keep them on
disk while a long run goes on)."""
Player = Callable[[GameSpec], "GameRow"]
"""Plays one spec: `play_spec`, or a caller's own that returns a GameRow with more in it (it
must be a module-level function, so worker processes and Ray can receive it)."""
Stop = Callable[[], bool]
"""Asked between chunks: True cancels the games not started (a time budget)."""


def spec_agents(spec: GameSpec) -> list[Agent]:
    """The seats' agents of a planned game, each seeded from the spec."""
    return [
        make_agent(spec.lineup[spec.entry_at(seat)], spec.game, seed=spec.agent_seed(seat))
        for seat in range(len(spec.lineup))
    ]


def outcome_fields(spec: GameSpec, state: State) -> dict[str, Any]:
    """A finished game's GameRow fields (a caller's richer row type adds its own)."""
    result = state.result()
    winners = set(result["winners"])
    cooperative = bool(result.get("cooperative"))
    share = 1.0 if cooperative else 1.0 / max(len(winners), 1)
    seats = range(state.num_players)
    return {
        "spec": spec,
        "scores": tuple(float(result["scores"][seat]) for seat in seats),
        "win_shares": tuple(share if seat in winners else 0.0 for seat in seats),
        "decisions": sum(actor != CHANCE for actor, _ in state.history),
        "steps": len(state.history),
        "cooperative": cooperative,
    }


def play_spec(spec: GameSpec) -> GameRow:
    """Play one planned game."""
    game = load_variant(spec.game, **dict(spec.variant.options))
    think = ThinkTime()
    state = play_game(game, spec_agents(spec), seed=spec.seed, think=think)
    return GameRow(
        **outcome_fields(spec, state),
        think_seconds=tuple(think.seconds),
        seat_decisions=tuple(think.decisions),
    )


def play_chunk(specs: Sequence[GameSpec], play: Player = play_spec) -> list[GameRow]:
    return [play(spec) for spec in specs]


def chunked(specs: Sequence[GameSpec], workers: int, most: int = 64) -> list[list[GameSpec]]:
    """About 16 chunks per worker: small enough for a smooth progress bar and balance; at most
    `most` games a chunk (a time budget wants short chunks)."""
    size = max(1, min(most, len(specs) // max(1, workers * 16)))
    return [list(specs[i : i + size]) for i in range(0, len(specs), size)]


def run(
    specs: Sequence[GameSpec],
    jobs: int = 1,
    backend: str = "local",
    ray_address: str | None = None,
    progress: Progress | None = None,
    batched: bool | None = None,
    on_rows: RowsHook | None = None,
    play: Player = play_spec,
    stop: Stop | None = None,
    chunk_most: int = 64,
) -> RunResult:
    """Play every spec and return the rows sorted by game index. `batched`: use the game's
    batched simulator, its compiled kernel (all seats random, local backend, nothing
    planted); None: whenever it can. `on_rows` gets
    the rows of finished games as they come in. `play` plays one spec (never batched unless
    it is `play_spec`); `stop` ends the run early like Ctrl-C: the games not started are
    dropped and the result says it was interrupted."""
    if backend not in BACKENDS:
        raise ValueError(f"unknown backend {backend!r}: use {' or '.join(BACKENDS)}")
    from spielwerk.sim.batched import can_batch, run_batched

    possible = (
        bool(specs)
        and play is play_spec
        and can_batch(specs[0].lineup, backend, specs[0].game)
        and not any(is_planted(dict(spec.variant.options)) for spec in specs)
    )
    if batched and not possible:
        raise ValueError(
            "the batched simulator needs every seat random, a local backend and a game that has one"
        )
    if possible and batched is not False:
        rows, interrupted = run_batched(specs, specs[0].seed - specs[0].deal, progress)
        if on_rows is not None:
            on_rows(rows)
    elif backend == "ray":
        from spielwerk.sim.ray_backend import run_ray

        rows, interrupted = run_ray(specs, ray_address, progress, on_rows, play, stop, chunk_most)
    elif jobs <= 1:
        rows, interrupted = _run_here(specs, progress, on_rows, play, stop)
    else:
        rows, interrupted = _run_processes(specs, jobs, progress, on_rows, play, stop, chunk_most)
    rows.sort(key=lambda row: row.spec.index)
    return RunResult(rows, len(specs), interrupted)


def _run_here(
    specs: Sequence[GameSpec],
    progress: Progress | None,
    on_rows: RowsHook | None = None,
    play: Player = play_spec,
    stop: Stop | None = None,
) -> tuple[list[GameRow], bool]:
    rows: list[GameRow] = []
    try:
        for spec in specs:
            if stop is not None and stop():
                return rows, True
            rows.append(play(spec))
            if on_rows is not None:
                on_rows(rows[-1:])
            if progress is not None:
                progress(1)
    except KeyboardInterrupt:
        return rows, True
    return rows, False


def _ignore_interrupts() -> None:
    # Ctrl-C reaches the whole process group; the parent decides what stops.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


@contextmanager
def interrupt_flag() -> Iterator[threading.Event]:
    """An event that Ctrl-C sets instead of raising KeyboardInterrupt.

    A KeyboardInterrupt raised inside `concurrent.futures.wait` can leave a future's lock held,
    and the pool's result thread then blocks on it forever; polling a flag never interrupts
    library code. Outside the main thread (no signal handlers there) the event stays unset.
    """
    interrupted = threading.Event()

    def handler(signum: int, frame: FrameType | None) -> None:
        interrupted.set()

    try:
        previous = signal.signal(signal.SIGINT, handler)
    except ValueError:
        yield interrupted
        return
    try:
        yield interrupted
    finally:
        signal.signal(signal.SIGINT, previous)


POLL_SECONDS = 0.1


def _run_processes(
    specs: Sequence[GameSpec],
    jobs: int,
    progress: Progress | None,
    on_rows: RowsHook | None = None,
    play: Player = play_spec,
    stop: Stop | None = None,
    chunk_most: int = 64,
) -> tuple[list[GameRow], bool]:
    rows: list[GameRow] = []
    pool = ProcessPoolExecutor(max_workers=jobs, initializer=_ignore_interrupts)
    pending: set[Future[list[GameRow]]] = set()

    def collect(done: set[Future[list[GameRow]]]) -> None:
        for future in done:
            chunk_rows = future.result()
            rows.extend(chunk_rows)
            if on_rows is not None:
                on_rows(chunk_rows)
            if progress is not None:
                progress(len(chunk_rows))

    with interrupt_flag() as interrupted:
        try:
            for chunk in chunked(specs, jobs, chunk_most):
                pending.add(pool.submit(play_chunk, chunk, play))
            while pending and not interrupted.is_set() and not (stop is not None and stop()):
                done, pending = wait(pending, timeout=POLL_SECONDS, return_when=FIRST_COMPLETED)
                collect(done)
        finally:
            # Chunks not started are dropped; running ones finish and are kept.
            pool.shutdown(wait=True, cancel_futures=True)
        collect({f for f in pending if f.done() and not f.cancelled()})
    return rows, bool(pending)
