"""Tintenblut: the end of a round (villain cards, the Natternkopf, the new start player), the
White Women and the end of the game, on exact positions.

Rulebook: shared/seeds/000_24e597bafe34400f.txt ("Seed 000", German; each docstring cites and
quotes its lines).
Gaps settled in shared/rules/inkspell.md (cited by section).
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from inkspell_table import (
    arrange,
    convert,
    draw_advantage,
    draw_villain,
    end_turn,
    legal,
    legal_of_type,
    lose,
    new_game,
    pass_turn,
    play,
    public,
    reward,
    settle,
    start,
    tiles_of,
    use,
)

import spielwerk
from spielwerk.core.conformance import play_on, random_step

RED, BLUE, YELLOW = 0, 1, 2


# ------------------------------------------------------------------------------------ villains
def test_rulebook_natternkopf_example() -> None:
    """Seed 000, l. 226 ("Beispiel für eine Natternkopf-Begegnung"), rules l. 213-216: "Spieler Rot
    hat Basta (Wert 3) und den Pfeifer (Wert 3) vor sich liegen. Spieler Blau hat Mortola (Wert 4)
    und den Brandfuchs (Wert 4) ... Spieler Gelb ... den Schlitzer (Wert 2) und den Rußvogel (Wert
    2). Spieler Rot hatte in der Runde die Ortskarte mit der höchsten Bösewichtzahl gespielt und
    muss daher die oberste Bösewichtkarte ziehen. Es ist der Natternkopf (Wert 2). Somit hat er
    ebenso wie Spieler Blau einen Gesamtwert von 8. Rot und Blau müssen nun beide jeweils die Hälfte
    ihres Proviantes und die Hälfte ihrer Erfahrungsplättchen zum Vorrat zurücklegen. Immerhin
    dürfen sie ihre Bösewichtkarten jetzt auf den Ablagestapel legen. Spieler Gelb ist noch einmal
    davongekommen." Losses are rounded up against the players, who choose the tiles."""
    state = new_game(["lager", "grenze", "muehle"])
    arrange(state, RED, tiles="MKE", provisions=3, villains=["basta", "pfeifer"])
    arrange(state, BLUE, tiles="MSSK", provisions=2, villains=["mortola", "brandfuchs"])
    arrange(state, YELLOW, tiles="EE", provisions=4, villains=["schlitzer", "russvogel"])
    play(state, "festung")  # Rot: villain number 32, the highest this round
    reward(state, "solo")  # 3 Stärke + an advantage card
    draw_advantage(state, "mo")
    end_turn(state)
    pass_turn(state)  # Blau
    pass_turn(state)  # Gelb
    assert public(state)["phase"] == "villain"
    assert {a.to_json()["card"] for a in state.legal_actions()} == {
        "gecko",
        "natternkopf-I1",
        "natternkopf-I2",
    }
    draw_villain(state, "natternkopf-I2")
    view = public(state)
    assert view["villain_sums"] == [0, 0, 4]
    assert view["villains"] == [[], [], ["schlitzer", "russvogel"]]  # Gelb keeps his cards
    assert set(view["villain_discard"]) == {
        "basta",
        "pfeifer",
        "natternkopf-I2",
        "mortola",
        "brandfuchs",
    }
    # Provisions: Rot 3 -> loses 2, Blau 2 -> loses 1.
    assert view["provisions"] == [1, 1, 4]
    # Rot holds six tiles (M S S S K E) and gives up three, choosing which.
    assert view["phase"] == "natternkopf_loss" and view["to_move"] == RED
    assert view["natternkopf_losses"] == [{"seat": 0, "tiles": 3}, {"seat": 1, "tiles": 2}]
    lose(state, "S", "S", "K")
    assert tiles_of(state, RED) == "MSE"
    assert public(state)["to_move"] == BLUE
    assert {a["tile"] for a in legal(state)} == {"M", "S", "K"}
    lose(state, "S", "S")
    assert tiles_of(state, BLUE) == "MK"
    assert tiles_of(state, YELLOW) == "EE"
    assert public(state)["phase"] == "start_choice" and public(state)["to_move"] == RED


