"""Tintenblut: advantage cards, the Nachtburg, the castle exchange, conversions and the special
spaces of the victory track, on exact positions.

Rulebook: shared/seeds/000_24e597bafe34400f.txt ("Seed 000", German; each docstring cites and
quotes its lines).
Gaps settled in shared/rules/inkspell.md (cited by section).
"""

from __future__ import annotations

import pytest
from inkspell_table import (
    KINDS,
    arrange,
    convert,
    draw_advantage,
    draw_villain,
    exchange,
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
    use,
)

import spielwerk


def advantage_actions(state: spielwerk.State) -> list[dict[str, object]]:
    return legal_of_type(state, "advantage")


# ------------------------------------------------------------------------------------ advantage
def test_only_one_advantage_card_per_turn() -> None:
    """Seed 000, l. 147 ("Eine Vorteilskarte einsetzen"), l. 150: "Ein Spieler darf in seinem
    Spielzug nur eine Vorteilskarte einsetzen, auch wenn er mehrere besitzt." """
    state = new_game(["hof", "muehle"])
    arrange(state, 0, advantage=["nessel", "fenoglio"])
    play(state, "grenze")
    assert {a["card"] for a in advantage_actions(state)} == {"nessel", "fenoglio"}
    use(state, "nessel")
    assert advantage_actions(state) == []
    assert public(state)["provisions"][0] == 2 + 2  # Die Nessel: 2 provisions [design]
    assert public(state)["advantage_used"] == ["nessel"]  # out of the game
    assert state.view(0)["advantage"] == ["fenoglio"]


def test_a_card_drawn_this_turn_waits_for_the_next_turn() -> None:
    """Seed 000, l. 148: "Diese Vorteilskarte muss er bereits zu Beginn seines Zuges auf der Hand
    haben. Eine Vorteilskarte, die er erst am Zielort bekommt, darf er erst in der nächsten
    Runde spielen." """
    state = new_game(["hof", "muehle"])
    play(state, "ombra")  # alone: 3 Ehre and an advantage card
    reward(state, "solo")
    draw_advantage(state, "nessel")
    assert state.view(0)["advantage"] == ["nessel"]
    assert state.view(0)["playable_advantage"] == []
    settle(state)
    pass_turn(state)
    settle(state)
    assert public(state)["to_move"] == 0
    assert state.view(0)["playable_advantage"] == ["nessel"]
    play(state, "spielleute")
    assert {"type": "advantage", "card": "nessel"} in legal(state)


def test_der_schwarze_prinz_is_played_before_moving_and_makes_the_journey_free() -> None:
    """Seed 000, l. 149: "Die Vorteilskarte setzt der Spieler nach seiner Bewegung ein ... Ausnahme:
    Die Vorteilskarte "Der Schwarze Prinz" wird vor der Bewegung ausgespielt." Rules file:
    "this turn's journey costs no provisions"."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, provisions=0, advantage=["prinz", "nessel"])
    plays = {a["card"] for a in legal_of_type(state, "play")}
    assert "muehle" not in plays
    # Before moving only Der Schwarze Prinz; Die Nessel cannot pay the journey [seed].
    assert advantage_actions(state) == [{"type": "advantage", "card": "prinz"}]
    use(state, "prinz")
    assert "muehle" in {a["card"] for a in legal_of_type(state, "play")}
    assert {"type": "pass"} not in legal(state)  # passing is the turn's only action [seed]
    play(state, "muehle")
    assert public(state)["positions"][0] == "muehle"
    assert tiles_of(state, 0) == "SS"  # alone at the mill, taken at once (nothing else left)


def test_der_schwarze_prinz_is_not_offered_after_moving() -> None:
    state = new_game(["grenze", "hof"])
    arrange(state, 0, advantage=["prinz"])
    play(state, "nachtburg")
    assert advantage_actions(state) == []


def test_meggie_mo_and_resa_cannot_be_used() -> None:
    """Seed 000, l. 141: "Einige Vorteilskarten bringen während des Spiels keinen Vorteil. Sie sind
    am Ende jedoch 3 Siegpunkte wert." """
    state = new_game(["grenze", "hof"])
    arrange(state, 0, advantage=["meggie", "mo", "resa"])
    assert advantage_actions(state) == []
    play(state, "nachtburg")
    assert advantage_actions(state) == []


