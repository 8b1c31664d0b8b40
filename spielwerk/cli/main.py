"""The `spielwerk` command: list, rules, play, replay, review, simulate, train, ladder, balance,
bench, scenario check.

Mistakes on the command line (an unknown game, a bad seat list or option, an unreadable record)
end with exactly one line on stderr and exit code 2, never a traceback.
"""

from __future__ import annotations

import contextlib
import ipaddress
import json
import math
import os
import random
import re
import sys
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape
from rich.table import Table

import spielwerk
from spielwerk.agents import AgentSpecError, make_agent
from spielwerk.agents.base import Agent
from spielwerk.agents.strengths import bot_label
from spielwerk.cli.renderers import game_text
from spielwerk.cli.terminal import GameAbandoned, HumanAgent, Narrator
from spielwerk.core.game import Game
from spielwerk.core.i18n import (
    LANGUAGES,
    Lang,
    TextError,
    as_lang,
    game_title,
    lang_from_environment,
    option_help,
    option_label,
    option_value,
    seat_name,
    shared_texts,
)
from spielwerk.core.options import OptionSpec
from spielwerk.core.registry import game_class
from spielwerk.core.state import State
from spielwerk.sim.match import play_game
from spielwerk.sim.plan import parse_vary, plan_games
from spielwerk.sim.runner import BACKENDS
from spielwerk.web.limits import (
    DEFAULT_BODY_TIMEOUT,
    DEFAULT_CONNECTIONS_PER_ADDRESS,
    DEFAULT_HEADER_TIMEOUT,
    DEFAULT_TABLES_PER_MINUTE,
    DEFAULT_UPLOADS_PER_MINUTE,
    Admission,
)

EXIT_USAGE = 2
"""Exit code of every mistake on the command line."""
EXIT_ABANDONED = 1
"""Exit code of a game a human left unfinished (end of input or `q`)."""
HUMAN = "human"

