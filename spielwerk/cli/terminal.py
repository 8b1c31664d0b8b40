"""Terminal play: a human seat asked on a rich Console, and the game log as one seat sees it.

Nothing here looks at hidden parts of the state: the log is built from `State.view(viewer)` and
`State.describe(action, viewer)` for one viewer (a seat, or None for the spectator), and the
human seat gets exactly its `Turn` (its view, its legal actions, and a resampled state that only
serves to describe those actions).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Console
from rich.markup import escape
from rich.rule import Rule

from spielwerk.agents.base import Agent, Turn
from spielwerk.cli.renderers import GameText
from spielwerk.core.actions import Action
from spielwerk.core.i18n import DEFAULT_LANG, Lang, shared_texts
from spielwerk.core.state import CHANCE, State

QUIT_WORDS = frozenset({"q", "quit", "exit"})
SEAT_IN_TEXT = re.compile(r"\b(?:seat|Platz) (\d+)\b")
"""A seat in the games' texts, as the web page's narration also finds it (narration.js)."""


class GameAbandoned(Exception):
    """The human stopped the game: by choice (`q`) or because input ended."""

    def __init__(self, message: str, by_choice: bool = False) -> None:
        super().__init__(message)
        self.by_choice = by_choice


class Narrator:
    """Prints the game log for one viewer while `play_game` runs (pass `on_step`).

    The set-up (deal) is summarised once it is over; a run of chance events is one line; in
    compact mode, for games whose text has a `changes` function, only those public events are
    printed (a bot-only game then reads trick by trick).
    """

    def __init__(
        self,
        console: Console,
        text: GameText,
        viewer: int | None,
        compact: bool = False,
        lang: Lang = DEFAULT_LANG,
        seat_names: Sequence[str | None] = (),
    ) -> None:
        self.console = console
        self.lang = lang
        self.seat_names = list(seat_names)
        """Per seat, the name that replaces "seat N" in the log (a bot's), or None."""
        self.text = text
        self.viewer = viewer
        self.compact = compact and text.changes is not None
        self._state: State | None = None
        self._in_setup = True
        self._setup_lines: list[str] = []
        self._chance_run: list[str] = []
        self._last_view: Mapping[str, Any] | None = None

    # ------------------------------------------------------------------ hooks
    def on_step(self, state: State, actor: int, action: Action) -> None:
        """`play_game`'s hook: called with the state before each action."""
        self._state = state
        described = self.text.markup(state.describe(action, self.viewer, self.lang))
        if self._in_setup:
            if actor == CHANCE:
                self._setup_lines.append(described)
                return
            self._end_setup(state.view(self.viewer))
        else:
            self._show_changes(state.view(self.viewer))
        if actor == CHANCE:
            self._chance_run.append(described)
            return
        self._flush_chance_run()
        if not self.compact:
            self._print(described)

    def sync(self) -> None:
        """Print everything up to now (before a human is asked, and at the end)."""
        if self._state is None:
            return
        view = self._state.view(self.viewer)
        if self._in_setup:
            self._end_setup(view)
        else:
            self._show_changes(view)
        self._flush_chance_run()

    # ------------------------------------------------------------------ helpers
    def _end_setup(self, view: Mapping[str, Any]) -> None:
        self._in_setup = False
        if self.text.setup is not None:
            lines = self.text.setup(view)
        elif self._setup_lines:
            setup = "; ".join(self._setup_lines)
            lines = [shared_texts().say(self.lang, "terminal.setup", lines=setup)]
        else:
            lines = []
        for line in lines:
            self._print(line)
        self._setup_lines = []
        self._last_view = view

    def _show_changes(self, view: Mapping[str, Any]) -> None:
        changes = self.text.changes
        if changes is not None and self._last_view is not None:
            lines = changes(self._last_view, view)
            if lines:
                self._flush_chance_run()
                for line in lines:
                    self._print(line)
        self._last_view = view

    def _flush_chance_run(self) -> None:
        run, self._chance_run = self._chance_run, []
        if run and not self.compact:
            self._print(" | ".join(run))

    def _print(self, line: str) -> None:
        self.console.print(f"  {self._named(line)}")

    def _named(self, line: str) -> str:
        """The game's "seat 2" / „Platz 2“ (counted from 1) as the seat's name."""

        def name(match: re.Match[str]) -> str:
            seat = int(match.group(1)) - 1
            named = self.seat_names[seat] if 0 <= seat < len(self.seat_names) else None
            return match.group(0) if named is None else escape(named)

        return SEAT_IN_TEXT.sub(name, line)


class HumanAgent(Agent):
    """A seat played from the keyboard: shows the seat's view and numbered choices, reads a
    number until it is a valid one. End of input (or `q`) raises `GameAbandoned`."""

    name = "human"
    wants_sample = True  # a state from the seat's information set, only to describe actions

    def __init__(
        self,
        console: Console,
        text: GameText,
        narrator: Narrator | None = None,
        announce_seat: bool = False,
        lang: Lang = DEFAULT_LANG,
    ) -> None:
        self.console = console
        self.lang = lang
        self.text = text
        self.narrator = narrator
        self.announce_seat = announce_seat

    def act(self, turn: Turn) -> Action:
        if self.narrator is not None:
            self.narrator.sync()
        console = self.console
        say = shared_texts().say
        seat = turn.player
        if self.announce_seat:
            console.print(Rule(say(self.lang, "terminal.hot_seat", seat=seat + 1)))
        else:
            console.print(Rule())
        console.print(self.text.render_view(turn.view))
        choices = sorted(turn.legal_actions, key=lambda a: a.id)
        texts = [self._describe(turn, action) for action in choices]
        if len(choices) == 1:
            console.print(say(self.lang, "terminal.only_choice", text=texts[0]))
            return choices[0]
        console.print(f"[bold]{say(self.lang, 'terminal.your_choices')}[/bold]")
        for number, text in enumerate(texts, start=1):
            console.print(f"  {number:>2}) {text}")
        return choices[self._ask(seat, len(choices)) - 1]

    def _describe(self, turn: Turn, action: Action) -> str:
        if turn.sample is None:
            return self.text.markup(str(action))
        return self.text.markup(turn.sample.label(action, turn.player, self.lang))

    def _ask(self, seat: int, count: int) -> int:
        say, lang = shared_texts().say, self.lang
        while True:
            try:
                answer = self.console.input(say(lang, "terminal.ask", seat=seat + 1, count=count))
            except EOFError:
                raise GameAbandoned(say(lang, "terminal.input_ended")) from None
            answer = answer.strip()
            if answer.lower() in QUIT_WORDS:
                raise GameAbandoned(say(lang, "terminal.quit", seat=seat + 1), by_choice=True)
            if answer.isdigit() and 1 <= int(answer) <= count:
                return int(answer)
            wrong = say(lang, "terminal.not_a_choice", answer=escape(repr(answer)))
            self.console.print(
                f"[red]{wrong}[/red]: " + say(lang, "terminal.type_a_number", count=count)
            )
