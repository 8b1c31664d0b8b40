"""Tintenblut: set-up, location cards, journeys, Staubfinger and rewards, on exact positions.

Rulebook: shared/seeds/000_24e597bafe34400f.txt (German; quoted in each test's docstring).
Gaps settled in shared/rules/inkspell.md (cited by section).
"""

from __future__ import annotations

import pytest
from inkspell_table import (
    arrange,
    draw_advantage,
    flip,
    legal,
    legal_of_type,
    new_game,
    pass_turn,
    play,
    public,
    reward,
    settle,
    staubfinger,
    tiles_of,
)

import spielwerk
from spielwerk.games.inkspell.state import InkspellState, journey_cost

from inkspell_table import location  # isort: skip


# ------------------------------------------------------------------------------------ set-up
def test_setup_turns_up_cards_until_a_free_location() -> None:
    """Rulebook "Spielvorbereitung": "Er mischt seine Ortskarten und deckt seine oberste Karte
    auf. Auf diesen Ort stellt er seine Spielfigur. ... Sollte die Karte "Die Tintenwelt" oder
    ein Ort aufgedeckt werden, auf dem schon die Figur eines anderen Spielers steht, wird die
    nächste Karte aufgedeckt usw. Zu Staubfinger im geheimen Lager darf eine Spielfigur jedoch
    gestellt werden. Haben alle Spieler ihre Figuren auf den Plan gestellt, nehmen sie alle
    ihre Karten wieder zurück auf die Hand." """
    state = spielwerk.load("inkspell").new_state(3, seed=0)
    assert isinstance(state, InkspellState)
    outcomes = state.chance_outcomes()
    assert len(outcomes) == 10 and all(p == pytest.approx(0.1) for _, p in outcomes)
    flip(state, "lager")  # Staubfinger's camp is allowed
    flip(state, "tintenwelt")  # skipped
    assert public(state)["setup_flipped"] == ["tintenwelt"]
    flip(state, "lager")  # occupied by seat 0: skipped
    assert public(state)["positions"] == ["lager", None, None]
    assert {a.to_json()["card"] for a, _ in state.chance_outcomes()} == {
        *spielwerk.games.inkspell.params.PARAMS.location_keys,
        "tintenwelt",
    } - {"tintenwelt", "lager"}
    flip(state, "ombra")
    flip(state, "ombra")
    flip(state, "hof")
    view = public(state)
    assert view["positions"] == ["lager", "ombra", "hof"]
    assert view["staubfinger"] == "lager"
    assert all(len(hand) == 10 for hand in view["hands"])  # all cards back in hand
    assert view["setup_flipped"] == []
    assert view["provisions"] == [2, 2, 2]  # "Außerdem erhält jeder 2 Proviantchips."
    assert view["scores"] == [0, 0, 0]
    assert view["villain_deck"] == [5, 5, 5]
    assert view["phase"] == "choose_card" and view["to_move"] == 0  # the youngest starts
    assert view["supply"] == {"M": 18, "S": 18, "K": 18, "E": 18, "P": 32 - 6}


# ------------------------------------------------------------------------------------ journeys
def test_rulebook_journey_from_the_border_inn_to_the_mouse_mill_costs_two() -> None:
    """Rulebook: "Der Spieler will vom "Gasthaus an der Grenze" zur "Mäusemühle" reisen. Die
    erste Strecke - bis zur Nachtburg - ist kostenlos. Für den Abschnitt von der Nachtburg bis
    zur Mäusemühle muss der Spieler 2 Proviant abgeben." """
    assert journey_cost(location("grenze"), location("muehle")) == 2
    state = new_game(["grenze", "hof"])
    play(state, "muehle")
    view = public(state)
    assert view["positions"][0] == "muehle"
    # 2 provisions paid; alone at the mill: 2 Stärke + 1 provision [design reward]
    assert view["provisions"][0] == 0 + 1
    assert tiles_of(state, 0) == "SS"


def test_the_first_location_is_free_and_every_further_one_costs_one() -> None:
    """Rulebook: "Für den ersten Ort auf seiner Reiseroute benötigt der Spieler keinen
    Proviant. Für jeden weiteren Ort muss er 1 Proviant abgeben." """
    state = new_game(["grenze", "muehle"])
    assert journey_cost(location("grenze"), location("nachtburg")) == 0
    assert journey_cost(location("grenze"), location("grenze")) == 0
    assert journey_cost(location("grenze"), location("festung")) == 1
    play(state, "hof")  # a neighbour: free
    assert public(state)["provisions"][0] == 2
    assert public(state)["positions"][0] == "hof"


