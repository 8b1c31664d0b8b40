"""Expert iteration on the CPU: self-play with network-guided search, then gradient steps.

One run is a sequence of generations. A generation plays a batch of games (in this process,
in local worker processes, or as Ray tasks), adds their samples to the replay buffer and takes
gradient steps on it (JAX). The first `warm_generations` are the warm start (the heuristic's
games, `spielwerk.learn.selfplay`); after that the search is guided by the current network.
Every `eval_minutes` the network's search plays the heuristic and the network of the previous
evaluation with seat rotation (the learning curve). Every `checkpoint_minutes`, and at the end,
the run writes the model file and a checkpoint (weights, optimiser state, replay buffer, random
generator, counters and curve), from which `resume` continues.

Everything random comes from the seed: game g of the run gets seed `seed * 1_000_003 + g`, the
replay sampler a NumPy generator seeded with `seed`. So for a seed the generations are the same
whatever `jobs` or backend plays them; only where a time limit stops the run depends on speed
(`generations` stops after a fixed number instead).
"""

from __future__ import annotations

import json
import math
import multiprocessing
import platform
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from spielwerk.agents.network import (
    Params,
    build_model,
    initial_params,
    network_metadata,
    save_model,
)
from spielwerk.core.errors import SpielwerkError
from spielwerk.core.registry import load
from spielwerk.learn.evaluate import (
    HEURISTIC,
    PREVIOUS,
    EvalResult,
    EvalTask,
    lineups,
    play_evals,
    summarise,
)
from spielwerk.learn.model import Trainer
from spielwerk.learn.replay import ReplayBuffer
from spielwerk.learn.selfplay import (
    HEURISTIC as WARM,
)
from spielwerk.learn.selfplay import (
    KERNEL,
    SEARCH,
    GameSamples,
    GameTask,
    SearchSettings,
    game_seed,
    play_tasks,
)

CHECKPOINT_FORMAT = "spielwerk-checkpoint/1"
BACKENDS = ("local", "ray")
EXPERTS = ("auto", SEARCH, KERNEL)
"""`search`: the network-guided PUCT search of `spielwerk.agents.mcts` (any game); `kernel`:
the compiled search with the network judging its root's moves (games with a kernel); `auto`:
`kernel` where the game's `mcts` seat is the compiled search (a kernel, Numba and the plain
search configured), else `search`."""

SCORE_WEIGHTS = {"inkheart_dice": 0.02, "tainted_grail": 0.05}
"""Value targets: win share plus this x the final score, where wins alone say little (a fifth
of Tintenherz games end with every score 0; the Tainted Grail party's quest markers tell a
near miss from a rout). Same figures as the rollout tuning in `spielwerk.agents`."""


class TrainingError(SpielwerkError, ValueError):
    """A training run that cannot start: bad settings or an unusable checkpoint."""


@dataclass(frozen=True)
class TrainConfig:
    game: str
    players: int
    out: Path
    options: dict[str, str] = field(default_factory=dict)
    minutes: float = 60.0
    generations: int | None = None
    seed: int = 0
    jobs: int = 1
    backend: str = "local"
    ray_address: str | None = None
    hidden: tuple[int, ...] = (256, 128)
    warm_generations: int = 8
    warm_games: int = 32
    games_per_generation: int = 8
    epsilon: float = 0.1
    search: SearchSettings = field(default_factory=SearchSettings)
    play_iterations: int = 400
    """The search budget of the seat `net` with this model (recorded in the model file)."""
    expert: str = "auto"
    kernel_search: SearchSettings = field(
        default_factory=lambda: SearchSettings(
            iterations=1000, exploration=0.7, temperature_decisions=8, blend=0.4
        )
    )
    """The `kernel` expert's settings (budget, exploration, blend); a policy target at every
    decision, as the compiled search costs milliseconds."""
    kernel_games_per_generation: int = 32
    kernel_replay_capacity: int = 200_000
    kernel_replay_ratio: float = 1.0
    """The `kernel` expert's samples are plentiful: each is seen about once (more and the value
    head learns its games by heart: its loss on unseen games rises after one pass)."""
    kernel_play_iterations: int = 1000
    batch_size: int = 256
    replay_capacity: int = 60_000
    replay_ratio: float = 8.0
    """Gradient steps per generation: replay_ratio x new samples / batch size."""
    warm_replay_ratio: float = 16.0
    """The same in the warm start, whose games are cheap and whose targets are one-hot."""
    learning_rate: float = 1e-3
    weight_decay: float = 1e-4
    eval_minutes: float = 7.0
    eval_deals: int = 2
    checkpoint_minutes: float = 5.0
    command: str = ""

    def checkpoint_path(self) -> Path:
        return checkpoint_path(self.out)


