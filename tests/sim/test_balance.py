"""`spielwerk balance`: the estimators on a synthetic game whose component effects are known,
the planted imbalance, strategies and restricted play, the time budget, resuming, and the
report's structure (tiny budgets; nothing here depends on the machine's speed)."""

from __future__ import annotations

import importlib
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from synthetic import SyntheticGame
from typer.testing import CliRunner

from spielwerk.agents import AgentSpecError, make_agent
from spielwerk.agents.strategies import strategy_specs
from spielwerk.cli.balance import parse_budget
from spielwerk.cli.main import app
from spielwerk.core.components import declaration_for
from spielwerk.core.errors import OptionError
from spielwerk.core.registry import _registry, load
from spielwerk.sim.balance import BalanceConfig, balance
from spielwerk.sim.balance.estimate import (
    compensation,
    component_effects,
    holm,
    paired_difference,
)
from spielwerk.sim.balance.play import BalanceRow, BalanceSpec, lead_summary, play_balance
from spielwerk.sim.balance.run import BalanceRun
from spielwerk.sim.balance.search import coarse_values, parse_target, parse_tune, refine_values
from spielwerk.sim.match import play_game
from spielwerk.sim.plan import Variant
from spielwerk.sim.runner import run
from spielwerk.sim.variants import load_variant

# The module (the package `spielwerk.cli` exports its `main` function under the same name).
cli_main = importlib.import_module("spielwerk.cli.main")

GAMES = ("witches", "inkheart_dice", "isolde", "inkspell", "tainted_grail")


@pytest.fixture
def synthetic() -> Iterator[None]:
    registry = _registry()
    registry["synthetic"] = SyntheticGame
    yield
    del registry["synthetic"]


def rows_of(
    game: str, lineup: tuple[str, ...], deals: int, options: tuple = (), first: int = 1000
) -> list[BalanceRow]:
    specs = [
        BalanceSpec(deal, game, Variant("", options), lineup, deal, first + deal, 0)
        for deal in range(deals)
    ]
    return [play_balance(spec) for spec in specs]


TRUTH = {"gold": 1.0, "copper": 0.0, "tin": 0.0, "lead": -1.0}


def test_estimator_recovers_the_synthetic_games_known_effects(synthetic: None) -> None:
    """30 independent replications of 120 two-player deals. By construction gold's effect is +1
    and lead's -1 (whoever holds it alone wins / loses), copper's and tin's 0. The 95%
    intervals cover the true effect in at least 26 of 30 replications for every token
    (expected 28.5); gold and lead are significant after Holm's correction in every one and
    rank first and last; a neutral token is flagged in at most 4 (expected 1.5 or fewer: Holm
    holds the family-wise error at 5%)."""
    declaration = declaration_for(load("synthetic"))
    assert declaration is not None
    covered = dict.fromkeys(TRUTH, 0)
    false_flags = 0
    for replication in range(30):
        rows = rows_of("synthetic", ("random", "random"), 120, first=10_000 * replication)
        ranked = component_effects(rows, declaration.components, False)
        effects = {e["item"]: e for e in ranked}
        for item, truth in TRUTH.items():
            covered[item] += effects[item]["low"] <= truth <= effects[item]["high"]
        assert [ranked[0]["item"], ranked[-1]["item"]] == ["gold", "lead"]
        assert effects["gold"]["significant"] and effects["lead"]["significant"]
        false_flags += effects["copper"]["significant"] or effects["tin"]["significant"]
    assert min(covered.values()) >= 26, covered
    assert false_flags <= 4


def test_compensation_cancels_the_first_seats_head_start(synthetic: None) -> None:
    """With `first_bonus` seat 0 wins every tie; the score change that makes it fair is a
    penalty (negative bonus) of at most its 0.5 head start, and seat 1 needs a bonus."""
    rows = rows_of("synthetic", ("random", "random"), 400, (("first_bonus", "1"),))
    bonus = {c["seat"]: c for c in compensation(rows, 2, resamples=50)}
    assert -0.5 - 1e-6 <= bonus[0]["bonus"] < 0
    assert bonus[1]["bonus"] > 0


def test_holm_adjusts_step_down() -> None:
    assert holm([0.01, 0.04, 0.03]) == pytest.approx([0.03, 0.06, 0.06])
    assert holm([0.5]) == [0.5]


def test_lead_summary_counts_changes_of_the_sole_leader() -> None:
    """-1 is a tie (the lead stays where it was); two thirds of 6 decisions is index 4."""
    assert lead_summary([0, 0, -1, 1, 1, 0]) == (2, 1)
    assert lead_summary([]) == (0, -1)


def test_planted_imbalance_is_the_strongest_component() -> None:
    """Witches with grey-9 planted to score 18 (`spielwerk.sim.variants`, the tooling's
    variant): among 108 components (each card held and captured) in 150 random 4-player games,
    capturing grey-9 is the strongest, ahead of the other nines."""
    rows = rows_of("witches", ("random",) * 4, 150, (("plant", "grey-9"),))
    declaration = declaration_for(load_variant("witches", plant="grey-9"))
    assert declaration is not None
    effects = component_effects(rows, declaration.components, False)
    assert effects[0]["key"] == "grey-9/captured"
    assert effects[0]["significant"]


