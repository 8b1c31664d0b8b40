"""Everything a client may send, as pydantic models: anything else is refused unread.

Websocket messages from a browser (JSON objects, at most `MAX_MESSAGE_BYTES`):
  {"type": "hello", "token": "..."}       join as the seat this token belongs to
  {"type": "hello"}                       join as a spectator (public view)
  {"type": "act", "action": {...}, "version": n}
                                          play an action (its JSON form), chosen in the state
                                          of that version; optionally "seat": n (must be the
                                          token's seat) and "ref": n (echoed)
  {"type": "undo", "version": n}          take back the seat's own last action, seen in the
                                          state of that version; optionally "ref": n
  {"type": "rematch"}                     after the end: start (or join) the table's rematch;
                                          answered with {"type": "rematch", "table": id}
  {"type": "ping"}                        answered with {"type": "pong"}
  {"type": "hint", "version": n}          the best moves of the seat's decision now, where
                                          hints are allowed (`spielwerk.web.review`)
The server answers with "welcome", "state" (view, legal actions, new log lines), "ok" (an
action was stored), "pong" and {"type": "error", "message": ..., "code": ...}; an error never
changes the table. docs/web.md describes every field.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter, model_validator

MAX_MESSAGE_BYTES = 4096
"""Largest websocket message a client may send (an action is a few dozen bytes)."""
MAX_BODY_BYTES = 16_384
"""Largest HTTP request body (creating a table)."""
MAX_SEATS = 12

ShortText = Annotated[str, StringConstraints(max_length=200)]
Scalar = ShortText | int | float | bool | None


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class Hello(_Strict):
    type: Literal["hello"]
    token: Annotated[str, StringConstraints(min_length=1, max_length=128)] | None = None
    lang: Literal["de", "en"] = "en"
    """The page's language: the game's texts (actions, narration, result) come in it."""


class Act(_Strict):
    type: Literal["act"]
    action: Annotated[dict[ShortText, Scalar], Field(max_length=16)]
    version: Annotated[int, Field(ge=0, le=2**31)]
    """The version of the state the action was chosen in: an action chosen in a state that
    has moved on for this seat is refused."""
    seat: Annotated[int, Field(ge=0, le=MAX_SEATS)] | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None
    """Chosen by the client; echoed in the "ok" or "error" that answers this message."""


class Undo(_Strict):
    type: Literal["undo"]
    version: Annotated[int, Field(ge=0, le=2**31)]
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class Rematch(_Strict):
    type: Literal["rematch"]
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class Ping(_Strict):
    type: Literal["ping"]


QuickPhrase = Literal[
    "hello", "good_luck", "your_turn", "one_moment", "well_played", "good_game", "thanks", "bye"
]
"""The quick phrases of the chat: each reader sees them in their own language."""
QUICK_PHRASES: tuple[str, ...] = QuickPhrase.__args__  # type: ignore[attr-defined]
MAX_CHAT_CHARS = 200


class Chat(_Strict):
    """A chat line: free `text` (one line, checked by `chat_text`) or a quick `phrase`."""

    type: Literal["chat"]
    text: Annotated[str, StringConstraints(min_length=1, max_length=4 * MAX_CHAT_CHARS)] | None = (
        None
    )
    phrase: QuickPhrase | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None

    @model_validator(mode="after")
    def _one_of_them(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise ValueError("send either a text or a phrase")
        return self


class HandOver(_Strict):
    """Let a bot play an absent person's seat until they are back."""

    type: Literal["hand_over"]
    seat: Annotated[int, Field(ge=0, le=MAX_SEATS)]
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


class Hint(_Strict):
    """Ask for the best moves of this seat's decision now (`spielwerk.web.review`)."""

    type: Literal["hint"]
    version: Annotated[int, Field(ge=0, le=2**31)]
    seat: Annotated[int, Field(ge=0, le=MAX_SEATS)] | None = None
    ref: Annotated[int, Field(ge=0, le=2**31)] | None = None


AnyMessage = Hello | Act | Undo | Rematch | Ping | Chat | HandOver | Hint
ClientMessage = Annotated[AnyMessage, Field(discriminator="type")]
CLIENT_MESSAGE: TypeAdapter[AnyMessage] = TypeAdapter(ClientMessage)


class SeatRequest(_Strict):
    kind: Literal["human", "bot"]
    bot: Annotated[str, StringConstraints(min_length=1, max_length=32)] | None = None


DisplayName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=32)]
"""A player's name at a table (printable text, checked further by `display_name`)."""