def checkpoint_path(model_path: Path) -> Path:
    return model_path.with_name(model_path.stem + ".checkpoint.npz")


@dataclass
class Progress:
    """What the run has done so far (saved in checkpoints)."""

    generation: int = 0
    games: int = 0
    samples: int = 0
    steps: int = 0
    seconds: float = 0.0
    """Wall time of all sessions of this run (resumed ones added)."""
    loss: dict[str, float] = field(default_factory=dict)
    curve: list[dict[str, Any]] = field(default_factory=list)
    last_eval_seconds: float | None = None
    sessions: list[dict[str, Any]] = field(default_factory=list)


Event = Callable[[str, Progress, dict[str, Any]], None]
"""Called with ("generation" | "evaluation" | "checkpoint", progress, details)."""

T = TypeVar("T")
R = TypeVar("R")


class Workers:
    """Runs chunks of games in this process, in local worker processes or as Ray tasks.

    Local workers are spawned, not forked: the parent runs JAX's threads, and a forked child
    of a multithreaded process may deadlock. Workers import NumPy only (the forward pass)."""

    def __init__(self, jobs: int, backend: str, ray_address: str | None) -> None:
        self.jobs = jobs
        self.backend = backend
        self.pool: Executor | None = None
        self.ray: Any = None
        if backend == "ray":
            try:
                import ray
            except ImportError:
                raise TrainingError(
                    "the ray backend needs Ray: pip install 'spielwerk[ray]'"
                ) from None
            self.started_ray = not ray.is_initialized()
            if self.started_ray:
                ray.init(
                    address=ray_address,
                    include_dashboard=False,
                    log_to_driver=False,
                    configure_logging=False,
                )
            self.ray = ray
            resources = ray.cluster_resources()  # type: ignore[no-untyped-call]
            self.jobs = max(1, int(resources.get("CPU", 1)))
        elif jobs > 1:
            context = multiprocessing.get_context("spawn")
            self.pool = ProcessPoolExecutor(max_workers=jobs, mp_context=context)

    def map(self, function: Callable[[Sequence[T]], list[R]], items: Sequence[T]) -> list[R]:
        """`function` over chunks of `items`, results in the order of `items`."""
        if not items:
            return []
        chunks = [list(items[i :: self.jobs]) for i in range(min(self.jobs, len(items)))]
        if self.ray is not None:
            remote = self.ray.remote(function)
            parts = self.ray.get([remote.remote(chunk) for chunk in chunks])
        elif self.pool is not None:
            parts = list(self.pool.map(function, chunks))
        else:
            parts = [function(chunks[0])]
        results: list[R | None] = [None] * len(items)
        for offset, part in enumerate(parts):
            results[offset :: len(chunks)] = part
        return [r for r in results if r is not None]

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)
        if self.ray is not None and self.started_ray:
            self.ray.shutdown()


