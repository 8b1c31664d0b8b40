"""Tintenblut: set-up, location cards, journeys, Staubfinger and rewards, on exact positions.

Rulebook: shared/seeds/000_24e597bafe34400f.txt ("Seed 000", German; each docstring cites and
quotes its lines).
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
from spielwerk.games.inkspell.params import PARAMS
from spielwerk.games.inkspell.state import InkspellState, journey_cost

from inkspell_table import LOCATIONS, location  # isort: skip

ROADS = [
    ("grenze", "nachtburg"),
    ("grenze", "hof"),
    ("hof", "ombra"),
    ("hof", "lager"),
    ("ombra", "spielleute"),
    ("ombra", "siechenhaus"),
    ("spielleute", "lager"),
    ("lager", "festung"),
    ("festung", "nachtburg"),
    ("festung", "muehle"),
    ("nachtburg", "siechenhaus"),
    ("siechenhaus", "muehle"),
]
"""The roads of shared/rules/inkspell.md, "Map", copied here to check the data file against."""


# ------------------------------------------------------------------------------------ set-up
def test_setup_turns_up_cards_until_a_free_location() -> None:
    """Seed 000, l. 77 and 86 ("Spielvorbereitung"): "Er mischt seine Ortskarten und deckt seine
    oberste Karte auf. Auf diesen Ort stellt er seine Spielfigur. ... Sollte die Karte "Die
    Tintenwelt" oder ein Ort aufgedeckt werden, auf dem schon die Figur eines anderen Spielers
    steht, wird die nächste Karte aufgedeckt usw. Zu Staubfinger im geheimen Lager darf eine
    Spielfigur jedoch gestellt werden. Haben alle Spieler ihre Figuren auf den Plan gestellt, nehmen
    sie alle ihre Karten wieder zurück auf die Hand." """
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
    """Seed 000, l. 114: "Der Spieler will vom "Gasthaus an der Grenze" zur "Mäusemühle" reisen. Die
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
    """Seed 000, l. 112: "Für den ersten Ort auf seiner Reiseroute benötigt der Spieler keinen
    Proviant. Für jeden weiteren Ort muss er 1 Proviant abgeben." """
    state = new_game(["grenze", "muehle"])
    assert journey_cost(location("grenze"), location("nachtburg")) == 0
    assert journey_cost(location("grenze"), location("grenze")) == 0
    assert journey_cost(location("grenze"), location("festung")) == 1
    play(state, "hof")  # a neighbour: free
    assert public(state)["provisions"][0] == 2
    assert public(state)["positions"][0] == "hof"


def test_a_card_is_playable_only_with_enough_provisions_paid_before_moving() -> None:
    """Seed 000, l. 120-121: "Hat der Spieler nicht genug Proviant für die ganze Strecke, darf er
    die Ortskarte nicht spielen." "Der Proviant für die Reise muss vor der Bewegung abgegeben
    werden. Es ist nicht erlaubt, die Kosten mit Proviantchips zu verrechnen, die der Spieler erst
    am Zielort erhält." """
    state = new_game(["grenze", "hof"])
    arrange(state, 0, provisions=1)
    plays = {a["card"] for a in legal_of_type(state, "play") if a["card"] != "tintenwelt"}
    # The mill (cost 2) would pay 1 provision on arrival: still not playable with 1.
    assert "muehle" not in plays
    assert {"nachtburg", "hof", "grenze", "siechenhaus", "festung", "ombra", "lager"} <= plays
    anywhere = {a["to"] for a in legal_of_type(state, "play") if a["card"] == "tintenwelt"}
    assert "muehle" not in anywhere and "grenze" in anywhere