app = typer.Typer(
    name="spielwerk",
    help="Tabletop games played exactly by their rulebooks: in the terminal, between bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


class UsageProblem(Exception):
    """A mistake on the command line; its message is the one line the user sees."""


# ---------------------------------------------------------------------- errors
def _one_line(message: str) -> str:
    return " ".join(message.split()) or "unknown error"


def _fail(message: str, code: int = EXIT_USAGE, label: str = "error") -> NoReturn:
    sys.stderr.write(f"spielwerk: {label}: {_one_line(message)}\n")
    sys.stderr.flush()
    raise typer.Exit(code)


@contextmanager
def _user_errors() -> Iterator[None]:
    """Turn the errors a user can cause into one line on stderr and exit code 2."""
    try:
        yield
    except (spielwerk.SpielwerkError, AgentSpecError, UsageProblem) as error:
        _fail(str(error))
    except OSError as error:
        where = f" {error.filename}" if error.filename else ""
        _fail(f"cannot access{where}: {error.strerror or error}")
    except json.JSONDecodeError as error:
        _fail(f"not valid JSON: {error}")
    except ValueError as error:  # e.g. a record that is not UTF-8
        _fail(str(error))


def choose_lang(given: str | None) -> Lang:
    """`--lang`, else the locale's language (LC_ALL, LC_MESSAGES, LANG), else English."""
    if given is None:
        return lang_from_environment()
    try:
        return as_lang(given.strip().lower())
    except TextError:
        raise UsageProblem(f"--lang {given!r}: choose one of {', '.join(LANGUAGES)}") from None


LangOption = Annotated[
    str | None,
    typer.Option(
        "--lang",
        help="language of the game's texts: de or en (default: from the locale, else en)",
    ),
]


def _console() -> Console:
    # soft_wrap: long log lines are left to the terminal, so a line stays one line in a pipe.
    return Console(highlight=False, soft_wrap=True)


# ---------------------------------------------------------------------- parsing
def parse_options(items: Sequence[str]) -> dict[str, str]:
    """`key=value` strings into a dict (values stay text; the game's schema converts them)."""
    options: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UsageProblem(f"bad --option {item!r}: write it as key=value")
        if key in options:
            raise UsageProblem(f"option {key!r} is given twice")
        options[key] = value.strip()
    return options


def seat_spec(text: str) -> str:
    """A seat spec with its kind in lower case; a model file name after `net:` keeps its case."""
    kind, sep, rest = text.strip().partition(":")
    kind = kind.lower()
    return kind + sep + (rest if kind == "net" else rest.lower())


def parse_players(text: str, game: Game) -> list[str]:
    """The seat specs of `--players`, checked against the game's player range."""
    specs = [seat_spec(part) for part in text.split(",")]
    if any(not spec for spec in specs):
        raise UsageProblem(f"--players {text!r} has an empty seat: write e.g. human,random")
    if not game.min_players <= len(specs) <= game.max_players:
        raise UsageProblem(
            f"{game.name} takes {game.min_players} to {game.max_players} players; "
            f"--players names {len(specs)}"
        )
    return specs


def seat_seed(seed: int, seat: int) -> int:
    """Each bot's own seed, derived from the game's seed."""
    return seed * 101 + seat + 1


def build_agents(
    specs: Sequence[str],
    game: Game,
    seed: int,
    console: Console,
    narrator: Narrator,
    lang: Lang = "en",
) -> list[Agent]:
    humans = sum(spec == HUMAN for spec in specs)
    text = game_text(game.name, lang)
    agents: list[Agent] = []
    for seat, spec in enumerate(specs):
        if spec == HUMAN:
            agents.append(HumanAgent(console, text, narrator, announce_seat=humans > 1, lang=lang))
        else:
            agents.append(make_agent(spec, game.name, seat_seed(seed, seat)))
    check_models(agents, game, len(specs))
    return agents


def check_models(agents: Sequence[Agent], game: Game, players: int) -> None:
    """A network seat whose model was made for other options or player counts fails here,
    before the game starts (ModelMismatch names the difference)."""
    for agent in agents:
        check = getattr(agent, "check_game", None)
        if check is not None:
            check(game, players)


# ---------------------------------------------------------------------- output
def describe_option(spec: OptionSpec) -> str:
    text = f"{spec.name}={spec.default}"
    if spec.choices:
        text += f" ({' | '.join(map(str, spec.choices))})"
    elif spec.type is bool:
        text += " (False | True)"
    elif spec.minimum is not None or spec.maximum is not None:
        low = "" if spec.minimum is None else spec.minimum
        high = "" if spec.maximum is None else spec.maximum
        text += f" ({low}..{high})"
    return text


def player_label(spec: str, lang: Lang, you: bool = False) -> str:
    """Who plays a seat, in words: "you", a player at this keyboard, or a bot by what it does
    ("bot (search, 300 tries a move)")."""
    texts = shared_texts()
    if spec == HUMAN:
        return texts.say(lang, "terminal.you" if you else "terminal.human")
    kind, _, budget = spec.partition(":")
    key = f"terminal.bot_kind.{kind.removesuffix('-py')}"
    word = texts.say(lang, key) if texts.has(key) else kind
    if kind == "net" and budget:
        word = texts.say(lang, "terminal.bot_file", kind=word, file=budget)
    elif budget.isdigit():
        word = texts.say(lang, "terminal.bot_iterations", kind=word, n=int(budget))
    elif budget.endswith("s") and budget[:-1].replace(".", "", 1).isdigit():
        word = texts.say(lang, "terminal.bot_seconds", kind=word, seconds=budget[:-1])
    return texts.say(lang, "terminal.bot", kind=word)


def options_in_words(game: Game, lang: Lang) -> str:
    """The game's options as a player reads them: "Witches' wheel: descending, Start player:
    Seat 1"."""
    specs = {spec.name: spec for spec in game.option_specs}
    return ", ".join(
        shared_texts().say(
            lang,
            "terminal.option",
            label=option_label(game.name, name, lang),
            value=option_value(game.name, specs[name], value, lang),
        )
        for name, value in game.options.items()
    )


def result_table(state: State, labels: Sequence[str] | None = None, lang: Lang = "en") -> Table:
    """Scores and winners per seat; `labels` name the seats' players where they are known."""
    say = shared_texts().say
    result: Mapping[str, Any] = state.result()
    scores = result.get("scores")
    winners = set(result.get("winners") or [])
    table = Table(title=say(lang, "terminal.result"))
    table.add_column(say(lang, "terminal.seat_column"), justify="right")
    if labels is not None:
        table.add_column(say(lang, "terminal.player_column"))
    table.add_column(say(lang, "terminal.score_column"), justify="right")
    table.add_column("")
    for seat in range(state.num_players):
        score = scores[seat] if isinstance(scores, list) and seat < len(scores) else "-"
        player = [] if labels is None else [escape(labels[seat])]
        mark = f"[bold]{say(lang, 'terminal.winner_mark')}[/bold]" if seat in winners else ""
        table.add_row(str(seat + 1), *player, str(score), mark)  # seats counted from 1
    return table


def print_result(
    console: Console, state: State, labels: Sequence[str] | None = None, lang: Lang = "en"
) -> None:
    """The result table and a line naming the winners (in a cooperative game: whether the party
    won or lost, and why), and the game's own breakdown of it where it has one."""
    from spielwerk.core.narration import event_text, game_narration

    say = shared_texts().say
    console.print(result_table(state, labels, lang))
    result = state.result()
    winners = result.get("winners") or []
    narration = game_narration(state.game.name)
    explained: Mapping[str, Any] = {}
    if narration.explain is not None and narration.templates(lang):
        explained = narration.explain(state.view(None))
        for row in explained.get("rows", []):
            parts = "; ".join(event_text(narration, lang, part) for part in row.get("parts", []))
            if parts:
                console.print(f"  {escape(seat_name(lang, row['seat']))}: {escape(parts)}")
    if result.get("cooperative"):
        if explained.get("verdict"):  # won or lost, and why, in the game's words
            console.print(escape(event_text(narration, lang, explained["verdict"])))
            return
        verdict = say(lang, "terminal.party_won" if winners else "terminal.party_lost")
        reason = result.get("reason")
        console.print(f"{verdict}: {escape(str(reason))}" if reason else verdict)
        return
    names = "; ".join(seat_name(lang, w) + (f", {labels[w]}" if labels else "") for w in winners)
    if len(winners) > 1:
        console.print(say(lang, "terminal.winners_shared", names=escape(names)))
        tie = explained.get("tie_break")
        if tie:  # how the game parted equal scores, in its words
            text = escape(event_text(narration, lang, tie))
            console.print(say(lang, "terminal.tie_break", text=text))
    elif winners:
        console.print(say(lang, "terminal.winner", names=escape(names)))


# ---------------------------------------------------------------------- commands
@app.command("list")
def list_games() -> None:
    """List the games: name, title, number of players and options (default first)."""
    table = Table(title="Games")
    table.add_column("Game", no_wrap=True)
    table.add_column("Title")
    table.add_column("Players", justify="center", no_wrap=True)
    options: list[str] = []
    for name in spielwerk.list_games():
        cls = game_class(name)
        table.add_row(name, escape(cls.title), f"{cls.min_players}-{cls.max_players}")
        # Options go below the table, one per line: long names stay whole at any width.
        options += [f"  {name}: {escape(describe_option(spec))}" for spec in cls.option_specs]
    console = _console()
    console.print(table)
    if options:
        console.print("Options (--option key=value; default, then choices or range):")
        console.print("\n".join(options))


@app.command()
def rules(
    game: Annotated[str, typer.Argument(help="game name, see `spielwerk list`")],
    lang: LangOption = None,
) -> None:
    """Show how to play a game: its players and options, then the rules written for players
    (the same text as the web's rules page, without its pictures)."""
    from rich.markdown import Markdown

    from spielwerk.core.howto import how_to_play, without_pictures

    with _user_errors():
        cls = game_class(game)
        chosen = choose_lang(lang)
    say = shared_texts().say
    console = _console()
    console.print(f"[bold]{escape(game_title(cls.name, chosen))}[/bold] ({cls.name})")
    console.print(say(chosen, "terminal.players_range", low=cls.min_players, high=cls.max_players))
    specs = list(cls.option_specs)
    if specs:
        console.print(say(chosen, "terminal.options"))
        for spec in specs:
            help_text = option_help(cls.name, spec.name, spec.help, chosen)
            console.print(f"  {escape(describe_option(spec))}: {escape(help_text)}")
    text = how_to_play(cls.name, chosen)
    if text is not None:
        console.print()
        console.print(Markdown(without_pictures(text.markdown)), soft_wrap=False)


@app.command()
def play(
    game: Annotated[str, typer.Argument(help="game name, see `spielwerk list`")],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="comma-separated seats, one per player: human, random, heuristic, mcts, "
            "mcts:ITERATIONS, mcts:SECONDSs, best, net or net:MODEL_FILE",
        ),
    ],
    seed: Annotated[
        int | None, typer.Option(help="seed of the deal and the bots (random if not given)")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="game option key=value (repeatable)"),
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="write the game record (JSON) to this file")
    ] = None,
    lang: LangOption = None,
) -> None:
    """Play a game in the terminal: humans at the keyboard, bots in the other seats."""
    with _user_errors():
        chosen = choose_lang(lang)
        loaded = spielwerk.load(game, **parse_options(option or []))
        specs = parse_players(players, loaded)
        if seed is None:
            seed = random.SystemRandom().randrange(2**31)
        loaded.new_state(len(specs), seed=seed)  # checks options that depend on the players
        if record is not None and not record.parent.is_dir():
            raise UsageProblem(f"cannot write the record: no directory {str(record.parent)!r}")
        humans = [seat for seat, spec in enumerate(specs) if spec == HUMAN]
        # Bots sit under a name and their level, as at a web table: "Ben (Hard bot)".
        bots = [
            None if spec == HUMAN else bot_label(loaded.name, spec, seat, chosen)
            for seat, spec in enumerate(specs)
        ]
        console = _console()
        narrator = Narrator(
            console,
            game_text(loaded.name, chosen),
            viewer=humans[0] if len(humans) == 1 else None,
            compact=not humans,
            lang=chosen,
            seat_names=bots,
        )
        agents = build_agents(specs, loaded, seed, console, narrator, chosen)

    say = shared_texts().say
    labels = [
        bot
        if bot is not None
        else player_label(spec, chosen, you=len(humans) == 1 and seat == humans[0])
        for seat, (spec, bot) in enumerate(zip(specs, bots, strict=True))
    ]
    title = f"[bold]{escape(game_title(loaded.name, chosen))}[/bold]"
    console.print(say(chosen, "terminal.game_line", title=title, n=len(specs), seed=seed))
    options = options_in_words(loaded, chosen)
    if options:
        console.print(say(chosen, "terminal.options_line", options=escape(options)))
    seats = ", ".join(f"{seat_name(chosen, s)}: {escape(label)}" for s, label in enumerate(labels))
    console.print(say(chosen, "terminal.seats", seats=seats))
    try:
        state = play_game(loaded, agents, seed=seed, on_step=narrator.on_step)
    except GameAbandoned as stop:
        if stop.by_choice:  # quitting is a normal way to leave, not an error
            console.print(say(chosen, "terminal.left_unfinished", reason=escape(str(stop))))
            raise typer.Exit(0) from None
        _fail(str(stop), EXIT_ABANDONED, label="game abandoned")
    except KeyboardInterrupt:
        _fail("interrupted", 130, label="game abandoned")
    narrator.sync()
    if humans:
        console.rule(say(chosen, "terminal.game_over"))
    print_result(console, state, labels, chosen)
    if record is not None:
        with _user_errors():
            record.write_text(json.dumps(state.to_record(), indent=1) + "\n", encoding="utf-8")
        console.print(say(chosen, "terminal.record_written", file=escape(str(record))))


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="a game record (JSON) from `play --record`")],
    step: Annotated[
        bool,
        typer.Option(
            "--step",
            help="walk through the game action by action: Enter for the next, b back, q quits",
        ),
    ] = False,
    seat: Annotated[
        int | None,
        typer.Option(
            help="with --step: see the table as this seat (counted from 1); default spectator"
        ),
    ] = None,
    lang: LangOption = None,
) -> None:
    """Replay a game record, checking every action; print ok and its result."""
    with _user_errors():
        chosen = choose_lang(lang)
        state = spielwerk.load_record(file.read_text(encoding="utf-8"))
    console = _console()
    if seat is not None and not 1 <= seat <= state.num_players:
        _fail(f"--seat must be a seat of this game: 1 to {state.num_players}", 2)
    viewer = None if seat is None else seat - 1  # the rules count seats from 0
    say = shared_texts().say
    console.print(
        say(
            chosen,
            "terminal.replayed",
            title=escape(game_title(state.game.name, chosen)),
            players=state.num_players,
            seed=state.seed,
            actions=len(state.history),
        )
    )
    if step:
        walk(console, state, viewer, chosen)
    if state.is_terminal():
        print_result(console, state, lang=chosen)
    else:
        console.print(say(chosen, "terminal.record_ends_early"))


