"""What an invitation link opens, before anybody takes the seat (`POST /api/tables/ID/
invitation`): which game, which seat, who invites and who else sits at the table. Read only:
nothing is claimed (that is `POST /api/tables/ID/claim`). A used invitation, or another
table's, opens nothing and is told so at once, so the page never asks for a name in vain.

The invitation is a secret like a seat token, so it travels in the body of a POST, never in an
address; it is compared by its hash with every seat's, in constant time per seat. The answer
holds only what anybody may know of the table (its summary) and the seat the invitation opens.
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, StringConstraints

from spielwerk.web.storage import TableRow, hash_token
from spielwerk.web.tables import table_summary


class InvitationQuery(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    invitation: Annotated[str, StringConstraints(min_length=1, max_length=128)]


def invited_seat(row: TableRow, invitation: str) -> int | None:
    """The seat this invitation still opens, or None (used, or not this table's)."""
    digest = hash_token(invitation)
    found = None
    for seat in row.seats:
        # every seat compared, so the time taken tells nothing
        if seat.invite_hash is not None and secrets.compare_digest(digest, seat.invite_hash):
            found = seat.seat
    return found


def host_seat(row: TableRow, invited: int) -> int | None:
    """Who invites: the first other person's seat already taken (in the lobby, the creator's
    seat), or None if nobody sits at the table yet."""
    return next(
        (
            seat.seat
            for seat in row.seats
            if seat.seat != invited and seat.kind == "human" and seat.token_hash is not None
        ),
        None,
    )


def invitation_answer(row: TableRow, invitation: str) -> dict[str, Any] | None:
    """The table's summary with the seat the invitation opens (`seat`) and the inviting seat
    (`host`, its name in the seats), or None if the invitation opens no seat."""
    seat = invited_seat(row, invitation)
    if seat is None:
        return None
    return {**table_summary(row), "seat": seat, "host": host_seat(row, seat)}