class CreateTable(_Strict):
    game: Annotated[str, StringConstraints(min_length=1, max_length=64)]
    options: Annotated[dict[ShortText, ShortText | int | bool], Field(max_length=32)] = {}
    seats: Annotated[list[SeatRequest], Field(min_length=1, max_length=MAX_SEATS)]
    claim: Annotated[int, Field(ge=0, lt=MAX_SEATS)] | None = None
    """The human seat the creator plays: its token comes back at once. Every other human seat
    gets an invitation instead."""
    name: DisplayName | None = None
    """The creator's display name at the claimed seat."""
    spectator_chat: bool = False
    """Spectators may write in the table's chat too (the players always may)."""
    move_clock: Literal[0, 30, 60, 180, 600] = 0
    """Seconds a person has for a move (0: no clock); when they run out, a bot makes that
    move for them."""
    hints: bool = False
    """Hints allowed at this table once every person agreed (`spielwerk.web.review`)."""


class ClaimSeat(_Strict):
    """`POST /api/tables/ID/claim`: the first person to send an invitation gets its seat."""

    invitation: Annotated[str, StringConstraints(min_length=1, max_length=128)]
    name: DisplayName | None = None


INVISIBLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
"""Characters Unicode counts as letters (or symbols) that show nothing: the Hangul fillers,
the braille blank, the Mongolian vowel separator, the Khmer inherent vowels."""
MAX_MARKS_IN_A_ROW = 3
"""Combining marks on one letter (Vietnamese uses two, some scripts three; stacks of dozens
draw over the names around it)."""
RESERVED_WORDS = re.compile(
    r"\b(bots?|roboter|seat\s*\d*|platz\s*\d*|spectators?|zuschauer(in|innen)?)\b",
    re.IGNORECASE,
)
"""Words the pages use beside names (a bot's label, a seat's number, the spectators): a name
made of them would pass for the page's own text."""
BRACKETS = frozenset("()[]{}<>")
"""The page marks your own seat "(you)" and a bot's level in brackets."""


def _check_shown_text(cleaned: str, what: str) -> str:
    """`cleaned` (one line, NFKC) unless it shows nothing or stacks marks; ValueError."""
    if not cleaned or not cleaned.isprintable():
        raise ValueError(f"{what} must be printable text (no control characters)")
    if any(c in INVISIBLE_LETTERS for c in cleaned):
        raise ValueError(f"{what} must not contain characters that show nothing")
    normal = unicodedata.normalize("NFKC", cleaned)
    if not any(unicodedata.category(c)[0] in "LNPS" for c in normal):
        raise ValueError(f"{what} needs at least one visible letter, digit or sign")
    marks = 0
    for c in normal:
        marks = marks + 1 if unicodedata.category(c).startswith("M") else 0
        if marks > MAX_MARKS_IN_A_ROW:
            raise ValueError(f"{what} may put at most {MAX_MARKS_IN_A_ROW} marks on a letter")
    return normal


def display_name(text: str | None, seat: int) -> str:
    """The name shown for a seat: printable, one line, spaces collapsed; "Seat N" if none
    (seats are counted from 1 where people read them). ValueError, with the reason, for a
    name that shows nothing, stacks marks over its neighbours or passes for the page's own
    words."""
    if text is None:
        return f"Seat {seat + 1}"
    cleaned = " ".join(text.split())
    normal = _check_shown_text(cleaned, "a name")
    if not any(unicodedata.category(c)[0] in "LN" for c in normal):
        raise ValueError("a name needs at least one visible letter or digit")
    if any(c in BRACKETS for c in normal):
        raise ValueError("a name must not contain brackets: the page uses them beside names")
    if RESERVED_WORDS.search(normal):
        raise ValueError(
            "a name must not use the page's own words (bot, seat, spectator): choose another"
        )
    return cleaned


def chat_text(text: str) -> str:
    """A chat line as it is stored and shown: one line, spaces collapsed, at most
    MAX_CHAT_CHARS characters; ValueError, with the reason, for one that shows nothing or
    stacks marks over the lines around it."""
    cleaned = " ".join(text.split())
    if len(cleaned) > MAX_CHAT_CHARS:
        raise ValueError(f"a chat line has at most {MAX_CHAT_CHARS} characters")
    _check_shown_text(cleaned, "a chat line")
    return cleaned


def error_message(text: str, ref: int | None = None, code: str = "refused") -> dict[str, Any]:
    """A refusal: `message` says why in English, `code` names it for the page's own words."""
    message: dict[str, Any] = {"type": "error", "message": text, "code": code}
    if ref is not None:
        message["ref"] = ref
    return message


def ok_message(ref: int | None, version: int) -> dict[str, Any]:
    """The answer to an accepted action: the table's version once it (and the chance events it
    set off) are stored. A state message of at least that version follows."""
    return {"type": "ok", "ref": ref, "version": version}


def validation_text(error: Exception) -> str:
    """A one-line reason from a pydantic ValidationError (or any error)."""
    errors = getattr(error, "errors", None)
    if callable(errors):
        try:
            first = errors()[0]
            where = ".".join(str(p) for p in first.get("loc", ()))
            return f"{where}: {first.get('msg')}" if where else str(first.get("msg"))
        except (IndexError, TypeError, KeyError):
            pass
    return str(error).splitlines()[0]