@app.command()
def review(
    file: Annotated[Path, typer.Argument(help="a finished game's record (JSON)")],
    seat: Annotated[int, typer.Option("--seat", help="the seat to review, from 1")],
    out: Annotated[
        Path | None,
        typer.Option(help="also write the review (JSON) and its chart (PNG) into this directory"),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the review's own randomness")] = 0,
    hindsight: Annotated[
        bool,
        typer.Option(
            "--hindsight",
            help="add each move's chance with every hidden card open (games with a compiled "
            "search; twice the time)",
        ),
    ] = False,
    lang: LangOption = None,
) -> None:
    """Judge every decision of one seat in a finished game: each move's winning chance from
    what that seat knew, the drop from the best move, and inaccuracies, mistakes, blunders."""
    from spielwerk.cli.review import print_review, review_with_progress, write_review
    from spielwerk.review.words import say

    with _user_errors():
        chosen = choose_lang(lang)
        if out is not None and out.exists() and not out.is_dir():
            raise UsageProblem(f"--out {str(out)!r} is a file, not a directory")
        if not 0 <= seed < 2**63:
            raise UsageProblem("--seed must be 0 to 2**63 - 1")
        state = spielwerk.load_record(file.read_text(encoding="utf-8"))
        if not 1 <= seat <= state.num_players:
            raise UsageProblem(
                f"--seat must be a seat of this game: 1 to {state.num_players}, not {seat}"
            )
        reviewed = review_with_progress(state, seat - 1, seed, chosen, hindsight)
        console = _console()
        print_review(console, reviewed, chosen)
        if hindsight and not reviewed.hindsight:
            console.print(escape(say(chosen, "hindsight.unavailable")))
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            data, chart = write_review(reviewed, out, chosen)
            console.print(escape(say(chosen, "written", json=str(data), chart=str(chart))))


def walk(console: Console, final: State, seat: int | None, lang: Lang = "en") -> None:
    """Step through `final`'s history as `seat` sees it: the table after each action, with the
    action's text and what it made happen (the game's narration). Reads a line per step."""
    from spielwerk.core.narration import event_text, game_narration

    say = shared_texts().say
    text = game_text(final.game.name, lang)
    narration = game_narration(final.game.name)
    history = final.history
    states = [final.game.new_state(final.num_players, seed=final.seed)]

    def named(p: int) -> str:  # counted from 1
        return seat_name(lang, p, you=p == seat)

    index = 0
    while True:
        state = states[index]
        console.rule(say(lang, "terminal.step", index=index, total=len(history)))
        if index > 0:
            actor, action_id = history[index - 1]
            before = states[index - 1]
            action = final.game.actions[action_id]
            console.print(text.markup(before.describe(action, seat, lang)))
            for made in narration.events(before.view(seat), state.view(seat)):
                if not made.get("quiet"):
                    words = event_text(narration, lang, made, named)
                    console.print("  " + escape(words))
        console.print(text.render_view(state.view(seat)))
        if index == len(history):
            console.print(say(lang, "terminal.end_of_record"))
            return
        try:
            answer = input(say(lang, "terminal.step_prompt")).strip().lower()
        except EOFError:
            return
        if answer == "q":
            return
        if answer == "b":
            index = max(0, index - 1)
            continue
        if index + 1 == len(states):
            following = state.clone()
            actor, action_id = history[index]
            following.apply(final.game.actions[action_id], player=actor)
            states.append(following)
        index += 1


@app.command()
def simulate(
    game: Annotated[str, typer.Argument(help="game name, see `spielwerk list`")],
    players: Annotated[
        str,
        typer.Option(
            "--players",
            "-p",
            help="comma-separated bot seats: random, heuristic, mcts, mcts:N, mcts:Ts, best, "
            "mcts-py (the mcts seat in Python where it is compiled)",
        ),
    ],
    games: Annotated[
        int, typer.Option("--games", "-n", help="games per variant (rounded up to whole deals)")
    ] = 100,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="game option key=value (repeatable)"),
    ] = None,
    vary: Annotated[
        list[str] | None,
        typer.Option(help="compare option values: key=v1,v2 (repeatable: every combination)"),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the first deal")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="local worker processes")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local Ray instance)")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(help="directory for results.csv, summary.json, PNG plots and report.html"),
    ] = None,
    batched: Annotated[
        bool | None,
        typer.Option(
            "--batched/--no-batched",
            help="the batched simulator (compiled kernel) for all-random line-ups (default: when "
            "the game has one)",
        ),
    ] = None,
) -> None:
    """Play many bot games with seat rotation and duplicate deals; report win rates with
    intervals, seat effects, score distributions and game length."""
    from spielwerk.cli.simulate import print_summary, run_with_progress
    from spielwerk.sim.batched import can_batch
    from spielwerk.sim.report import write_outputs
    from spielwerk.sim.stats import summarise
    from spielwerk.sim.variants import is_planted, load_variant

    with _user_errors():
        loaded = load_variant(game, **parse_options(option or []))
        planted = is_planted(parse_options(option or []))
        specs = parse_players(players, loaded)
        if HUMAN in specs:
            raise UsageProblem("simulate plays bots only: a seat cannot be human")
        if jobs < 1:
            raise UsageProblem(f"--jobs must be at least 1, not {jobs}")
        if backend not in BACKENDS:
            raise UsageProblem(f"unknown --backend {backend!r}: use {' or '.join(BACKENDS)}")
        if ray_address is not None and backend != "ray":
            raise UsageProblem("--ray-address needs --backend ray")
        if out is not None and out.exists() and not out.is_dir():
            raise UsageProblem(f"--out {str(out)!r} exists and is not a directory")
        try:
            plan = plan_games(
                game, specs, games, seed, parse_options(option or []), parse_vary(vary or [])
            )
        except KeyboardInterrupt:
            _fail("interrupted before any game was played", 130, "stopped")
        check_models([make_agent(spec, game, 0) for spec in set(specs)], loaded, len(specs))
        if batched and (not can_batch(specs, backend, game) or planted):
            raise UsageProblem(
                "--batched needs every seat random, the local backend and a game with a "
                "batched simulator"
            )
    if batched is not False and can_batch(specs, backend, game) and not planted:
        from spielwerk.sim.batched import warm_up

        try:
            warm_up(game)  # compiled code loaded before the games are announced as started
        except KeyboardInterrupt:
            _fail("interrupted before any game was played", 130, "stopped")
        how = "batched simulator (compiled kernel)"
    elif backend == "ray":
        how = f"backend ray{' at ' + ray_address if ray_address else ''}"
    else:
        how = f"{jobs} job{'s' if jobs > 1 else ''}"
    console = _console()
    console.print(
        f"[bold]{escape(loaded.title)}[/bold]: {len(plan)} games "
        f"({len(plan) // len(specs)} deals x {len(specs)} seat rotations), "
        f"line-up {escape(', '.join(specs))}, seed {seed}, {escape(how)}"
    )
    with _user_errors():
        result = run_with_progress(
            plan, jobs, backend, ray_address, Console(stderr=True), batched=batched
        )
    summary = summarise(result, game, specs, seed)
    if summary["variants"]:
        print_summary(console, summary)
    if out is not None and result.rows:
        with _user_errors():
            written = write_outputs(out, summary, result.rows)
        console.print(f"Written to {escape(str(out))}: " + ", ".join(p.name for p in written))
    if result.interrupted:
        _fail(f"interrupted after {len(result.rows)} of {len(plan)} games", 130, "stopped")