def test_a_natternkopf_loss_with_no_choice_is_taken_at_once() -> None:
    """Seed 000, l. 213: "Bei einer ungeraden Anzahl muss der Spieler den Verlust zu seinen
    Ungunsten aufrunden." Half of 2 tiles of one kind is 1: nothing to choose, so no decision is
    asked for; half of 1 provision is 1 (rounded up against the player)."""
    state = new_game(["lager", "grenze"])
    arrange(state, 0, provisions=0, villains=["basta"])
    play(state, "hof")  # free; solo at Roxanes Hof: 2 Ehre + 1 provision, taken at once
    assert tiles_of(state, 0) == "EE"
    pass_turn(state)
    draw_villain(state, "natternkopf-I1")
    assert public(state)["phase"] == "start_choice"
    assert tiles_of(state, 0) == "E"
    assert public(state)["provisions"][0] == 0


def test_the_highest_last_played_card_draws_and_a_passers_old_card_counts() -> None:
    """Seed 000, l. 211 and 206: "Der Spieler mit der höchsten Zahl auf seiner zuletzt ausgespielten
    Ortskarte zieht die oberste Karte vom Stapel der Bösewichtkarten und legt sie offen vor sich
    aus." "Für die Ermittlung des Spielers, der die Bösewichtkarte aufnehmen muss, zählt dann die
    oben liegende Ortskarte aus seiner vorherigen Runde." Numbers [design]: seat 0 Roxanes Hof 11;
    seat 1 Mäusemühle 7, Gasthaus an der Grenze 2, Das geheime Lager 13."""
    state = new_game(["grenze", "festung"])
    play(state, "hof")
    settle(state)
    play(state, "muehle")
    settle(state)
    assert public(state)["last_played"] == [11, 7]
    assert public(state)["villains"][0] and not public(state)["villains"][1]
    # Round 2: seat 0 passes (its Roxanes Hof, 11, still counts), seat 1 plays 2.
    pass_turn(state)
    play(state, "grenze")
    settle(state)
    assert len(public(state)["villains"][0]) == 2 and not public(state)["villains"][1]
    # Round 3: seat 1 plays Das geheime Lager, 13 > 11.
    pass_turn(state)
    play(state, "lager")
    settle(state)
    assert len(public(state)["villains"][1]) == 1


def test_nobody_draws_when_nobody_has_played() -> None:
    """Seed 000, l. 210-211 leave open who draws when nobody has played a card; rules file "End of a
    round" [design]: "if all count 0 (everyone passed in round 1), nobody draws and the start marker
    stays"."""
    state = new_game(["grenze", "hof", "muehle"])
    for _ in range(3):
        pass_turn(state)
    view = public(state)
    assert view["round"] == 2 and view["to_move"] == 0 and view["start_player"] == 0
    assert view["villain_deck"] == [5, 5, 5]


def test_the_drawer_chooses_to_start_or_to_be_last() -> None:
    """Seed 000, l. 232-234 ("Neuer Startspieler"): "Der Spieler, der am Ende der Runde die
    Bösewichtkarte nehmen musste, bestimmt, ob er in der nächsten Runde anfangen oder letzter
    Spieler sein möchte. Das Startspielerzeichen erhält also entweder er selbst oder sein linker
    Nachbar." """
    state = new_game(["grenze", "hof", "muehle"])
    pass_turn(state)
    play(state, "lager")  # seat 1: 13
    settle(state)
    pass_turn(state)
    draw_villain(state, "gecko")
    assert public(state)["phase"] == "start_choice" and public(state)["to_move"] == 1
    assert legal(state) == [
        {"type": "start", "choice": "lead"},
        {"type": "start", "choice": "last"},
    ]
    start(state, "last")
    assert public(state)["start_player"] == 2 and public(state)["to_move"] == 2
    pass_turn(state)
    pass_turn(state)
    pass_turn(state)
    draw_villain(state, "schlitzer")  # seat 1's 13 still counts
    start(state, "lead")
    assert public(state)["start_player"] == 1 and public(state)["to_move"] == 1


