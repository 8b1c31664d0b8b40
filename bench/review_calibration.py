"""Calibrate and measure the game review's winning chances (docs/review.md, "Calibration").

    nice -n 19 .venv/bin/python bench/review_calibration.py witches --games 700 --fit-games 150 \\
        --per-game 4 --out bench/results/review --write

1. The corpus: `--games` finished games among different bots (bench/review_corpus.py; made or
   extended here).
2. Positions: from each game, `--per-game` decisions with a choice, drawn at random among every
   seat's; each is judged as the review judges it (the review's search from the deciding seat's
   information set, `spielwerk.review.engine.Judge`), and the search's value of the move played
   is kept with what the game brought that seat in the end (its win share; in Tainted Grail the
   team's). Appended to `OUT/GAME-positions.jsonl`, so a stopped run goes on where it stopped.
3. The fit: the logistic curve from value to chance, on the positions of the first
   `--fit-games` games (`spielwerk.review.calibration.fit_logistic`).
4. The measurement, on the positions of the other games only (held out from the fit): Brier
   score against the base rate's, the reliability error, a reliability plot
   (`OUT/GAME-reliability.png`) and `OUT/GAME-calibration.md`. With `--write`, the curve and
   its figures go into `spielwerk/review/calibration.toml`, which reviews read.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
import time
from pathlib import Path
from typing import Any

import spielwerk
from spielwerk.core.state import State
from spielwerk.review.calibration import (
    CALIBRATED_ERROR,
    Reliability,
    fit_logistic,
    logistic,
    reliability,
    uncalibrated_chance,
)
from spielwerk.review.engine import Judge, decision_seed

sys.path.insert(0, str(Path(__file__).parent))
from review_corpus import PLAYERS, POOLS, extend

CALIBRATION_FILE = Path(spielwerk.__file__).parent / "review" / "calibration.toml"


def choice_steps(final: State) -> list[tuple[int, int]]:
    """(step, seat) of every decision with more than one legal move."""
    state = final.game.new_state(final.num_players, seed=final.seed)
    found = []
    for step, (actor, action_id) in enumerate(final.history):
        if actor >= 0 and len(state.legal_ids(actor)) > 1:
            found.append((step, actor))
        state.apply_trusted(action_id, actor)
    return found


def judge_positions(
    entry: dict[str, Any], per_game: int, judges: dict[int, Judge]
) -> list[dict[str, Any]]:
    final = spielwerk.replay(entry["record"])
    steps = choice_steps(final)
    rng = random.Random(entry["index"])
    picked = sorted(rng.sample(steps, min(per_game, len(steps))))
    returns = final.returns()
    rows = []
    state = final.game.new_state(final.num_players, seed=final.seed)
    done = 0
    for step, seat in picked:
        while done < step:
            actor, action_id = final.history[done]
            state.apply_trusted(action_id, actor)
            done += 1
        judge = judges.get(seat)
        if judge is None:
            judge = judges[seat] = Judge(final.game, final.num_players, seat)
        moves = judge.position(state, decision_seed(entry["index"], step))
        played_id = final.history[step][1]
        played = next(m for m in moves if m.id == played_id)
        rows.append(
            {
                "game": entry["index"],
                "step": step,
                "seat": seat,
                "bot": entry["lineup"][seat],
                "played": played.value,
                "played_visits": played.visits,
                "best": moves[0].value,
                "legal": len(moves),
                "outcome": float(returns[seat]),
            }
        )
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game", choices=sorted(POOLS))
    parser.add_argument("--games", type=int, default=700)
    parser.add_argument("--fit-games", type=int, default=150)
    parser.add_argument("--per-game", type=int, default=4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=Path("bench/results/review"))
    parser.add_argument("--write", action="store_true", help="update calibration.toml")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    started = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    load_before = os.getloadavg()
    clock, cpu = time.perf_counter(), time.process_time()
    corpus = extend(args.game, args.out / f"{args.game}-games.jsonl", args.games, args.seed)
    corpus_seconds = time.perf_counter() - clock
    positions_path = args.out / f"{args.game}-positions.jsonl"
    rows = (
        [json.loads(line) for line in positions_path.read_text().splitlines() if line]
        if (positions_path.exists())
        else []
    )
    judged_games = {row["game"] for row in rows}
    judges: dict[int, Judge] = {}
    with positions_path.open("a", encoding="utf-8") as out:
        for entry in corpus:
            if entry["index"] in judged_games:
                continue
            new = judge_positions(entry, args.per_game, judges)
            for row in new:
                out.write(json.dumps(row) + "\n")
            out.flush()
            rows += new
            if entry["index"] % 50 == 0:
                print(f"{args.game}: game {entry['index']}, {len(rows)} positions", flush=True)
    rows = [row for row in rows if row["game"] < args.games]
    fit = [row for row in rows if row["game"] < args.fit_games]
    held = [row for row in rows if row["game"] >= args.fit_games]
    slope, intercept = fit_logistic([r["played"] for r in fit], [r["outcome"] for r in fit])
    outcomes = [r["outcome"] for r in held]
    calibrated = reliability([logistic(slope * r["played"] + intercept) for r in held], outcomes)
    raw = reliability([uncalibrated_chance(r["played"]) for r in held], outcomes)
    judge = next(iter(judges.values()), None) or Judge(spielwerk.replay(corpus[0]["record"]), 0)
    elapsed = time.perf_counter() - clock
    figures = {
        "game": args.game,
        "players": PLAYERS[args.game],
        "method": judge.plan.method,
        "iterations": judge.plan.iterations,
        "slope": slope,
        "intercept": intercept,
        "fit_positions": len(fit),
        "held_out_positions": len(held),
        "brier": calibrated.brier,
        "base_brier": calibrated.base_brier,
        "reliability_error": calibrated.error,
    }
    context = {
        "command": " ".join(["bench/review_calibration.py", *sys.argv[1:]]),
        "started": started,
        "wall_seconds": elapsed,
        "corpus_seconds": corpus_seconds,
        "cpu_seconds": time.process_time() - cpu,
        "load": [load_before[0], os.getloadavg()[0]],
        "machine": f"{platform.machine()}, {os.cpu_count()} cores, "
        f"Python {platform.python_version()}",
        "pool": list(POOLS[args.game]),
    }
    plot(args.out / f"{args.game}-reliability.png", args.game, calibrated, raw)
    report = markdown(figures, context, calibrated, raw, held)
    (args.out / f"{args.game}-calibration.md").write_text(report, encoding="utf-8")
    print(report)
    if args.write:
        write_entry(figures)


def by_bot(held: list[dict[str, Any]]) -> list[str]:
    bots = sorted({row["bot"] for row in held})
    lines = []
    for bot in bots:
        mine = [row for row in held if row["bot"] == bot]
        wins = sum(row["outcome"] for row in mine) / len(mine)
        lines.append(f"{bot} {len(mine)} ({wins:.2f})")
    return lines


def markdown(
    f: dict[str, Any],
    context: dict[str, Any],
    calibrated: Reliability,
    raw: Reliability,
    held: list[dict[str, Any]],
) -> str:
    verdict = (
        "calibrated"
        if calibrated.error <= CALIBRATED_ERROR and calibrated.brier < calibrated.base_brier
        else "NOT calibrated"
    )
    lines = [
        f"### {f['game']}, {f['players']} players: {verdict}",
        "",
        f"`{context['command']}`, started {context['started']}, {context['wall_seconds']:.0f} s "
        f"wall ({context['corpus_seconds']:.0f} s of it the games), "
        f"{context['cpu_seconds']:.0f} s CPU, load {context['load'][0]:.1f} -> "
        f"{context['load'][1]:.1f}; {context['machine']}.",
        f"Bots: {', '.join(context['pool'])}; search: {f['method']}, {f['iterations']} iterations.",
        f"Curve: chance = 1 / (1 + exp(-({f['slope']:.3f} x value + {f['intercept']:.3f}))), "
        f"fitted on {f['fit_positions']} positions.",
        f"Held-out positions by the deciding bot (base rate): {'; '.join(by_bot(held))}.",
        "",
        "| held-out positions | Brier | base-rate Brier | reliability error |",
        "|---|---:|---:|---:|",
        f"| {f['held_out_positions']}, calibrated | {calibrated.brier:.4f} | "
        f"{calibrated.base_brier:.4f} | {calibrated.error:.3f} |",
        f"| the same, raw search values clipped to 0..1 | {raw.brier:.4f} | "
        f"{raw.base_brier:.4f} | {raw.error:.3f} |",
        "",
        "| predicted (mean) | observed | positions |",
        "|---:|---:|---:|",
    ]
    lines += [f"| {p:.3f} | {o:.3f} | {n} |" for p, o, n in calibrated.bins]
    return "\n".join(lines) + "\n"


def plot(path: Path, game: str, calibrated: Reliability, raw: Reliability) -> None:
    from matplotlib.figure import Figure

    figure = Figure(figsize=(4.8, 4.8))
    axes = figure.add_subplot()
    axes.plot([0, 1], [0, 1], color="#999999", linestyle=":", label="perfect")
    for name, measured, colour in (
        ("calibrated", calibrated, "#1f4e9a"),
        ("raw value", raw, "#c07000"),
    ):
        xs = [p for p, _, _ in measured.bins]
        ys = [o for _, o, _ in measured.bins]
        sizes = [
            max(8.0, 200 * n / sum(c for _, _, c in measured.bins)) for _, _, n in measured.bins
        ]
        axes.plot(xs, ys, color=colour, label=f"{name} (Brier {measured.brier:.3f})")
        axes.scatter(xs, ys, s=sizes, color=colour)
    axes.set_xlim(0, 1)
    axes.set_ylim(0, 1)
    axes.set_xlabel("predicted winning chance")
    axes.set_ylabel("observed win rate")
    axes.set_title(f"{game}: held-out positions (base-rate Brier {calibrated.base_brier:.3f})")
    axes.legend(loc="upper left", fontsize="small")
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def write_entry(figures: dict[str, Any]) -> None:
    """Replace this game's entry in calibration.toml (the others are kept as they are)."""
    import tomllib

    data = tomllib.loads(CALIBRATION_FILE.read_text(encoding="utf-8"))
    entries = [
        entry
        for entry in data.get("calibration", [])
        if (entry["game"], entry["players"]) != (figures["game"], figures["players"])
    ]
    entries.append(figures)
    entries.sort(key=lambda entry: (entry["game"], entry["players"]))
    lines = [
        "# The measured maps from a review search's values to winning chances",
        "# (spielwerk/review/calibration.py). Written by bench/review_calibration.py --write;",
        "# docs/review.md has the commands and the figures.",
    ]
    for entry in entries:
        lines += ["", "[[calibration]]"]
        for key, value in entry.items():
            lines.append(f"{key} = {json.dumps(value)}")
    CALIBRATION_FILE.write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
