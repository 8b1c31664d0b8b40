"""What an invitation link opens, before anybody takes the seat (`POST /api/tables/ID/
invitation`): which game, which seat, who invites and who else sits at the table. Read only:
nothing is claimed (that is `POST /api/tables/ID/claim`). A used invitation, or another
table's, opens nothing and is told so at once, so the page never asks for a name in vain.

An invitation not used when its table's game ended moved on to the rematch (`TableHub.claim`
follows it there): the answer names the table it opens a seat at (`table`).

The invitation is a secret like a seat token, so it travels in the body of a POST, never in an
address; it is compared by its hash with every seat's, in constant time per seat. The answer
holds only what anybody may know of the table (its summary) and the seat the invitation opens.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, StringConstraints

from spielwerk.web.errors import TableNotFound
from spielwerk.web.storage import TableRow, hash_token
from spielwerk.web.tables import MAX_REMATCH_HOPS, table_summary


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


async def invitation_answer(
    load: Callable[[str], Awaitable[TableRow]], table_id: str, invitation: str
) -> dict[str, Any] | None:
    """The summary of the table the invitation opens a seat at (`table_id`'s, or a rematch's
    it moved to; `load` reads a table's row), with that seat (`seat`) and the inviting seat
    (`host`, its name in the seats); None if it opens no seat."""
    row = await load(table_id)
    for _ in range(MAX_REMATCH_HOPS):
        if row.rematch is None or invited_seat(row, invitation) is not None:
            break
        try:
            row = await load(row.rematch)
        except TableNotFound:
            break
    seat = invited_seat(row, invitation)
    if seat is None:
        return None
    return {**table_summary(row), "table": row.id, "seat": seat, "host": host_seat(row, seat)}
