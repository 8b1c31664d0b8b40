"""`spielwerk simulate`: seat rotation with duplicate deals, identical results for any job count
or backend, trustworthy statistics, the files in --out, clean Ctrl-C, and one-line errors."""

from __future__ import annotations

import csv
import json
import os
import re
import select
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats as scipy_stats
from typer.testing import CliRunner

from spielwerk.agents import make_agent
from spielwerk.cli.main import app
from spielwerk.core.errors import OptionError
from spielwerk.core.registry import load
from spielwerk.sim.match import play_game
from spielwerk.sim.plan import parse_vary, plan_games
from spielwerk.sim.runner import play_spec, run
from spielwerk.sim.stats import effective_games, entry_labels, summarise, wilson_interval

LINEUP = ("heuristic", "random", "random", "random")


def simulate(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["simulate", *args])
    return result.exit_code, result.stdout, result.stderr


def csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open(encoding="utf-8") as file:
        return list(csv.DictReader(file))


def test_each_deal_is_played_once_per_seat_rotation() -> None:
    """8 games of 4 players are 2 deals x 4 rotations; in each deal every agent sits in every
    seat once, and the deal (seed) is the same for its four games."""
    specs = plan_games("witches", LINEUP, 8, seed=10)
    assert [(s.deal, s.seed, s.rotation) for s in specs] == [
        (d, 10 + d, r) for d in range(2) for r in range(4)
    ]
    for deal in range(2):
        games = [s for s in specs if s.deal == deal]
        for entry in range(4):
            assert sorted(
                seat for s in games for seat in range(4) if s.entry_at(seat) == entry
            ) == [0, 1, 2, 3]
    assert len(plan_games("witches", LINEUP, 9, seed=10)) == 12  # rounded up to whole deals


def test_duplicate_deals_deal_the_same_hands_to_the_seats() -> None:
    """The rotated games of one deal start from the same cards: the set-up chance actions of
    every rotation are identical."""
    specs = plan_games("witches", ("random", "random", "random"), 3, seed=4)
    openings = []
    for spec in specs:
        agents = [make_agent("random", "witches", seed=spec.agent_seed(s)) for s in range(3)]
        state = play_game(load("witches"), agents, seed=spec.seed)
        deal_length = next(i for i, (actor, _) in enumerate(state.history) if actor >= 0)
        openings.append(state.history[:deal_length])
    assert openings[0] == openings[1] == openings[2]
    assert len(openings[0]) >= 3 * 6  # the three hands are dealt before the first decision


def test_same_seed_same_results_for_one_job_or_two(tmp_path: Path) -> None:
    """The issue's acceptance run, scaled down: --jobs 1 and --jobs 2 write identical results;
    only the seconds each seat spent thinking (the machine's, not the game's) differ."""
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"jobs{jobs}"
        code, _, stderr = simulate(
            "witches", "--games", "24", "--players", ",".join(LINEUP), "--seed", "1",
            "--jobs", jobs, "--out", str(out),
        )  # fmt: skip
        assert code == 0, stderr
        outs.append(out)
    first_rows, second_rows = (csv_rows(o / "results.csv") for o in outs)
    for rows in (first_rows, second_rows):
        assert all(float(r.pop("think_seconds")) >= 0 for r in rows)
    assert first_rows == second_rows
    first, second = (json.loads((o / "summary.json").read_text()) for o in outs)
    for summary in (first, second):
        for agent in summary["variants"][0]["agents"]:
            assert agent.pop("seconds_per_decision") >= 0
    assert first == second


def test_out_directory_holds_csv_json_plots_and_a_self_contained_report(tmp_path: Path) -> None:
    code, stdout, stderr = simulate(
        "witches", "-n", "8", "-p", "heuristic,random", "--out", str(tmp_path / "r"),
    )  # fmt: skip
    assert code == 0, stderr
    out = tmp_path / "r"
    rows = csv_rows(out / "results.csv")
    assert len(rows) == 8 * 2  # one row per game and seat
    assert {r["agent"] for r in rows} == {"heuristic", "random"}
    for game in range(8):
        seats = [r for r in rows if r["game"] == str(game)]
        assert sum(float(r["win_share"]) for r in seats) == pytest.approx(1.0)
    summary = json.loads((out / "summary.json").read_text())
    assert summary["games"] == 8 and summary["complete"]
    (variant,) = summary["variants"]
    assert [a["agent"] for a in variant["agents"]] == ["heuristic", "random"]
    for game in range(8):  # every decision is some seat's, and each seat's time is kept
        seats = [r for r in rows if r["game"] == str(game)]
        assert sum(int(r["seat_decisions"]) for r in seats) == int(seats[0]["decisions"])
        assert all(float(r["think_seconds"]) >= 0 for r in seats)
    assert all(a["seconds_per_decision"] > 0 for a in variant["agents"])
    assert "s/decision" in stdout and "0.000-" in stdout, "a piped table keeps its full width"
    assert sum(a["wins"] for a in variant["agents"]) == pytest.approx(8)
    for name in ("scores.png", "seats.png"):
        assert (out / name).read_bytes().startswith(b"\x89PNG")
    report = (out / "report.html").read_text()
    assert report.count("data:image/png;base64,") == 2
    assert "<table>" in report and "First player wins" in report and "s/decision" in report
    assert "Agents" in stdout and "Seats" in stdout and "t-test over deals" in stdout


