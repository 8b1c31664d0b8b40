"""The `spielwerk` command line: list, rules, play (bots and a human on stdin), replay, errors."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import spielwerk
from spielwerk.agents.heuristics import HEURISTICS
from spielwerk.agents.strengths import BOT_NAMES
from spielwerk.cli.main import app
from spielwerk.core.conformance import play_on
from spielwerk.games.witches import render
from spielwerk.games.witches.params import PARAMS
from spielwerk.games.witches.state import WitchesState

BOTS = ["play", "witches", "--players", "random,heuristic,mcts:50,random", "--seed", "3"]
ANSI = re.compile(r"\x1b\[[0-9;]*m")
CARD = re.compile(r"\b(?:" + "|".join(c.capitalize() for c in PARAMS.colours) + r") [1-9]\b")
"""A card as the terminal names it ("Red 7")."""
# A log line of a play: the log's two-space indent, maybe after the human's prompt (a pipe does
# not echo the typed answer); the human's seat as "seat 1", a bot by its name ("Ben (random
# bot)": the second seat). Choices ("  3) seat 1 plays ...") do not match.
PLAY_LINE = re.compile(
    r"^(?:.*your choice \(.*?\): )?  (seat \d+|\w+ \(random bot\)) plays (\S+ \d)$", re.M
)


def seat_of(who: str) -> int:
    """The seat (from 0) of a log line's player: "seat 1", or a bot's name (the first seat's
    is Anna)."""
    if who.startswith("seat "):
        return int(who.split()[1]) - 1
    return BOT_NAMES.index(who.split()[0])


def card_id(shown: str) -> str:
    """A card's id from its name in the terminal: "Red 7" is "red-7"."""
    colour, value = shown.split()
    return f"{colour.lower()}-{value}"


SCRIPT = Path(sys.executable).with_name("spielwerk")


@dataclass(frozen=True)
class Run:
    exit_code: int
    stdout: str
    stderr: str

    @property
    def plain(self) -> str:
        """stdout without any colour codes (there should be none: it is not a terminal)."""
        return ANSI.sub("", self.stdout)


def run(args: list[str], input: str | None = None) -> Run:
    result = CliRunner().invoke(app, args, input=input, env={"LC_ALL": "C.UTF-8"})
    return Run(result.exit_code, result.stdout, result.stderr)