@app.command()
def train(
    game: Annotated[str, typer.Argument(help="game name, see `spielwerk list`")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="player count (default: the usual one)")
    ] = None,
    minutes: Annotated[float, typer.Option(help="wall time of this run")] = 60.0,
    out: Annotated[
        Path | None, typer.Option(help="model file to write (default: GAME.npz here)")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="continue from this checkpoint (FILE.checkpoint.npz)")
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the network and of every game")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="self-play worker processes")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local Ray instance)")
    ] = None,
    generations: Annotated[
        int | None, typer.Option(help="stop after this many generations (reproducible runs)")
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="game option key=value (repeatable)"),
    ] = None,
    expert: Annotated[
        str,
        typer.Option(help="auto, kernel (the compiled search with the network) or search (PUCT)"),
    ] = "auto",
    leaf_mix: Annotated[
        float,
        typer.Option(
            help="kernel expert: the network's share of each new leaf's value in self-play "
            "and in the model's play (0: rollouts only)"
        ),
    ] = 0.0,
) -> None:
    """Learn a policy-and-value network by self-play with network-guided search (expert
    iteration) and write it as a model file for the seat net:FILE (docs/learning.md)."""
    try:
        from spielwerk.cli.train import curve_path, plot_curve, train_with_progress
        from spielwerk.learn.train import Run, TrainConfig
    except ImportError as error:
        _fail(f"training needs the learn extra ({error}): pip install 'spielwerk[learn]'")
    from spielwerk.bench.run import usual_players

    with _user_errors():
        options = parse_options(option or [])
        loaded = spielwerk.load(game, **options)
        if players is None:
            players = usual_players(game)
        if not minutes > 0:
            raise UsageProblem(f"--minutes must be positive, not {minutes}")
        if jobs < 1:
            raise UsageProblem(f"--jobs must be at least 1, not {jobs}")
        if backend not in BACKENDS:
            raise UsageProblem(f"unknown --backend {backend!r}: use {' or '.join(BACKENDS)}")
        if ray_address is not None and backend != "ray":
            raise UsageProblem("--ray-address needs --backend ray")
        if generations is not None and generations < 1:
            raise UsageProblem(f"--generations must be at least 1, not {generations}")
        if out is None:
            out = Path(f"{game}.npz")
        if not out.parent.is_dir():
            raise UsageProblem(f"cannot write the model: no directory {str(out.parent)!r}")
        command = f"spielwerk train {game} --players {players} --minutes {minutes:g} --seed {seed}"
        command += f" --jobs {jobs}" + "".join(f" --option {k}={v}" for k, v in options.items())
        if expert != "auto":
            command += f" --expert {expert}"
        if leaf_mix:
            command += f" --leaf-mix {leaf_mix:g}"
        config = TrainConfig(
            game=loaded.name,
            players=players,
            out=out,
            options=options,
            minutes=minutes,
            generations=generations,
            seed=seed,
            jobs=jobs,
            backend=backend,
            ray_address=ray_address,
            command=command,
            expert=expert,
        )
        config = replace(config, kernel_search=replace(config.kernel_search, leaf_mix=leaf_mix))
        run = Run(config, resume=resume)
    console = _console()
    console.print(
        f"[bold]{escape(loaded.title)}[/bold]: training for {minutes:g} min, {players} players, "
        f"seed {seed}, {jobs} job{'s' if jobs > 1 else ''}"
        + (f", resuming {escape(str(resume))}" if resume else "")
    )
    with _user_errors():
        progress = train_with_progress(run, console, Console(stderr=True))
        plotted = plot_curve(
            progress.curve, players, f"{loaded.title}: learning curve", curve_path(out)
        )
    console.print(
        f"{progress.generation} generations, {progress.games} games, {progress.samples} samples, "
        f"{progress.seconds / 60:.1f} min; loss {progress.loss.get('loss', float('nan')):.3f}"
    )
    written = [out, config.checkpoint_path()] + ([curve_path(out)] if plotted else [])
    console.print("Written: " + ", ".join(escape(str(p)) for p in written))
    console.print(f"Play it: spielwerk play {game} --players net:{escape(str(out))},...")