def test_schleierkauz_gives_a_provision_and_a_tile_of_choice() -> None:
    """Seed 000, l. 121 and 139 name Schleierkauz; its effect is the rules file's [design]:
    "take 1 provision and 1 experience tile of your choice"."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, advantage=["schleierkauz"])
    play(state, "nachtburg")
    assert {a["tile"] for a in advantage_actions(state)} == {"M", "S", "K", "E"}
    use(state, "schleierkauz", tile="K")
    assert tiles_of(state, 0) == "K"
    assert public(state)["provisions"][0] == 3


def test_fenoglio_gives_two_tiles_of_two_kinds() -> None:
    """Seed 000, l. 139: a one-time advantage; rules file [design]: Fenoglio "take 2 experience
    tiles of two different kinds"."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, advantage=["fenoglio"])
    play(state, "nachtburg")
    assert sorted(str(a["tiles"]) for a in advantage_actions(state)) == sorted(
        ["MS", "MK", "ME", "SK", "SE", "KE"]
    )
    use(state, "fenoglio", tiles="SE")
    assert tiles_of(state, 0) == "SE"


def test_fenoglio_offers_only_the_pairs_the_supply_can_serve() -> None:
    """Rules file [design]: a tile "of your choice" (Fenoglio's two kinds) is offered only of
    kinds the supply still holds. With every Erfahrung tile before seat 1, Fenoglio offers the
    three pairs without it."""
    state = new_game(["grenze", "hof"])
    arrange(state, 1, tiles="E" * state.supply_tiles[KINDS.index("E")])
    arrange(state, 0, advantage=["fenoglio"])
    play(state, "nachtburg")
    assert sorted(str(a["tiles"]) for a in advantage_actions(state)) == ["MK", "MS", "SK"]


def test_farid_moves_staubfinger_anywhere_for_free() -> None:
    """Seed 000, l. 139: a one-time advantage; rules file [design]: Farid "move Staubfinger to any
    location for free"; Staubfinger is company, so the lower reward row applies."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, advantage=["farid"])
    play(state, "muehle")
    assert legal_of_type(state, "reward") == [{"type": "reward", "row": "solo", "take": "all"}]
    targets = {a["to"] for a in advantage_actions(state)}
    assert "lager" not in targets and len(targets) == 8  # anywhere but where he stands
    use(state, "farid", to="muehle")
    assert public(state)["staubfinger"] == "muehle"
    # The journey cost both provisions, Farid nothing; with nothing else left to do the
    # shared reward is taken at once: the mill's [design] 1 Klugheit + 2 provisions.
    assert tiles_of(state, 0) == "K"
    assert public(state)["provisions"][0] == 2


def test_roxane_chooses_the_reward_row() -> None:
    """Seed 000, l. 139: a one-time advantage; rules file [design]: Roxane "choose which reward row
    (solo or shared) you receive this turn"."""
    state = new_game(["grenze", "ombra"])
    arrange(state, 0, provisions=3, advantage=["roxane"])
    play(state, "ombra")  # seat 1 is there: the shared row
    assert legal_of_type(state, "reward") == [{"type": "reward", "row": "shared", "take": "all"}]
    use(state, "roxane", row="solo")
    assert legal_of_type(state, "reward") == [{"type": "reward", "row": "solo", "take": "all"}]
    reward(state, "solo")
    draw_advantage(state, "mo")
    assert tiles_of(state, 0) == "EEE"


