"""`spielwerk ladder`: a round robin over duplicate deals with seat rotation, openskill ratings
with 95% intervals, resumable from its games file, co-operative games rated against the game,
and a skill ladder at doubling budgets. Budgets are tiny: these tests check the machinery, not
the strength figures (those are in docs/agents.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spielwerk.cli.main import app
from spielwerk.core.errors import OptionError
from spielwerk.sim.ladder import (
    GAMES_FILE,
    GameLog,
    LadderSetup,
    doubling,
    plan_ladder,
    ranks,
    rate,
    setup_ladder,
)
from spielwerk.sim.plan import GameSpec, Variant
from spielwerk.sim.runner import GameRow, run

ENTRANTS = ("random", "heuristic", "mcts:5", "mcts:10")


def ladder(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["ladder", *args])
    return result.exit_code, result.stdout, result.stderr


def test_every_line_up_plays_every_deal_in_every_rotation() -> None:
    """Four entrants, three seats: the four line-ups of three, each deal once per rotation,
    every entrant in every seat of every deal it plays."""
    setup = setup_ladder("witches", ENTRANTS, players=3, seed=7)
    assert not setup.cooperative and len(setup.lineups) == 4
    specs = plan_ladder(setup, 13)  # rounded up to 2 deals of 12 games
    assert len(specs) == 24 and [s.index for s in specs] == list(range(24))
    assert {s.seed for s in specs if s.deal == 1} == {8}
    for deal in range(2):
        for lineup in setup.lineups:
            games = [s for s in specs if s.deal == deal and s.lineup == lineup]
            for entry in range(3):
                seats = sorted(
                    seat for s in games for seat in range(3) if s.entry_at(seat) == entry
                )
                assert seats == [0, 1, 2]
    assert plan_ladder(setup, 30)[:24] == specs  # a longer run extends a shorter one


def row(scores: tuple[float, ...], shares: tuple[float, ...]) -> GameRow:
    spec = GameSpec(0, "witches", Variant("", ()), ("a", "b", "c", "d"), 0, 0, 0)
    return GameRow(spec, scores, shares, 10, 12, False)


def test_a_game_ranks_the_winners_first_then_the_others_by_score() -> None:
    assert ranks(row((90, 40, 60, 40), (1.0, 0, 0, 0))) == [0, 2, 1, 2]
    assert ranks(row((70, 70, 10, 20), (0.5, 0.5, 0, 0))) == [0, 0, 2, 1]


def test_ratings_follow_the_results_with_intervals() -> None:
    """Heuristic beats random in every one of six rigged games: its rating rises above random's,
    each rating sits inside its 95% interval, and the games and win rates are counted."""
    setup = setup_ladder("witches", ("random", "heuristic"), players=2)
    specs = plan_ladder(setup, 6)
    rows = []
    for spec in specs:
        heuristic_seat = [spec.lineup[spec.entry_at(s)] for s in range(2)].index("heuristic")
        shares = tuple(1.0 if s == heuristic_seat else 0.0 for s in range(2))
        rows.append(GameRow(spec, tuple(50.0 * x for x in shares), shares, 10, 12, False))
    summary = rate(setup, rows)
    best, worst = summary["ratings"]
    assert (best["entrant"], worst["entrant"]) == ("heuristic", "random")
    assert best["win_rate"] == 1.0 and worst["win_rate"] == 0.0
    assert best["games"] == worst["games"] == 6
    for entry in summary["ratings"]:
        assert entry["low"] < entry["mu"] < entry["high"]
        assert entry["high"] - entry["mu"] == pytest.approx(1.959963984540054 * entry["sigma"])


def test_each_entrant_s_seconds_a_decision_are_its_own_seats_time_over_its_decisions() -> None:
    """A ladder compares bots at their own budgets, so it says what each took a decision:
    the seconds its seats spent over the decisions they made, wherever it sat; a game kept
    without times (a file from before) counts for the ratings but not for the time."""
    setup = LadderSetup("witches", ("slow", "quick"), 2, 0, (), False)
    thinking = {"slow": (3.0, 10), "quick": (0.5, 10)}
    rows = []
    for spec in plan_ladder(setup, 2):
        seated = [spec.lineup[spec.entry_at(seat)] for seat in range(2)]
        seconds = tuple(thinking[name][0] for name in seated)
        decisions = tuple(thinking[name][1] for name in seated)
        rows.append(GameRow(spec, (1.0, 0.0), (1.0, 0.0), 20, 20, False, seconds, decisions))
    untimed = plan_ladder(setup, 4)[2]
    rows.append(GameRow(untimed, (1.0, 0.0), (1.0, 0.0), 20, 20, False))
    by_name = {entry["entrant"]: entry for entry in rate(setup, rows)["ratings"]}
    assert by_name["slow"]["seconds_per_decision"] == pytest.approx(0.3)
    assert by_name["quick"]["seconds_per_decision"] == pytest.approx(0.05)
    assert by_name["slow"]["games"] == by_name["quick"]["games"] == 3


def test_a_co_operative_game_rates_each_team_against_the_game() -> None:
    """Tainted Grail: each entrant fills both seats; the game itself is one more rated player.
    A heuristic party wins games, a random party none, so it is rated above random."""
    setup = setup_ladder("tainted_grail", ("random", "heuristic"), players=2)
    assert setup.cooperative and setup.lineups == [("random",) * 2, ("heuristic",) * 2]
    specs = plan_ladder(setup, 8)
    summary = rate(setup, run(specs).rows)
    names = [entry["entrant"] for entry in summary["ratings"]]
    assert set(names) == {"random", "heuristic", "tainted_grail (the game)"}
    by_name = {entry["entrant"]: entry for entry in summary["ratings"]}
    assert by_name["random"]["win_rate"] == 0.0 < by_name["heuristic"]["win_rate"]
    assert by_name["heuristic"]["mu"] > by_name["random"]["mu"]
    assert by_name["tainted_grail (the game)"]["games"] == len(specs)


def test_the_cli_writes_its_files_and_resumes_where_it_stopped(tmp_path: Path) -> None:
    out = tmp_path / "ladder"
    args = ["witches", "--entrants", "random,heuristic,mcts:5", "-p", "3", "--out", str(out)]
    code, stdout, stderr = ladder(*args, "-n", "3")
    assert code == 0, stderr
    assert "Ratings after 3 of 3 games" in stdout
    for name in (GAMES_FILE, "ladder.json", "ratings.md", "ratings.png", "report.html"):
        assert (out / name).is_file()
    lines = (out / GAMES_FILE).read_text(encoding="utf-8").splitlines()
    assert len(lines) == 1 + 3
    first_games = lines[1:]
    # Again with more games: the three played ones are kept, three more are played.
    code, stdout, _ = ladder(*args, "-n", "6")
    assert code == 0 and "3 already played, resuming" in stdout
    lines = (out / GAMES_FILE).read_text(encoding="utf-8").splitlines()
    assert lines[1:4] == first_games and len(lines) == 1 + 6
    summary = json.loads((out / "ladder.json").read_text(encoding="utf-8"))
    assert summary["games"] == 6 and len(summary["ratings"]) == 3
    # The resumed games kept their seats' times: every entrant's seconds a decision is known.
    assert all(r["seconds_per_decision"] > 0 for r in summary["ratings"])
    # A stop while writing leaves a partial last line: it is dropped and the game replayed.
    with (out / GAMES_FILE).open("a", encoding="utf-8") as file:
        file.write('{"index": 6, "lin')
    code, stdout, _ = ladder(*args, "-n", "9")
    assert code == 0 and "6 already played" in stdout
    # Another ladder in the same directory is refused, with one line.
    code, _, stderr = ladder("witches", "--entrants", "random,heuristic", "--out", str(out))
    assert code == 2 and "holds another ladder" in stderr and len(stderr.splitlines()) == 1


def test_a_skill_ladder_adds_one_agent_at_doubling_budgets(tmp_path: Path) -> None:
    assert doubling("mcts", 100, 3200) == [f"mcts:{b}" for b in (100, 200, 400, 800, 1600, 3200)]
    code, stdout, stderr = ladder(
        "witches", "--entrants", "random", "--skill", "mcts:2:8", "-p", "4", "-n", "4",
        "--out", str(tmp_path),
    )  # fmt: skip
    assert code == 0, stderr
    assert "mcts:2, mcts:4, mcts:8" in stdout and (tmp_path / "skill.png").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["witches", "--entrants", "random,heuristic", "-p", "4"], "needs at least 4 entrants"),
        (["witches", "--entrants", "random,random"], "names an entrant twice"),
        (["witches", "--entrants", "random,genius"], "unknown seat 'genius'"),
        (["witches", "--entrants", "random,human"], "bots only"),
        (["witches", "--skill", "mcts:100"], "bad --skill"),
        (["witches", "--skill", "mcts:400:100"], "1 <= low <= high"),
        (["witches", "--jobs", "0"], "--jobs must be at least 1"),
        (["nosuchgame"], "unknown game"),
    ],
)
def test_bad_ladder_arguments_end_with_one_line(args: list[str], message: str) -> None:
    code, _, stderr = ladder(*args)
    assert code == 2 and message in stderr and len(stderr.splitlines()) == 1


def test_a_games_file_of_another_ladder_is_refused(tmp_path: Path) -> None:
    setup = setup_ladder("witches", ENTRANTS, players=3)
    GameLog(tmp_path / GAMES_FILE, setup, plan_ladder(setup, 3))
    other = setup_ladder("witches", ENTRANTS, players=3, seed=1)
    with pytest.raises(OptionError, match="another ladder"):
        GameLog(tmp_path / GAMES_FILE, other, plan_ladder(other, 3))