@app.command()
def ladder(
    game: Annotated[str, typer.Argument(help="game name, see `spielwerk list`")],
    entrants: Annotated[
        str | None,
        typer.Option(
            help="comma-separated seat specs to rate (default: random, heuristic, mcts:300, "
            "mcts, best)"
        ),
    ] = None,
    skill: Annotated[
        str | None,
        typer.Option(help="add one agent at doubling budgets: KIND:LOW:HIGH, e.g. mcts:100:3200"),
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="players a game (default: as many as fit)")
    ] = None,
    games: Annotated[
        int, typer.Option("--games", "-n", help="games in all (rounded up to whole deals)")
    ] = 200,
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="game option key=value (repeatable)"),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the first deal")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="local worker processes")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local Ray instance)")
    ] = None,
    out: Annotated[
        Path | None,
        typer.Option(
            help="directory for the games (resumable: run again to go on), ladder.json, "
            "ratings.md, PNG plots and report.html"
        ),
    ] = None,
) -> None:
    """Rate seat specs against each other: a round robin over duplicate deals with seat
    rotation, openskill ratings with 95% intervals; `--skill` adds a doubling ladder."""
    from spielwerk.cli.ladder import entrant_list, run_ladder
    from spielwerk.sim.ladder import setup_ladder

    with _user_errors():
        if jobs < 1:
            raise UsageProblem(f"--jobs must be at least 1, not {jobs}")
        if backend not in BACKENDS:
            raise UsageProblem(f"unknown --backend {backend!r}: use {' or '.join(BACKENDS)}")
        if ray_address is not None and backend != "ray":
            raise UsageProblem("--ray-address needs --backend ray")
        if out is not None and out.exists() and not out.is_dir():
            raise UsageProblem(f"--out {str(out)!r} exists and is not a directory")
        specs = entrant_list(entrants, skill)
        if HUMAN in specs:
            raise UsageProblem("a ladder rates bots only: an entrant cannot be human")
        setup = setup_ladder(game, specs, players, seed, parse_options(option or []))
        _, interrupted = run_ladder(setup, games, jobs, backend, ray_address, out, _console())
    if interrupted:
        _fail("interrupted; run the same command again to go on", 130, "stopped")