def test_a_card_is_playable_only_with_enough_provisions_paid_before_moving() -> None:
    """Rulebook: "Hat der Spieler nicht genug Proviant für die ganze Strecke, darf er die
    Ortskarte nicht spielen." "Der Proviant für die Reise muss vor der Bewegung abgegeben
    werden. Es ist nicht erlaubt, die Kosten mit Proviantchips zu verrechnen, die der Spieler
    erst am Zielort erhält." """
    state = new_game(["grenze", "hof"])
    arrange(state, 0, provisions=1)
    plays = {a["card"] for a in legal_of_type(state, "play") if a["card"] != "tintenwelt"}
    # The mill (cost 2) would pay 1 provision on arrival: still not playable with 1.
    assert "muehle" not in plays
    assert {"nachtburg", "hof", "grenze", "siechenhaus", "festung", "ombra", "lager"} <= plays
    anywhere = {a["to"] for a in legal_of_type(state, "play") if a["card"] == "tintenwelt"}
    assert "muehle" not in anywhere and "grenze" in anywhere


def test_die_tintenwelt_goes_anywhere_for_the_journey_cost() -> None:
    """Rulebook: "Mit seiner Ortskarte "Die Tintenwelt" darf der Spieler auf ein beliebiges
    Ortsfeld ziehen. Den erforderlichen Proviant für die zurückzulegende Strecke muss er aber
    dennoch abgeben." """
    state = new_game(["grenze", "hof"])
    arrange(state, 0, provisions=5)
    anywhere = {a["to"] for a in legal_of_type(state, "play") if a["card"] == "tintenwelt"}
    assert len(anywhere) == 9
    play(state, "tintenwelt", to="muehle")
    view = public(state)
    assert view["positions"][0] == "muehle"
    assert view["provisions"][0] == 5 - 2
    reward(state, "solo")  # alone at the mill: 2 Stärke + 1 provision [design]
    assert public(state)["provisions"][0] == 5 - 2 + 1
    assert view["played"][0] == ["tintenwelt"]
    assert view["last_played"][0] == 37  # Die Tintenwelt of seat 0 [design numbers]


def test_played_cards_come_back_only_when_the_hand_is_empty() -> None:
    """Rulebook: "Eine ausgespielte Ortskarte steht dem Spieler in den nächsten Runden nicht
    mehr zur Verfügung. Erst wenn er alle seine Ortskarten ausgespielt hat, darf er sie zu
    Beginn seines nächsten Zuges wieder auf die Hand nehmen." """
    state = new_game(["grenze", "hof"])
    arrange(state, 0, provisions=12)
    cards = [
        "nachtburg",
        "siechenhaus",
        "ombra",
        "hof",
        "lager",
        "spielleute",
        "grenze",
        "festung",
        "muehle",
    ]
    for card in cards:
        assert card in {a["card"] for a in legal_of_type(state, "play")}
        play(state, card)
        settle(state)
        pass_turn(state)  # seat 1
        settle(state)
        assert card not in {a["card"] for a in legal_of_type(state, "play")}
        assert card not in public(state)["hands"][0]
    play(state, "tintenwelt", to="ombra")
    settle(state)
    pass_turn(state)
    settle(state)
    # The hand was empty: at the start of this turn all ten cards came back.
    assert len(public(state)["hands"][0]) == 10
    assert public(state)["played"][0] == []


def test_passing_ends_the_turn_and_returns_the_cards_at_the_end_of_the_round() -> None:
    """Rulebook "Passen und alle Ortskarten wieder aufnehmen": "Ein Spieler darf als einzige
    Aktion in seinem Spielzug passen. Sein Zug ist damit sofort beendet. Am Ende der Runde darf
    er alle seine bereits ausgespielten Ortskarten wieder auf die Hand nehmen." """
    state = new_game(["grenze", "muehle"])
    play(state, "hof")
    settle(state)
    pass_turn(state)
    settle(state)  # seat 0 drew the villain card (highest number) and leads
    assert "hof" not in public(state)["hands"][0]
    pass_turn(state)
    assert public(state)["passed"][0]
    assert public(state)["to_move"] == 1  # the turn ended at once
    assert "hof" not in public(state)["hands"][0]  # not yet: at the end of the round
    pass_turn(state)
    settle(state)
    assert "hof" in public(state)["hands"][0]
    assert public(state)["played"][0] == []


