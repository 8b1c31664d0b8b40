"""Undo and rematch at a real server (issue 20, items 5 and 6).

Undo follows Board Game Arena's rule: a player may take back their own last action while
nobody else has acted since and nothing hidden was revealed; the other seats are told. A
finished table offers "Play again": the same seats, a new deal, every seat link carried over.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import httpx
import pytest
from web_client import Player
from web_parts import Server

from spielwerk.core.undo import reveals_hidden
from spielwerk.web.tables import STALE


def travel(state: dict[str, Any]) -> dict[str, Any]:
    return next(e["action"] for e in state["legal"] if e["action"]["type"] == "travel")


def test_a_public_move_is_taken_back_and_the_others_are_told(shared_server: Server) -> None:
    """Tainted Grail: the first character travels (the map is open, no die is rolled); it
    takes the move back before the second character acts. The table is as before the move,
    the move's log line is gone, and the other seat reads who took back their move."""
    created = shared_server.create("tainted_grail", ["human", "human"])
    first, second = (s["token"] for s in created["seats"])

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, created["id"], first) as ada,
            Player(shared_server.ws_base, created["id"], second) as bea,
        ):
            start = ada.state
            assert start is not None and start["to_move"] == [0] and not start["may_undo"]
            moved = await ada.act(travel(start))
            assert moved["may_undo"] and moved["to_move"] == [1]
            lines = len(ada.log)
            answer = await ada.request({"type": "undo", "version": moved["version"]})
            # Taking back is a change too: the version grows, it never returns to the start's.
            assert answer["type"] == "ok" and answer["version"] == moved["version"] + 1, answer
            back = await ada.until(lambda s: s["version"] == answer["version"], 30)
            assert back["view"] == start["view"] and back["to_move"] == [0]
            assert back["legal"] == start["legal"] and not back["may_undo"]
            assert len(ada.log) == lines - 1
            told = await bea.until(lambda s: s["notice"] is not None, 30)
            assert told["notice"] == {"kind": "undo", "seat": 0}
            assert shared_server.steps(created["id"]) == start["version"]
            # A new move clears the notice; after the other seat acted, no undo.
            again = await ada.act(travel(back))
            assert again["notice"] is None
            await bea.until(lambda s: 1 in s["to_move"], 30)
            await bea.act(bea.state["legal"][0]["action"])  # type: ignore[index]
            latest = await ada.until(lambda s: 0 in s["to_move"] or s["over"], 30)
            assert not latest["may_undo"]
            text = await ada.expect_error({"type": "undo", "version": latest["version"], "ref": 5})
            assert text.startswith("cannot take back: another player has acted since"), text

    asyncio.run(scenario())


def test_a_card_played_from_a_hidden_hand_cannot_be_taken_back(shared_server: Server) -> None:
    """Witches: the card a player leads was hidden in their hand; once on the table the
    others have seen it, so the lead stands. A stale undo is refused as well."""
    created = shared_server.create("witches", ["human", "human", "human"])
    tokens = [s["token"] for s in created["seats"]]

    async def scenario() -> None:
        async with Player(shared_server.ws_base, created["id"], tokens[0]) as leader:
            state = leader.state
            assert state is not None
            if 0 not in state["to_move"]:  # whoever leads: join as that seat
                seat = state["to_move"][0]
                await leader.close()
                leader = Player(shared_server.ws_base, created["id"], tokens[seat])
                await leader.join()
                state = leader.state
                assert state is not None
            card = next(e["action"] for e in state["legal"] if e["action"]["type"] == "play")
            played = await leader.act(card)
            assert not played["may_undo"]  # not offered; asked anyway, the server says why not
            text = await leader.expect_error(
                {"type": "undo", "version": state["version"], "ref": 7}
            )
            assert text.startswith(STALE), text
            text = await leader.expect_error(
                {"type": "undo", "version": played["version"], "ref": 8}
            )
            assert text == (
                "cannot take back: your move showed hidden information to the others: "
                "it cannot be taken back"
            )
            assert leader.messages[-2]["code"] == "undo_hidden"  # then the pong
            assert shared_server.steps(created["id"]) == played["version"]
            await leader.close()

    asyncio.run(scenario())


AGREEMENT_TABLES: dict[str, tuple[int, dict[str, Any]]] = {
    "witches": (3, {}),
    "inkheart_dice": (2, {"max_turns": 40}),
    "isolde": (3, {}),
    "inkspell": (2, {}),
    "tainted_grail": (2, {}),
}