def test_an_empty_villain_deck_is_rebuilt_without_the_tier_one_cards() -> None:
    """Seed 000, l. 218: "Sollte der Stapel mit den Bösewichtkarten aufgebraucht sein, werden die
    Karten mit der I auf der Rückseite aus dem Ablagestapel entfernt und in die Schachtel
    zurückgelegt. Die Bösewichtkarten mit II und III werden zusammengemischt und als neuer
    Bösewichtkartenstapel bereitgelegt." """
    state = new_game(["grenze", "hof"])
    everything = list(spielwerk.games.inkspell.params.PARAMS.villain_keys)
    arrange(state, 1, villains=everything)
    arrange(state, 1, villains=["mortola"])  # the other 14 lie on the discard pile
    assert public(state)["villain_deck"] == [0, 0, 0]
    play(state, "nachtburg")  # alone: a villain card must be drawn
    reward(state, "solo")
    draw_advantage(state, "mo")
    view = public(state)
    assert view["phase"] == "villain"
    assert view["villain_discard"] == []
    assert sorted(view["villain_removed"]) == sorted(
        ["schlitzer", "russvogel", "gecko", "natternkopf-I1", "natternkopf-I2"]
    )
    outcomes = {a.to_json()["card"] for a, _ in state.chance_outcomes()}
    assert outcomes == {
        "basta",
        "pfeifer",
        "flachnase",
        "natternkopf-II2",
        "natternkopf-II3",
        "brandfuchs",
        "schattenreiter",
        "gewoelbewaechter",
        "natternkopf-III4",
    }


def test_if_the_rebuilt_villain_deck_is_empty_too_nothing_is_drawn() -> None:
    """Rules file "End of a round" (shared/rules/inkspell.md l. 90-91): "The rebuild happens
    only when a card must be drawn from an empty deck; if the rebuilt deck is empty too,
    nothing is drawn." Seat 1 holds every II and III card, the five I cards lie on the discard
    pile: seat 0 alone in the Nachtburg must draw, the I cards leave the game, and the new deck
    is empty: no villain card comes, the turn goes on."""
    state = new_game(["grenze", "hof"])
    keys = spielwerk.games.inkspell.params.PARAMS.villain_keys
    tiers = spielwerk.games.inkspell.params.PARAMS.villain_tiers
    arrange(state, 1, villains=list(keys))
    arrange(state, 1, villains=[k for v, k in enumerate(keys) if tiers[v] != 1])
    assert public(state)["villain_deck"] == [0, 0, 0]
    play(state, "nachtburg")
    reward(state, "solo")
    draw_advantage(state, "mo")
    view = public(state)
    assert view["phase"] != "villain" and not state.is_chance()
    assert view["villains"][0] == []
    assert view["villain_discard"] == []
    assert sorted(view["villain_removed"]) == sorted(
        ["schlitzer", "russvogel", "gecko", "natternkopf-I1", "natternkopf-I2"]
    )
    assert view["villain_deck"] == [0]


# ------------------------------------------------------------------------------------ White Women
def test_the_white_women_go_to_the_first_player_to_reach_green() -> None:
    """Seed 000, l. 240 and 248 ("Die Weißen Frauen"): "Sobald ein Spieler mit seinem Siegpunktstein
    das grüne Sonderfeld auf der Siegpunktleiste erreicht oder überquert, wird er von den Weißen
    Frauen gerufen." "Überholt ein anderer Spieler ... den Spieler mit den Weißen Frauen, wechseln
    diese sofort zur Spielfigur dieses Spielers. Es reicht nicht aus, wenn der Spieler den anderen
    nur einholt." """
    state = new_game(["muehle", "hof"])
    arrange(state, 0, tiles="MSKE", score=26, provisions=5)
    arrange(state, 1, tiles="MSMS", score=29, provisions=5)
    play(state, "grenze")
    reward(state, "solo")
    convert(state, "MSKE")  # 26 -> 33, across green from a green location
    assert public(state)["white_women"] == 0
    assert public(state)["to_move"] == 1  # no tiles left: the turn ended by itself
    play(state, "muehle")  # seat 1 from Roxanes Hof: green
    reward(state, "solo")
    convert(state, "MS")  # 29 -> 31: crossing green, but not overtaking 33
    assert public(state)["white_women"] == 0
    assert public(state)["scores"][1] == 31


def test_overtaking_takes_the_white_women_but_drawing_level_does_not() -> None:
    """Seed 000, l. 248: "Überholt ein anderer Spieler ... wechseln diese sofort ... Es reicht nicht
    aus, wenn der Spieler den anderen nur einholt." """
    state = new_game(["ombra", "festung"])
    arrange(state, 0, score=32)
    state.white_women = 0
    arrange(state, 1, tiles="MSKMS", score=30)
    pass_turn(state)
    play(state, "festung")
    reward(state, "solo")
    draw_advantage(state, "mo")
    convert(state, "MS")  # 32: level
    assert public(state)["white_women"] == 0
    convert(state, "MSK")  # 36: overtaken
    assert public(state)["white_women"] == 1