def test_orpheus_discards_one_of_your_villain_cards() -> None:
    """Seed 000, l. 139: a one-time advantage; rules file [design]: Orpheus "put one villain card
    lying in front of you on the villain discard pile"."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, villains=["basta", "mortola"], advantage=["orpheus"])
    play(state, "muehle")
    assert {a["villain"] for a in advantage_actions(state)} == {"basta", "mortola"}
    use(state, "orpheus", villain="mortola")
    assert public(state)["villains"][0] == ["basta"]
    assert public(state)["villain_discard"] == ["mortola"]


def test_speckfuerst_allows_the_exchange_anywhere_and_one_to_one_in_a_castle() -> None:
    """Seed 000, l. 173: "Die Vorteilskarte "Der Speckfürst" ermöglicht einen 2:1-Tausch auch an
    anderen Orten und in einer Burg darf damit sogar 1:1 getauscht werden." """
    state = new_game(["grenze", "muehle"])
    arrange(state, 0, tiles="MK", advantage=["speckfuerst"])
    play(state, "hof")  # no castle
    use(state, "speckfuerst")
    reward(state, "solo")  # 2 Ehre + 1 provision
    exchanges = legal_of_type(state, "exchange")
    assert {"type": "exchange", "give": "PP", "get": "S"} in exchanges
    assert {"type": "exchange", "give": "MK", "get": "P"} in exchanges
    assert all(len(str(a["give"])) == 2 for a in exchanges)  # 2:1 outside a castle
    exchange(state, "PP", "S")
    assert legal_of_type(state, "exchange") == []  # once per turn [seed]
    assert tiles_of(state, 0) == "MSKEE"

    state = new_game(["grenze", "muehle"])
    arrange(state, 0, provisions=1, tiles="M", advantage=["speckfuerst"])
    play(state, "nachtburg")  # a castle (alone there: a villain card too)
    use(state, "speckfuerst")
    reward(state, "solo")
    draw_advantage(state, "meggie")
    draw_villain(state, "gecko")
    exchanges = legal_of_type(state, "exchange")
    assert {"type": "exchange", "give": "P", "get": "E"} in exchanges
    assert {"type": "exchange", "give": "M", "get": "P"} in exchanges
    assert all(len(str(a["give"])) == 1 for a in exchanges)
    exchange(state, "P", "E")
    assert tiles_of(state, 0) == "MMMME"


# ------------------------------------------------------------------------------------ Nachtburg
def test_alone_in_the_nachtburg_draws_a_villain_card_at_once() -> None:
    """Seed 000, l. 162 ("Alleine in der Nachtburg"): "Endet der Zug eines Spielers in der
    "Nachtburg" und er befindet sich dort alleine, muss er sofort eine Bösewichtkarte vom Stapel
    ziehen und offen vor sich ablegen." The deck's top tier is I [seed]."""
    state = new_game(["grenze", "hof"])
    play(state, "nachtburg")
    reward(state, "solo")
    draw_advantage(state, "mo")
    assert public(state)["phase"] == "villain"
    outcomes = state.chance_outcomes()
    assert {a.to_json()["card"] for a, _ in outcomes} == {
        "schlitzer",
        "russvogel",
        "gecko",
        "natternkopf-I1",
        "natternkopf-I2",
    }
    assert all(p == pytest.approx(0.2) for _, p in outcomes)
    draw_villain(state, "gecko")
    assert public(state)["villains"][0] == ["gecko"]
    assert public(state)["villain_deck"] == [4, 5, 5]


def test_staubfinger_in_the_nachtburg_keeps_the_villains_away() -> None:
    """Seed 000, l. 162 ("alleine") with l. 126 (Staubfinger is a figure that makes company);
    rules file "A turn" 6 [design]: "Staubfinger counts as company"."""
    state = new_game(["grenze", "hof"])
    play(state, "nachtburg")
    staubfinger(state, "festung")
    staubfinger(state, "nachtburg")
    # no provision left: the shared reward is taken at once, and no villain card comes
    assert public(state)["villains"][0] == []
    assert tiles_of(state, 0) == "SS"


def test_passing_in_the_nachtburg_draws_nothing() -> None:
    """Seed 000, l. 162 speaks of a turn that ends in the Nachtburg; l. 205 makes passing the turn's
    only action. Rules file [design]: "A player who passes while alone at the Nachtburg draws
    nothing." """
    state = new_game(["nachtburg", "hof"])
    pass_turn(state)
    assert public(state)["villains"][0] == []
    assert public(state)["to_move"] == 1