# ------------------------------------------------------------------------------------ rewards
def test_ombra_alone_and_with_company() -> None:
    """Rulebook "Belohnung erhalten": "In Ombra erhält ein Spieler, der dort alleine ist, 3
    Erfahrungsplättchen "Ehre" aus dem Vorrat und 1 Vorteilskarte vom Stapel. Befindet sich
    dort noch eine andere Spielfigur, erhält der Spieler 2 Erfahrungsplättchen "Mut" und 1
    Proviantchip aus dem Vorrat." """
    state = new_game(["hof", "grenze"])
    arrange(state, 0, provisions=0)
    play(state, "ombra")  # alone, nothing else possible: the reward is taken at once
    assert tiles_of(state, 0) == "EEE"
    assert public(state)["phase"] == "draw_advantage"
    draw_advantage(state, "farid")
    assert public(state)["advantage_counts"][0] == 1
    assert state.view(0)["advantage"] == ["farid"]
    assert state.view(1)["advantage"] == []
    state = new_game(["hof", "ombra"])
    arrange(state, 0, provisions=0)
    play(state, "ombra")
    assert tiles_of(state, 0) == "MM"
    assert public(state)["provisions"][0] == 1


def test_staubfinger_counts_as_company() -> None:
    """Rulebook: "Die untere Zeile mit zwei Figuren gilt, wenn sich zwei oder mehr Figuren
    (andere Spieler und/oder Staubfinger) dort aufhalten." Staubfinger starts at the camp."""
    state = new_game(["hof", "grenze"])
    arrange(state, 0, provisions=0)
    play(state, "lager")
    # Shared row of the camp [design]: 1 Ehre + 1 provision.
    assert tiles_of(state, 0) == "E"
    assert public(state)["provisions"][0] == 1


def test_moving_staubfinger_costs_one_provision_per_step_from_the_first() -> None:
    """Rulebook "Staubfinger bewegen": "Gegen Abgabe von Proviant darf der Spieler zusätzlich
    Staubfinger bewegen ... für jeden Ort, den Staubfinger weiterzieht, 1 Proviant abgeben -
    also auch schon für den ersten Ort." """
    state = new_game(["grenze", "muehle"])
    arrange(state, 0, provisions=2)
    play(state, "hof")  # free (neighbour), Staubfinger at the camp next door
    steps = {a["to"] for a in legal_of_type(state, "staubfinger")}
    assert steps == {"hof", "spielleute", "festung"}  # the camp's roads
    staubfinger(state, "hof")
    assert public(state)["provisions"][0] == 1
    assert public(state)["staubfinger"] == "hof"
    assert legal_of_type(state, "reward") == [{"type": "reward", "row": "shared", "take": "all"}]
    staubfinger(state, "grenze")  # one more step: now the player is alone again
    assert public(state)["staubfinger"] == "grenze"
    # No provision left, no advantage card: the solo reward is taken at once. Hof solo [design]:
    # 2 Ehre + 1 provision.
    assert tiles_of(state, 0) == "EE"
    assert public(state)["provisions"][0] == 1


def test_only_staubfinger_uses_the_secret_path() -> None:
    """Rulebook: "Staubfinger darf als einzige Figur den geheimen Pfad zwischen den beiden
    Gasthäusern nutzen, wenn der Spieler dafür 1 Proviant abgibt." """
    state = new_game(["hof", "muehle"])
    arrange(state, 0, provisions=3)
    # The figure's road distance grenze -> spielleute is 3 (no secret path): cost 2.
    assert journey_cost(location("grenze"), location("spielleute")) == 2
    play(state, "grenze")
    staubfinger(state, "hof")
    staubfinger(state, "grenze")
    assert {a["to"] for a in legal_of_type(state, "staubfinger")} == {
        "nachtburg",
        "hof",
        "spielleute",
    }
    staubfinger(state, "spielleute")  # the secret path, 1 provision
    assert public(state)["staubfinger"] == "spielleute"
    # All 3 provisions spent; alone at the border inn: its solo reward, 3 provisions [design].
    assert public(state)["provisions"][0] == 3


def test_limited_supply_pays_a_reward_only_as_far_as_it_goes() -> None:
    """Rules file "Supply (limited)": "a reward the supply cannot cover is paid only as far as
    it goes." """
    state = new_game(["hof", "grenze"])
    arrange(state, 1, tiles="E" * 17)
    arrange(state, 0, provisions=0)
    play(state, "ombra")  # solo: 3 Ehre, but one is left
    assert tiles_of(state, 0) == "E"
    assert public(state)["supply"]["E"] == 0


def test_the_figure_counts_as_one_and_legal_actions_stay_exact() -> None:
    """Every legal action applies; an action that is not offered is refused."""
    state = new_game(["hof", "grenze"])
    for action in legal(state):
        copy = state.clone()
        copy.apply(action)
    with pytest.raises(spielwerk.IllegalAction):
        state.apply({"type": "end_turn"})
