"""The lobby and the table pages in a real browser: Debian's Chromium driven by Playwright.

Players only click what a person would click: the lobby's form and links, the highlighted pieces
on the board (cards, dice, spaces) and the action buttons. Updates arrive over the websocket; no
page is ever reloaded.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import httpx
import pytest
from web_parts import Server

import spielwerk
from spielwerk.web.catalog import web_games

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
READY = """() => document.body.dataset.over === "true" ||
  (!document.body.classList.contains("waiting") &&
   document.querySelector("[data-action-id]:not([disabled])") !== null)"""
"""The page has drawn a state in which this seat can act, or the game is over."""


class Page:
    """One browser tab and the errors it reported."""

    def __init__(self, context: Any, viewport: dict[str, int] = DESKTOP) -> None:
        self.page = context.new_page()
        self.page.set_viewport_size(viewport)
        self.errors: list[str] = []
        self.page.on("pageerror", lambda error: self.errors.append(f"page error: {error}"))
        self.page.on(
            "console",
            lambda m: self.errors.append(f"console: {m.text}") if m.type == "error" else None,
        )
        self.clicks = {"board": 0, "button": 0}

    def goto(self, url: str) -> None:
        self.page.goto(url)
        # A marker that a reload would wipe: the test checks it is still there at the end.
        self.page.evaluate("() => { window.__notReloaded = true; }")

    def not_reloaded(self) -> bool:
        return bool(self.page.evaluate("() => window.__notReloaded === true"))

    @property
    def over(self) -> bool:
        return bool(self.page.evaluate("() => document.body.dataset.over === 'true'"))

    def version(self) -> int:
        return int(self.page.evaluate("() => Number(document.body.dataset.version || -1)"))

    def wait_ready(self, timeout_ms: float = 120_000) -> None:
        self.page.wait_for_function(READY, timeout=timeout_ms)

    def can_act(self) -> bool:
        return bool(self.page.evaluate(READY)) and not self.over

    def click_random_control(self, rng: random.Random) -> None:
        """Click one of the legal controls: a piece on the board when there is one (two times
        in three), else a button in the actions panel. The page redraws whenever a state
        arrives (another seat's move), so a control can vanish under the pointer: then the
        choice is made again from the controls drawn now."""
        from playwright.sync_api import Error

        version = self.version()
        for _attempt in range(20):
            board = self.page.locator("#board [data-action-id]")
            buttons = self.page.locator("#actions button[data-action-id]:not([disabled])")
            board_count, button_count = board.count(), buttons.count()
            if board_count + button_count == 0:
                self.wait_ready()
                continue
            use_board = board_count > 0 and (button_count == 0 or rng.random() < 2 / 3)
            locator = board if use_board else buttons
            target = locator.nth(rng.randrange(board_count if use_board else button_count))
            try:
                target.click(timeout=5_000)
            except Error as error:
                if "attached" in str(error) or "Timeout" in str(error):
                    continue
                raise
            self.clicks["board" if use_board else "button"] += 1
            break
        else:
            raise AssertionError("no control could be clicked")
        # The click is answered: a newer state is drawn and the controls are back (or the
        # game is over). A refused click would show a toast and fail the test below.
        self.page.wait_for_function(
            f"""() => Number(document.body.dataset.version) > {version} &&
                !document.body.classList.contains("waiting")""",
            timeout=60_000,
        )

    def toast(self) -> str | None:
        toast = self.page.locator("#toast")
        return toast.inner_text() if toast.is_visible() else None

    def fits_width(self) -> bool:
        """Nothing sticks out sideways (no horizontal scrolling)."""
        return bool(
            self.page.evaluate(
                "() => document.documentElement.scrollWidth <= window.innerWidth + 1"
            )
        )

    def too_wide(self) -> list[str]:
        """The elements that stick out past the window's right edge (for failure messages)."""
        return list(
            self.page.evaluate(
                """() => [...document.querySelectorAll('body *')]
                  .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1)
                  .slice(0, 6)
                  .map((e) => `${e.tagName}#${e.id}.${e.className.baseVal ?? e.className} `
                    + `${Math.round(e.getBoundingClientRect().right)}px: `
                    + (e.textContent || '').slice(0, 60))"""
            )
        )

    def stray_words(self) -> list[str]:
        """Words a page shows only by mistake (a missing value printed as text)."""
        text = self.page.inner_text("body")
        return re.findall(r"\b(?:null|undefined|NaN|\[object Object\])", text)

    def log_lines(self) -> list[str]:
        """The log's lines, one per action, as the page words them (seats named)."""
        return list(self.page.locator("#log li .line").all_inner_texts())

    def events(self, key: str) -> list[str]:
        """The narration lines of one kind of event (`data-event`), in order."""
        return list(self.page.locator(f"#log .event[data-event='{key}']").all_inner_texts())

    def labels_fit(self) -> list[str]:
        """Every element showing text of its own (the board, the result, the status, the log,
        the actions, the header), and the result's table, whose content is wider or taller
        than its box: each such element's text. Inline elements have no box of their own and
        are left out."""
        return list(self.page.evaluate(CLIPPED_TEXT))

    def svg_texts_outside(self) -> list[str]:
        """Texts drawn in an SVG (a card, a track, a map) that stick out of it, so that the
        SVG's edge cuts them off."""
        return list(self.page.evaluate(SVG_TEXT_OUTSIDE))

    def words_broken(self) -> list[str]:
        """Words the page breaks inside, across two lines ("Pu/nkt/e")."""
        return list(self.page.evaluate(BROKEN_WORDS))

    def covered_labels(self) -> list[str]:
        """Texts a piece of the board (a card lifted as a control, a die) lies over."""
        return list(self.page.evaluate(COVERED_LABELS))

    def layout_problems(self) -> list[str]:
        """Everything above: what a player would see as cut off, covered or broken."""
        return [
            *(f"clipped: {t}" for t in self.labels_fit()),
            *(f"cut by its SVG: {t}" for t in self.svg_texts_outside()),
            *(f"broken word: {t}" for t in self.words_broken()),
            *(f"covered: {t}" for t in self.covered_labels()),
        ]


SHOWN = """const shown = (e) => e.getClientRects().length > 0
  && e.getBoundingClientRect().width > 1 && getComputedStyle(e).visibility !== "hidden"
  && !e.closest("[hidden], [aria-hidden=true]");"""
"""Drawn where a person sees it (not hidden, not a text for screen readers only)."""

CLIPPED_TEXT = (
    "() => {"
    + SHOWN
    + """
  const own = (e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.nodeValue.trim());
  return [...document.querySelectorAll(
      "header.top *, #status, #board *, #result *, #actions *, #log li, #log li *")]
    .filter((e) => !(e instanceof SVGElement) && (own(e) || e.matches("#result table"))
      && shown(e)
      && getComputedStyle(e).display !== "inline"
      && (e.scrollWidth > e.clientWidth + 1 || e.scrollHeight > e.clientHeight + 2)
      && getComputedStyle(e).overflowY !== "auto")
    .map((e) => e.textContent.trim().slice(0, 80));
}"""
)

SVG_TEXT_OUTSIDE = (
    "() => {"
    + SHOWN
    + """
  const problems = [];
  for (const text of document.querySelectorAll("main svg text")) {
    const svg = text.closest("svg");
    if (!shown(text) || !text.textContent.trim() || Number(text.getAttribute("font-size")) <= 1) {
      continue;
    }
    const a = text.getBoundingClientRect(), b = svg.getBoundingClientRect();
    const out = a.left < b.left - 1 || a.right > b.right + 1;
    if (out || a.top < b.top - 1 || a.bottom > b.bottom + 1) {
      problems.push(`${svg.getAttribute("class")}: ${text.textContent.trim().slice(0, 60)}`);
    }
  }
  return problems;
}"""
)

BROKEN_WORDS = (
    "() => {"
    + SHOWN
    + r"""
  const broken = [];
  const walker = document.createTreeWalker(document.querySelector("main"), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("svg") || !shown(parent)) continue;
    for (const match of node.nodeValue.matchAll(/[^\s\-\u2013\u2014/]{3,}/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) broken.push(match[0]);
    }
  }
  return broken;
}"""
)

COVERED_LABELS = (
    "() => {"
    + SHOWN
    + """
  const own = (e) => [...e.childNodes].some((c) => c.nodeType === 3 && c.nodeValue.trim());
  const pieces = [...document.querySelectorAll("#board svg.card, #board svg.die")].filter(shown);
  const labels = [...document.querySelectorAll("#board *")]
    .filter((e) => !(e instanceof SVGElement) && (own(e) || e.matches("#result table"))
      && shown(e));
  const meet = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 1
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 1;
  const over = (label, piece) => !label.contains(piece) && !piece.contains(label)
    && meet(label.getBoundingClientRect(), piece.getBoundingClientRect());
  return labels.filter((label) => pieces.some((piece) => over(label, piece)))
    .map((label) => label.textContent.trim().slice(0, 60));
}"""
)


def play_to_the_end(pages: list[Page], rng: random.Random, max_clicks: int = 3000) -> None:
    """Whoever can act clicks, until every page shows the end of the game."""
    for _ in range(max_clicks):
        for page in pages:
            page.page.wait_for_function(
                "() => document.body.dataset.version !== undefined", timeout=60_000
            )
        if all(page.over for page in pages):
            return
        movers = [page for page in pages if page.can_act()]
        if not movers:
            # Bots or the other player move: wait until some page can act or the game ends.
            pages[0].page.wait_for_timeout(50)
            continue
        page = rng.choice(movers)
        page.click_random_control(rng)
        assert page.toast() is None, f"the server refused a click: {page.toast()}"
    raise AssertionError(f"the game did not end within {max_clicks} clicks")


def test_witches_one_human_three_bots_played_to_the_end_by_clicking(
    server: Server, context: Any
) -> None:
    """From the lobby: create a Witches table (seat 0 human, three bots of different strength),
    follow the seat link, and play every card by clicking it until the result is shown."""
    lobby = Page(context)
    lobby.goto(server.base + "/")
    lobby.page.select_option("#game", "witches")
    lobby.page.select_option("#players", "4")
    lobby.page.select_option("#seat-0", "human")
    lobby.page.select_option("#seat-1", "bot:heuristic")
    lobby.page.select_option("#seat-2", "bot:mcts:1000")
    lobby.page.select_option("#seat-3", "bot:mcts:300")
    lobby.page.click("#create")
    links = lobby.page.locator("#created a.play-link")
    links.first.wait_for()
    assert links.count() == 1  # one human seat, one secret link
    links.first.click()
    table = lobby
    table.page.wait_for_selector("#board svg")
    table.page.evaluate("() => { window.__notReloaded = true; }")
    assert table.page.locator("#seat-label").inner_text() == "Seat 1"  # counted from 1

    play_to_the_end([table], random.Random(11))

    assert table.clicks["board"] >= 13  # every card this seat played was clicked on the board
    result = table.page.locator("#result")
    assert result.is_visible() and "Game over" in result.inner_text()
    assert table.page.locator("#status").inner_text() == "Game over."
    assert table.not_reloaded()
    assert table.errors == [] and table.stray_words() == []
    # The server agrees: the table is finished, with this result.
    table_id = table.page.url.split("/table/")[1].split("#")[0]
    summary = httpx.get(f"{server.base}/api/tables/{table_id}", timeout=60).json()
    assert summary["finished"] is True
    # The result offers the game's record, which replays to the end.
    href = table.page.locator("#record").get_attribute("href")
    assert href == f"/api/tables/{table_id}/record"
    assert spielwerk.replay(httpx.get(server.base + href, timeout=60).json()).is_terminal()
    lines = table.log_lines()
    # The bots' moves arrived live, under each bot's name and level ("Ben (Easy bot)").
    levels = httpx.get(f"{server.base}/api/games/witches", timeout=60).json()["bots"]
    by_spec = {level["spec"]: level["seats"] for level in levels}
    bots = {1: by_spec["heuristic"][1], 2: by_spec["mcts:1000"][2], 3: by_spec["mcts:300"][3]}
    assert re.fullmatch(r"Ben \((Easy|Medium|Hard|Strongest) bot\)", bots[1])
    # The deal is one line naming this seat's own cards, never a card dealt to another.
    hand = re.compile(r"Cards are dealt: 6 to each seat; your hand: (?:[A-Z][a-z]+ \d(?:, )?){6}")
    assert hand.fullmatch(lines[0]), lines[:3]
    others = "|".join(re.escape(name) for name in bots.values())
    others_draw = re.compile(rf"(?:{others}) (is dealt|draws) [A-Z][a-z]+ \d")
    assert not any(others_draw.fullmatch(part) for line in lines for part in line.split("; "))
    # One line per trick: its cards as played (the bots' among them, by name and level), who
    # took it with how many points, the trump, and the card this seat drew.
    final = spielwerk.replay(httpx.get(server.base + href, timeout=60).json()).view(None)
    tricks = [line for line in lines if line.startswith("Trick ")]
    assert len(tricks) == len(final["tricks"]) > 0
    assert any(f"{bots[1]} " in line for line in tricks)

    def named(card: str) -> str:
        colour, value = card.split("-")
        return f"{colour.capitalize()} {value}"

    for number, (line, trick) in enumerate(zip(tricks, final["tricks"], strict=True), 1):
        points = sum(int(c.split("-")[1]) for c in trick["cards"])
        points -= int(trick["new_trump"].split("-")[1]) if trick["new_trump"] else 0
        seat = {0: "Seat 1 (you)"} | bots
        played = zip(trick["players"], trick["cards"], strict=True)
        plays = ", ".join(f"{seat[p]} {named(c)}" for p, c in played)
        assert line.startswith(f"Trick {number}: {plays} → {seat[trick['winner']]} takes "), line
        assert f"takes {points} points" in line
    # The result explains every seat's score colour by colour and names the winner.
    verdict = table.page.locator("#verdict").inner_text()
    assert f"wins with {max(final['scores'])} points" in verdict or "share the win" in verdict
    for p, score in enumerate(final["scores"]):
        row = table.page.locator(f"#result tr[data-seat='{p}']")
        assert row.locator("td.total").inner_text() == str(score)
        parts = row.locator("td.parts div").all_inner_texts()
        assert sum(int(part.rsplit("= ", 1)[1]) for part in parts if "= " in part) == score
    assert table.page.locator("#tie-break").count() == 0  # nothing tied, no tie-break shown
    check_replay_viewer(table, server, table_id)


def check_replay_viewer(table: Page, server: Server, table_id: str) -> None:
    """The finished table's replay opens at the end with the same board as the live game, steps
    back and forth with the keys and buttons, shows any seat or the spectator; the record file
    opened from the lobby replays the same number of steps."""
    live_board = table.page.inner_text("#board")
    record = httpx.get(f"{server.base}/api/tables/{table_id}/record", timeout=60).json()
    steps = len(record["actions"])
    page = table.page
    page.click("#replay")
    page.wait_for_function(f"() => document.body.dataset.step === '{steps}'")
    assert page.url.endswith(f"/table/{table_id}/replay#step={steps}&seat=0")
    assert page.inner_text("#board") == live_board  # the same final state, the same drawing
    assert page.inner_text("#step-label") == f"Step {steps} of {steps}"
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(f"() => document.body.dataset.step === '{steps - 1}'")
    page.keyboard.press("Home")
    page.wait_for_function("() => document.body.dataset.step === '0'")
    assert page.locator("#log li").count() == 0
    page.click("#forward")
    page.wait_for_function("() => document.body.dataset.step === '1'")
    assert page.locator("#log li").count() == 1
    page.keyboard.press("End")
    page.wait_for_function(f"() => document.body.dataset.step === '{steps}'")
    assert page.locator("#result").is_visible()
    page.select_option("#viewer", "")  # as a spectator: nobody's hand
    page.wait_for_function("() => !location.hash.includes('seat')")
    page.wait_for_function("() => document.querySelector('#board .hand') === null")
    # a record file from this computer, opened from the lobby
    page.goto(server.base + "/")
    page.set_input_files(
        "#record-file",
        files=[
            {
                "name": "game.json",
                "mimeType": "application/json",
                "buffer": json.dumps(record).encode(),
            }
        ],
    )
    page.wait_for_url(re.compile(r".*/replay/[\w-]+#step=\d+"))
    page.wait_for_function(f"() => document.body.dataset.step === '{steps}'")
    assert page.inner_text("#step-label") == f"Step {steps} of {steps}"
    assert table.errors == []


def test_two_browser_contexts_play_tintenherz_against_each_other(
    server: Server, browser: Any
) -> None:
    """Two people in separate browsers (no shared storage): the first creates the table in the
    lobby, sends the second seat's link to the other, and both play by clicking to the end."""
    first_context, second_context = browser.new_context(), browser.new_context()
    try:
        first = Page(first_context)
        first.goto(server.base + "/")
        first.page.select_option("#game", "inkheart_dice")
        first.page.select_option("#players", "2")
        first.page.select_option("#seat-0", "human")
        first.page.select_option("#seat-1", "human")
        first.page.fill("#player-name", "Ada")
        first.page.click("#create")
        first.page.locator("#created input.invite-link[data-seat='1']").wait_for()
        assert first.page.locator("#created a.play-link").count() == 1  # only their own seat
        second_link = first.page.input_value("#created input.invite-link[data-seat='1']")
        assert "#invite=" in second_link and "token" not in second_link
        first.page.locator("#created a.play-link[data-seat='0']").click()
        first.page.wait_for_selector("#board svg")
        first.page.evaluate("() => { window.__notReloaded = true; }")

        # The invited player takes the seat under a name ("&" shown as text; brackets, which
        # the page uses beside names, are refused).
        second = Page(second_context)
        second.goto(second_link)
        second.page.fill("#claim-name", "Bea & Co")
        second.page.click("#claim-seat")
        second.page.wait_for_selector("#board svg")
        assert second.page.locator("#seat-label").inner_text() == "Seat 2"
        assert "#token=" in second.page.url  # a token of their own replaced the invitation
        # The invitation is used up: a third person who opens it is told so at once, and is
        # never asked for a name.
        third_context = browser.new_context()
        try:
            third = Page(third_context)
            third.goto(second_link)
            third.page.wait_for_selector("#status.fatal")
            assert "does not open a seat any more" in third.page.inner_text("#status")
            assert third.page.locator("#claim").is_hidden()
        finally:
            third_context.close()

        play_to_the_end([first, second], random.Random(5))

        # The name the invited player chose is shown to the other, as plain text.
        assert "Bea & Co" in first.page.locator("#result").inner_text()
        for page in (first, second):
            assert page.page.locator("#result").is_visible()
            assert page.not_reloaded()
            assert page.errors == [] and page.stray_words() == []
        assert first.clicks["board"] + first.clicks["button"] > 0
        assert second.clicks["board"] + second.clicks["button"] > 0
        # Each saw the other's moves arrive, and both logs are the same game.
        assert any(line.startswith("Bea & Co ") for line in first.log_lines())
        assert any(line.startswith("Ada ") for line in second.log_lines())
        assert len(first.log_lines()) == len(second.log_lines())
        scores = [
            p.page.locator("#result td:nth-child(2)").all_inner_texts() for p in (first, second)
        ]
        assert scores[0] == scores[1] and len(scores[0]) == 2
        # The breakdown is the record's: points x hearts of both castle options, the better
        # one counted.
        table_id = first.page.url.split("/table/")[1].split("#")[0]
        record = httpx.get(f"{server.base}/api/tables/{table_id}/record", timeout=60).json()
        for p, scoring in enumerate(record["result"]["scoring"]):
            row = first.page.locator(f"#result tr[data-seat='{p}']")
            assert row.locator("td.total").inner_text() == str(scoring["score"])
            kept = scoring["kept"]
            parts = row.locator("td.parts").inner_text()
            assert (
                f"castle kept: {kept['points']} points \u00d7 {kept['hearts']} ♥ = {kept['score']}"
                in parts
            )
            assert f"counts {scoring['score']}" in parts
    finally:
        first_context.close()
        second_context.close()


GAME_TABLES: dict[str, tuple[list[str], dict[str, Any]]] = {
    "witches": (["human", "random", "random"], {}),
    "inkheart_dice": (["human", "random"], {"max_turns": 40}),
    "isolde": (["human", "random"], {}),
    "inkspell": (["human", "random"], {"max_rounds": 10}),
    "tainted_grail": (["human"], {}),
}


def test_every_registered_game_has_a_table_setup_here() -> None:
    assert sorted(GAME_TABLES) == sorted(spielwerk.list_games())


@pytest.mark.parametrize("game", sorted(GAME_TABLES))
def test_each_game_is_drawn_and_played_to_the_end_at_phone_width(
    shared_server: Server, context: Any, game: str
) -> None:
    """Every game's table page draws a board (SVG, not a list of fields), takes clicks on its
    pieces, fits a phone's width, and plays to the result against random bots."""
    assert game in web_games()
    seats, options = GAME_TABLES[game]
    created = shared_server.create(game, seats, **options)
    page = Page(context, PHONE)
    page.goto(shared_server.base + created["seats"][0]["url"])
    page.wait_ready()
    board = page.page.locator("#board")
    assert board.locator("svg").count() >= 1, "the board is drawn"
    assert board.locator(".generic").count() == 0, "the game has its own board"
    assert page.page.locator("#board [data-action-id]").count() > 0 or page.over, (
        "legal actions are pieces on the board"
    )
    assert page.fits_width()
    assert page.stray_words() == []

    play_to_the_end([page], random.Random(3))

    assert page.page.locator("#result").is_visible()
    assert page.labels_fit() == []
    record = httpx.get(f"{shared_server.base}/api/tables/{created['id']}/record", timeout=60).json()
    final = spielwerk.replay(record)
    if game == "isolde":
        # a scoring line per board per round (Isolde's own board moves discs, scores nothing)
        boards = final.view(None)["boards"]
        expected = [
            (r, b["board"].capitalize())  # the boards' English names (glossary.toml)
            for r in range(1, final.view(None)["rounds"] + 1)
            for b in boards
            if r in b["scored_after"] and b["scoring"] != "moves"
        ]
        lines = page.events("board_scored")
        assert [line.split(":")[0] for line in lines] == [
            f"Round {r} scoring, {name}" for r, name in expected
        ]
    explained = page.page.locator("#result td.total").all_inner_texts()
    assert explained == [str(s) for s in final.result()["scores"]]
    page.page.set_viewport_size({"width": 1366, "height": 900})
    assert page.labels_fit() == []
    assert page.clicks["board"] > 0
    assert page.fits_width()
    assert page.stray_words() == []
    assert page.not_reloaded()
    assert page.errors == []
