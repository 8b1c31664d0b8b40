"""A friend who closes the tab no longer stalls the table (issue 36, item 10): after a visible
wait the others may let a bot play their seat until they come back, and a table may have a move
clock, after which a bot makes the move. Real server processes; the wait is shortened with
`--hand-over-after` so the tests need not sit through the default 90 s.
"""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

import httpx
from web_client import Player
from web_parts import Server

HAND_OVER_AFTER = 3.0


def start(tmp_path: Path) -> Server:
    return Server(
        f"sqlite:///{tmp_path / 'spielwerk.db'}",
        log_path=tmp_path / "serve.log",
        extra_args=["--hand-over-after", str(HAND_OVER_AFTER)],
    ).start()


def create(server: Server, game: str, **extra: Any) -> dict[str, Any]:
    body = {"game": game, "seats": [{"kind": "human"}] * 2, "claim": 0, "name": "Ada", **extra}
    answer = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 201, answer.text
    return answer.json()


async def pass_until_over(player: Player) -> dict[str, Any]:
    """Tainted Grail: pass whenever this seat is to move (the days end soon)."""
    while not (state := await player.until(lambda s: s["over"] or bool(s["legal"]), 300))["over"]:
        entry = next(
            (e for e in state["legal"] if e["action"]["type"] == "pass"), state["legal"][0]
        )
        answer = await player.act(entry["action"])
        assert answer["type"] == "state", answer
    return state


async def hand_over(player: Player, seat: int) -> dict[str, Any]:
    """Ask to let a bot play `seat`; while the server says to wait N more seconds (its clock
    decides), wait that long and ask again. The answer that is not such a refusal."""
    while True:
        answer = await player.request({"type": "hand_over", "seat": seat})
        if answer["type"] == "ok" or "moment" not in answer["message"]:
            return answer
        wait = re.search(r"in (\d+) s$", answer["message"])
        assert wait is not None, answer
        await asyncio.sleep(int(wait.group(1)))


def test_a_bot_plays_for_a_player_who_left_until_they_are_back(tmp_path: Path) -> None:
    """Tainted Grail, Ada and Bea. Bea leaves: Ada's page sees her gone; handing Bea's seat to
    a bot at once is refused ("give them a moment"); after the wait it is taken, a bot plays
    Bea's turns and the chat says so. Bea comes back with her link: the seat is hers again,
    the chat says so, and she plays."""
    server = start(tmp_path)
    try:
        created = server.claim_all(create(server, "tainted_grail"))
        ada_token, bea_token = (s["token"] for s in created["seats"])

        async def scenario() -> None:
            async with Player(server.ws_base, created["id"], ada_token) as ada:
                bea = Player(server.ws_base, created["id"], bea_token)
                await bea.join()
                here = await ada.until(lambda s: s["seats_now"][1]["here"])
                assert here["seats_now"][1]["sit_in"] is False
                await bea.close()
                await ada.until(lambda s: not s["seats_now"][1]["here"])
                early = await ada.expect_error({"type": "hand_over", "seat": 1})
                assert early.startswith("give them a moment"), early
                refused = await ada.expect_error({"type": "hand_over", "seat": 0})
                assert refused == "seat 1 is not another person's seat", refused

                answer = await asyncio.wait_for(hand_over(ada, 1), 120)
                assert answer["type"] == "ok", answer
                sitting = await ada.until(lambda s: s["seats_now"][1]["sit_in"])
                assert not sitting["seats_now"][1]["here"]
                await ada.wait(
                    lambda: any(line["key"] == "sit_in" for line in ada.chat if "key" in line),
                    60,
                    "the chat line about the bot",
                )
                line = next(line for line in ada.chat if line.get("key") == "sit_in")
                assert line["kind"] == "system" and line["params"] == {"seat": 1, "by": 0}
                # Ada plays on; Bea's turns are the bot's (so Ada gets her turn back).
                steps = len(ada.log)
                state = await ada.until(lambda s: bool(s["legal"]) or s["over"])
                if not state["over"]:
                    await ada.act(state["legal"][0]["action"])
                    await ada.until(lambda s: len(ada.log) > steps + 1 or s["over"])
                async with Player(server.ws_base, created["id"], bea_token) as back:
                    assert back.state is not None
                    await ada.until(lambda s: s["seats_now"][1]["here"])
                    await ada.until(lambda s: not s["seats_now"][1]["sit_in"])
                    await ada.wait(
                        lambda: any(line.get("key") == "back" for line in ada.chat),
                        60,
                        "the chat line about Bea's return",
                    )
                    await back.until(lambda s: not s["seats_now"][1]["sit_in"])

        asyncio.run(scenario())
    finally:
        server.stop()