def test_vary_replays_the_same_deals_under_each_option_value(tmp_path: Path) -> None:
    code, stdout, stderr = simulate(
        "witches", "-n", "8", "-p", "random,random,random,random",
        "--vary", "wheel=descending,ascending", "--out", str(tmp_path),
    )  # fmt: skip
    assert code == 0, stderr
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert [v["variant"] for v in summary["variants"]] == ["wheel=descending", "wheel=ascending"]
    rows = csv_rows(tmp_path / "results.csv")
    seeds = {
        v: {r["seed"] for r in rows if r["variant"] == v}
        for v in ("wheel=descending", "wheel=ascending")
    }
    assert seeds["wheel=descending"] == seeds["wheel=ascending"] == {"0", "1"}
    assert (tmp_path / "variants.png").exists()
    assert "Variants side by side" in stdout


def test_wilson_interval_known_values() -> None:
    """Wilson (1927) for 81 of 263: 0.2553-0.3662 (Newcombe 1998, table I, example 3-ish)."""
    low, high = wilson_interval(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


@given(n=st.integers(1, 10_000), data=st.data())
def test_wilson_interval_holds_the_observed_rate(n: int, data: st.DataObject) -> None:
    """The interval always holds the observed rate: an error bar drawn from it is never
    negative (at 0 of n or n of n rounding once put a bound a hair past the rate)."""
    successes = data.draw(st.integers(0, n))
    low, high = wilson_interval(successes, n)
    assert 0.0 <= low <= successes / n <= high <= 1.0


def test_first_player_advantage_is_tested_over_deals() -> None:
    """Witches 2 players, 40 games (20 deals): the p-value in the summary is scipy's one-sample
    t-test of seat 0's per-deal win rate against the fair 1/2."""
    specs = plan_games("witches", ("random", "random"), 40, seed=3)
    result = run(specs)
    summary = summarise(result, "witches", ("random", "random"), 3)
    (variant,) = summary["variants"]
    per_deal = [
        statistics.fmean(row.win_shares[0] for row in result.rows if row.spec.deal == deal)
        for deal in range(20)
    ]
    first = variant["first_player"]
    assert first["win_rate"] == pytest.approx(statistics.fmean(per_deal))
    assert first["p_value"] == pytest.approx(scipy_stats.ttest_1samp(per_deal, 0.5).pvalue)
    assert variant["seat_effect"]["p_value"] > 0.0
    assert variant["length"]["decisions"]["mean"] > 0


def test_replayed_deals_count_once_in_the_intervals() -> None:
    """Four copies of a deterministic bot play each deal's four rotations identically: the
    intervals are worth the deals (20, up to the sample variances' n - 1), not 80 games."""
    lineup = ("heuristic",) * 4
    result = run(plan_games("witches", lineup, 80, seed=2))
    (variant,) = summarise(result, "witches", lineup, 2)["variants"]
    assert variant["deals"] == 20
    seat = variant["seats"][0]
    n_eff = 80 * 19 / 79  # games / ((80 - 1) / (20 - 1))
    assert seat["effective_games"] == pytest.approx(n_eff)
    assert (seat["low"], seat["high"]) == pytest.approx(
        wilson_interval(seat["win_rate"] * n_eff, n_eff)
    )
    # independent games: no design effect, the interval is plain Wilson over the games
    assert effective_games([[1.0], [0.0], [1.0], [0.0]]) == 4


def test_entry_labels_number_repeated_specs() -> None:
    assert entry_labels(["mcts", "random", "heuristic", "random"]) == [
        "mcts", "random#1", "heuristic", "random#2",
    ]  # fmt: skip


def test_a_game_is_a_function_of_its_spec() -> None:
    (spec, *_) = plan_games("witches", LINEUP, 4, seed=9)
    assert play_spec(spec) == play_spec(spec)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["nope", "-p", "random,random"], "unknown game"),
        (["witches", "-p", "human,random"], "cannot be human"),
        (["witches", "-p", "random"], "takes 2 to 6 players"),
        (["witches", "-p", "random,random", "--jobs", "0"], "--jobs must be at least 1"),
        (["witches", "-p", "random,random", "--games", "0"], "--games must be at least 1"),
        (["witches", "-p", "random,random", "--vary", "wheel"], "bad --vary"),
        (["witches", "-p", "random,random", "--vary", "wheel=up,down"], "wheel"),
        (["witches", "-p", "random,random", "--vary", "colour=red"], "colour"),
        (["witches", "-p", "random,random", "--backend", "mpi"], "unknown --backend"),
        (["witches", "-p", "random,random", "--ray-address", "x"], "needs --backend ray"),
        (["witches", "-p", "random,mcts:x"], "bad MCTS budget"),
    ],
)
def test_bad_arguments_are_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, stdout, stderr = simulate(*args)
    assert code == 2
    assert message in stderr and stderr.count("\n") == 1
    assert "Agents" not in stdout