def test_the_white_women_holder_takes_one_entry_and_counts_as_one_figure() -> None:
    """Seed 000, l. 244-246: "muss sich für eine der beiden Belohnungen entscheiden. Gibt es an
    dem Ort nur eine Belohnung, darf er diese nehmen." "Für die Feststellung, welche Zeile gilt,
    zählen die Weißen Frauen zusammen mit einer Spielfigur als eine Figur. Damit die zweite
    Zeile gilt, muss also noch eine andere Spielerfigur oder Staubfinger anwesend sein." """
    # Alone in Ombra with the White Women: still the upper row, and one entry of it.
    state = new_game(["hof", "muehle"])
    arrange(state, 0, score=31, white_women=True)
    play(state, "ombra")
    assert legal_of_type(state, "reward") == [
        {"type": "reward", "row": "solo", "take": "first"},
        {"type": "reward", "row": "solo", "take": "second"},
    ]
    reward(state, "solo", "first")  # 3 Ehre, no advantage card
    assert tiles_of(state, 0) == "EEE"
    assert public(state)["advantage_deck"] == 27
    # With another figure there: one entry of the lower row.
    state = new_game(["hof", "ombra"])
    arrange(state, 0, score=31, white_women=True)
    play(state, "ombra")
    reward(state, "shared", "second")  # Ombra's lower row: 2 Mut or 1 provision
    assert tiles_of(state, 0) == ""
    assert public(state)["provisions"][0] == 2 + 1  # Roxanes Hof is next to Ombra: free
    # A row with a single reward: that one. Gasthaus an der Grenze alone: 3 provisions.
    state = new_game(["hof", "muehle"])
    arrange(state, 0, score=31, white_women=True)
    play(state, "grenze")
    assert legal_of_type(state, "reward") == [{"type": "reward", "row": "solo", "take": "all"}]
    reward(state, "solo")
    assert public(state)["provisions"][0] == 2 + 3


def test_the_white_women_stay_with_the_leader() -> None:
    """Seed 000, l. 240-248: the first to reach green takes them; whoever then overtakes their
    holder takes them over at once. So the holder always stands furthest ahead (ties: the
    earlier one), checked along random games."""
    game = spielwerk.load("inkspell")
    for seed in range(20):
        state = game.new_state(3, seed=seed)
        rng = random.Random(seed)
        for _ in play_on(state):
            holder = public(state)["white_women"]
            scores = public(state)["scores"]
            if holder is None:
                assert max(scores) < 30
            else:
                assert scores[holder] == max(scores)
            random_step(state, rng)


# ------------------------------------------------------------------------------------ the end
def _trigger_end(players: int = 2, **options: Any) -> spielwerk.State:
    """Seat 0 converts from 33 across the last red space while in Ombra (a castle)."""
    positions = ["grenze", "muehle", "lager", "spielleute"][:players]
    state = new_game(positions, **options)
    arrange(state, 0, tiles="MSKE", score=33, advantage=["meggie", "nessel"])
    play(state, "ombra")
    reward(state, "solo")
    draw_advantage(state, "resa")
    convert(state, "MSKE")  # 33 -> 40, across 37 from a castle
    return state


def test_reaching_the_last_red_space_starts_the_final_phase() -> None:
    """Seed 000, l. 256 ("Spielende"): "Sobald ein Spieler das letzte Sonderfeld (die zweite rote
    Burg) auf der Siegpunktleiste erreicht oder überquert, beginnt die Endphase des Spiels. Die
    laufende Runde wird zu Ende gespielt und danach gibt es noch eine vollständige Spielrunde als
    Schlussrunde." Rules file: the end-of-round draw also happens after the final round."""
    state = _trigger_end()
    assert public(state)["end_triggered"] and not public(state)["final_round"]
    settle(state)
    pass_turn(state)  # seat 1 finishes round 1
    settle(state)
    view = public(state)
    assert view["round"] == 2 and view["final_round"] and not state.is_terminal()
    pass_turn(state)
    pass_turn(state)
    assert public(state)["phase"] == "villain"  # the final round's villain card
    draw_villain(state, "gecko")
    assert state.is_terminal()