def test_spectators_and_the_present_cannot_be_handed_over(shared_server: Server) -> None:
    created = shared_server.claim_all(create(shared_server, "tainted_grail"))
    ada_token, bea_token = (s["token"] for s in created["seats"])

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, created["id"], ada_token) as ada,
            Player(shared_server.ws_base, created["id"], bea_token),
            Player(shared_server.ws_base, created["id"]) as watcher,
        ):
            await ada.until(lambda s: s["seats_now"][1]["here"])
            text = await ada.expect_error({"type": "hand_over", "seat": 1})
            assert text == "seat 2 is here: nothing to hand over", text
            text = await watcher.expect_error({"type": "hand_over", "seat": 1})
            assert text == "spectators cannot act: open a seat link to play", text

    asyncio.run(scenario())


def test_an_invitation_nobody_used_moves_to_the_rematch(tmp_path: Path) -> None:
    """Issue 35, item 4: Bea never opened her invitation; Ada let a bot play her seat and the
    game ended. Ada's "Play again" takes the invitation along: opened at the old table it
    gives Bea her seat at the rematch; opened a second time (another person) it opens
    nothing, at either table."""
    server = start(tmp_path)
    try:
        created = create(server, "tainted_grail")
        invitation = created["seats"][1]["invitation"]
        ada_token = created["seats"][0]["token"]

        async def scenario() -> str:
            async with Player(server.ws_base, created["id"], ada_token) as ada:
                assert (await asyncio.wait_for(hand_over(ada, 1), 120))["type"] == "ok"
                await pass_until_over(ada)
                answer = await ada.request({"type": "rematch"})
                assert answer["type"] == "rematch", answer
                rematch: str = answer["table"]
                return rematch

        rematch = asyncio.run(scenario())
        first = server.claim(created["id"], invitation, "Bea")
        assert first.status_code == 200, first.text
        assert first.json()["table"] == rematch and first.json()["seat"] == 1
        for table in (created["id"], rematch):
            again = server.claim(table, invitation, "Eve")
            assert again.status_code == 403, again.text
        seats = server.summary(rematch)["seats"]
        assert seats[1]["name"] == "Bea" and seats[1]["claimed"]
    finally:
        server.stop()


def test_when_the_move_clock_runs_out_a_bot_makes_the_move(tmp_path: Path) -> None:
    """A table created with a 30-second clock: Ada sees her seconds left; she waits it out,
    a bot makes her move (the chat says so), and the next decision is hers again with a full
    clock."""
    server = start(tmp_path)
    try:
        created = server.claim_all(create(server, "tainted_grail", move_clock=30))
        ada_token, bea_token = (s["token"] for s in created["seats"])

        async def scenario() -> None:
            async with (
                Player(server.ws_base, created["id"], ada_token) as ada,
                Player(server.ws_base, created["id"], bea_token),
            ):
                start = await ada.until(lambda s: s["to_move"] == [0])
                clock = start["clock"]
                assert clock is not None and clock["seconds"] == 30
                assert 0 < clock["left"]["0"] <= 30
                await ada.wait(
                    lambda: any(line.get("key") == "timed_out" for line in ada.chat),
                    180,
                    "the clock to run out",
                )
                line = next(line for line in ada.chat if line.get("key") == "timed_out")
                assert line["params"] == {"seat": 0}
                moved = await ada.until(lambda s: s["version"] > start["version"], 120)
                assert moved["log"] or len(ada.log) > 0
                assert not moved["seats_now"][0]["sit_in"]  # only that move was the bot's

        asyncio.run(scenario())
    finally:
        server.stop()