# ------------------------------------------------------------------------------------ exchange
def test_the_castle_exchange_once_two_for_one() -> None:
    """Seed 000, l. 171-172 ("In einer Burg einmal 2 : 1 tauschen"): "darf er einmal 2 Proviant in 1
    beliebiges Erfahrungsplättchen tauschen oder 2 beliebige (gleiche oder verschiedene)
    Erfahrungsplättchen in 1 Proviant. Es ist nicht erlaubt, Erfahrungsplättchen gegen andere
    Erfahrungsplättchen zu tauschen." """
    state = new_game(["grenze", "ombra"])
    arrange(state, 0, tiles="K")
    play(state, "ombra")  # shared: 2 Mut + 1 provision
    reward(state, "shared")
    exchanges = {(a["give"], a["get"]) for a in legal_of_type(state, "exchange")}
    assert exchanges == {
        ("PP", "M"),
        ("PP", "S"),
        ("PP", "K"),
        ("PP", "E"),
        ("MM", "P"),
        ("MK", "P"),
    }
    exchange(state, "MK", "P")
    assert tiles_of(state, 0) == "M"
    assert public(state)["provisions"][0] == 2 - 1 + 1 + 1  # journey 1, reward 1, exchange 1
    assert legal_of_type(state, "exchange") == []


@pytest.mark.parametrize("kind", ["M", "S", "K", "E"])
def test_two_provisions_buy_one_tile_of_every_kind(kind: str) -> None:
    """Seed 000, l. 171-172: "darf er einmal 2 Proviant in 1 beliebiges Erfahrungsplättchen
    tauschen"; rules file "A turn" 7: "2 provisions -> 1 experience tile of choice". Each of
    the four kinds: the seat pays 2 provisions and gets exactly that tile from the supply."""
    state = new_game(["grenze", "ombra"])
    arrange(state, 0, provisions=4)
    play(state, "ombra")  # the journey costs 1; shared row: 2 Mut + 1 provision
    reward(state, "shared")
    before = public(state)
    exchange(state, "PP", kind)
    after = public(state)
    assert after["provisions"][0] == before["provisions"][0] - 2
    gained = {k: after["tiles"][0][k] - before["tiles"][0][k] for k in "MSKE"}
    assert gained == {k: int(k == kind) for k in "MSKE"}
    assert after["supply"][kind] == before["supply"][kind] - 1
    assert after["supply"]["P"] == before["supply"]["P"] + 2


def test_the_turn_ends_by_itself_after_an_exchange_when_nothing_is_left_to_do() -> None:
    """Rules file "A turn" 7-8: one exchange, then conversions; state.py `_settle_after`: with
    no exchange left and no set of different kinds to convert, the turn ends by itself (no
    `end_turn` to press). Seat 0 sells Mut and Klugheit for a provision in Ombra and keeps one
    Mut: seat 1 is to move at once."""
    state = new_game(["grenze", "ombra"])
    arrange(state, 0, tiles="K")
    play(state, "ombra")
    reward(state, "shared")  # 2 Mut + 1 provision: tiles M, M, K
    assert legal_of_type(state, "end_turn")
    exchange(state, "MK", "P")
    view = public(state)
    assert view["to_move"] == 1 and view["current"] == 1
    assert tiles_of(state, 0) == "M"


def test_no_exchange_outside_a_castle() -> None:
    """Seed 000, l. 173: "Ein Tausch an einem anderen Ort als in einer Burg ist nicht möglich." """
    state = new_game(["grenze", "muehle"])
    arrange(state, 0, tiles="MS")
    play(state, "hof")
    reward(state, "solo")
    assert legal_of_type(state, "exchange") == []


