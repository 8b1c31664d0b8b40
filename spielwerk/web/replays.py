"""Replays: a finished table, or any record file somebody opens, stepped through action by
action as any seat or as a spectator, with the table page's renderer.

A `Replay` holds the game's action history and a copy of the state every `CHECKPOINT` steps, so
the state at any step is one clone and a few dozen applies away. Each viewer's log (the actions'
texts and the narration's events) is built once, on first request. `Replays` keeps the most
recently used ones in memory: a table's replay is rebuilt from the database when it comes back,
an uploaded record lives only in memory (`MAX_UPLOADS`, the least recently used go first).
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.core.narration import game_narration, worded
from spielwerk.core.state import CHANCE, State
from spielwerk.web.catalog import renderer_url
from spielwerk.web.tables import deciders, explanation

CHECKPOINT = 64
"""Steps between two stored copies of the state."""
MAX_REPLAYS = 32
"""Replays of tables kept in memory."""
MAX_UPLOADS = 64
"""Uploaded records kept in memory."""
MAX_UPLOAD_BYTES = 2 * 1024 * 1024
"""The largest record file accepted (a long Tintenblut game is some 200 KB)."""


@dataclass(eq=False)
class Replay:
    """One game's history, steppable."""

    final: State
    names: list[str | None]
    seats: list[dict[str, Any]]
    chat: list[dict[str, Any]] = field(default_factory=list)
    """A finished table's chat lines (`tables.chat_line`), each with the step it was written
    at; a record file has none."""
    checkpoints: list[State] = field(default_factory=list)
    logs: dict[tuple[int | None, Lang], list[dict[str, Any]]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        state = self.final.game.new_state(self.final.num_players, seed=self.final.seed)
        self.checkpoints = [state.clone()]
        for step, (actor, action_id) in enumerate(self.final.history, 1):
            state.apply(state.game.actions[action_id], player=actor)
            if step % CHECKPOINT == 0:
                self.checkpoints.append(state.clone())

    @property
    def steps(self) -> int:
        return len(self.final.history)

    def state_at(self, step: int) -> State:
        """The state after `step` actions (0: the start)."""
        if not 0 <= step <= self.steps:
            raise ValueError(f"step {step} is not between 0 and {self.steps}")
        state = self.checkpoints[step // CHECKPOINT].clone()
        for actor, action_id in self.final.history[len(state.history) : step]:
            state.apply(state.game.actions[action_id], player=actor)
        return state

    def log(self, viewer: int | None, lang: Lang = DEFAULT_LANG) -> list[dict[str, Any]]:
        """Every action as `viewer` may read it in `lang`, with the events it noticed."""
        if (viewer, lang) not in self.logs:
            final = self.final
            state = final.game.new_state(final.num_players, seed=final.seed)
            narration = game_narration(final.game.name)
            narrate = narration.events
            before = state.view(viewer)
            lines = []
            for i, (actor, action_id) in enumerate(final.history):
                action = state.game.actions[action_id]
                text = state.describe(action, viewer, lang)
                state.apply(action, player=actor)
                after = state.view(viewer)
                lines.append(
                    {
                        "i": i,
                        "actor": None if actor == CHANCE else actor,
                        "text": text,
                        "events": [worded(narration, lang, e) for e in narrate(before, after)],
                    }
                )
                before = after
            self.logs[viewer, lang] = lines
        return self.logs[viewer, lang]

    def summary(self, viewer: int | None, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
        game = self.final.game
        return {
            "game": game.name,
            "title": game.title,
            "renderer": renderer_url(game.name),
            "players": self.final.num_players,
            "seats": self.seats,
            "names": self.names,
            "steps": self.steps,
            "viewer": viewer,
            "log": self.log(viewer, lang),
            "chat": self.chat,
        }

    def step(self, step: int, viewer: int | None, lang: Lang = DEFAULT_LANG) -> dict[str, Any]:
        """What `viewer` saw after `step` actions."""
        state = self.state_at(step)
        over = state.is_terminal()
        return {
            "step": step,
            "steps": self.steps,
            "viewer": viewer,
            "view": state.view(viewer),
            "to_move": deciders(state),
            "over": over,
            "result": state.result() if over else None,
            "explanation": explanation(state, viewer, lang) if over else None,
        }


class Replays:
    """Replays in memory: tables' (by table id) and uploaded records' (by a random id)."""

    def __init__(self) -> None:
        self.tables: OrderedDict[str, Replay] = OrderedDict()
        self.uploads: OrderedDict[str, Replay] = OrderedDict()

    def of_table(self, table_id: str) -> Replay | None:
        found = self.tables.get(table_id)
        if found is not None:
            self.tables.move_to_end(table_id)
        return found

    def keep_table(self, table_id: str, replay: Replay) -> None:
        self.tables[table_id] = replay
        while len(self.tables) > MAX_REPLAYS:
            self.tables.popitem(last=False)

    def upload(self, replay: Replay) -> str:
        upload_id = secrets.token_urlsafe(9)
        self.uploads[upload_id] = replay
        while len(self.uploads) > MAX_UPLOADS:
            self.uploads.popitem(last=False)
        return upload_id

    def of_upload(self, upload_id: str) -> Replay | None:
        found = self.uploads.get(upload_id)
        if found is not None:
            self.uploads.move_to_end(upload_id)
        return found


def seats_of(players: int, seats: list[dict[str, Any]] | None = None) -> list[dict[str, Any]]:
    """The seats' kinds (a record file names none: every seat counts as a person)."""
    if seats is not None:
        return [{"seat": s["seat"], "kind": s["kind"], "bot": s["bot"]} for s in seats]
    return [{"seat": p, "kind": "human", "bot": None} for p in range(players)]