def test_the_planted_card_doubles_that_cards_points_only() -> None:
    """The planted card counts twice for whoever captures it, in the variant only; the rules
    (and so every record and table) know nothing of it."""
    from spielwerk.core.conformance import play_random

    for seed in range(20):
        planted = play_random(load_variant("witches", plant="grey-9"), 4, seed)
        plain = play_random(load("witches"), 4, seed)
        view, rules = planted.view(None), plain.view(None)
        assert view["captured"] == rules["captured"]  # the same game, move for move
        for seat, cards in enumerate(view["captured"]):
            face = sum(int(card.rpartition("-")[2]) for card in cards)
            assert rules["scores"][seat] == face
            assert view["scores"][seat] == face + (9 if "grey-9" in cards else 0)
    with pytest.raises(OptionError):
        load_variant("witches", plant="red-9")  # one plantable card is enough
    with pytest.raises(OptionError):
        load("witches", plant="grey-9")  # not an option of the game


@pytest.mark.parametrize("game", GAMES)
def test_every_game_declares_components_and_strategies(game: str) -> None:
    """Every exposure a finished game reports is a declared component; every strategy and a
    restricted heuristic play a whole game."""
    loaded = load(game)
    declaration = declaration_for(loaded)
    assert declaration is not None
    keys = {c.key for c in declaration.components}
    items = sorted({c.item for c in declaration.components})
    specs = strategy_specs(game)
    assert specs
    usable = [i for i in items if any(i in declaration.uses(a) for a in loaded.actions.actions)]
    for spec in [*specs, f"without:{usable[0]}"]:
        agents = [make_agent(spec, game, 1), make_agent("heuristic", game, 2)]
        state = play_game(loaded, agents, seed=3)
        assert state.is_terminal()
        for found in declaration.exposures(state):
            assert set(found) <= keys


def test_restricted_play_never_uses_the_forbidden_card() -> None:
    """The heuristic forbidden Zauberzunge never takes, steals or secures it (in Tintenherz a
    shown card can always be left: a re-roll or another card is offered, or the turn ends)."""
    game = load("inkheart_dice")
    for seed in range(6):
        agents = [
            make_agent("without:Zauberzunge", "inkheart_dice", seed),
            make_agent("heuristic", "inkheart_dice", 9),
        ]
        state = play_game(game, agents, seed=seed)
        used = [
            game.actions[a].to_json()
            for actor, a in state.history
            if actor == 0 and game.actions[a].to_json().get("card") == "Zauberzunge"
        ]
        assert used == []


def test_strategy_rules_hold() -> None:
    """never-reroll never re-rolls."""
    game = load("inkheart_dice")
    for seed in range(4):
        agents = [
            make_agent("strategy:never-reroll", "inkheart_dice", seed),
            make_agent("heuristic", "inkheart_dice", 5),
        ]
        state = play_game(game, agents, seed=seed)
        assert all(
            not game.actions[a].type.startswith("reroll")
            for actor, a in state.history
            if actor == 0
        )


def test_bad_strategy_and_item_are_clear_errors() -> None:
    with pytest.raises(AgentSpecError, match="no strategy"):
        make_agent("strategy:fly", "witches", 0)
    with pytest.raises(AgentSpecError, match="takes"):
        make_agent("strategy:rush=moon", "isolde", 0)
    with pytest.raises(AgentSpecError, match="no component"):
        make_agent("without:joker", "witches", 0)


def test_paired_difference_compares_the_same_deals(synthetic: None) -> None:
    """A line-up against itself on the same deals differs by nothing."""
    rows = rows_of("synthetic", ("random", "random"), 30)
    diff = paired_difference(rows, rows)
    assert diff is not None and diff["difference"] == 0 and diff["deals"] == 30


def test_targets_and_tunes_parse_and_refine() -> None:
    target = parse_target("first_player<0.02")
    assert target.metric == "first_player_abs" and target.meets(0.01) and not target.meets(0.03)
    assert parse_target("length=40..60").meets(50)
    for bad in ("speed<3", "length=40", "first_player<>2"):
        with pytest.raises(OptionError):
            parse_target(bad)
    tune = parse_tune("isolde", "quest_first_points=1..17", {})
    assert coarse_values(tune) == ["1", "5", "9", "13", "17"]
    assert set(refine_values(tune, coarse_values(tune), "9")) <= {str(v) for v in range(6, 13)}
    with pytest.raises(OptionError):
        parse_tune("witches", "wheel=descending,sideways", {})
    with pytest.raises(OptionError):
        parse_tune("witches", "colour=1..3", {})


def test_budgets_parse() -> None:
    assert parse_budget("10m") == 600 and parse_budget("90s") == 90 and parse_budget("2") == 2
    for bad in ("ten", "0s", "5d"):
        with pytest.raises(OptionError):
            parse_budget(bad)