def assert_one_line_error(result: Run) -> None:
    assert result.exit_code == 2, (result.exit_code, result.stdout, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("spielwerk: error: ")
    assert "Traceback" not in result.stderr + result.stdout


# ---------------------------------------------------------------------- list, rules
def test_list_names_witches_with_players_and_options() -> None:
    result = run(["list"])
    assert result.exit_code == 0
    out = result.plain
    assert "witches" in out and "The Witches of Blackmore" in out
    assert "2-6" in out
    assert "wheel=descending" in out and "ascending" in out and "start_player=0" in out
    assert "plant" not in out  # the tooling's planted imbalance is not a rule


def test_the_planted_imbalance_is_the_tools_not_a_games() -> None:
    """The imbalance planted for `spielwerk balance` is no rule: `rules` and `play` know
    nothing of it; `simulate` (and `balance`) play the tooling's variant with it, one game at a
    time (the compiled batched simulator plays the rules alone)."""
    assert "plant" not in run(["rules", "witches"]).plain
    play = ["play", "witches", "--players", "random,random,random", "--option", "plant=grey-9"]
    refused = run(play)
    assert refused.exit_code != 0 and "unknown option 'plant'" in refused.plain + refused.stderr
    result = run(
        [
            "simulate",
            "witches",
            "--players",
            "random,random,random",
            "--games",
            "6",
            "--option",
            "plant=grey-9",
        ]
    )
    assert result.exit_code == 0, result.stderr
    assert "batched simulator" not in result.plain


def test_rules_prints_title_players_options_and_how_to_play() -> None:
    """The player's rules (the rules page's text): the sections a player reads, none of the
    developer's material (provenance tags, code, tests)."""
    result = run(["rules", "witches"])
    assert result.exit_code == 0
    out = result.plain
    assert "The Witches of Blackmore" in out
    assert "Players: 2 to 6" in out
    assert "wheel=descending" in out
    for heading in ("Goal", "Set-up", "A turn", "Scoring", "End of the game"):
        assert f"\n{heading}" in out
    assert "David wins with his blue 4" in " ".join(out.split())  # the rulebook's example
    for developer in ("[design]", "[seed", "returns()", ".py", "piece:"):
        assert developer not in out


# ---------------------------------------------------------------------- bots only
def test_bot_game_runs_to_the_end_and_prints_the_result(tmp_path: Path) -> None:
    result = run([*BOTS, "--record", str(tmp_path / "game.json")])
    assert result.exit_code == 0, result.stderr
    out = result.plain
    assert "Result" in out and "Winner" in out
    assert "Trick 1:" in out
    assert "is dealt" not in out  # the deal is summarised, not told card by card
    record = json.loads((tmp_path / "game.json").read_text())
    scores = record["result"]["scores"]
    for seat, score in enumerate(scores):  # seats counted from 1
        assert re.search(rf"│\s+{seat + 1} │ .*│\s+{score} │", out)


@pytest.mark.parametrize(
    ("players", "seed", "verdict"),
    [("heuristic,heuristic", 5, "The team wins"), ("heuristic", 1, "The team loses")],
)
def test_a_cooperative_game_ends_with_the_party_s_verdict(
    tmp_path: Path, players: str, seed: int, verdict: str
) -> None:
    """Tainted Grail is won or lost by the whole party: the result says which, and why."""
    path = tmp_path / "game.json"
    command = ["play", "tainted_grail", "--players", players, "--seed", str(seed)]
    result = run([*command, "--record", str(path)])
    assert result.exit_code == 0, result.stderr
    record = json.loads(path.read_text())["result"]
    said = f"{verdict} after {record['days']} days: {record['reason']}"
    assert said in " ".join(result.plain.split())
    assert "Winner" not in result.plain


def test_bot_game_log_is_the_spectators() -> None:
    out = run(BOTS).plain
    assert "Your hand" not in out
    assert not re.search(r"seat \d+ (draws|is dealt)", out)


def test_same_seed_same_output_and_record(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    first = run([*BOTS, "--record", str(path)])
    first_record = path.read_text()
    second = run([*BOTS, "--record", str(path)])
    assert first.exit_code == second.exit_code == 0
    assert first.stdout == second.stdout
    assert path.read_text() == first_record


def test_record_replays_and_a_tampered_record_is_rejected(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert run([*BOTS, "--record", str(path)]).exit_code == 0
    result = run(["replay", str(path)])
    assert result.exit_code == 0, result.stderr
    assert result.plain.startswith("ok")
    assert "Result" in result.plain

    record = json.loads(path.read_text())
    record["result"]["scores"][0] += 1
    bad_result = tmp_path / "bad_result.json"
    bad_result.write_text(json.dumps(record))
    assert_one_line_error(run(["replay", str(bad_result)]))

    record = json.loads(path.read_text())
    plays = [e for e in record["actions"] if e["action"]["type"] == "play"]
    plays[0]["action"]["card"] = plays[1]["action"]["card"]  # a card the player does not hold
    bad_action = tmp_path / "bad_action.json"
    bad_action.write_text(json.dumps(record))
    assert_one_line_error(run(["replay", str(bad_action)]))


# ---------------------------------------------------------------------- mistakes
PLAYERS2 = ["--players", "random,random"]


@pytest.mark.parametrize(
    "args",
    [
        ["play", "chess", *PLAYERS2],
        ["rules", "chess"],
        ["play", "witches", "--players", "random"],
        ["play", "witches", "--players", ",".join(["random"] * 7)],
        ["play", "witches", "--players", "random,wizard"],
        ["play", "witches", "--players", "random,,random"],
        ["play", "witches", "--players", "random,mcts:0"],
        ["play", "witches", "--players", "random,mcts:-2s"],
        ["play", "witches", "--players", "random,mcts:fast"],
        ["play", "witches", *PLAYERS2, "--option", "foo"],
        ["play", "witches", *PLAYERS2, "--option", "foo=1"],
        ["play", "witches", *PLAYERS2, "--option", "wheel=sideways"],
        ["play", "witches", *PLAYERS2, "--option", "start_player=x"],
        ["play", "witches", *PLAYERS2, "--option", "start_player=3"],
        ["play", "witches", *PLAYERS2, "--record", "/no/such/dir/game.json"],
        ["replay", "/no/such/file.json"],
    ],
)
def test_mistakes_give_one_line_and_exit_2(args: list[str]) -> None:
    assert_one_line_error(run(args))


def test_missing_heuristic_is_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delitem(HEURISTICS, "witches")
    result = run(["play", "witches", "--players", "heuristic,random"])
    assert_one_line_error(result)
    assert "heuristic" in result.stderr


@pytest.mark.parametrize(
    "content",
    ["not json {", "[1, 2]", '{"format": "other"}', "", '{"format": "spielwerk-record/1"}'],
)
def test_malformed_records_give_one_line(tmp_path: Path, content: str) -> None:
    path = tmp_path / "record.json"
    path.write_text(content)
    assert_one_line_error(run(["replay", str(path)]))


def test_directory_as_record_is_one_line(tmp_path: Path) -> None:
    assert_one_line_error(run(["replay", str(tmp_path)]))


# ---------------------------------------------------------------------- a human seat
@dataclass
class SeatZeroKnowledge:
    """Per play action j of a record, as seat 0 lived through it."""

    plays: list[tuple[int, str]]
    """(seat, card) of play j."""
    known_before: list[set[str]]
    """Every card seat 0 could know of before play j: its own cards (ever held), the trump
    pile's cards, everything played so far."""
    hands_around: list[list[list[str]]]
    """Seat 0's hand (sorted names) just after play j-1 and just before play j."""


def seat_zero_knowledge(record: dict[str, Any]) -> SeatZeroKnowledge:
    name = PARAMS.card_name
    state = spielwerk.load("witches", **record["options"]).new_state(
        record["players"], seed=record["seed"]
    )
    assert isinstance(state, WitchesState)
    facts = SeatZeroKnowledge([], [], [])
    known: set[str] = set()
    after_last_play: list[str] = []
    for entry in record["actions"]:
        action, actor = entry["action"], entry["actor"]
        is_play = action["type"] == "play"
        if is_play:
            facts.plays.append((actor, action["card"]))
            facts.known_before.append(set(known))
            facts.hands_around.append([after_last_play, sorted(name(c) for c in state.hands[0])])
        state.apply(action, player=None if actor == "chance" else int(actor))
        played = [c for _, cards, _, _, _ in state.tricks for c in cards] + state.trick_cards
        known |= {name(c) for c in [*state.hands[0], *state.trump_pile, *played]}
        if is_play:
            after_last_play = sorted(name(c) for c in state.hands[0])
    return facts


def test_human_plays_a_full_game_from_stdin_and_sees_only_its_cards(tmp_path: Path) -> None:
    path = tmp_path / "human.json"
    answers = "x\n0\n" + "1\n" * 300  # two bad answers first: asked again
    result = run(
        [
            "play",
            "witches",
            "--players",
            "human,random,random",
            "--seed",
            "5",
            "--record",
            str(path),
        ],
        input=answers,
    )
    assert result.exit_code == 0, result.stderr
    out = result.plain
    assert "'x' is not a choice" in out and "'0' is not a choice" in out
    assert "Result" in out and "Game over" in out
    assert "Your hand:" in out and "Your choices:" in out

    record = json.loads(path.read_text())
    assert spielwerk.replay(record).is_terminal()
    facts = seat_zero_knowledge(record)

    # The log shows every play, in order, as the record has them.
    matches = list(PLAY_LINE.finditer(out))
    assert [(seat_of(m.group(1)), card_id(m.group(2))) for m in matches] == facts.plays

    # Before play j is shown, the screen names no card seat 0 could not know by then.
    starts = [0, *(m.end() for m in matches)]
    for j, knowledge in enumerate(facts.known_before):
        segment = out[starts[j] : matches[j].start()]
        for shown in CARD.findall(segment):
            assert card_id(shown) in knowledge, (j, shown, segment)
        # Each rendered hand is seat 0's own hand at that moment (sorted), nobody else's.
        for line in re.findall(r"^Your hand: (.*)$", segment, re.M):
            hand = sorted(map(card_id, CARD.findall(line)))
            assert hand in facts.hands_around[j], (j, line, facts.hands_around[j])


def test_hands_in_the_human_view_are_sorted() -> None:
    state = spielwerk.load("witches").new_state(3, seed=11)
    for _ in play_on(state, until=lambda s: not s.is_chance()):
        state.apply(state.sample_chance())
    view = state.view(0)
    text = ANSI.sub("", render.render(view))
    hand_line = next(line for line in text.splitlines() if line.startswith("Your hand:"))
    shown = re.findall(r"\[[^\]]*\]([^\[]+?)\[/", hand_line)
    assert list(map(card_id, shown)) == render.sort_hand(view["hand"])
    spectator = render.render(state.view(None))
    assert "Your hand" not in spectator
    assert "[bold red]" in render.card("red-3") and "[bold magenta]" in render.card("purple-1")


def test_two_humans_get_the_spectator_log() -> None:
    result = run(["play", "witches", "--players", "human,human", "--seed", "2"], input="1\n" * 200)
    assert result.exit_code == 0, result.stderr
    draws = re.findall(r"seat \d+ draws (\S+ ?\S*)", result.plain)
    assert draws and all(d.startswith("a card") for d in draws)
    assert "seat 1 to play" in result.plain and "seat 2 to play" in result.plain  # from 1


def test_end_of_input_abandons_cleanly() -> None:
    result = run(["play", "witches", "--players", "human,random", "--seed", "1"], input="1\n")
    assert result.exit_code == 1
    assert result.stderr.splitlines() == [
        "spielwerk: game abandoned: input ended before the game did"
    ]
    assert "Traceback" not in result.stdout


def test_quitting_on_purpose_is_not_an_error() -> None:
    """Typing q at the prompt leaves the game with exit code 0 and says so."""
    result = run(["play", "witches", "--players", "human,random", "--seed", "1"], input="q\n")
    assert result.exit_code == 0
    assert "seat 1 quit: the game is left unfinished." in result.stdout
    assert result.stderr == ""


# ---------------------------------------------------------------------- the console script
@pytest.mark.skipif(not SCRIPT.exists(), reason="the console script is not installed")
def test_console_script_with_piped_stdin_and_usage_errors() -> None:
    listed = subprocess.run([SCRIPT, "list"], capture_output=True, text=True, timeout=60)
    assert listed.returncode == 0 and "witches" in listed.stdout

    missing = subprocess.run([SCRIPT, "play"], capture_output=True, text=True, timeout=60)
    assert missing.returncode == 2 and len(missing.stderr.splitlines()) == 1

    wrong = subprocess.run(
        [SCRIPT, "play", "witches", "--players", "human,nobody"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert wrong.returncode == 2 and len(wrong.stderr.splitlines()) == 1

    quit_early = subprocess.run(
        [SCRIPT, "play", "witches", "--players", "human,random", "--seed", "4"],
        input="5\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert quit_early.returncode == 1
    assert quit_early.stderr.strip() == "spielwerk: game abandoned: input ended before the game did"
    assert "Your hand:" in quit_early.stdout


def test_replay_steps_through_a_record_and_back(tmp_path: Path) -> None:
    """`spielwerk replay FILE --step`: one action per Enter with the table after it and what
    it made happen (a trick's winner and points), b goes back a step, q stops; a seat sees
    only its own hand; a seat the game does not have is refused."""
    path = tmp_path / "game.json"
    assert run([*BOTS, "--record", str(path)]).exit_code == 0
    steps = len(json.loads(path.read_text())["actions"])
    result = run(["replay", str(path), "--step", "--seat", "2"], input="\n" * (steps + 5))
    assert result.exit_code == 0, result.stderr
    out = result.plain
    assert f"step {steps} of {steps}" in out and "The end of the record." in out
    tricks = re.findall(r"^  Trick (\d+): .* → seat \d( \(you\))? takes \d+ points", out, re.M)
    assert [int(number) for number, _ in tricks] == list(range(1, len(tricks) + 1))
    assert len(tricks) >= 10
    # seats counted from 1: --seat 2 is the rules' seat 1; the others' cards are dealt face down
    assert "seat 2's view" in out and "seat 1 is dealt a card" in out
    back = run(["replay", str(path), "--step"], input="\n\nb\nq\n").plain
    assert re.findall(r"step (\d+) of", back) == ["0", "1", "2", "1"]
    assert_one_line_error(run(["replay", str(path), "--step", "--seat", "7"]))