@app.command()
def balance(
    game: Annotated[str, typer.Argument(help="game name, see `spielwerk list`")],
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="player count (default: 4 or fewer)")
    ] = None,
    budget: Annotated[
        str, typer.Option(help="time budget: 90s, 10m, 1h or seconds; the run keeps to it")
    ] = "10m",
    option: Annotated[
        list[str] | None,
        typer.Option("--option", "-o", help="game option key=value (repeatable)"),
    ] = None,
    tune: Annotated[
        list[str] | None,
        typer.Option(
            help="option to search: key=lo..hi or key=a,b (repeatable; default: the game's own)"
        ),
    ] = None,
    target: Annotated[
        str | None,
        typer.Option(
            help="what the search aims at: first_player<0.02, length=40..60, "
            "seat_spread<0.05, win_rate>0.5"
        ),
    ] = None,
    seed: Annotated[int, typer.Option(help="seed of the first deal")] = 0,
    jobs: Annotated[int, typer.Option("--jobs", "-j", help="local worker processes")] = 1,
    backend: Annotated[str, typer.Option(help="local (processes) or ray")] = "local",
    ray_address: Annotated[
        str | None, typer.Option(help="Ray cluster address (default: a local Ray instance)")
    ] = None,
    out: Annotated[
        Path, typer.Option(help="directory for report.html, summary.json, CSV and PNG files")
    ] = Path("balance"),
    fresh: Annotated[
        bool, typer.Option(help="discard the games stored in --out by an earlier run")
    ] = False,
) -> None:
    """A designer's balance report within a time budget: skill ladder, seat edge and its
    compensation, component strength with restricted play, dominant strategies, length and
    drama, and a rule-variant search."""
    from spielwerk.cli.balance import parse_budget, run_balance

    with _user_errors():
        if jobs < 1:
            raise UsageProblem(f"--jobs must be at least 1, not {jobs}")
        if backend not in BACKENDS:
            raise UsageProblem(f"unknown --backend {backend!r}: use {' or '.join(BACKENDS)}")
        if ray_address is not None and backend != "ray":
            raise UsageProblem("--ray-address needs --backend ray")
        if out.exists() and not out.is_dir():
            raise UsageProblem(f"--out {str(out)!r} exists and is not a directory")
        seconds = parse_budget(budget)
        code = run_balance(
            _console(),
            game=game,
            players=players,
            budget=seconds,
            options=parse_options(option or []),
            tune=tune,
            target=target,
            seed=seed,
            jobs=jobs,
            backend=backend,
            ray_address=ray_address,
            out=out,
            fresh=fresh,
            started=COMMAND_STARTED,
        )
    if code:
        _fail("interrupted: the report covers the games that finished", code, "stopped")


@app.command()
def bench(
    quick: Annotated[bool, typer.Option(help="a run of under a minute")] = False,
    out: Annotated[
        Path | None, typer.Option(help="JSON file for the figures (default: none with --quick)")
    ] = None,
) -> None:
    """Measure speed side by side with OpenSpiel: random play, MCTS, clone/view/resample,
    start-up and the batched simulators, with the ratios against the targets."""
    from spielwerk.bench.report import print_bench
    from spielwerk.bench.run import run_bench

    if out is not None and not out.parent.is_dir():
        _fail(f"cannot write {str(out)!r}: no directory {str(out.parent)!r}")
    if out is None and not quick:
        out = Path("bench-results.json")
    console = _console()
    status = Console(stderr=True)
    with status.status("measuring") as spinner:
        results = run_bench(quick, progress=lambda what: spinner.update(f"measuring {what}"))
    print_bench(console, results)
    if out is not None:
        with _user_errors():
            out.write_text(json.dumps(results, indent=1) + "\n", encoding="utf-8")
        console.print(f"Figures written to {escape(str(out))}")


HOST_NAME = re.compile(r"[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*")


