"""A balance run: six stages of bot games within one time budget, stored as they finish.

Stages, in order, each with its share of the time still left (a stage that finishes early
leaves its time to the next):
1. `field`: equal heuristic players at the chosen player count — seat and first-player edge,
   the compensation, component strength, game length and drama.
2. `seats`: the same at every other player count.
3. `strategies`: each simple strategy in one seat against the heuristic field (a cooperative
   game: the whole party plays it), on the field's deals.
4. `ladder`: random and MCTS at doubling budgets (and `best`/`net` seats where installed and
   their deals fit the stage's time, timed by one decision) in
   one seat against the field; the top rung's choices are compared with every strategy's rule.
5. `restricted`: the heuristic forbidden the strongest components, one at a time.
6. `tune`: the rule-variant search.

Every stage plays whole deals with seat rotation, the same deal seeds as the field, so each
line-up is compared with the field game by game. Rows are appended to `partial/rows.jsonl`
in the output directory as they arrive; a run started again on the same directory (same
game, players, seed and options) keeps them and goes on from there.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from spielwerk.agents import AgentSpecError, make_agent
from spielwerk.agents.base import Agent, opening_turn
from spielwerk.agents.network import NetworkAgent
from spielwerk.agents.strategies import strategy_specs
from spielwerk.core.components import BalanceDeclaration, declaration_for
from spielwerk.core.conformance import play_random
from spielwerk.core.errors import OptionError, SpielwerkError
from spielwerk.sim.balance import estimate
from spielwerk.sim.balance.play import BalanceRow, BalanceSpec, play_balance
from spielwerk.sim.balance.search import (
    Target,
    Tune,
    coarse_values,
    parse_target,
    parse_tune,
    refine_values,
)
from spielwerk.sim.plan import Variant
from spielwerk.sim.runner import run
from spielwerk.sim.stats import summarise_variant
from spielwerk.sim.variants import load_variant

STAGES = ("field", "seats", "strategies", "ladder", "restricted", "tune")
WEIGHTS = {
    "field": 0.22,
    "seats": 0.10,
    "strategies": 0.16,
    "ladder": 0.26,
    "restricted": 0.14,
    "tune": 0.12,
}
FIELD = "heuristic"
MCTS_START = 25
MCTS_MAX_DOUBLINGS = 5
LADDER_DEALS = 6
"""Deals each ladder rung should get at least (planning the budgets that fit)."""
RESTRICTED_ITEMS = 5
ANALYSIS_SHARE = 0.1
"""Share of the field stage's time kept for its estimators."""
RESERVE = 0.05
RESERVE_SECONDS = 5.0
"""Kept from the budget for the files and the last games to finish: 5% and 5 s (at most a
quarter of the budget)."""
CHUNK_SHARE = 0.02
CHUNK_SECONDS = 2.0
"""A chunk of games sent to a worker is sized to 2% of the stage's time left and at most 2 s
of games (at the speed measured so far): the stage's deadline is checked between chunks, so
a machine that slows down mid-stage overshoots by little."""


class StageProgress(Protocol):
    """What the run tells the interface: a stage begins (with its time), games finish."""

    def stage(self, name: str, what: str, seconds: float) -> None: ...

    def games(self, count: int) -> None: ...


class _Silent:
    def stage(self, name: str, what: str, seconds: float) -> None:
        pass

    def games(self, count: int) -> None:
        pass


@dataclass
class BalanceConfig:
    game: str
    players: int | None = None
    budget: float = 600.0
    jobs: int = 1
    backend: str = "local"
    ray_address: str | None = None
    seed: int = 0
    options: dict[str, str] = field(default_factory=dict)
    tune: list[str] | None = None
    target: str | None = None
    stages: tuple[str, ...] = STAGES


@dataclass(frozen=True, slots=True)
class LineUp:
    label: str
    lineup: tuple[str, ...]
    options: tuple[tuple[str, str], ...] = ()
    watch: tuple[str, ...] = ()


