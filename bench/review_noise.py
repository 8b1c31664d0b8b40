"""Speed and noise of the game review (docs/review.md, "Speed" and "Noise").

    nice -n 19 .venv/bin/python bench/review_noise.py witches --reviews 12

Reviews `--reviews` games of `OUT/GAME-games.jsonl` (from bench/review_corpus.py; the last ones,
which the calibration holds out) for one seat each (the seats in turn), twice, with the seeds 1
and 2, in this one process. Speed: each review's wall time and CPU time (`time.process_time`,
the time on one core), and the decisions it judged; then the longest review of the whole
corpus (the seat with the most decisions with a choice in any of its games) is made once and
timed the same way. Noise: at every judged decision, whether the two runs give the move the
same mark, and how far apart their drops and their chances of the played move are. Writes
`OUT/GAME-noise.json` and prints a markdown summary; `--longest-only` times just the longest
review and writes `OUT/GAME-longest.json`.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import time
from pathlib import Path
from typing import Any

import spielwerk
from spielwerk.review import review_game

SEEDS = (1, 2)
GRADES = {None: 0, "inaccuracy": 1, "mistake": 2, "blunder": 3}
CANDIDATE_THRESHOLDS = (0.02, 0.05, 0.10, 0.20, 0.30)
"""Thresholds whose steadiness is measured: how often the two runs fall on different sides."""


def percentile(values: list[float], share: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("game")
    parser.add_argument("--reviews", type=int, default=12)
    parser.add_argument("--out", type=Path, default=Path("bench/results/review"))
    parser.add_argument("--longest-only", action="store_true", help="time the longest review")
    parser.add_argument(
        "--summary",
        action="store_true",
        help="summarise the stored runs (OUT/GAME-noise.json) again",
    )
    args = parser.parse_args()
    if args.summary:
        stored = json.loads((args.out / f"{args.game}-noise.json").read_text())
        stored["summary"].update(summarise(stored["reviews"]))
        longest = args.out / f"{args.game}-longest.json"
        if longest.exists():  # timed on its own (--longest-only)
            timed = json.loads(longest.read_text())
            stored["summary"].pop("longest_cpu_bound", None)  # an earlier bound, not a time
            stored["summary"].update(
                {key: timed[key] for key in timed if key not in ("game", "load")}
            )
        (args.out / f"{args.game}-noise.json").write_text(json.dumps(stored, indent=1) + "\n")
        print_summary(stored["summary"])
        return
    games = [
        json.loads(line)
        for line in (args.out / f"{args.game}-games.jsonl").read_text().splitlines()
        if line
    ]
    if args.longest_only:
        load_before = os.getloadavg()
        longest = longest_review(games)
        longest.update({"game": args.game, "load": [load_before[0], os.getloadavg()[0]]})
        (args.out / f"{args.game}-longest.json").write_text(json.dumps(longest, indent=1) + "\n")
        print(json.dumps(longest))
        return
    chosen = games[-args.reviews :]
    load_before = os.getloadavg()
    reviews: list[dict[str, Any]] = []
    start = time.perf_counter()
    for number, entry in enumerate(chosen):
        final = spielwerk.replay(entry["record"])
        seat = number % final.num_players
        runs = []
        for seed in SEEDS:
            wall, cpu = time.perf_counter(), time.process_time()
            review = review_game(final, seat, seed=seed)
            runs.append(
                {
                    "seed": seed,
                    "wall": time.perf_counter() - wall,
                    "cpu": time.process_time() - cpu,
                    "decisions": [
                        {
                            "drop": d.drop,
                            "mark": d.mark,
                            "played": d.played_move.chance,
                            "best": d.best_move.chance,
                            "same_best": d.best_move.id,
                        }
                        for d in review.decisions
                    ],
                }
            )
        reviews.append(
            {"index": entry["index"], "seat": seat, "lineup": entry["lineup"], "runs": runs}
        )
        first = runs[0]
        print(
            f"game {entry['index']} seat {seat + 1} ({entry['lineup'][seat]}): "
            f"{len(first['decisions'])} decisions, {first['wall']:.1f} s wall, "
            f"{first['cpu']:.1f} s CPU",
            flush=True,
        )
    elapsed = time.perf_counter() - start
    load_after = os.getloadavg()
    summary = summarise(reviews)
    summary.update(longest_review(games))
    summary.update(
        {
            "game": args.game,
            "reviews": len(reviews),
            "wall_seconds": elapsed,
            "load_before": load_before,
            "load_after": load_after,
            "machine": f"{platform.machine()}, {os.cpu_count()} cores, Python "
            f"{platform.python_version()}",
        }
    )
    (args.out / f"{args.game}-noise.json").write_text(
        json.dumps({"summary": summary, "reviews": reviews}, indent=1) + "\n"
    )
    print_summary(summary)


def longest_review(games: list[dict[str, Any]]) -> dict[str, Any]:
    """The review with the most decisions with a choice of any seat in any game of the corpus,
    made once (seed 1) and timed."""
    from spielwerk.review.engine import decision_points

    most, where = -1, (0, 0)
    for number, entry in enumerate(games):
        final = spielwerk.replay(entry["record"])
        for seat in range(final.num_players):
            judged = len(decision_points(final, seat)[0])
            if judged > most:
                most, where = judged, (number, seat)
    number, seat = where
    final = spielwerk.replay(games[number]["record"])
    wall, cpu = time.perf_counter(), time.process_time()
    review_game(final, seat, seed=SEEDS[0])
    return {
        "corpus_games": len(games),
        "most_decisions": most,
        "longest_game": games[number]["index"],
        "longest_seat": seat,
        "longest_cpu": time.process_time() - cpu,
        "longest_wall": time.perf_counter() - wall,
    }


def summarise(reviews: list[dict[str, Any]]) -> dict[str, Any]:
    walls = [run["wall"] for review in reviews for run in review["runs"]]
    cpus = [run["cpu"] for review in reviews for run in review["runs"]]
    judged = [len(review["runs"][0]["decisions"]) for review in reviews]
    per_decision = [
        run["cpu"] / len(run["decisions"])
        for review in reviews
        for run in review["runs"]
        if run["decisions"]
    ]
    changed = marked = marked_changed = same_best = jumps = 0
    drop_gaps: list[float] = []
    played_gaps: list[float] = []
    crossed = dict.fromkeys(CANDIDATE_THRESHOLDS, 0)
    reached = dict.fromkeys(CANDIDATE_THRESHOLDS, 0)
    total = 0
    for review in reviews:
        a, b = review["runs"]
        for x, y in zip(a["decisions"], b["decisions"], strict=True):
            total += 1
            changed += x["mark"] != y["mark"]
            jumps += abs(GRADES[x["mark"]] - GRADES[y["mark"]]) >= 2
            for threshold in CANDIDATE_THRESHOLDS:
                above = (x["drop"] >= threshold - 1e-12) + (y["drop"] >= threshold - 1e-12)
                reached[threshold] += above >= 1
                crossed[threshold] += above == 1
            if x["mark"] or y["mark"]:
                marked += 1
                marked_changed += x["mark"] != y["mark"]
            same_best += x["same_best"] == y["same_best"]
            drop_gaps.append(abs(x["drop"] - y["drop"]))
            played_gaps.append(abs(x["played"] - y["played"]))
    return {
        "decisions": total,
        "mark_changed": changed / max(total, 1),
        "marked": marked,
        "marked_changed": marked_changed / max(marked, 1),
        "grade_jumps": jumps / max(total, 1),
        "threshold_crossed": {str(t): crossed[t] / max(total, 1) for t in CANDIDATE_THRESHOLDS},
        "threshold_crossed_of_reached": {
            str(t): crossed[t] / max(reached[t], 1) for t in CANDIDATE_THRESHOLDS
        },
        "same_best_move": same_best / max(total, 1),
        "drop_gap_median": statistics.median(drop_gaps) if drop_gaps else 0.0,
        "drop_gap_p90": percentile(drop_gaps, 0.90),
        "drop_gap_p95": percentile(drop_gaps, 0.95),
        "played_gap_p95": percentile(played_gaps, 0.95),
        "wall_median": statistics.median(walls),
        "wall_max": max(walls),
        "cpu_median": statistics.median(cpus),
        "cpu_max": max(cpus),
        "judged_median": statistics.median(judged),
        "judged_max": max(judged),
        "cpu_per_decision_median": statistics.median(per_decision),
        "cpu_per_decision_max": max(per_decision),
    }


def print_summary(s: dict[str, Any]) -> None:
    print(
        f"\n### {s['game']}: {s['reviews']} reviews, each twice (seeds 1, 2), "
        f"{s['wall_seconds']:.0f} s, load {s['load_before'][0]:.1f} -> {s['load_after'][0]:.1f}\n"
    )
    print("| figure | value |\n|---|---:|")
    rows = [
        ("decisions judged a review (median / max)", f"{s['judged_median']} / {s['judged_max']}"),
        ("wall s a review (median / max)", f"{s['wall_median']:.1f} / {s['wall_max']:.1f}"),
        ("CPU s a review (median / max)", f"{s['cpu_median']:.1f} / {s['cpu_max']:.1f}"),
        (
            "CPU s a decision (median / max)",
            f"{s['cpu_per_decision_median']:.3f} / {s['cpu_per_decision_max']:.3f}",
        ),
        (
            f"longest review of the corpus ({s['corpus_games']} games): decisions, CPU s, wall s",
            f"{s['most_decisions']}, {s['longest_cpu']:.1f}, {s['longest_wall']:.1f}",
        ),
        ("decisions compared", str(s["decisions"])),
        ("mark changes between the seeds", f"{s['mark_changed']:.3f}"),
        (
            "of decisions marked in either run: changed",
            f"{s['marked_changed']:.3f} of {s['marked']}",
        ),
        ("marks two or more grades apart", f"{s['grade_jumps']:.3f}"),
        *(
            (
                f"drop >= {float(t):.0%} in one run only: of all / of those >= it in either",
                f"{s['threshold_crossed'][t]:.3f} / {s['threshold_crossed_of_reached'][t]:.3f}",
            )
            for t in s["threshold_crossed"]
        ),
        ("same best move in both", f"{s['same_best_move']:.3f}"),
        (
            "gap between the drops (median / 90th / 95th pct.)",
            f"{s['drop_gap_median']:.3f} / {s['drop_gap_p90']:.3f} / {s['drop_gap_p95']:.3f}",
        ),
        ("gap in the played move's chance (95th pct.)", f"{s['played_gap_p95']:.3f}"),
    ]
    for name, value in rows:
        print(f"| {name} | {value} |")


if __name__ == "__main__":
    main()
