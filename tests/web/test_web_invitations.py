"""Invitations: before anybody takes a seat, the page says who invites you to which game with
which seats, in the page's language (`POST /api/tables/ID/invitation`, read only); a used link,
or another table's, is refused at once, before any name is asked for.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from web_parts import Server, page_in_new_context

from spielwerk.web.i18n import translate

LOCALES = {"en": "en-GB", "de": "de-DE"}


def open_table(server: Server, game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    """A table created as the lobby creates it: the creator, Ada, plays seat 1; every other
    human seat gets an invitation."""
    body = {"game": game, "options": {}, "seats": seats, "claim": 0, "name": "Ada"}
    answer = httpx.post(f"{server.base}/api/tables", json=body, timeout=60)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def ask(server: Server, table_id: str, body: object) -> httpx.Response:
    return httpx.post(f"{server.base}/api/tables/{table_id}/invitation", json=body, timeout=30)


def test_the_invitation_says_what_it_opens_and_claims_nothing(shared_server: Server) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    created = open_table(shared_server, "inkheart_dice", seats)
    table_id, invitation = created["id"], created["seats"][1]["invitation"]
    for _ in range(2):  # asking twice changes nothing
        answer = ask(shared_server, table_id, {"invitation": invitation})
        assert answer.status_code == 200, answer.text
        found = answer.json()
        assert (found["game"], found["seat"], found["host"]) == ("inkheart_dice", 1, 0)
        assert [(s["kind"], s["name"], s["claimed"]) for s in found["seats"]] == [
            ("human", "Ada", True),
            ("human", None, False),
            ("bot", None, False),
        ]
        assert "token" not in answer.text and invitation not in answer.text
    claimed = shared_server.claim(table_id, invitation, "Bea")
    assert claimed.status_code == 200
    used = ask(shared_server, table_id, {"invitation": invitation})
    assert used.status_code == 403 and used.json()["code"] == "not_invited"
    other = open_table(shared_server, "inkheart_dice", seats)
    foreign = ask(shared_server, other["id"], {"invitation": invitation})
    assert foreign.status_code == 403 and foreign.json()["code"] == "not_invited"
    unknown = ask(shared_server, "nosuchtable", {"invitation": invitation})
    assert unknown.status_code == 404 and unknown.json()["code"] == "no_table"
    for malformed in ({}, {"invitation": ""}, {"invitation": "x", "extra": 1}, []):
        assert ask(shared_server, table_id, malformed).status_code == 422
    untouched = ask(shared_server, other["id"], {"invitation": other["seats"][1]["invitation"]})
    assert untouched.status_code == 200 and untouched.json()["seats"][1]["claimed"] is False


@pytest.mark.parametrize("lang", sorted(LOCALES))
def test_the_invitation_page_says_who_invites_to_which_game_and_refuses_a_used_link(
    shared_server: Server, browser: Any, lang: str
) -> None:
    seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "heuristic"}]
    created = open_table(shared_server, "inkheart_dice", seats)
    link = shared_server.base + created["seats"][1]["url"]
    info = httpx.get(f"{shared_server.base}/api/games/inkheart_dice?lang={lang}").json()
    title = info["title"]
    bot = next(level for level in info["bots"] if level["spec"] == "heuristic")["seats"][2]
    with page_in_new_context(browser, locale=LOCALES[lang]) as page:
        page.goto(link)
        page.wait_for_selector("#claim:not([hidden])")
        assert page.inner_text("#game-title") == title
        heading = translate(lang, "table.invited_by", host="Ada", game=title)
        assert page.inner_text("#claim-heading") == heading
        listed = page.locator("#claim-seats li").all_inner_texts()
        assert listed[0] == translate(lang, "table.invited_seat", n=1, name="Ada")
        assert listed[1] == translate(lang, "table.invited_your_seat", n=2)
        assert listed[2] == bot  # the bot by its name and level ("Clara (Medium bot)")
        assert len(listed) == 3
        page.fill("#claim-name", "Bea")
        page.click("#claim-seat")
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        assert "#token=" in page.url
        assert page.errors == []
    with page_in_new_context(browser, locale=LOCALES[lang]) as late:
        late.goto(link)
        late.wait_for_selector("#status.fatal")
        assert translate(lang, "error.not_invited") in late.inner_text("#status")
        assert late.locator("#claim").is_hidden(), "no name is asked for a used link"
        assert late.errors == []


def test_an_invitation_that_moved_to_the_rematch_is_answered_from_there() -> None:
    """A seat's invitation not used when the game ended moves on to the rematch (the claim
    follows it there): the invitation page says which table, and who invites there."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor

    from spielwerk.web.errors import TableNotFound
    from spielwerk.web.invitations import invitation_answer
    from spielwerk.web.storage import SeatRow, TableRow, hash_token

    def row(table_id: str, rematch: str | None, invited: bool) -> TableRow:
        seats = (
            SeatRow(0, "human", None, hash_token("ada's token"), None, "Ada"),
            SeatRow(1, "human", None, None, hash_token("for bea") if invited else None, None),
        )
        return TableRow(table_id, "witches", {}, 2, 1, "secret", 0.0, False, 0, [0], seats, rematch)

    rows = {"old": row("old", "new", False), "new": row("new", None, True)}

    async def load(table_id: str) -> TableRow:
        if table_id not in rows:
            raise TableNotFound(table_id)
        return rows[table_id]

    def answer(invitation: str) -> dict[str, Any] | None:
        # on a thread of its own: a browser test of this process may run an event loop here
        with ThreadPoolExecutor(1) as thread:
            return thread.submit(asyncio.run, invitation_answer(load, "old", invitation)).result()

    found = answer("for bea")
    assert found is not None and (found["table"], found["seat"], found["host"]) == ("new", 1, 0)
    assert answer("for nobody") is None
    rows["new"] = row("new", "gone", False)
    assert answer("for bea") is None