class Store:
    """The rows of a run on disk (JSON lines), appended as they finish."""

    def __init__(self, out: Path, meta: dict[str, Any]) -> None:
        self.dir = out / "partial"
        self.rows_path = self.dir / "rows.jsonl"
        self.meta_path = self.dir / "meta.json"
        self.meta = meta
        self.rows: dict[str, list[BalanceRow]] = {}
        self.dir.mkdir(parents=True, exist_ok=True)
        if self.meta_path.exists():
            stored = json.loads(self.meta_path.read_text(encoding="utf-8"))
            if {k: stored.get(k) for k in meta} != meta:
                raise SpielwerkError(
                    f"{out} holds a balance run with other settings "
                    f"({', '.join(f'{k}={stored.get(k)}' for k in meta)}): "
                    "use another --out or --fresh"
                )
            self.meta = stored
            if self.rows_path.exists():
                for line in self.rows_path.read_text(encoding="utf-8").splitlines():
                    if line.strip():
                        row = _row_from_json(json.loads(line))
                        assert isinstance(row.spec, BalanceSpec)
                        self.rows.setdefault(row.spec.stage, []).append(row)
        self.save_meta()

    def save_meta(self) -> None:
        self.meta_path.write_text(json.dumps(self.meta, indent=1) + "\n", encoding="utf-8")

    def add(self, rows: Sequence[BalanceRow]) -> None:
        with self.rows_path.open("a", encoding="utf-8") as file:
            for row in rows:
                file.write(json.dumps(_row_to_json(row)) + "\n")
                assert isinstance(row.spec, BalanceSpec)
                self.rows.setdefault(row.spec.stage, []).append(row)

    def of(self, stage: str, label: str | None = None) -> list[BalanceRow]:
        rows = self.rows.get(stage, [])
        if label is None:
            return list(rows)
        return [r for r in rows if isinstance(r.spec, BalanceSpec) and r.spec.config == label]


def _row_to_json(row: BalanceRow) -> dict[str, Any]:
    spec = row.spec
    assert isinstance(spec, BalanceSpec)
    data = asdict(row)
    data["spec"] = {
        "index": spec.index,
        "game": spec.game,
        "label": spec.variant.label,
        "options": [list(o) for o in spec.variant.options],
        "lineup": list(spec.lineup),
        "deal": spec.deal,
        "seed": spec.seed,
        "rotation": spec.rotation,
        "stage": spec.stage,
        "config": spec.config,
        "watch": list(spec.watch),
    }
    return data


def _row_from_json(data: dict[str, Any]) -> BalanceRow:
    s = data["spec"]
    spec = BalanceSpec(
        s["index"],
        s["game"],
        Variant(s["label"], tuple((k, v) for k, v in s["options"])),
        tuple(s["lineup"]),
        s["deal"],
        s["seed"],
        s["rotation"],
        stage=s["stage"],
        config=s["config"],
        watch=tuple(s["watch"]),
    )
    return BalanceRow(
        spec=spec,
        scores=tuple(data["scores"]),
        win_shares=tuple(data["win_shares"]),
        decisions=data["decisions"],
        steps=data["steps"],
        cooperative=data["cooperative"],
        exposures=tuple(tuple((k, v) for k, v in seat) for seat in data["exposures"]),
        lead_changes=data["lead_changes"],
        leader_two_thirds=data["leader_two_thirds"],
        agreement=tuple((s_, n, k) for s_, n, k in data["agreement"]),
        seconds=data["seconds"],
    )


