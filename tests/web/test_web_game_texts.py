"""The games' own texts in the page's language: a German page shows a Witches table in German
(the hand's cards are played with „Spiele …“, the log says „… wird als erster Trumpf
aufgedeckt“ and „Stich 1: …“, the board „Kartenstapel“ and „Hexenrad“), an English page in
English, and the API serves a game's texts and option help in the language asked for."""

from __future__ import annotations

from typing import Any

import httpx
from web_parts import Server

READY = "() => document.querySelector('#board [data-action-id]') !== null"


def test_a_german_witches_table_speaks_german(server: Server, german: Any) -> None:
    page = german
    created = server.create("witches", ["human", "random"])
    page.goto(server.base + created["seats"][0]["url"])
    page.wait_for_function(READY)
    labels = page.eval_on_selector_all(
        "#board [data-action-id]", "nodes => nodes.map(n => n.getAttribute('aria-label'))"
    )
    assert labels and all("Spiele " in label for label in labels), labels
    board = page.inner_text("#board")
    assert "Kartenstapel" in board and "Hexenrad" in board and "Deine Handkarten" in board
    assert "Draw pile" not in board and "Your hand" not in board
    log = page.inner_text("#log")
    assert "wird als erster Trumpf aufgedeckt" in log
    assert "is turned up" not in log

    page.locator("#board [data-action-id]").first.click()  # play a card: the trick's line
    page.wait_for_function("() => document.querySelector('#log').innerText.includes('Stich 1: ')")
    assert page.errors == []

    page.select_option("#lang", "en")  # the same table in English
    page.wait_for_function("() => document.documentElement.lang === 'en'")
    page.wait_for_function(READY)
    board = page.inner_text("#board")
    assert "Draw pile" in board and "Your hand" in board
    assert "is turned up as the first trump" in page.inner_text("#log")
    assert page.errors == []


def test_the_api_serves_a_games_texts_in_the_language_asked_for(shared_server: Server) -> None:
    base = shared_server.base
    german = httpx.get(f"{base}/api/games/witches?lang=de", timeout=30).json()
    english = httpx.get(f"{base}/api/games/witches", timeout=30).json()
    assert german["lang"] == "de" and english["lang"] == "en"
    assert german["texts"]["button.play"] == "Spiele {card}"
    assert german["texts"]["@trick"] == "Stich"
    assert german["narration"]["first_trump"] == "{card} ist der erste Trumpf"
    assert english["narration"]["first_trump"] == "{card} is the first trump"
    wheel = {o["name"]: o["help"] for o in german["options"]}["wheel"]
    assert wheel.startswith("welche Seite des Hexenrades")
    listed = httpx.get(f"{base}/api/games?lang=de", timeout=30).json()
    assert {g["name"]: g for g in listed}["witches"]["options"][0]["help"] == wheel
    dice = httpx.get(f"{base}/api/games/inkheart_dice?lang=de", timeout=30).json()
    assert dice["texts"]["button.reroll_both"] == "Beide Würfel neu werfen"
    isolde = httpx.get(f"{base}/api/games/isolde?lang=de", timeout=30).json()
    assert isolde["texts"]["@board_joust"] == "Lanzenstechen"
    assert isolde["narration"]["board_scored"] == "Wertung Runde {round}, {board}: {gains}"
