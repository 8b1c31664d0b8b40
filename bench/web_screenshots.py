"""Screenshots of every game's table page in German and English at desktop and phone width
(docs/web.md), and of a rules page in each language.

    .venv/bin/python bench/web_screenshots.py        # writes docs/images/web-GAME-LANG-*.png
    .venv/bin/python bench/web_screenshots.py --game witches --lang de --moves 10

Starts `spielwerk serve` on a free port with a scratch SQLite file, creates one table per game
and language (seat 1 a person, every other seat the heuristic bot), opens the person's seat link
in Debian's Chromium (Playwright) in a browser whose language is German (`de-DE`) or English
(`en-GB`), so the page is in that language as for any visitor, plays a few moves by clicking
legal controls at random (seeded), then saves full-page screenshots at 1366x900 and 390x844
(cut at 2000 px), and stops the server. `--rules GAME`
(default witches; `--rules ''` for none) also shoots that game's rules page in each language at
both widths (`web-rules-GAME-LANG-*.png`).
"""

from __future__ import annotations

import argparse
import random
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "docs" / "images"
SPIELWERK = Path(sys.executable).parent / "spielwerk"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
VIEWPORTS = {"desktop": (1366, 900), "phone": (390, 844)}
LOCALES = {"de": "de-DE", "en": "en-GB"}
"""The browser's language for each page language (its Accept-Language picks the page's)."""
MAX_HEIGHT = 2000
PLAYERS = {"witches": 4, "tainted_grail": 2}
"""Seats per game (3 where not listed)."""
READY = """() => document.body.dataset.over === "true" ||
  (!document.body.classList.contains("waiting") &&
   document.querySelector("[data-action-id]:not([disabled])") !== null)"""
"""The page shows a state in which this seat can act, or the game is over."""


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(port: int, db_path: Path, log_path: Path) -> subprocess.Popen[bytes]:
    """`spielwerk serve` in the background; returns once /healthz answers."""
    command = [str(SPIELWERK), "serve", "--port", str(port), "--db", f"sqlite:///{db_path}"]
    command += ["--bot-delay", "0", "--tables-per-minute", "0"]
    with log_path.open("wb") as log:
        process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited:\n{log_path.read_text(errors='replace')}")
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=2).status_code == 200:
                return process
        except httpx.HTTPError:
            pass
        time.sleep(0.2)
    process.terminate()
    raise RuntimeError("the server did not answer /healthz within 60 s")


def stop_server(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(30)


def create_table(base: str, game: str) -> str:
    """A new table of `game`: seat 1 the caller (named "Ada"), the others heuristic bots. The
    link of the caller's seat (a path)."""
    seats: list[dict[str, str]] = [{"kind": "human"}]
    seats += [{"kind": "bot", "bot": "heuristic"}] * (PLAYERS.get(game, 3) - 1)
    body = {"game": game, "options": {}, "seats": seats, "claim": 0, "name": "Ada"}
    answer = httpx.post(f"{base}/api/tables", json=body, timeout=60)
    if answer.status_code != 201:
        raise RuntimeError(f"creating a {game} table: {answer.status_code} {answer.text}")
    url: str = answer.json()["seats"][0]["url"]
    return url


def version(page: Any) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.version || -1)"))


def over(page: Any) -> bool:
    return bool(page.evaluate("() => document.body.dataset.over === 'true'"))


def click_random_control(page: Any, rng: random.Random) -> None:
    """Click one legal control (a piece on the board two times in three when there is one, else
    an action button) and wait until the answer is drawn. A control that vanishes under the
    pointer (the page redrew) is chosen again."""
    from playwright.sync_api import Error

    before = version(page)
    for _attempt in range(20):
        page.wait_for_function(READY, timeout=120_000)
        board = page.locator("#board [data-action-id]")
        buttons = page.locator("#actions button[data-action-id]:not([disabled])")
        board_count, button_count = board.count(), buttons.count()
        if board_count + button_count == 0:
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
        break
    else:
        raise RuntimeError("no control could be clicked")
    page.wait_for_function(
        f"""() => Number(document.body.dataset.version) > {before} &&
            !document.body.classList.contains("waiting")""",
        timeout=60_000,
    )


def settle(page: Any) -> None:
    """Wait until this seat can act (or the game is over) and the page has painted twice."""
    page.wait_for_function(READY, timeout=120_000)
    page.evaluate(
        "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(() => r())))"
    )