@pytest.mark.parametrize("game", sorted(AGREEMENT_TABLES))
def test_take_back_is_offered_exactly_when_the_rule_allows_it(
    shared_server: Server, game: str
) -> None:
    """Every seat a person, each played by the test: after each of the first moves, the seat
    that moved asks to take it back. The server agrees exactly when its state offered it
    (`may_undo`); a refusal names its reason by a code. A move taken back is played again."""
    players, options = AGREEMENT_TABLES[game]
    created = shared_server.create(game, ["human"] * players, **options)
    tokens = [seat["token"] for seat in created["seats"]]
    rng = random.Random(5)
    seen = {"offered": 0, "refused": 0}

    async def scenario() -> None:
        seats = [Player(shared_server.ws_base, created["id"], token) for token in tokens]
        for player in seats:
            await player.join()
        for _ in range(40):
            version = max(p.version for p in seats)
            for player in seats:
                await player.until(lambda s, v=version: s["version"] >= v, 30)
            movers = [p for p in seats if p.my_turn]
            if not movers:
                break
            mover = rng.choice(movers)
            entry = rng.choice(mover.state["legal"])  # type: ignore[index]
            moved = await mover.act(entry["action"])
            assert moved["type"] == "state", moved
            answer = await mover.request({"type": "undo", "version": moved["version"]})
            if moved["may_undo"]:
                assert answer["type"] == "ok", answer
                seen["offered"] += 1
                back = await mover.until(lambda s, v=answer["version"]: s["version"] >= v, 30)
                await mover.act(entry["action"], version=back["version"])
            else:
                assert answer["type"] == "error" and answer["code"].startswith("undo_"), answer
                seen["refused"] += 1
        for player in seats:
            await player.close()

    asyncio.run(scenario())
    assert seen["offered"] + seen["refused"] > 10, seen


def test_spectators_cannot_undo_or_ask_for_a_rematch(shared_server: Server) -> None:
    created = shared_server.create("tainted_grail", ["human", "human"])

    async def scenario() -> None:
        async with Player(shared_server.ws_base, created["id"]) as spectator:
            assert spectator.state is not None and spectator.state["may_undo"] is False
            for message in ({"type": "undo", "version": 0, "ref": 1}, {"type": "rematch"}):
                text = await spectator.expect_error(message)
                assert text == "spectators cannot act: open a seat link to play"
            text = await spectator.expect_error({"type": "undo", "version": -1})
            assert text.startswith("malformed message")

    asyncio.run(scenario())


@pytest.mark.parametrize("game", ["witches", "inkheart_dice", "isolde", "inkspell"])
def test_the_reveal_check_never_passes_a_move_that_shows_a_hidden_card(game: str) -> None:
    """Whatever the deal: an action after which some other viewer's view differs between
    states they could not tell apart before is never passed as harmless."""
    import spielwerk
    from spielwerk.core.state import CHANCE

    rng = random.Random(11)
    state = spielwerk.load(game).new_state(3, seed=4)
    checked = 0
    while not state.is_terminal() and checked < 40:
        if state.to_move == CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        to_move = state.to_move
        seat = min(to_move) if isinstance(to_move, frozenset) else to_move
        action = rng.choice(state.legal_actions(seat))
        if not reveals_hidden(state, action.id, seat, random.Random(checked)):
            after = state.clone()
            after.apply(action, player=seat)
            for viewer in [None, *(p for p in range(3) if p != seat)]:
                for draw in range(8):
                    other = state.resample(viewer, random.Random(1000 + draw))
                    other.apply(action, player=seat)
                    assert other.view(viewer) == after.view(viewer), (action, viewer)
        checked += 1
        state.apply(action, player=seat)


def test_play_again_starts_a_rematch_with_the_same_seats_and_links(shared_server: Server) -> None:
    """After the end, a seat asks for a rematch: a new table of the same game and options
    with the same seats (names, bots) and a new deal; the same seat link opens the same seat
    there; whoever asks next gets the same rematch; every page at the old table learns it."""
    created = shared_server.create("tainted_grail", ["human", "heuristic"])
    token = created["seats"][0]["token"]
    rematches: list[str] = []

    async def scenario() -> None:
        async with (
            Player(shared_server.ws_base, created["id"], token) as ada,
            Player(shared_server.ws_base, created["id"]) as spectator,
        ):
            early = await ada.request({"type": "rematch"})
            assert early == {
                "type": "error",
                "ref": early["ref"],
                "message": "the game is not over yet: a rematch starts after its end",
                "code": "not_over",
            }
            while not (state := await ada.until(lambda s: s["over"] or bool(s["legal"]), 300))[
                "over"
            ]:
                entry = next(
                    (e for e in state["legal"] if e["action"]["type"] == "pass"),
                    state["legal"][0],
                )
                await ada.act(entry["action"])
            assert state["rematch"] is None
            answer = await ada.request({"type": "rematch"})
            assert answer["type"] == "rematch", answer
            new_id = answer["table"]
            rematches.append(new_id)
            assert new_id != created["id"]
            assert (await ada.request({"type": "rematch"}))["table"] == new_id
            told = await spectator.until(lambda s: s["rematch"] is not None, 30)
            assert told["rematch"] == new_id
            async with Player(shared_server.ws_base, new_id, token) as again:
                assert again.welcome is not None and again.welcome["seat"] == 0
                assert again.state is not None and not again.state["over"]
                assert again.state["names"] == state["names"]

    asyncio.run(scenario())
    old = httpx.get(f"{shared_server.base}/api/tables/{created['id']}", timeout=30).json()
    new = httpx.get(f"{shared_server.base}/api/tables/{rematches[0]}", timeout=30).json()
    assert [(s["kind"], s["bot"], s["name"]) for s in new["seats"]] == [
        (s["kind"], s["bot"], s["name"]) for s in old["seats"]
    ]
    assert new["game"] == old["game"] and new["options"] == old["options"]
    assert new["steps"] < old["steps"] and not new["finished"]
