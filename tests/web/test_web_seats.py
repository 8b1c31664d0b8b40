"""Seats are claimed through invitations, and stale actions are refused (issue 15, items 3 and 10),
against a real server process.

Before: the creation answer held every human seat's token, so a table's creator could open any
seat and watch its hidden cards unannounced; and an action from a second tab, chosen in an
older state, was applied whenever it happened to be legal in the new one."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
from web_client import Player
from web_parts import Server

from spielwerk.web.tables import NOT_INVITED, STALE


def create(server: Server, seats: list[str], **more: Any) -> dict[str, Any]:
    body = {
        "game": "inkheart_dice",
        "options": {},
        "seats": [{"kind": "human"} if s == "human" else {"kind": "bot", "bot": s} for s in seats],
        **more,
    }
    answer = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def test_the_creator_gets_their_own_token_and_only_invitations_for_the_others(
    shared_server: Server,
) -> None:
    created = create(shared_server, ["human", "human", "heuristic"], claim=0, name="Ada")
    own, other, bot = created["seats"]
    assert own["token"] and own["url"].endswith(f"#token={own['token']}")
    assert own["invitation"] is None
    assert other["token"] is None and other["invitation"]
    assert other["url"] == f"/table/{created['id']}#invite={other['invitation']}"
    assert bot["token"] is None and bot["invitation"] is None
    claimed = shared_server.claim(created["id"], other["invitation"], "Bea")
    assert claimed.status_code == 200, claimed.text
    token = claimed.json()["token"]
    assert claimed.json() == {
        "table": created["id"],
        "seat": 1,
        "token": token,
        "url": f"/table/{created['id']}#token={token}",
    }
    assert token not in (other["invitation"], own["token"])  # a fresh token nobody else saw
    summary = httpx.get(f"{shared_server.base}/api/tables/{created['id']}", timeout=30).json()
    assert [s.get("name") for s in summary["seats"]] == ["Ada", "Bea", None]
    assert [s.get("claimed") for s in summary["seats"]] == [True, True, False]

    async def scenario() -> None:
        async with Player(shared_server.ws_base, created["id"], token) as bea:
            assert bea.welcome is not None and bea.welcome["seat"] == 1
            assert bea.state is not None and bea.state["names"][:2] == ["Ada", "Bea"]
        # The invitation is no token: it opens no seat.
        refused = Player(shared_server.ws_base, created["id"], other["invitation"])
        await refused.connect()
        await refused.send({"type": "hello", "token": other["invitation"]})
        await refused.wait(lambda: refused.closed, 30, "the refusal")
        assert refused.errors == ["this seat token does not belong to this table"]

    asyncio.run(scenario())


def test_an_invitation_works_once(shared_server: Server) -> None:
    """Two people open the same invitation: the first takes the seat, the second is told it is
    used, and a made-up invitation or another table's opens nothing either."""
    created = create(shared_server, ["human", "human"], claim=0)
    other = create(shared_server, ["human", "human"], claim=0)
    invitation = created["seats"][1]["invitation"]
    first = shared_server.claim(created["id"], invitation, "Bea")
    assert first.status_code == 200
    for table_id, attempt in (
        (created["id"], invitation),
        (created["id"], "made-up"),
        (created["id"], other["seats"][1]["invitation"]),
    ):
        again = shared_server.claim(table_id, attempt, "Eve")
        assert again.status_code == 403
        assert again.json() == {"type": "error", "message": NOT_INVITED, "code": "not_invited"}
    assert shared_server.claim("nosuchtable", invitation).status_code == 404
    summary = httpx.get(f"{shared_server.base}/api/tables/{created['id']}", timeout=30).json()
    assert summary["seats"][1]["name"] == "Bea"


def test_names_are_checked_and_a_solo_table_stays_one_request(shared_server: Server) -> None:
    for bad in ("", "   ", "a\u0000b", "x" * 33):
        body = {"game": "inkheart_dice", "seats": [{"kind": "human"}] * 2, "claim": 0, "name": bad}
        answer = httpx.post(f"{shared_server.base}/api/tables", json=body, timeout=60)
        assert answer.status_code in (400, 422), (bad, answer.text)
    solo = create(shared_server, ["human", "random"], claim=0, name="  Ada   Lovelace ")
    assert solo["seats"][0]["token"] and solo["seats"][1]["invitation"] is None
    summary = httpx.get(f"{shared_server.base}/api/tables/{solo['id']}", timeout=30).json()
    assert summary["seats"][0]["name"] == "Ada Lovelace"  # one line, spaces collapsed


def test_a_seat_holder_sees_another_device_on_their_seat(shared_server: Server) -> None:
    created = create(shared_server, ["human", "human"], claim=0)
    token = created["seats"][0]["token"]

    async def scenario() -> None:
        async with Player(shared_server.ws_base, created["id"], token) as phone:
            assert phone.state is not None and phone.state["devices"] == 1
            async with Player(shared_server.ws_base, created["id"], token) as laptop:
                assert laptop.state is not None and laptop.state["devices"] == 2
                await phone.until(lambda s: s["devices"] == 2, 30)
            await phone.until(lambda s: s["devices"] == 1, 30)
        async with Player(shared_server.ws_base, created["id"]) as spectator:
            assert spectator.state is not None and spectator.state["devices"] is None

    asyncio.run(scenario())


def test_an_action_chosen_in_an_older_state_is_refused(shared_server: Server) -> None:
    """Two tabs of one seat: the first acts; the second's action, chosen before, is refused
    with a clear message even though an action is legal for the seat again, and changes
    nothing. Whatever the deal, seat 0 gets the move back: the other seat is a bot."""
    created = create(shared_server, ["human", "random"], claim=0)
    token = created["seats"][0]["token"]

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, created["id"], token) as tab1,
            Player(shared_server.ws_base, created["id"], token) as tab2,
        ):
            state = tab1.state
            assert state is not None and 0 in state["to_move"]
            chosen_in = state["version"]
            answer = await tab1.act(state["legal"][0]["action"])
            assert answer["type"] == "state" and answer["version"] > chosen_in
            newest = await tab2.until(
                lambda s: s["version"] >= answer["version"] and 0 in s["to_move"], 60
            )
            take = newest["legal"][0]["action"]  # legal now, but tab 2 chose in the old state
            before = tab2.version
            text = await tab2.expect_error(
                {"type": "act", "action": take, "version": chosen_in, "ref": 99}
            )
            assert text.startswith(STALE), text
            assert shared_server.steps(created["id"]) == before
            # Chosen in the newest state, the same move is taken.
            again = await tab2.act(take)
            assert again["type"] == "state" and again["version"] > before, again

    asyncio.run(scenario())