# ------------------------------------------------------------------------------------ conversion
def test_rulebook_conversion_example_with_seven_tiles() -> None:
    """Seed 000, l. 184-192: "Spieler Blau befindet sich in Ombra ... besitzt diese sieben
    Erfahrungsplättchen ... Er gibt eine 4er-Kombination ab und zieht 7 Felder vor. Er könnte
    auch noch eine 3er-Kombination abgeben ... Da er aber in einem Spielzug nicht über das rote
    und das blaue Sonderfeld ziehen kann und keine Punkte verfallen lassen darf, wandelt er mit
    noch eine 2er-Kombination um = 2 Felder. Somit hat er ein Erfahrungsplättchen übrig." """
    state = new_game(["ombra", "grenze"], flips=[[], []])
    blue = 0
    arrange(state, blue, tiles="SSKEE", score=8, position="hof")
    arrange(state, 1, position="ombra")
    play(state, "ombra")  # shared: 2 Mut + 1 provision -> seven tiles MMSSKEE
    reward(state, "shared")
    assert tiles_of(state, blue) == "MMSSKEE"
    convert(state, "MSKE")  # crosses the red space 9: allowed in a castle
    assert public(state)["scores"][blue] == 15
    converts = {a["tiles"] for a in legal_of_type(state, "convert")}
    assert converts == {"MS", "ME", "SE"}  # every 3-set would enter the blue space 19
    convert(state, "MS")
    assert public(state)["scores"][blue] == 17
    assert tiles_of(state, blue) == "E"
    assert public(state)["phase"] == "choose_card"  # nothing left to do: the turn ended


def test_each_set_size_once_per_turn_and_its_steps() -> None:
    """Seed 000, l. 177-182: "2 verschiedene Erfahrungsplättchen: 2 Felder vor; 3 verschiedene: 4
    Felder vor; 4 verschiedene: 7 Felder vor." "Zweimal die gleiche Anzahl Erfahrungsplättchen
    abzugeben, ist aber nicht erlaubt." """
    state = new_game(["grenze", "ombra"])
    arrange(state, 0, tiles="MMMSSSKKEE")
    play(state, "ombra")
    reward(state, "shared")  # + 2 Mut + 1 provision
    convert(state, "MS")
    assert public(state)["scores"][0] == 2
    assert {len(str(a["tiles"])) for a in legal_of_type(state, "convert")} == {3, 4}
    convert(state, "MSKE")
    assert public(state)["scores"][0] == 9  # onto the red space: allowed in a castle
    assert {len(str(a["tiles"])) for a in legal_of_type(state, "convert")} == {3}
    convert(state, "MSK")
    assert public(state)["scores"][0] == 13
    assert tiles_of(state, 0) == "MME"  # a 2-set is left, but that size is used up
    assert public(state)["phase"] == "choose_card"  # so the turn ended by itself


def test_special_spaces_need_the_matching_locations_on_every_lap() -> None:
    """Seed 000, l. 196-201 ("Die Sonderfelder") and 258: "dürfen mit dem Siegpunktstein nur
    betreten oder überquert werden, wenn sich die Spielfigur des Spielers zu diesem Zeitpunkt an
    einem zugehörigen Ort auf dem Spielplan befindet." Rules file: special spaces "on every lap
    (score mod 40)"; "Zieht ein Spieler dabei mit seinem Siegpunktstein über das Startfeld hinaus,
    ... Auch hierbei müssen wieder die Sonderfelder beachtet werden." """
    state = new_game(["grenze", "hof"])
    arrange(state, 0, tiles="MSKE", score=45)  # lap 2, space 5: 7 steps would cross 49 = 9
    play(state, "grenze")
    reward(state, "solo")
    # 45 + 4 = 49 and 45 + 7 = 52 enter or cross 49, the red space of lap 2: only 2-sets.
    assert {a["tiles"] for a in legal_of_type(state, "convert")} == {
        "MS",
        "MK",
        "ME",
        "SK",
        "SE",
        "KE",
    }
    # Blue (19) from the blue locations only; green (30) from the green ones.
    state = new_game(["spielleute", "hof"])
    arrange(state, 0, tiles="MSKE", score=15)
    play(state, "spielleute")
    reward(state, "solo")
    assert {len(str(a["tiles"])) for a in legal_of_type(state, "convert")} == {2, 3, 4}
    state = new_game(["lager", "grenze"])
    arrange(state, 0, tiles="MSKE", score=26)
    play(state, "lager")
    reward(state, "shared")
    assert {len(str(a["tiles"])) for a in legal_of_type(state, "convert")} == {2}  # not to 30
    state = new_game(["grenze", "lager"])
    arrange(state, 0, tiles="MSKE", score=26)
    play(state, "grenze")
    reward(state, "solo")
    assert {len(str(a["tiles"])) for a in legal_of_type(state, "convert")} == {2, 3, 4}