def test_out_must_not_be_a_file(tmp_path: Path) -> None:
    target = tmp_path / "file"
    target.write_text("keep me")
    code, _, stderr = simulate("witches", "-p", "random,random", "--out", str(target))
    assert code == 2 and "not a directory" in stderr
    assert target.read_text() == "keep me"


def test_parse_vary_refuses_repeats() -> None:
    with pytest.raises(OptionError, match="twice"):
        parse_vary(["wheel=ascending", "wheel=descending"])
    with pytest.raises(OptionError, match="repeats"):
        parse_vary(["wheel=ascending,ascending"])


def wait_for_finished_games(process: subprocess.Popen[str], timeout: float = 600) -> str:
    """Read the live progress bar on the process's stderr until it counts a finished game
    ("12/200000"); what was read. Fails if the process ends or nothing finishes in time."""
    assert process.stderr is not None
    descriptor = process.stderr.fileno()
    seen = b""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([descriptor], [], [], 1.0)
        if not ready:
            continue
        chunk = os.read(descriptor, 1 << 16)
        if not chunk:
            raise AssertionError(f"the run ended before a game finished: {seen[-500:]!r}")
        seen += chunk
        if any(int(done) > 0 for done, _ in re.findall(rb"(\d+)/(\d+)", seen)):
            return seen.decode(errors="replace")
    raise AssertionError(f"no game finished within {timeout} s: {seen[-500:]!r}")


@pytest.mark.parametrize(
    ("lineup", "jobs", "games"),
    [
        ("heuristic,random,random", "1", 200_000),
        ("heuristic,random,random", "2", 200_000),
        # The NumPy simulator plays some 70,000 random games a second: a long run, so that
        # the interrupt still finds it playing.
        ("random,random,random", "1", 2_000_000),
    ],
    ids=["one-process", "worker-processes", "batched"],
)
def test_ctrl_c_stops_cleanly_and_reports_what_finished(
    tmp_path: Path, lineup: str, jobs: str, games: int
) -> None:
    """SIGINT (Ctrl-C) in the middle: the run stops, prints the summary of the games that
    finished, writes them, and exits 130."""
    out = tmp_path / "partial"
    # The progress bar is drawn live (as on a terminal), so the test can see games finish.
    live = {"TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1", "NO_COLOR": "1"}
    process = subprocess.Popen(
        [str(Path(sys.executable).with_name("spielwerk")), "simulate", "witches", "-n", str(games),
         "-p", lineup, "--jobs", jobs, "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "COLUMNS": "120", **live},
        # As from a terminal: a suite started in the background (`make test &`) ignores
        # SIGINT, and the child would inherit that (Python then installs no handler for it).
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    assert process.stdout is not None
    header = process.stdout.readline()  # printed when the plan is made and the games start
    assert "seat rotations" in header
    # Interrupt once a game has finished, however slow the machine: not after a fixed time.
    progress = wait_for_finished_games(process)
    process.send_signal(signal.SIGINT)
    rest, stderr = process.communicate(timeout=300)
    stdout = header + rest
    stderr = progress + stderr
    assert process.returncode == 130, stderr
    assert "Interrupted" in stdout and "Agents" in stdout
    assert "stopped: interrupted after" in stderr
    summary = json.loads((out / "summary.json").read_text())
    assert 0 < summary["games"] < games and not summary["complete"]
    assert len(csv_rows(out / "results.csv")) == summary["games"] * 3


def test_all_random_line_ups_use_the_batched_simulator(tmp_path: Path) -> None:
    """Witches with four random seats runs on the batched simulator (said in the header); the
    results are complete and the same for --jobs 1 and 2; --no-batched plays scalar games."""
    outs = []
    for jobs in ("1", "2"):
        out = tmp_path / jobs
        code, stdout, stderr = simulate(
            "witches", "-n", "400", "-p", "random,random,random,random", "--seed", "3",
            "--jobs", jobs, "--out", str(out),
        )  # fmt: skip
        assert code == 0, stderr
        assert "batched simulator" in stdout
        outs.append((out / "results.csv").read_text())
    assert outs[0] == outs[1]
    rows = list(csv.DictReader(outs[0].splitlines()))
    assert len(rows) == 400 * 4
    assert all(int(r["decisions"]) > 40 for r in rows)
    assert all(r["think_seconds"] == "" for r in rows)  # no agent asked, no time measured
    code, stdout, _ = simulate("witches", "-n", "8", "-p", "random,random", "--no-batched")
    assert code == 0 and "1 job" in stdout


def test_batched_needs_an_all_random_line_up() -> None:
    code, _, stderr = simulate("witches", "-n", "8", "-p", "heuristic,random", "--batched")
    assert code == 2 and "--batched needs every seat random" in stderr