def test_used_advantage_cards_score_nothing_at_the_end() -> None:
    """Seed 000, l. 140 and 150: "Wird eine Vorteilskarte während des Spiels nicht eingesetzt,
    bringt sie am Ende 1 Siegpunkt." "Eingesetzte Vorteilskarten sind aus dem Spiel." Seat 0
    holds Meggie and Die Nessel; it uses Die Nessel in the final round: Meggie and the Resa drawn
    in Ombra score, 3 + 3."""
    state = _trigger_end()
    settle(state)
    pass_turn(state)
    settle(state)  # round 2, the final round
    play(state, "tintenwelt", to="ombra")
    use(state, "nessel")
    settle(state)
    pass_turn(state)
    draw_villain(state, "gecko")
    assert state.is_terminal()
    assert state.result()["advantage_points"] == [3 + 3, 0]
    assert public(state)["revealed_advantage"] == [["meggie", "resa"], []]
    assert "nessel" in public(state)["advantage_used"]


def test_final_scoring_adds_unused_advantage_cards_without_special_space_limits() -> None:
    """Seed 000, l. 260-266: "Nach der Schlussrunde decken alle Spieler ihre nicht eingesetzten
    Vorteilskarten auf ... Die Vorteilskarten Meggie, Mo und Resa bringen je 3 Punkte. Alle
    anderen Vorteilskarten bringen jeweils 1 Punkt. Jetzt dürfen die farbigen Sonderfelder auch
    dann betreten werden, wenn sich die Spielfiguren nicht an den farblich zugehörigen Orten
    befinden." """
    state = _trigger_end()
    settle(state)
    pass_turn(state)
    settle(state)
    arrange(state, 1, score=47, advantage=["farid"])  # 47 + 1 enters nothing special anyway
    pass_turn(state)
    pass_turn(state)
    draw_villain(state, "gecko")
    result = state.result()
    assert result["advantage_points"] == [3 + 1 + 3, 1]
    assert result["scores"] == [40 + 7, 48]
    assert result["winners"] == [1]
    assert state.returns() == [0.0, 1.0]
    assert public(state)["revealed_advantage"] == [["meggie", "nessel", "resa"], ["farid"]]


def test_equal_scores_are_broken_by_tiles_and_provisions_then_shared() -> None:
    """Seed 000, l. 268: "Stehen mehrere Siegpunktsteine auf demselben Feld, gewinnt der Spieler,
    der noch mehr Erfahrungsplättchen und Proviant besitzt. Gibt es auch hierbei einen Gleichstand,
    dann gibt es mehrere Gewinner." """
    state = _trigger_end()
    settle(state)
    pass_turn(state)
    settle(state)
    mine = sum(public(state)["tiles"][0].values()) + public(state)["provisions"][0]
    arrange(state, 1, score=47, tiles="M" * mine, provisions=1)
    pass_turn(state)
    pass_turn(state)
    draw_villain(state, "gecko")
    assert state.result()["scores"] == [47, 47]
    assert state.result()["winners"] == [1]

    state = _trigger_end()
    settle(state)
    pass_turn(state)
    settle(state)
    mine = sum(public(state)["tiles"][0].values()) + public(state)["provisions"][0]
    arrange(state, 1, score=47, tiles="M" * (mine - 1), provisions=1)
    pass_turn(state)
    pass_turn(state)
    draw_villain(state, "gecko")
    assert state.result()["winners"] == [0, 1]
    assert state.returns() == [pytest.approx(0.5), pytest.approx(0.5)]


def test_the_round_limit_ends_an_endless_game() -> None:
    """Seed 000 sets no limit on rounds (l. 256 ends the game only by the track); the option
    max_rounds [design] is a safety bound against endless passing, the game ends after
    that many rounds, scored as usual."""
    state = new_game(["grenze", "hof"], max_rounds=2)
    for _ in range(4):
        pass_turn(state)
    assert state.is_terminal()
    assert state.result()["end"] == "round limit"
    assert state.result()["winners"] == [0, 1]