class Run:
    """One training run (new or resumed)."""

    def __init__(self, config: TrainConfig, resume: Path | None = None) -> None:
        if config.players < 1:
            raise TrainingError("--players must be at least 1")
        if config.backend not in BACKENDS:
            raise TrainingError(f"unknown backend {config.backend!r}: use local or ray")
        self.config = config
        self.game = load(config.game, **config.options)
        self.game.new_state(config.players, seed=0)  # a bad player count fails here
        if self.game.observation_layout is None:
            raise TrainingError(f"{config.game} defines no observation tensor to learn from")
        self.score_weight = SCORE_WEIGHTS.get(config.game, 0.0)
        self.expert = resolve_expert(config.expert, config.game)
        check_leaf_mix(config.kernel_search.leaf_mix, self.expert, config.game)
        self.base_metadata = network_metadata(
            self.game, [config.players], config.hidden, self.score_weight
        )
        self.progress = Progress()
        self.rng = np.random.default_rng(config.seed)
        meta = self.base_metadata
        capacity = config.kernel_replay_capacity if self.kernel else config.replay_capacity
        self.buffer = ReplayBuffer(
            capacity, meta["observation_size"], meta["num_actions"], meta["seats"]
        )
        self.trainer = Trainer(
            initial_params(meta, config.seed), config.learning_rate, config.weight_decay
        )
        self.previous: Params | None = None
        self.cooperative = False
        if resume is not None:
            self._restore(resume)

    # ------------------------------------------------------------------ metadata
    @property
    def kernel(self) -> bool:
        return self.expert == KERNEL

    @property
    def settings(self) -> SearchSettings:
        """The self-play search's settings of this run's expert."""
        return self.config.kernel_search if self.kernel else self.config.search

    def metadata(self) -> dict[str, Any]:
        config = self.config
        how: dict[str, Any] = {
            "exploration": self.settings.exploration,
            "play_iterations": config.kernel_play_iterations
            if self.kernel
            else config.play_iterations,
        }
        if self.kernel:
            how.update(search=KERNEL, blend=self.settings.blend, leaf_mix=self.settings.leaf_mix)
        return {
            **self.base_metadata,
            **how,
            "training": {
                "command": config.command,
                "seed": config.seed,
                "minutes": round(self.progress.seconds / 60, 2),
                "generations": self.progress.generation,
                "games": self.progress.games,
                "samples": self.progress.samples,
                "gradient_steps": self.progress.steps,
                "loss": self.progress.loss,
                "machine": f"{platform.machine()}, {multiprocessing.cpu_count()} cores",
                "sessions": self.progress.sessions,
                "written": datetime.now(UTC).isoformat(timespec="seconds"),
            },
            "evaluation": self.progress.curve,
        }

    # ------------------------------------------------------------------ the loop
    def run(self, on_event: Event | None = None) -> Progress:
        config = self.config
        started = time.perf_counter()
        base_seconds = self.progress.seconds
        session: dict[str, Any] = {
            "started": datetime.now(UTC).isoformat(timespec="seconds"),
            "minutes_allowed": config.minutes,
            "jobs": config.jobs,
            "backend": config.backend,
        }
        self.progress.sessions.append(session)
        deadline = started + config.minutes * 60
        last_checkpoint = started
        workers = Workers(config.jobs, config.backend, config.ray_address)

        def elapsed() -> float:
            return base_seconds + time.perf_counter() - started

        def notify(kind: str, details: dict[str, Any]) -> None:
            self.progress.seconds = elapsed()
            if on_event is not None:
                on_event(kind, self.progress, details)

        try:
            while time.perf_counter() < deadline and (
                config.generations is None or self.progress.generation < config.generations
            ):
                details = self._generation(workers)
                notify("generation", details)
                warm = self.progress.generation <= self.warm_generations
                last = self.progress.last_eval_seconds
                due = last is None or elapsed() - last >= config.eval_minutes * 60
                ends = time.perf_counter() >= deadline or self.progress.generation == (
                    config.generations
                )
                if not warm and (due or ends):
                    self.progress.seconds = elapsed()
                    point = self._evaluate(workers)
                    notify("evaluation", point)
                if time.perf_counter() - last_checkpoint >= config.checkpoint_minutes * 60:
                    self.progress.seconds = elapsed()
                    self.save()
                    last_checkpoint = time.perf_counter()
                    notify("checkpoint", {"path": str(config.checkpoint_path())})
        except KeyboardInterrupt:
            session["interrupted"] = True
        finally:
            workers.close()
            self.progress.seconds = elapsed()
            session["minutes"] = round((time.perf_counter() - started) / 60, 2)
            self.save()
            notify("checkpoint", {"path": str(config.checkpoint_path()), "final": True})
        return self.progress

    @property
    def warm_generations(self) -> int:
        """The kernel expert needs no warm start: its first games are the compiled search's."""
        return 0 if self.kernel else self.config.warm_generations

    def _generation(self, workers: Workers) -> dict[str, Any]:
        config = self.config
        progress = self.progress
        warm = progress.generation < self.warm_generations
        count = config.games_per_generation
        if warm:
            count = config.warm_games
        elif self.kernel:
            count = config.kernel_games_per_generation
        # The kernel expert's first generation is the plain compiled search (untrained weights
        # would only add noise to its root values).
        untrained = warm or (self.kernel and progress.generation == 0)
        metadata = None if untrained else self.metadata()
        params = None if untrained else self.trainer.numpy_params()
        mode = WARM if warm else (KERNEL if self.kernel else SEARCH)
        tasks = [
            GameTask(
                config.game,
                tuple(sorted(config.options.items())),
                config.players,
                game_seed(config.seed, progress.games + index),
                mode,
                self.score_weight,
                config.epsilon,
                self.settings,
                metadata,
                params,
            )
            for index in range(count)
        ]
        games: list[GameSamples] = workers.map(play_tasks, tasks)
        samples = 0
        for game in games:
            self.buffer.add(game)
            samples += len(game.legal)
            self.cooperative = self.cooperative or game.cooperative
        progress.games += len(games)
        progress.samples += samples
        if warm:
            ratio = config.warm_replay_ratio
        else:
            ratio = config.kernel_replay_ratio if self.kernel else config.replay_ratio
        steps = max(1, math.ceil(ratio * samples / config.batch_size))
        totals: dict[str, float] = {}
        for _ in range(steps):
            metrics = self.trainer.step(self.buffer.sample(self.rng, config.batch_size))
            for name, value in metrics.items():
                totals[name] = totals.get(name, 0.0) + value
        progress.steps += steps
        progress.loss = {name: round(value / steps, 5) for name, value in totals.items()}
        progress.generation += 1
        return {"warm": warm, "new_games": len(games), "new_samples": samples, "new_steps": steps}

    def _evaluate(self, workers: Workers) -> dict[str, Any]:
        config = self.config
        metadata = self.metadata()
        current = self.trainer.numpy_params()
        tasks: list[EvalTask] = []
        against: list[str] = []  # each task's opponent (a co-op net team game has none in it)
        opponents = [HEURISTIC] + ([PREVIOUS] if self.previous is not None else [])
        for opponent in opponents:
            for deal in range(config.eval_deals):
                seed = config.seed * 7_919 + 1_000_000 + deal
                for seats in lineups(opponent, config.players, self.cooperative):
                    tasks.append(
                        EvalTask(
                            config.game,
                            tuple(sorted(config.options.items())),
                            seats,
                            seed,
                            self.settings.iterations,
                            self.settings.exploration,
                            metadata,
                            current,
                            self.previous,
                        )
                    )
                    against.append(opponent)
        results: list[EvalResult] = workers.map(play_evals, tasks)
        point: dict[str, Any] = {
            "minutes": round(self.progress.seconds / 60, 2),
            "generation": self.progress.generation,
            "games": self.progress.games,
        }
        point.update(summarise(results, against, self.cooperative))
        self.progress.curve.append(point)
        self.progress.last_eval_seconds = self.progress.seconds
        self.previous = current
        return point

    # ------------------------------------------------------------------ files
    def save(self) -> None:
        """The model file, then the checkpoint beside it."""
        config = self.config
        params = self.trainer.numpy_params()
        metadata = self.metadata()
        save_model(config.out, params, metadata)
        state = {
            "format": CHECKPOINT_FORMAT,
            "config": _config_json(config),
            "progress": asdict(self.progress),
            "rng": self.rng.bit_generator.state,
            "cooperative": self.cooperative,
            "has_previous": self.previous is not None,
        }
        arrays: dict[str, Any] = {f"params/{k}": v for k, v in params.items()}
        if self.previous is not None:
            arrays.update({f"previous/{k}": v for k, v in self.previous.items()})
        arrays.update(self.trainer.optimizer_arrays())
        arrays.update(self.buffer.arrays())
        arrays["state"] = np.frombuffer(json.dumps(state).encode(), dtype=np.uint8)
        path = config.checkpoint_path()
        temporary = path.with_name(path.name + ".tmp")
        with temporary.open("wb") as handle:
            np.savez_compressed(handle, **arrays)
        temporary.replace(path)

    def _restore(self, path: Path) -> None:
        try:
            with np.load(path, allow_pickle=False) as archive:
                arrays = {name: archive[name] for name in archive.files}
        except FileNotFoundError:
            raise TrainingError(f"no checkpoint {str(path)!r}") from None
        except (OSError, ValueError, EOFError) as error:
            raise TrainingError(f"{str(path)!r} is not a training checkpoint ({error})") from None
        if "state" not in arrays:
            raise TrainingError(f"{str(path)!r} is not a training checkpoint")
        state = json.loads(arrays.pop("state").tobytes().decode())
        if state.get("format") != CHECKPOINT_FORMAT:
            raise TrainingError(f"{str(path)!r} is not a {CHECKPOINT_FORMAT} file")
        saved = state["config"]
        mine = _config_json(self.config)
        for key in ("game", "players", "options", "hidden"):
            if saved[key] != mine[key]:
                raise TrainingError(
                    f"the checkpoint was made with {key} {saved[key]!r}, this run has {mine[key]!r}"
                )
        # Checkpoints from before the kernel expert existed were all made by the PUCT one.
        made_by = resolve_expert(saved.get("expert", SEARCH), saved["game"])
        if made_by != self.expert:
            raise TrainingError(
                f"the checkpoint was made by the {made_by} expert, this run uses the "
                f"{self.expert} expert: resume it with --expert {made_by}"
            )
        params = {
            k.removeprefix("params/"): v for k, v in arrays.items() if k.startswith("params/")
        }
        model = build_model(self.metadata(), params, str(path))  # shapes checked here
        model.check(self.game, self.config.players)
        self.trainer = Trainer(model.params, self.config.learning_rate, self.config.weight_decay)
        self.trainer.restore_optimizer({k: v for k, v in arrays.items() if k.startswith("opt/")})
        if state["has_previous"]:
            self.previous = {
                k.removeprefix("previous/"): v
                for k, v in arrays.items()
                if k.startswith("previous/")
            }
        self.buffer.restore({k: v for k, v in arrays.items() if k.startswith("replay/")})
        self.rng.bit_generator.state = state["rng"]
        self.cooperative = bool(state["cooperative"])
        self.progress = Progress(**state["progress"])