def test_conversions_and_exchange_come_after_the_reward() -> None:
    """Seed 000, l. 98-102 ("Überblick"): the three phases in order - play a card and take the
    reward, the castle exchange, converting. Converting first closes the exchange [design]."""
    state = new_game(["grenze", "ombra"])
    arrange(state, 0, tiles="MSKE")
    play(state, "ombra")
    assert legal_of_type(state, "convert") == []
    reward(state, "shared")
    assert legal_of_type(state, "exchange")
    convert(state, "MSKE")
    assert legal_of_type(state, "exchange") == []


def test_advantage_cards_are_used_after_moving_and_before_the_reward() -> None:
    """Seed 000, l. 149: "Die Vorteilskarte setzt der Spieler nach seiner Bewegung ein, nachdem
    er an seinem Zielort angekommen ist." Rules file "A turn" 4-5 [design]: Staubfinger and the
    advantage card come before the reward row is taken; after it, neither is offered."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, tiles="MS", provisions=3, advantage=["nessel", "fenoglio"])
    assert advantage_actions(state) == []  # before moving: nothing but Der Schwarze Prinz
    play(state, "nachtburg")
    assert {a["card"] for a in advantage_actions(state)} == {"nessel", "fenoglio"}
    assert legal_of_type(state, "staubfinger")
    staubfinger(state, "festung")
    staubfinger(state, "nachtburg")  # company: no villain card
    reward(state, "shared")  # 2 Stärke + 1 provision
    assert public(state)["phase"] == "exchange_convert"
    assert advantage_actions(state) == [] and legal_of_type(state, "staubfinger") == []


def test_die_nessel_may_pay_staubfinger_but_not_the_journey() -> None:
    """Seed 000, l. 121: "Es ist auch nicht erlaubt, die Vorteilskarten "Die Nessel" oder
    "Schleierkauz" für die Abgabe des benötigten Proviant einzusetzen." Only the journey is
    excluded: provisions from Die Nessel pay Staubfinger's steps (l. 156-157)."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, provisions=0, advantage=["nessel"])
    assert "muehle" not in {a["card"] for a in legal_of_type(state, "play")}
    play(state, "nachtburg")
    assert legal_of_type(state, "staubfinger") == []  # no provision
    use(state, "nessel")
    assert public(state)["provisions"][0] == 2
    staubfinger(state, "festung")
    staubfinger(state, "nachtburg")
    assert public(state)["staubfinger"] == "nachtburg"
    assert tiles_of(state, 0) == "SS"  # the shared row, taken at once with nothing left


def test_orpheus_is_offered_only_with_a_villain_card_to_discard() -> None:
    """Rules file "Advantage cards": Orpheus "put one villain card lying in front of you on the
    villain discard pile": without one it has no use (seed 000, l. 139-140: unused, it scores
    1 at the end)."""
    state = new_game(["grenze", "hof"])
    arrange(state, 0, advantage=["orpheus"])
    play(state, "nachtburg")
    assert advantage_actions(state) == []


def test_the_exchange_takes_only_what_the_supply_holds() -> None:
    """Rules file "Supply (limited)" [design]: components are finite; the castle exchange buys a
    tile only of a kind the supply still holds (seed 000, l. 171)."""
    state = new_game(["grenze", "ombra"])
    arrange(state, 1, tiles="K" * 18)
    arrange(state, 0, provisions=3)
    play(state, "ombra")  # 1 provision; shared row: 2 Mut + 1 provision
    reward(state, "shared")
    buys = {a["get"] for a in legal_of_type(state, "exchange") if a["give"] == "PP"}
    assert buys == {"M", "S", "E"}