def test_an_end_triggered_in_the_last_allowed_round_is_cut_by_the_round_limit() -> None:
    """docs/games/inkspell.md ("Option max_rounds"): a game that reaches the
    limit ends after the end-of-round villain draw of round `max_rounds`, and
    `result()["end"]` says "round limit" instead of "end trigger". Seat 0 crosses the last red
    space (seed 000, l. 256) in round 1 of a game limited to 1 round: the extra full round that
    l. 256 promises is cut by the limit, so the end is the limit's. One round later the final
    round is played in full."""
    state = _trigger_end(max_rounds=1)
    assert public(state)["end_triggered"]
    settle(state)
    pass_turn(state)  # seat 1 finishes round 1
    settle(state)
    assert state.is_terminal() and public(state)["round"] == 1
    assert not public(state)["final_round"]
    assert state.result()["end"] == "round limit"

    state = _trigger_end(max_rounds=2)
    settle(state)
    pass_turn(state)
    settle(state)
    assert public(state)["final_round"] and public(state)["round"] == 2
    pass_turn(state)
    pass_turn(state)
    draw_villain(state, "gecko")
    assert state.is_terminal()
    assert state.result()["end"] == "end trigger"


def test_villain_tiers_come_in_order_one_two_three() -> None:
    """Seed 000, l. 78-80 ("Spielvorbereitung"): "ganz unten liegen die Karten mit der III, darauf
    die Karten mit der II und zuoberst die Karten mit der I." """
    state = new_game(["grenze", "hof"])
    tier_one = ["schlitzer", "russvogel", "gecko", "natternkopf-I1", "natternkopf-I2"]
    arrange(state, 1, villains=tier_one)
    arrange(state, 1, villains=["schlitzer", "russvogel", "gecko"])  # two on the discard pile
    play(state, "nachtburg")
    reward(state, "solo")
    draw_advantage(state, "mo")
    # Tier I is used up (its cards lie before seat 1 and on the discard pile): tier II is next,
    # no rebuild while cards are left.
    assert {a.to_json()["card"] for a in state.legal_actions()} == {
        "basta",
        "pfeifer",
        "flachnase",
        "natternkopf-II2",
        "natternkopf-II3",
    }


def test_a_natternkopf_in_the_nachtburg_strikes_at_once_and_the_turn_goes_on() -> None:
    """Seed 000, l. 163 ("Alleine in der Nachtburg"): "Falls eine Karte "Der Natternkopf" gezogen
    wird, wird sofort ermittelt, welcher Spieler von den Auswirkungen betroffen ist ... Auf diese
    Weise kann es in einer Runde zweimal zu Begegnungen mit dem Natternkopf kommen." """
    state = new_game(["grenze", "hof"])
    arrange(state, 0, provisions=5, villains=["basta"])
    arrange(state, 1, tiles="MMSS", provisions=4, villains=["mortola"])
    play(state, "nachtburg")
    reward(state, "solo")  # 3 Mut + an advantage card
    draw_advantage(state, "mo")
    draw_villain(state, "natternkopf-I2")  # seat 0: 3 + 2 = 5 > seat 1's 4
    assert public(state)["villains"] == [[], ["mortola"]]
    assert public(state)["provisions"][0] == 2  # 5 -> loses 3
    assert tiles_of(state, 0) == "M"  # 3 Mut: loses 2, no choice
    # The turn goes on in the castle: the exchange and conversions.
    assert public(state)["phase"] == "exchange_convert" and public(state)["to_move"] == 0
    end_turn(state)
    pass_turn(state)
    draw_villain(state, "natternkopf-I1")  # the end-of-round draw: a second encounter
    # seat 0 (1) and seat 1 (4): seat 1 loses half its four tiles, choosing which.
    assert public(state)["villains"] == [["natternkopf-I1"], []]
    assert public(state)["to_move"] == 1
    lose(state, "M", "S")
    assert tiles_of(state, 1) == "MS"
    assert public(state)["provisions"][1] == 2


def test_the_advantage_deck_holds_the_27_cards() -> None:
    """Seed 000, l. 27 ("Spielmaterial"): "27 Vorteilskarten"; rules file: Meggie, Mo, Resa 2 each,
    Die Nessel, Schleierkauz, Der Speckfürst, Der Schwarze Prinz, Farid 3 each, Roxane, Orpheus,
    Fenoglio 2 each."""
    state = new_game(["hof", "grenze"])
    play(state, "ombra")
    reward(state, "solo")
    outcomes = {a.to_json()["card"]: p for a, p in state.chance_outcomes()}
    counts = {"meggie": 2, "mo": 2, "resa": 2, "nessel": 3, "schleierkauz": 3}
    counts |= {"speckfuerst": 3, "prinz": 3, "farid": 3, "roxane": 2, "orpheus": 2}
    counts |= {"fenoglio": 2}
    assert outcomes == {card: pytest.approx(n / 27) for card, n in counts.items()}