def test_stop_ends_a_run_early_and_says_so() -> None:
    """The runner asks `stop` between games: a stop that is true at once plays nothing more."""
    specs = [BalanceSpec(i, "witches", Variant("", ()), ("random",) * 4, i, i, 0) for i in range(5)]
    calls = []

    def stop() -> bool:
        calls.append(1)
        return len(calls) > 2

    result = run(specs, play=play_balance, stop=stop)
    assert result.interrupted and len(result.rows) == 2


def test_report_answers_the_six_questions_and_resumes(tmp_path: Path) -> None:
    """A tiny budget on a fast game: every section and file is there, the statements start
    with the seat edge, and a second run on the same directory keeps the first run's games
    and adds to them; another player count on that directory is refused. Only the structure is
    checked: what a few seconds of games show depends on the machine."""
    out = tmp_path / "witches"
    config = BalanceConfig("witches", players=3, budget=6.0, seed=4)
    report, files = balance(config, out)
    names = {p.name for p in files}
    assert {
        "report.html",
        "summary.json",
        "components.csv",
        "lineups.csv",
        "seats.csv",
        "games.csv",
        "tune.csv",
    } <= names
    for stage in ("field", "seats", "strategies", "ladder", "restricted", "tune"):
        assert stage in report
    assert report["statements"][0].startswith("Seat 0 (the first player) wins")
    summary = json.loads((out / "summary.json").read_text())
    assert summary["run"]["games"] == report["run"]["games"] > 0
    html = (out / "report.html").read_text()
    for heading in (
        "1. Skill ladder",
        "2. First-player",
        "3. Component strength",
        "4. Dominant strategies",
        "5. Length and drama",
        "6. Rule-variant search",
    ):
        assert heading in html
    first_games = report["run"]["games"]
    again, _ = balance(config, out)
    assert again["run"]["games"] > first_games
    with pytest.raises(Exception, match="other settings"):
        balance(BalanceConfig("witches", players=4, budget=1.0), out)


def test_fixed_options_reach_every_stage(tmp_path: Path) -> None:
    """`--option` values are played in every stage (the planted card in the field games)."""
    config = BalanceConfig(
        "witches", players=3, budget=4.0, options={"plant": "grey-9"}, stages=("field",)
    )
    report, _ = balance(config, tmp_path / "planted")
    assert report["field"]["summary"]["options"] == {"plant": "grey-9"}


def test_a_command_run_in_process_leaves_no_start_time_for_the_next(tmp_path: Path) -> None:
    """`main(argv)` called by a program (here: the test process, started long before) counts a
    balance budget from the command, and leaves nothing behind: a balance run afterwards in the
    same process still plays games (it once found its budget spent at the start, 0 games,
    when any test before it had called `main`)."""
    with pytest.raises(SystemExit) as done:
        cli_main.main(["scenario", "check", "demo"])
    assert done.value.code == 0
    assert cli_main.COMMAND_STARTED is None
    result = CliRunner().invoke(
        app, ["balance", "witches", "--budget", "3s", "--out", str(tmp_path / "w")]
    )
    assert result.exit_code == 0, result.output
    assert " 0 games" not in result.stdout


def test_cli_balance_and_its_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        app, ["balance", "tainted_grail", "--budget", "4s", "--out", str(tmp_path / "tg")]
    )
    assert result.exit_code == 0, result.output
    assert "party" in result.stdout
    assert (tmp_path / "tg" / "report.html").exists()
    for args in (
        ["--budget", "soon"],
        ["--jobs", "0"],
        ["--tune", "colour=1..2"],
        ["--target", "speed<1"],
        ["--players", "9"],
    ):
        bad = runner.invoke(app, ["balance", "witches", "--out", str(tmp_path / "x"), *args])
        assert bad.exit_code == 2, (args, bad.output)


@pytest.mark.parametrize(("players", "networks"), [(4, False), (2, True)])
def test_the_ladder_seats_a_network_only_at_a_count_it_was_trained_for(
    tmp_path: Path, players: int, networks: bool
) -> None:
    """Tainted Grail's shipped network (its `net`) was trained for 2 players: a 4-player
    ladder leaves that rung out instead of failing when it first moves; `best` is seated at
    any count (where the network does not fit, it plays as the search it replaced)."""
    run = BalanceRun(BalanceConfig("tainted_grail", players=players, budget=2.0), tmp_path / "tg")
    rungs = run._rungs(1.0)
    assert rungs[0] == "random" and rungs[1].startswith("mcts:")
    extras = run._extra_rungs(spare=1e9, decisions=120)  # time enough for anything
    assert ("best" in extras, "net" in extras) == (True, networks)


def test_the_ladder_leaves_out_a_rung_whose_games_do_not_fit_the_budget(tmp_path: Path) -> None:
    """`--budget 4s` means a run of about four seconds: `best`, whose Tainted Grail deals take
    a minute and more, is not seated when only seconds are left for the ladder (it once held
    such a run for 100 s), but is when there is time for it."""
    run = BalanceRun(BalanceConfig("tainted_grail", players=4, budget=4.0), tmp_path / "tg")
    assert run._extra_rungs(spare=1.0, decisions=120) == []
    assert run._extra_rungs(spare=1e9, decisions=120) == ["best"]