class BalanceRun:
    """Plays the stages within the budget and gathers everything the report says."""

    def __init__(
        self,
        config: BalanceConfig,
        out: Path,
        progress: StageProgress | None = None,
        clock: Callable[[], float] = time.monotonic,
        started: float | None = None,
    ) -> None:
        """`started`: when the budget began on `clock` (default now; the command line passes
        its process's start, so the start-up counts too)."""
        self.config = config
        self.clock = clock
        self.started = clock() if started is None else started
        reserve = min(config.budget / 4, config.budget * RESERVE + RESERVE_SECONDS)
        self.end = self.started + config.budget - reserve
        self.progress = progress or _Silent()
        self.game = load_variant(config.game, **config.options)
        declaration = declaration_for(self.game)
        if declaration is None:
            raise SpielwerkError(f"{config.game} declares no components for balance analysis")
        self.declaration: BalanceDeclaration = declaration
        cls = type(self.game)
        self.players = config.players or _default_players(self.game)
        if not cls.min_players <= self.players <= cls.max_players:
            raise OptionError(
                f"{config.game} takes {cls.min_players} to {cls.max_players} players, "
                f"not {self.players}"
            )
        self.game.new_state(self.players, seed=0)  # player-count checks of the options
        unknown = [s for s in config.stages if s not in STAGES]
        if unknown:
            raise OptionError(f"unknown stage {unknown[0]!r} (stages: {', '.join(STAGES)})")
        tune_texts = config.tune if config.tune is not None else list(declaration.tune)
        self.tunes: list[Tune] = [
            parse_tune(config.game, text, config.options) for text in tune_texts
        ]
        self.target: Target = parse_target(config.target or declaration.target)
        self.store = Store(
            out,
            {
                "game": config.game,
                "players": self.players,
                "seed": config.seed,
                "options": dict(sorted(config.options.items())),
            },
        )
        self.workers = max(1, config.jobs)
        self.fixed_options = tuple(sorted(config.options.items()))
        """`--option` values: every line-up plays with them."""
        self.cancelled = False
        self.cooperative = bool(play_random(self.game, self.players, 0).result().get("cooperative"))
        self.results: dict[str, Any] = {}
        self.timing: dict[str, dict[str, float]] = {}

    # ------------------------------------------------------------------ time
    def remaining(self) -> float:
        return self.end - self.clock()

    def _stage_seconds(self, stage: str) -> float:
        left = [s for s in self.config.stages if s not in self.results]
        weight = sum(WEIGHTS[s] for s in left)
        return max(0.0, self.remaining() * WEIGHTS[stage] / weight) if weight else 0.0

    # ------------------------------------------------------------------ playing
    def play(
        self, stage: str, lineups: Sequence[LineUp], seconds: float, what: str = ""
    ) -> dict[str, list[BalanceRow]]:
        """Play whole deals of every line-up, on the same deals, until `seconds` are used;
        returns every stored row of each line-up (earlier runs' too)."""
        deadline = self.clock() + seconds
        self.progress.stage(stage, what or f"{len(lineups)} line-ups", seconds)
        done = {lineup.label: self.store.of(stage, lineup.label) for lineup in lineups}
        estimate_s = _seconds_per_game([r for rows in done.values() for r in rows])
        while not self.cancelled and lineups:
            left = deadline - self.clock()
            if left <= 0.2:
                break
            games_a_deal = sum(estimate.rotations(lineup.lineup) for lineup in lineups)
            if estimate_s is None:
                deals = self.workers  # a first round to time the games
            else:
                per_deal = estimate_s * games_a_deal / self.workers
                deals = max(1, math.ceil(1.3 * left / per_deal))
            specs = []
            for number, lineup in enumerate(lineups):
                have = {r.spec.deal for r in done[lineup.label]}
                todo = [d for d in range(len(have) + deals + 1) if d not in have][:deals]
                for deal in todo:
                    for rotation in range(estimate.rotations(lineup.lineup)):
                        specs.append(
                            BalanceSpec(
                                (deal * 1000 + number) * 10 + rotation,
                                self.config.game,
                                Variant(lineup.label, lineup.options),
                                lineup.lineup,
                                deal,
                                self.config.seed + deal,
                                rotation,
                                stage=stage,
                                config=lineup.label,
                                watch=lineup.watch,
                            )
                        )
            # Deal by deal across the line-ups, so a deadline cuts every line-up alike.
            specs.sort(key=lambda spec: (spec.deal, spec.index))
            most = (
                1
                if estimate_s is None
                else max(1, int(min(CHUNK_SHARE * left, CHUNK_SECONDS) / estimate_s))
            )
            result = run(
                specs,
                jobs=self.workers,
                backend=self.config.backend,
                ray_address=self.config.ray_address,
                progress=self.progress.games,
                play=play_balance,
                stop=lambda: self.clock() >= deadline,
                chunk_most=most,
            )
            rows = [r for r in result.rows if isinstance(r, BalanceRow)]
            self.store.add(rows)
            for row in rows:
                assert isinstance(row.spec, BalanceSpec)
                done[row.spec.config].append(row)
            estimate_s = _seconds_per_game([r for v in done.values() for r in v]) or estimate_s
            if result.interrupted:
                if self.clock() < deadline:
                    self.cancelled = True  # Ctrl-C, not the budget
                break
        return done

    # ------------------------------------------------------------------ stages
    def execute(self) -> dict[str, Any]:
        with self._ray():
            return self._execute()

    @contextmanager
    def _ray(self) -> Iterator[None]:
        """With `--backend ray`, one Ray connection for the whole run (each stage's rounds would
        otherwise start and stop a local instance)."""
        if self.config.backend != "ray":
            yield
            return
        try:
            import ray
        except ImportError:
            raise SpielwerkError(
                "the ray backend needs Ray: pip install 'spielwerk[ray]'"
            ) from None
        if ray.is_initialized():
            yield
            return
        ray.init(
            address=self.config.ray_address,
            include_dashboard=False,
            log_to_driver=False,
            configure_logging=False,
        )
        try:
            yield
        finally:
            ray.shutdown()

    def _execute(self) -> dict[str, Any]:
        for stage in self.config.stages:
            if self.cancelled:
                break
            handler = getattr(self, f"_stage_{stage}")
            planned, began = self._stage_seconds(stage), self.clock()
            self.results[stage] = handler(planned)
            self.timing[stage] = {"planned": planned, "used": self.clock() - began}
        return self.results

    def _field_lineup(self, players: int) -> LineUp:
        return LineUp(f"{FIELD} x{players}", (FIELD,) * players, self.fixed_options)

    def field_rows(self) -> list[BalanceRow]:
        rows = self.store.of("field", self._field_lineup(self.players).label)
        return estimate.complete_deals(rows)

    def _summary(
        self, lineup: LineUp, rows: Sequence[BalanceRow], whole_deals: bool = True
    ) -> dict[str, Any]:
        rows = estimate.complete_deals(rows) if whole_deals else list(rows)
        if not rows:
            return {"games": 0}
        return summarise_variant(Variant(lineup.label, lineup.options), lineup.lineup, rows)

    def _stage_field(self, seconds: float) -> dict[str, Any]:
        lineup = self._field_lineup(self.players)
        # The estimators take a few seconds on thousands of games: keep time for them.
        self.play("field", [lineup], seconds * (1 - ANALYSIS_SHARE), f"{self.players} x {FIELD}")
        rows = self.field_rows()
        summary = self._summary(lineup, rows)
        cooperative = bool(rows) and rows[0].cooperative
        return {
            "lineup": list(lineup.lineup),
            "summary": summary,
            "components": estimate.component_effects(
                rows, self.declaration.components, cooperative
            ),
            "compensation": estimate.compensation(rows, self.players),
            "drama": estimate.drama(rows) if rows else None,
            "lengths": [row.decisions for row in rows],
        }

    def _stage_seats(self, seconds: float) -> dict[str, Any]:
        cls = type(self.game)
        counts = [n for n in range(cls.min_players, cls.max_players + 1) if n != self.players]
        counts = [n for n in counts if _plays_with(self.game, n)]
        found: dict[str, Any] = {}
        if not counts:
            return found
        share = seconds / len(counts)
        for count in counts:
            lineup = self._field_lineup(count)
            done = self.play("seats", [lineup], share, f"{count} players")
            found[str(count)] = self._summary(lineup, done[lineup.label])
            share = max(0.0, seconds / len(counts))
        return found

    def _versus_field(self, spec: str) -> LineUp:
        if self.cooperative:
            return LineUp(spec, (spec,) * self.players, self.fixed_options)
        return LineUp(spec, (spec,) + (FIELD,) * (self.players - 1), self.fixed_options)

    def _compare(
        self, lineups: Sequence[LineUp], done: dict[str, list[BalanceRow]]
    ) -> list[dict[str, Any]]:
        field = self.field_rows()
        found = []
        for lineup in lineups:
            # Every finished game counts here, also of a deal the budget cut short: a rung of
            # slow games may finish few whole deals, and each game is compared with the field's
            # same seat of the same deal anyway.
            rows = done[lineup.label]
            summary = self._summary(lineup, rows, whole_deals=False)
            agent = summary["agents"][0] if summary.get("games") else None
            found.append(
                {
                    "spec": lineup.label,
                    "games": len(rows),
                    "agent": agent,
                    "versus_field": estimate.paired_difference(rows, field),
                    "fair": 1.0 if self.cooperative else 1.0 / self.players,
                    "length": summary.get("length"),
                }
            )
        return found

    def _stage_strategies(self, seconds: float) -> dict[str, Any]:
        specs = strategy_specs(self.config.game)
        lineups = [self._versus_field(spec) for spec in specs]
        done = self.play("strategies", lineups, seconds, f"{len(lineups)} strategies")
        return {"strategies": self._compare(lineups, done)}

    def _rungs(self, seconds: float) -> list[str]:
        """random, MCTS at doubling budgets as far as the time allows, then best/net if
        installed; kept in the store's meta so a resumed run plays the same rungs."""
        stored = self.store.meta.get("rungs")
        if isinstance(stored, list):
            return [str(r) for r in stored]
        pilot = self._versus_field(f"mcts:{MCTS_START}")
        done = self.play("ladder", [pilot], min(seconds * 0.15, 30.0), "timing MCTS")
        per_game = _seconds_per_game(done[pilot.label]) or 1.0
        per_iteration_deal = per_game * self.players / MCTS_START / self.workers
        budgets = [MCTS_START]
        while len(budgets) <= MCTS_MAX_DOUBLINGS:
            trial = [*budgets, budgets[-1] * 2]
            cost = sum(trial) * per_iteration_deal * LADDER_DEALS
            if cost > seconds * 0.8:
                break
            budgets = trial
        rungs = ["random"] + [f"mcts:{b}" for b in budgets]
        spare = seconds * 0.8 - sum(budgets) * per_iteration_deal * LADDER_DEALS
        decisions = sorted(row.decisions for row in done[pilot.label]) or [0]
        rungs += self._extra_rungs(spare, decisions[len(decisions) // 2])
        self.store.meta["rungs"] = rungs
        self.store.save_meta()
        return rungs

    def _extra_rungs(self, spare: float, decisions: int) -> list[str]:
        """`best` and `net` where installed and fit for the player count, each only if its
        `LADDER_DEALS` deals fit in `spare` seconds, timed by one decision (a slow search
        would otherwise hold the run far beyond its budget); `decisions`: a game's."""
        seats = self.players if self.cooperative else 1
        extras = []
        for extra in ("best", "net"):
            try:
                agent = make_agent(extra, self.config.game, seed=0)
                if isinstance(agent, NetworkAgent):  # a network plays its trained counts only
                    agent.check_game(self.game, self.players)
            except (AgentSpecError, SpielwerkError, ValueError, OSError):
                continue
            own = decisions * seats / self.players  # its decisions in a game
            per_deal = self._decision_seconds(agent) * own * self.players  # a game a seat
            cost = per_deal * LADDER_DEALS / self.workers
            if cost <= spare:
                spare -= cost
                extras.append(extra)
        return extras

    def _decision_seconds(self, agent: Agent) -> float:
        """Seconds `agent` takes for the first decision of a deal (after its chance steps)."""
        turn = opening_turn(self.game, self.players, agent.wants_sample)
        start = time.perf_counter()
        agent.act(turn)
        return time.perf_counter() - start

    def _stage_ladder(self, seconds: float) -> dict[str, Any]:
        start = self.clock()
        rungs = self._rungs(seconds)
        watch = tuple(strategy_specs(self.config.game))
        lineups = [self._versus_field(rung) for rung in rungs]
        top = lineups[-1]
        lineups[-1] = LineUp(top.label, top.lineup, top.options, watch)
        left = max(0.0, seconds - (self.clock() - start))
        done = self.play("ladder", lineups, left, ", ".join(rungs))
        top_rows = done[top.label]
        return {
            "rungs": self._compare(lineups, done),
            "top": top.label,
            "agreement": estimate.agreement(top_rows),
        }

    def _restricted_items(self) -> list[str]:
        usable = {
            item for action in self.game.actions.actions for item in self.declaration.uses(action)
        }
        effects = self.results.get("field", {}).get("components", [])
        ranked = sorted(effects, key=lambda e: -abs(e["effect"]))
        items: list[str] = []
        for entry in ranked:
            if entry["item"] in usable and entry["item"] not in items:
                items.append(entry["item"])
            if len(items) == RESTRICTED_ITEMS:
                break
        return items

    def _stage_restricted(self, seconds: float) -> dict[str, Any]:
        items = self._restricted_items()
        lineups = [self._versus_field(f"without:{item}") for item in items]
        done = self.play("restricted", lineups, seconds, f"{len(items)} components forbidden")
        return {"restricted": self._compare(lineups, done)}

    def _stage_tune(self, seconds: float) -> dict[str, Any]:
        if not self.tunes:
            return {"searches": [], "target": self.target.text}
        share = seconds / len(self.tunes)
        searches = []
        for tune in self.tunes:
            searches.append(self._search(tune, share))
        return {"searches": searches, "target": self.target.text}

    def _tune_lineup(self, tune: Tune, value: str) -> LineUp:
        options = dict(self.config.options) | {tune.key: value}
        return LineUp(
            f"{tune.key}={value}", (FIELD,) * self.players, tuple(sorted(options.items()))
        )

    def _search(self, tune: Tune, seconds: float) -> dict[str, Any]:
        start = self.clock()
        tried: dict[str, dict[str, Any]] = {}
        values = coarse_values(tune)
        for round_number in range(2):
            if not values:
                break
            lineups = [self._tune_lineup(tune, v) for v in values]
            left = seconds - (self.clock() - start)
            share = left * (0.6 if round_number == 0 and tune.numeric else 1.0)
            done = self.play("tune", lineups, share, f"{tune.key}: {', '.join(values)}")
            for value, lineup in zip(values, lineups, strict=True):
                summary = self._summary(lineup, done[lineup.label])
                measured = (
                    estimate.metric(summary, self.target.metric) if summary.get("games") else None
                )
                tried[value] = {
                    "value": value,
                    "games": summary.get("games", 0),
                    "metric": None if measured is None else list(measured),
                    "meets": measured is not None and self.target.meets(measured[0]),
                    "confident": measured is not None
                    and self.target.meets(measured[1])
                    and self.target.meets(measured[2]),
                }
            best = _best_value(tried, self.target)
            values = refine_values(tune, list(tried), best) if best is not None else []
        ordered = sorted(tried.values(), key=lambda t: int(t["value"]) if tune.numeric else 0)
        best = _best_value(tried, self.target)
        return {
            "key": tune.key,
            "values": ordered,
            "best": best,
            "default": str(self.game.options.get(tune.key)),
        }


def _best_value(tried: dict[str, dict[str, Any]], target: Target) -> str | None:
    measured = [t for t in tried.values() if t["metric"] is not None]
    if not measured:
        return None
    best = min(
        measured,
        key=lambda t: (not t["confident"], not t["meets"], target.distance(t["metric"][0])),
    )
    return str(best["value"])


def _seconds_per_game(rows: Sequence[BalanceRow]) -> float | None:
    timed = [row.seconds for row in rows if row.seconds > 0]
    return sum(timed) / len(timed) if timed else None


def _default_players(game: Any) -> int:
    """The player count a report is about unless told: 4, or the most below it the game (with
    its options) takes."""
    cls = type(game)
    for players in range(min(4, cls.max_players), cls.min_players - 1, -1):
        if _plays_with(game, players):
            return players
    return int(cls.min_players)


def _plays_with(game: Any, players: int) -> bool:
    try:
        game.new_state(players, seed=0)
    except SpielwerkError:
        return False
    return True
