"""Tainted Grail in German and English (issue 18): the demo scenario is translated whole, and a
whole game read in German (log, action texts, buttons, terminal, narration) shows no English
word of the scenario or of the engine; in English it reads as before."""

from __future__ import annotations

import random

from grail_table import log_lines, new_game

from spielwerk.core.narration import event_text, game_narration, narrate_steps
from spielwerk.games.tainted_grail import render, words
from spielwerk.games.tainted_grail.scenario import load_scenario, shown_texts
from spielwerk.games.tainted_grail.state import TaintedGrailState

ENGLISH_WORDS = (
    "energy",
    "health",
    "food",
    "travels",
    "explores",
    "dawn",
    " the ",
    "day ",
    "menhir at",
    "guardian",
    "passes",
    "chooses",
)


def test_every_text_of_the_demo_scenario_has_its_german() -> None:
    sc = load_scenario("demo")
    german = words.translation_table(sc)["de"]
    assert [text for text in shown_texts(sc) if text not in german] == []
    assert german["Hollow Camp"] == "Senkenlager"
    assert german["Begin the rite of cleansing"] == "Das Reinigungsritual beginnen"


def played_demo(players: int, seed: int) -> tuple[TaintedGrailState, list[str], list[str]]:
    """A random demo game: the state at its end, and every action text and button of the way
    in German."""
    state = new_game(players, scenario="demo", seed=seed)
    rng = random.Random(seed)
    texts, buttons = [], []
    while not state.is_terminal():
        if state.is_chance():
            action = state.sample_chance(rng)
            texts.append(state.describe(action, None, "de"))
        else:
            options = state.legal_actions()
            seat = state.to_move
            assert isinstance(seat, int)
            buttons += [state.label(a, seat, "de") for a in options]
            action = rng.choice(options)
            texts.append(state.describe(action, seat, "de"))
        state.apply(action)
    return state, texts, buttons


def test_a_whole_demo_game_in_german_has_no_english() -> None:
    english = {t for t in shown_texts(load_scenario("demo")) if len(t.split()) > 1}
    for seed in (1, 2):
        state, texts, buttons = played_demo(2, seed)
        lines = log_lines(state, "de")
        screen = render.render(state.view(0), lang="de")
        for line in [*lines, *texts, *buttons, screen]:
            for text in english:
                assert text not in line, (text, line)
            for word in ENGLISH_WORDS:
                assert word not in line, (word, line)
        assert any(line.startswith("Tagesanbruch, Schritt 1: ") for line in lines)
        assert any(b == "Passe (beende deinen Tag)" for b in buttons)


def test_the_narration_speaks_both_languages() -> None:
    state, _, _ = played_demo(2, 3)
    start = new_game(2, scenario="demo", seed=3).view(None)
    narration = game_narration("tainted_grail")
    steps = narrate_steps("tainted_grail", [start, state.view(None)])
    worded = {
        lang: [event_text(narration, lang, made) for made in steps[0]] for lang in ("de", "en")
    }
    assert len(worded["de"]) == len(worded["en"]) > 0
    assert any("Tag " in line for line in worded["de"])
    assert any("day " in line for line in worded["en"])
    assert not any("day " in line for line in worded["de"])
    explained = narration.explain
    assert explained is not None
    verdict = explained(state.view(None))["verdict"]
    assert "Die Gruppe" in event_text(narration, "de", verdict)
    assert "The team" in event_text(narration, "en", verdict)


def test_english_log_reads_as_before() -> None:
    state = new_game(1, scenario="demo", seed=1)
    assert log_lines(state)[0] == (
        "The Ashen Spring: day 1 begins (the set-up replaces the first dawn)"
    )
    assert log_lines(state, "de")[0] == (
        "Die Aschequelle: Tag 1 beginnt (der Aufbau ersetzt den ersten Tagesanbruch)"
    )