def resolve_expert(expert: str, game: str) -> str:
    """The expert a run of `game` uses for `expert` (see EXPERTS)."""
    from spielwerk.games.kernels import KERNELS, has_kernel

    if expert not in EXPERTS:
        raise TrainingError(f"unknown expert {expert!r}: use {', '.join(EXPERTS)}")
    if expert == "auto":
        from spielwerk.agents import is_plain
        from spielwerk.agents.configs import mcts_config

        # Where the game's `mcts` seat is the plain compiled search, which the kernel expert
        # plays: not Tintenblut, whose compiled `mcts` seat cuts rollouts and values them by
        # the lead, which the kernel expert (full rollouts valued by the win) does not.
        return KERNEL if has_kernel(game) and is_plain(mcts_config(game)) else SEARCH
    if expert == KERNEL and not has_kernel(game):
        raise TrainingError(
            f"the kernel expert needs a compiled kernel of {game} and Numba "
            f"(games with one: {', '.join(KERNELS)})"
        )
    return expert


def check_leaf_mix(leaf_mix: float, expert: str, game: str) -> None:
    """A leaf mix other than 0 needs the kernel expert and a kernel that writes observations."""
    if not 0.0 <= leaf_mix <= 1.0:
        raise TrainingError(f"--leaf-mix must lie in 0..1, not {leaf_mix:g}")
    if not leaf_mix:
        return
    from spielwerk.games.kernels import kernel_rules

    if expert != KERNEL:
        raise TrainingError("--leaf-mix needs the kernel expert (--expert kernel)")
    if kernel_rules(game).observe is None:
        raise TrainingError(f"--leaf-mix: the {game} kernel writes no observation tensor")


def _config_json(config: TrainConfig) -> dict[str, Any]:
    data = asdict(config)
    data["out"] = str(config.out)
    data["hidden"] = list(config.hidden)
    return data