def test_die_tintenwelt_goes_anywhere_for_the_journey_cost() -> None:
    """Seed 000, l. 118: "Mit seiner Ortskarte "Die Tintenwelt" darf der Spieler auf ein beliebiges
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
    """Seed 000, l. 111: "Eine ausgespielte Ortskarte steht dem Spieler in den nächsten Runden nicht
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
    """Seed 000, l. 205 ("Passen und alle Ortskarten wieder aufnehmen"): "Ein Spieler darf als
    einzige Aktion in seinem Spielzug passen. Sein Zug ist damit sofort beendet. Am Ende der Runde
    darf er alle seine bereits ausgespielten Ortskarten wieder auf die Hand nehmen." """
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
    """Seed 000, l. 130-132 ("Belohnung erhalten"): "In Ombra erhält ein Spieler, der dort alleine
    ist, 3 Erfahrungsplättchen "Ehre" aus dem Vorrat und 1 Vorteilskarte vom Stapel. Befindet sich
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
    """Seed 000, l. 126: "Die untere Zeile mit zwei Figuren gilt, wenn sich zwei oder mehr Figuren
    (andere Spieler und/oder Staubfinger) dort aufhalten." Staubfinger starts at the camp."""
    state = new_game(["hof", "grenze"])
    arrange(state, 0, provisions=0)
    play(state, "lager")
    # Shared row of the camp [design]: 1 Ehre + 1 provision.
    assert tiles_of(state, 0) == "E"
    assert public(state)["provisions"][0] == 1


def test_moving_staubfinger_costs_one_provision_per_step_from_the_first() -> None:
    """Seed 000, l. 156-157 ("Staubfinger bewegen"): "Gegen Abgabe von Proviant darf der Spieler
    zusätzlich Staubfinger bewegen ... für jeden Ort, den Staubfinger weiterzieht, 1 Proviant
    abgeben - also auch schon für den ersten Ort." """
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
    """Seed 000, l. 158: "Staubfinger darf als einzige Figur den geheimen Pfad zwischen den beiden
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
    """Seed 000, l. 51-71 and 76: a limited supply; rules file "Supply (limited)" [design]: "a
    reward the supply cannot cover is paid only as far as it goes." """
    state = new_game(["hof", "grenze"])
    arrange(state, 1, tiles="E" * 17)
    arrange(state, 0, provisions=0)
    play(state, "ombra")  # solo: 3 Ehre, but one is left
    assert tiles_of(state, 0) == "E"
    assert public(state)["supply"]["E"] == 0


def test_the_figure_counts_as_one_and_legal_actions_stay_exact() -> None:
    """Seed 000, l. 110: the turn begins with a location card (or a pass, l. 106): every action
    offered applies, and one that is not offered is refused."""
    state = new_game(["hof", "grenze"])
    for action in legal(state):
        copy = state.clone()
        copy.apply(action)
    with pytest.raises(spielwerk.IllegalAction):
        state.apply({"type": "end_turn"})


def test_journey_costs_are_the_shortest_roads_less_one() -> None:
    """Seed 000, l. 112: "Für den ersten Ort auf seiner Reiseroute benötigt der Spieler keinen
    Proviant. Für jeden weiteren Ort muss er 1 Proviant abgeben." Every pair of locations,
    against a breadth-first search over the data file's roads (the secret path is
    Staubfinger's alone, l. 158)."""
    roads = {(a, b) for a, b in ROADS} | {(b, a) for a, b in ROADS}
    for start in LOCATIONS:
        steps = {start: 0}
        frontier = [start]
        while frontier:
            here = frontier.pop(0)
            for a, b in roads:
                if a == here and b not in steps:
                    steps[b] = steps[here] + 1
                    frontier.append(b)
        for target in LOCATIONS:
            expected = max(0, steps[target] - 1)
            assert journey_cost(location(start), location(target)) == expected, (start, target)


def test_playing_the_card_of_the_current_location_stays_and_is_free() -> None:
    """Rules file "A turn" 3 [design]: "Playing the card of the current location is allowed
    (distance 0, cost 0)"; the reward is taken there again."""
    state = new_game(["hof", "grenze"])
    arrange(state, 0, provisions=0)
    assert {"type": "play", "card": "hof"} in legal(state)
    play(state, "hof")  # alone at Roxanes Hof: 2 Ehre + 1 provision, taken at once
    assert public(state)["positions"][0] == "hof"
    assert tiles_of(state, 0) == "EE"
    assert public(state)["provisions"][0] == 1


def test_an_empty_advantage_deck_gives_no_card() -> None:
    """Rules file "Map" [design]: "An empty advantage deck gives no card." Ombra alone: 3 Ehre
    and an advantage card (seed 000, l. 130); with the deck used up only the tiles."""
    state = new_game(["hof", "grenze"])
    everything = [
        key
        for key, count in zip(PARAMS.advantage_keys, PARAMS.advantage_counts, strict=True)
        for _ in range(count)
    ]
    arrange(state, 1, advantage=everything)
    arrange(state, 0, provisions=0)
    assert public(state)["advantage_deck"] == 0
    play(state, "ombra")
    assert tiles_of(state, 0) == "EEE"
    assert public(state)["phase"] == "exchange_convert"  # no draw: straight on to the exchange
    assert public(state)["advantage_counts"] == [0, 27]


