"""Terminal text: the whole table from a view, public events between two views."""

from __future__ import annotations

import random

from isolde_table import deal, keep, new_game, packets_for, quiet_hands

import spielwerk
from spielwerk.core.conformance import decision_states, play_on, random_step
from spielwerk.games.isolde import render


def test_a_seat_sees_its_draft_and_the_spectator_sees_no_cards() -> None:
    state = new_game(3)
    hands = quiet_hands(3)
    deal(state, packets_for(state, hands))
    keep(state, 0, hands[0][0])
    mine = render.render(state.view(0))
    assert "Your cards to pick from" in mine and "You kept" in mine
    assert "still to pick" in mine and "seat 1 (you)" in mine  # seats counted from 1
    public = render.render(state.view(None))
    assert "spectator" in public and "Your" not in public and "Quest " not in public


def test_every_board_is_a_track_with_its_stacks_bottom_first_and_laps_marked() -> None:
    """The issue's terminal play: all seven boards as tracks, stacks in order (Seed 004, l. 155:
    the disc on top is ahead, written last), a lapped disc marked (l. 157)."""
    state = new_game(3)
    state.dist[1] = (3, 3, 18)  # joust: seat 1 arrived later and lies on top; seat 2 lapped
    state.order[1] = (0, 1, 2)
    lines = render.render(state.view(None)).splitlines()
    joust = next(line for line in lines if "Joust" in line)
    red, blue, green = (  # each disc by its seat's number, counted from 1
        "[bold red]1[/bold red]",
        "[bold blue]2[/bold blue]",
        "[bold green]3[/bold green]",
    )
    assert f"S:- · {green}' {red}/{blue} ·" in joust
    assert sum(line.lstrip().startswith("[") for line in lines if "(rounds" in line) == 7


def test_changes_over_a_game_report_every_round_its_scoring_and_the_end() -> None:
    state = spielwerk.load("isolde").new_state(4, seed=9)
    rng = random.Random(9)
    lines: list[str] = []
    before = state.view(2)
    for _ in play_on(state):
        random_step(state, rng)
        after = state.view(2)
        lines.extend(render.render_changes(before, after))
        before = after
    text = "\n".join(lines)
    for number in range(1, 7):
        assert f"Round {number} plays:" in text
        assert f"Scoring of round {number}:" in text
    assert text.count("Reset after round 3") == 1
    assert "Game over" in text and "Game over" in render.render(state.view(2))


def test_action_texts_are_coloured_without_losing_words() -> None:
    text = render.colourise("seat 2 plays Combat 3 on Joust (+3)")
    assert "Combat 3" in text and "Joust" in text and "[bold blue]seat 2[/bold blue]" in text


def test_each_keep_button_names_the_card_it_keeps() -> None:
    """The draft: each card a seat may keep has its own button, naming that card in the
    rulebook's words ("Behalte Isolde 2"), in either language."""
    state = decision_states(spielwerk.load("isolde"), 3, 1)[0]
    keeps = state.legal_actions(0)
    assert [a.type for a in keeps] == ["keep"] * 5
    german = [state.label(a, 0, "de") for a in keeps]
    assert german == [
        "Behalte Isolde 2",
        "Behalte Isolde 5",
        "Behalte Kampf 3",
        "Behalte König 4",
        "Behalte Gral 3",
    ]
    english = [state.label(a, 0, "en") for a in keeps]
    assert len(set(english)) == len(keeps)