def screenshot(page: Any, path: Path) -> None:
    """A full-page PNG, cut at MAX_HEIGHT px."""
    height = int(page.evaluate("() => document.documentElement.scrollHeight"))
    width = int(page.viewport_size["width"])
    if height > MAX_HEIGHT:
        clip = {"x": 0, "y": 0, "width": width, "height": MAX_HEIGHT}
        page.screenshot(path=str(path), full_page=True, clip=clip)
    else:
        page.screenshot(path=str(path), full_page=True)


def new_context(browser: Any, lang: str) -> Any:
    return browser.new_context(reduced_motion="reduce", device_scale_factor=1, locale=LOCALES[lang])


def shoot_game(browser: Any, base: str, game: str, lang: str, moves: int, seed: int) -> list[Path]:
    """Play `moves` own moves of a new `game` table in `lang`; its two screenshots."""
    rng = random.Random(f"{seed}:{game}")
    link = create_table(base, game)
    context = new_context(browser, lang)
    try:
        page = context.new_page()
        page.set_viewport_size(dict(zip(("width", "height"), VIEWPORTS["desktop"], strict=True)))
        page.goto(base + link)
        page.wait_for_selector("#board svg", timeout=60_000)
        shown = page.evaluate("() => document.documentElement.lang")
        if shown != lang:
            raise RuntimeError(f"the {game} page is in {shown!r}, not {lang!r}")
        for _move in range(moves):
            page.wait_for_function(READY, timeout=120_000)
            if over(page):
                break
            click_random_control(page, rng)
        written: list[Path] = []
        for label, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            settle(page)
            path = IMAGES / f"web-{game}-{lang}-{label}.png"
            screenshot(page, path)
            written.append(path)
        return written
    finally:
        context.close()


def shoot_rules(browser: Any, base: str, game: str, lang: str) -> list[Path]:
    """The top of `game`'s rules page in `lang` at both widths (cut at MAX_HEIGHT px)."""
    context = new_context(browser, lang)
    try:
        page = context.new_page()
        written: list[Path] = []
        for label, (width, height) in VIEWPORTS.items():
            page.set_viewport_size({"width": width, "height": height})
            page.goto(f"{base}/rules/{game}?lang={lang}")
            # the pictures of the components, drawn by the game's board script
            page.wait_for_function("() => document.body.dataset.pieces === 'drawn'")
            path = IMAGES / f"web-rules-{game}-{lang}-{label}.png"
            screenshot(page, path)
            written.append(path)
        return written
    finally:
        context.close()


def report(paths: list[Path]) -> None:
    for path in paths:
        print(f"{path.relative_to(ROOT)}  {path.stat().st_size // 1024} KB", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--game", action="append", help="only this game (repeatable)")
    parser.add_argument("--moves", type=int, default=6, help="own moves before the shots")
    parser.add_argument("--seed", type=int, default=20, help="seed of the random clicks")
    parser.add_argument(
        "--lang",
        action="append",
        choices=sorted(LOCALES),
        help="only this language (repeatable; default: both)",
    )
    parser.add_argument(
        "--rules", default="witches", help="the game whose rules page is shot ('' for none)"
    )
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    started = time.monotonic()
    IMAGES.mkdir(parents=True, exist_ok=True)
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="spielwerk-shots-") as scratch:
        log_path = Path(scratch) / "serve.log"
        server = start_server(port, Path(scratch) / "x.db", log_path)
        try:
            games: list[str] = args.game or [
                g["name"] for g in httpx.get(f"{base}/api/games").json()
            ]
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
                )
                try:
                    langs: list[str] = args.lang or sorted(LOCALES)
                    written: list[Path] = []
                    for game in games:
                        for lang in langs:
                            written += shoot_game(browser, base, game, lang, args.moves, args.seed)
                            report(written[-2:])
                    if args.rules:
                        for lang in langs:
                            written += shoot_rules(browser, base, args.rules, lang)
                            report(written[-2:])
                finally:
                    browser.close()
        except Exception:
            print(log_path.read_text(errors="replace")[-4000:], file=sys.stderr)
            raise
        finally:
            stop_server(server)
    print(f"{len(games)} games in {time.monotonic() - started:.1f} s")


if __name__ == "__main__":
    main()