def _host_name(text: str) -> str:
    """An --allowed-host as the server compares it: lower case, an IPv6 address without
    brackets; UsageProblem for anything that is not a host name or address."""
    name = text.strip().lower().strip("[]").rstrip(".")
    with contextlib.suppress(ValueError):
        return str(ipaddress.ip_address(name))
    if not HOST_NAME.fullmatch(name):
        raise UsageProblem(f"--allowed-host {text!r}: write a host name (no scheme, no port)")
    return name


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on")] = 8000,
    db: Annotated[
        str | None,
        typer.Option(
            help="database URL: a SQLite file (default sqlite:///spielwerk.db) or "
            "postgresql://user:password@host/dbname"
        ),
    ] = None,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            help="processes for the MCTS bots (default: cores - 1; random and heuristic bots "
            "have one of their own)"
        ),
    ] = None,
    bot_delay: Annotated[
        float, typer.Option(help="seconds a bot waits before moving, so people can follow")
    ] = 0.6,
    tables_per_minute: Annotated[
        int, typer.Option(help="new tables one client address may open a minute (0: no limit)")
    ] = DEFAULT_TABLES_PER_MINUTE,
    scenario_dir: Annotated[
        Path | None,
        typer.Option(help="a directory of Tainted Grail scenarios (NAME.toml) offered by name"),
    ] = None,
    trusted_proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="address or network of a reverse proxy whose X-Forwarded-For to "
            "believe (repeatable; default: none)"
        ),
    ] = None,
    allowed_origin: Annotated[
        list[str] | None,
        typer.Option(
            help="another origin (https://host) whose pages may use this server (repeatable)"
        ),
    ] = None,
    dev: Annotated[bool, typer.Option(help="serve /openapi.json and /docs")] = False,
    evict_after: Annotated[
        float, typer.Option(help="seconds an idle table stays in memory (then: the database)")
    ] = 60.0,
    max_idle_tables: Annotated[int, typer.Option(help="idle tables kept in memory at most")] = 256,
    max_bot_seconds: Annotated[
        float, typer.Option(help="seconds a bot may think per move at most (any budget)")
    ] = 5.0,
    bot_tables_per_address: Annotated[
        int, typer.Option(help="unfinished bot-only tables one address may run (0: no limit)")
    ] = 2,
    abandon_after: Annotated[
        float,
        typer.Option(
            help="hours without a move after which the lobby lists an unfinished table as "
            "abandoned (0: never; nothing is deleted)"
        ),
    ] = 24.0,
    allowed_host: Annotated[
        list[str] | None,
        typer.Option(
            help="a host name this server answers to besides the --host address and "
            "localhost (repeatable): requests for any other name are refused"
        ),
    ] = None,
    connections_per_address: Annotated[
        int,
        typer.Option(
            help="open connections one client address may hold (0: no limit; a --trusted-proxy "
            "is exempt)"
        ),
    ] = DEFAULT_CONNECTIONS_PER_ADDRESS,
    max_connections: Annotated[
        int, typer.Option(help="connections the server holds at once in all (beyond: 503)")
    ] = 8192,
    header_timeout: Annotated[
        float, typer.Option(help="seconds a request's header may take to arrive")
    ] = DEFAULT_HEADER_TIMEOUT,
    body_timeout: Annotated[
        float, typer.Option(help="seconds a request's body may take to arrive after its header")
    ] = DEFAULT_BODY_TIMEOUT,
    uploads_per_minute: Annotated[
        int,
        typer.Option(help="record files one address may open in the replay viewer a minute"),
    ] = DEFAULT_UPLOADS_PER_MINUTE,
    devices_per_seat: Annotated[
        int, typer.Option(help="connections one seat may hold at once (0: no limit)")
    ] = Admission.devices_per_seat,
    spectators_per_table: Annotated[
        int, typer.Option(help="spectators at one table at once (0: no limit)")
    ] = Admission.spectators_per_table,
    spectators_per_address: Annotated[
        int, typer.Option(help="spectator connections one address may hold (0: no limit)")
    ] = Admission.spectators_per_address,
    max_spectators: Annotated[
        int, typer.Option(help="spectators on the whole server (0: no limit)")
    ] = Admission.max_spectators,
    hand_over_after: Annotated[
        float,
        typer.Option(
            help="seconds a player must be gone before the others may let a bot play for them"
        ),
    ] = 90.0,
    spectator_idle: Annotated[
        float,
        typer.Option(
            help="minutes without a move after which a table's spectators are let go (0: never)"
        ),
    ] = Admission.spectator_idle / 60,
) -> None:
    """Serve the lobby and the tables in the browser (FastAPI + websockets)."""
    try:
        from spielwerk.web.app import ServerSettings
        from spielwerk.web.server import default_bot_workers
        from spielwerk.web.server import serve as run_server
    except ImportError as error:
        _fail(f"the web extra is not installed ({error}): pip install 'spielwerk[web]'")
    with _user_errors():
        if not 0 < port < 65536:
            raise UsageProblem(f"--port must be 1..65535, not {port}")
        if bot_workers is not None and bot_workers < 1:
            raise UsageProblem(f"--bot-workers must be at least 1, not {bot_workers}")
        if bot_delay < 0:
            raise UsageProblem(f"--bot-delay must not be negative, not {bot_delay}")
        if tables_per_minute < 0:
            raise UsageProblem(f"--tables-per-minute must not be negative, not {tables_per_minute}")
        if scenario_dir is not None and not scenario_dir.is_dir():
            raise UsageProblem(f"--scenario-dir {str(scenario_dir)!r} is not a directory")
        for proxy in trusted_proxy or []:
            try:
                ipaddress.ip_network(proxy, strict=False)
            except ValueError:
                raise UsageProblem(f"--trusted-proxy {proxy!r} is not an address") from None
        for origin in allowed_origin or []:
            if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
                raise UsageProblem(f"--allowed-origin {origin!r}: write it as https://host")
        if evict_after < 0 or max_idle_tables < 0 or bot_tables_per_address < 0:
            raise UsageProblem(
                "--evict-after, --max-idle-tables and --bot-tables-per-address must not be negative"
            )
        if not (math.isfinite(abandon_after) and abandon_after >= 0):
            raise UsageProblem(
                f"--abandon-after must be a number of hours, 0 or more, not {abandon_after}"
            )
        if not 0 < max_bot_seconds <= 600:
            raise UsageProblem(
                f"--max-bot-seconds must be above 0 and at most 600, not {max_bot_seconds}"
            )
        counts = {
            "--connections-per-address": connections_per_address,
            "--uploads-per-minute": uploads_per_minute,
            "--devices-per-seat": devices_per_seat,
            "--spectators-per-table": spectators_per_table,
            "--spectators-per-address": spectators_per_address,
            "--max-spectators": max_spectators,
        }
        for flag, value in counts.items():
            if value < 0:
                raise UsageProblem(f"{flag} must not be negative, not {value}")
        if max_connections < 1:
            raise UsageProblem(f"--max-connections must be at least 1, not {max_connections}")
        for flag, seconds in {
            "--header-timeout": header_timeout,
            "--body-timeout": body_timeout,
        }.items():
            if not (math.isfinite(seconds) and 0 < seconds <= 3600):
                raise UsageProblem(f"{flag} must be above 0 and at most 3600 s, not {seconds}")
        if not (math.isfinite(hand_over_after) and 0 <= hand_over_after <= 86400):
            raise UsageProblem(
                f"--hand-over-after must be 0 to 86400 seconds, not {hand_over_after}"
            )
        if not (math.isfinite(spectator_idle) and spectator_idle >= 0):
            raise UsageProblem(
                f"--spectator-idle must be a number of minutes, 0 or more, not {spectator_idle}"
            )
        hosts = tuple(_host_name(h) for h in allowed_host or [])
        settings = ServerSettings(
            db_url=db or ServerSettings.db_url,
            bot_workers=bot_workers or default_bot_workers(),
            bot_delay=bot_delay,
            max_connections=max_connections,
            connections_per_address=connections_per_address,
            header_timeout=header_timeout,
            body_timeout=body_timeout,
            admission=Admission(
                devices_per_seat=devices_per_seat,
                spectators_per_table=spectators_per_table,
                spectators_per_address=spectators_per_address,
                max_spectators=max_spectators,
                spectator_idle=spectator_idle * 60,
            ),
            tables_per_minute=tables_per_minute,
            uploads_per_minute=uploads_per_minute,
            allowed_hosts=hosts,
            hand_over_after=hand_over_after,
            scenario_dir=str(scenario_dir) if scenario_dir is not None else None,
            trusted_proxies=tuple(trusted_proxy or []),
            allowed_origins=tuple(allowed_origin or []),
            dev=dev,
            evict_after=evict_after,
            max_idle_tables=max_idle_tables,
            max_bot_seconds=max_bot_seconds,
            bot_tables_per_address=bot_tables_per_address,
            abandon_after=abandon_after * 3600,
        )
    try:
        run_server(settings, host, port)
    except Exception as error:  # e.g. an unreachable database or a bad URL
        if type(error).__module__.startswith(("sqlalchemy", "psycopg")) or isinstance(
            error, ValueError
        ):
            _fail(f"cannot open the database: {error}")
        raise


