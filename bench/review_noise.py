"""Speed and noise of the game review (docs/review.md, "Speed" and "Noise").

    nice -n 19 .venv/bin/python bench/review_noise.py witches --reviews 12

Reviews `--reviews` games of `OUT/GAME-games.jsonl` (from bench/review_corpus.py; the last ones,
which the calibration holds out) for one seat each (the seats in turn), twice, with the seeds 1
and 2, in this one process. Speed: each review's wall time and CPU time (`time.process_time`,
the time on one core), and the decisions it judged. Noise: at every judged decision, whether
the two runs give the move the same mark, and how far apart their drops and their chances of
the played move are. Writes `OUT/GAME-noise.json` and prints a markdown summary.
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
    args = parser.parse_args()
    games = [
        json.loads(line)
        for line in (args.out / f"{args.game}-games.jsonl").read_text().splitlines()
        if line
    ]
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
    summary.update(longest_review(games, summary))
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


def longest_review(games: list[dict[str, Any]], summary: dict[str, Any]) -> dict[str, Any]:
    """The most decisions with a choice one seat made in any game of the corpus, and what
    its review would take on one core at the slowest CPU time a decision measured here."""
    from spielwerk.review.engine import decision_points

    most = 0
    for entry in games:
        final = spielwerk.replay(entry["record"])
        for seat in range(final.num_players):
            most = max(most, len(decision_points(final, seat)[0]))
    return {
        "corpus_games": len(games),
        "most_decisions": most,
        "longest_cpu_bound": most * summary["cpu_per_decision_max"],
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
    changed = marked = marked_changed = same_best = 0
    drop_gaps: list[float] = []
    played_gaps: list[float] = []
    total = 0
    for review in reviews:
        a, b = review["runs"]
        for x, y in zip(a["decisions"], b["decisions"], strict=True):
            total += 1
            changed += x["mark"] != y["mark"]
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
            f"longest seat of the corpus ({s['corpus_games']} games): decisions, CPU s bound",
            f"{s['most_decisions']}, {s['longest_cpu_bound']:.1f}",
        ),
        ("decisions compared", str(s["decisions"])),
        ("mark changes between the seeds", f"{s['mark_changed']:.3f}"),
        (
            "of decisions marked in either run: changed",
            f"{s['marked_changed']:.3f} of {s['marked']}",
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