def test_the_supply_and_the_start_are_the_rulebooks() -> None:
    """Rules file "Supply (limited)" [seed]: "72 experience tiles: 18 each of Mut (M), Stärke
    (S), Klugheit (K), Ehre (E); 32 provisions (P). ... Every player starts with 2 provisions."
    Setup [seed]: Staubfinger starts at das geheime Lager."""
    state = new_game(["grenze", "hof", "muehle"])
    view = public(state)
    assert view["provisions"] == [2, 2, 2]
    assert view["supply"] == {"M": 18, "S": 18, "K": 18, "E": 18, "P": 32 - 3 * 2}
    assert view["staubfinger"] == "lager"


def test_the_map_rewards_roads_cards_and_villains_are_the_rules_files_tables() -> None:
    """Rules file "Map", "Location cards" and "Villain cards": the reward rows of the nine
    locations, the roads and the secret path, the villain numbers `4*i + ((i + p) mod 4) + 1`
    (Die Tintenwelt `37 + p`, all 40 different) and the 15 villain cards with their tiers and
    values. The data file (data.toml) holds them; this pins it to the tables."""
    from spielwerk.games.inkspell.params import PARAMS

    rows = {
        "ombra": ("3E+1V", "2M+1P"),
        "festung": ("3S+1V", "2K+1P"),
        "nachtburg": ("3M+1V", "2S+1P"),
        "lager": ("2K+1P", "1E+1P"),
        "spielleute": ("2P+1M", "1M+1S"),
        "siechenhaus": ("2K+1E", "2P"),
        "grenze": ("3P", "1S+1P"),
        "muehle": ("2S+1P", "1K+2P"),
        "hof": ("2E+1P", "1M+1V"),
    }

    def text(reward: tuple[tuple[str, int], ...]) -> str:
        return "+".join(f"{n}{kind}" for kind, n in reward)

    keys = PARAMS.location_keys
    assert {k: (text(PARAMS.solo[i]), text(PARAMS.shared[i])) for i, k in enumerate(keys)} == rows
    roads = {
        frozenset((keys[a], keys[b])) for a, near in enumerate(PARAMS.neighbours) for b in near
    }
    assert roads == {
        frozenset(pair.split("-"))
        for pair in [
            "grenze-nachtburg",
            "grenze-hof",
            "hof-ombra",
            "hof-lager",
            "ombra-spielleute",
            "ombra-siechenhaus",
            "spielleute-lager",
            "lager-festung",
            "festung-nachtburg",
            "festung-muehle",
            "nachtburg-siechenhaus",
            "siechenhaus-muehle",
        ]
    }
    secret = {
        frozenset((keys[a], keys[b]))
        for a, near in enumerate(PARAMS.secret_neighbours)
        for b in near
    }
    assert secret == {frozenset(("grenze", "spielleute"))}
    for p in range(4):
        numbers = [4 * i + ((i + p) % 4) + 1 for i in range(9)] + [37 + p]
        assert list(PARAMS.location_numbers[p]) == numbers
    assert len({n for row in PARAMS.location_numbers for n in row}) == 40
    villains = list(
        zip(PARAMS.villain_tiers, PARAMS.villain_names, PARAMS.villain_values, strict=True)
    )
    assert villains == [
        (1, "Der Schlitzer", 2),
        (1, "Der Rußvogel", 2),
        (1, "Gecko", 1),
        (1, "Natternkopf", 1),
        (1, "Natternkopf", 2),
        (2, "Basta", 3),
        (2, "Der Pfeifer", 3),
        (2, "Flachnase", 3),
        (2, "Natternkopf", 2),
        (2, "Natternkopf", 3),
        (3, "Mortola", 4),
        (3, "Der Brandfuchs", 4),
        (3, "Schattenreiter", 5),
        (3, "Gewölbewächter", 5),
        (3, "Natternkopf", 4),
    ]
    assert len(PARAMS.natternkopf) == 5