# ---------------------------------------------------------------------- scenarios
scenario_app = typer.Typer(
    help="Tainted Grail scenario files: check one before you play it "
    "(the format is in docs/games/tainted_grail.md).",
    no_args_is_help=True,
)
app.add_typer(scenario_app, name="scenario")
EXIT_SCENARIO_PROBLEMS = 1
"""Exit code of `scenario check` when the file has errors (or warnings, with --strict)."""


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'s' * (number != 1)}"


@scenario_app.command("check")
def scenario_check(
    file: Annotated[str, typer.Argument(help="a scenario TOML file, or a built-in name (demo)")],
    strict: Annotated[
        bool, typer.Option("--strict", help="fail on warnings too (dead parts of the scenario)")
    ] = False,
) -> None:
    """Check a Tainted Grail scenario: errors with line and field, whether it can be won, and
    the parts that never come into play (every load runs these checks; warnings let it play)."""
    from spielwerk.games.tainted_grail.scenario import check_scenario_file

    with _user_errors():
        scenario, diagnostics = check_scenario_file(file)
    console = _console()
    errors = sum(d.severity == "error" for d in diagnostics)
    warnings = len(diagnostics) - errors
    for diagnostic in diagnostics:
        colour = "red" if diagnostic.severity == "error" else "yellow"
        console.print(f"[{colour}]{diagnostic.severity}[/{colour}]: {escape(str(diagnostic))}")
    counts = f"{_count(errors, 'error')}, {_count(warnings, 'warning')}"
    if scenario is None or errors:
        console.print(f"{escape(file)}: {counts}: the scenario cannot be played")
    else:
        console.print(
            f"{escape(file)}: {counts}: {escape(scenario.title)} can be played "
            f"({_count(len(scenario.characters), 'character')}, "
            f"{_count(len(scenario.locations), 'location')}, "
            f"{_count(len(scenario.events), 'event')})"
        )
    if errors or (strict and warnings):
        raise typer.Exit(EXIT_SCENARIO_PROBLEMS)


# ---------------------------------------------------------------------- entry point
COMMAND_STARTED: float | None = None
"""When the `spielwerk` process started (`time.monotonic()`), set by `main` as the console
script for the length of its command: `balance` counts its time budget from there, start-up
included. None when the app runs inside another process (tests, `main(argv)` from a program),
where the budget counts from the command."""


def _process_start() -> float | None:
    """This process's start on the `time.monotonic()` clock (Linux; None elsewhere)."""
    try:
        ticks = int(Path("/proc/self/stat").read_text().rpartition(")")[2].split()[19])
        uptime = float(Path("/proc/uptime").read_text().split()[0])
        age = uptime - ticks / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None
    return time.monotonic() - max(0.0, age)


def main(argv: Sequence[str] | None = None) -> None:
    """The console script: like `app()`, but usage errors are one line on stderr too."""
    global COMMAND_STARTED
    # Only the console script's process started for this command; a program calling
    # main(argv) may be hours old, and the next command in it must not inherit the start.
    COMMAND_STARTED = _process_start() if argv is None else None
    command = typer.main.get_command(app)
    try:
        code = command.main(
            args=list(argv) if argv is not None else None,
            prog_name="spielwerk",
            standalone_mode=False,
        )
    except Exception as error:
        message = getattr(error, "format_message", None)
        exit_code = getattr(error, "exit_code", None)
        if not callable(message) or not isinstance(exit_code, int):
            raise
        if type(error).__name__ != "NoArgsIsHelpError":  # the help is already shown
            text = _one_line(str(message()))
            sys.stderr.write(f"spielwerk: error: {text} (try: spielwerk --help)\n")
        sys.exit(exit_code)
    sys.exit(code if isinstance(code, int) else 0)
