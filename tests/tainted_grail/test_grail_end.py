"""Phase III, the end of the day (rest, recover, dreams, deck improvement), and the shared
outcome. On the test table (`table.toml`).

Rulebook: shared/seeds/003_bd9d21eaf5298cf0.txt: "Am Ende des Tages (Phase III) könnt ihr
rasten, euch erholen, Träume lesen und eure Stapel verbessern." Gaps settled in
shared/rules/tainted_grail.md.
"""

from __future__ import annotations

from pathlib import Path

from grail_table import (
    ADA,
    BEN,
    TABLE,
    act,
    character,
    choose,
    finish_day,
    legal,
    log_lines,
    new_game,
    pending,
    roll,
    travel,
)

from spielwerk.core.conformance import play_on
from spielwerk.core.state import TERMINAL


def test_end_of_day_runs_rest_recover_dreams_improve_in_order() -> None:
    """Seed 003, l. 9-11: "rasten, euch erholen, Träume lesen und eure Stapel verbessern" - in that
    order."""
    state = new_game(1)
    start = len(state.log)
    finish_day(state, event="storm")
    steps = [
        line.split(": ")[1] for line in log_lines(state)[start:] if line.startswith("end of day")
    ]
    assert steps == ["rest", "recover", "dreams", "improve decks", "discard the day's events"]


def test_resting_with_food_heals_calms_and_restores_full_energy() -> None:
    """Rules file: "Rest: a character who eats 1 food gains 1 health and loses 1 terror.
    Recover: a character who ate goes back to maximum energy"."""
    state = new_game(1)
    state.health[ADA], state.terror[ADA], state.energy[ADA] = 3, 2, 1
    act(state, "pass")
    assert pending(state) == "rest"
    assert legal(state) == [{"type": "eat"}, {"type": "fast"}]
    act(state, "eat")
    ada = character(state, ADA)
    assert (ada["health"], ada["terror"], ada["food"]) == (4, 1, 0)
    finish_day(state, event="storm")
    assert character(state, ADA)["energy"] == 4 - 1  # full, then the storm


def test_fasting_at_zero_energy_costs_1_health_and_gives_1_energy_back() -> None:
    """Rules file l. 60-63: "one who did not eat and has 1 or more energy goes up to at least 1
    (no change in practice); one who did not eat and has 0 energy loses 1 health and gets 1
    energy back (so a fasting character is never stuck at 0 for good)". Ada fasts at 0 energy,
    Ben at 2; a day later Ada, fasting again with the energy she got back, changes nothing."""
    state = new_game(2)
    state.energy[ADA], state.energy[BEN] = 0, 2
    act(state, "pass")
    act(state, "pass")
    act(state, "fast")
    act(state, "fast")
    assert [character(state, c)["health"] for c in (ADA, BEN)] == [4, 5]
    assert [character(state, c)["energy"] for c in (ADA, BEN)] == [1, 2]
    assert "Ada fasts at 0 energy: -1 health, +1 energy" in log_lines(state)
    finish_day(state, eat=False, event="choice")
    choose(state, "Nothing")
    finish_day(state, eat=False)
    assert [character(state, c)["health"] for c in (ADA, BEN)] == [4, 5]
    assert [character(state, c)["energy"] for c in (ADA, BEN)] == [1, 2]


def test_a_character_without_food_is_not_asked_to_eat() -> None:
    """Rules file: rest needs 1 food."""
    state = new_game(1)
    state.food[ADA] = 0
    act(state, "pass")
    assert pending(state) != "rest"
    assert "Ada eats and rests" not in log_lines(state)


def test_dreams_are_read_once_when_their_condition_holds() -> None:
    """Seed 003, l. 10-11: "Träume lesen"; rules file: a scenario may define dreams (text with an
    effect). The test table's dream needs one mark and gives 1 experience, once."""
    state = new_game(1)
    finish_day(state, event="storm")
    assert not any(line.startswith("dream:") for line in log_lines(state))
    state.counters[0] = 1
    finish_day(state, event="call")
    assert log_lines(state).count("dream: A dream of marks.") == 1
    assert character(state, ADA)["xp"] == 1
    finish_day(state, event="choice")
    assert log_lines(state).count("dream: A dream of marks.") == 1


def test_deck_improvement_spends_experience_once_per_improvement() -> None:
    """Seed 003, l. 10-11: "eure Stapel verbessern"; rules file: rewards defined by the scenario.
    [design] An improvement costs experience and is bought once."""
    state = new_game(1)
    act(state, "explore")
    choose(state, "Lift the hearthstone")
    roll(state, 6)  # success: 2 experience, and the mark brings a dream: 1 more
    act(state, "pass")
    act(state, "eat")
    assert character(state, ADA)["xp"] == 3
    assert pending(state) == "improve"
    assert legal(state) == [
        {"type": "skip_improvement"},
        {"type": "improve", "improvement": "drill"},
        {"type": "improve", "improvement": "stamina"},
    ]
    act(state, "improve", improvement="drill")
    ada = character(state, ADA)
    assert ada["xp"] == 1 and ada["improvements"] == ["Drill"]
    assert ada["attributes"]["might"] == 1 + 1 + 1  # base, axe, drill
    finish_day(state, event="storm")
    state.xp[ADA] = 3
    act(state, "pass")
    assert legal(state) == [
        {"type": "skip_improvement"},
        {"type": "improve", "improvement": "stamina"},
    ]
    act(state, "improve", improvement="stamina")
    assert character(state, ADA)["max_energy"] == 5


def test_exactly_the_cheapest_improvements_experience_is_enough_to_buy_it() -> None:
    """[design] An improvement costs experience: a character holding exactly what the cheapest
    one costs (Drill, 2) is offered it at the end of the day, and nothing dearer (Stamina, 3)."""
    state = new_game(1)
    state.xp[ADA] = 2
    act(state, "pass")
    if pending(state) == "rest":
        act(state, "eat")
    assert pending(state) == "improve"
    assert legal(state) == [
        {"type": "skip_improvement"},
        {"type": "improve", "improvement": "drill"},
    ]
    act(state, "improve", improvement="drill")
    assert character(state, ADA)["xp"] == 0


def test_the_party_wins_together() -> None:
    """Seed 003, l. 61-63: "Ihr werdet nur gemeinsam gewinnen oder verlieren". Every seat wins."""
    state = new_game(3)
    state.counters[0] = 2
    travel(state, "south")
    act(state, "decline")
    act(state, "decline")
    act(state, "pass")
    act(state, "pass")
    act(state, "location_action", action="claim")
    assert state.to_move == TERMINAL
    result = state.result()
    assert result["outcome"] == "win" and result["winners"] == [0, 1, 2]
    assert result["cooperative"] is True
    assert result["scores"] == [2 + 10] * 3
    assert state.returns() == [1.0, 1.0, 1.0]


def test_the_party_loses_together_when_everyone_has_fallen() -> None:
    """Rules file: "lose: all characters out of health". A character at 0 health falls."""
    state = new_game(1)
    state.health[ADA] = 1
    act(state, "explore")
    choose(state, "Lift the hearthstone")
    roll(state, 1)
    assert state.is_terminal()
    assert state.result()["winners"] == [] and state.returns() == [0.0]
    assert state.result()["reason"] == "all fell"


def test_a_fallen_character_is_out_but_the_party_plays_on() -> None:
    """[design] A fallen character acts no more; the others go on."""
    state = new_game(2)
    state.health[ADA] = 1
    act(state, "explore")
    act(state, "decline")
    choose(state, "Lift the hearthstone")
    roll(state, 1)
    assert character(state, ADA)["fallen"] and not state.is_terminal()
    assert state.to_move == BEN
    act(state, "pass")
    assert pending(state) == "rest" and state.to_move == BEN


def test_the_day_limit_ends_the_game() -> None:
    """Rules file: win and loss are defined by the scenario; the table loses after day 8."""
    state = new_game(1)
    state.menhir_dial[0] = 20
    for _ in play_on(state, 20):
        finish_day(state)
        if pending(state) == "choose":
            choose(state, "Nothing")
    assert state.result()["reason"] == "too late" and state.result()["days"] == 8


def test_a_win_and_a_loss_in_the_same_effect_is_a_win(tmp_path: Path) -> None:
    """[design] The win conditions are checked before the losses, after the whole effect: a
    last stand that claims the victory and costs Ada her life still wins."""
    text = Path(TABLE).read_text(encoding="utf-8")
    text = text.replace(
        'effect = { flags = ["victory"] }', 'effect = { flags = ["victory"], health = -9 }'
    )
    last_stand = tmp_path / "last_stand.toml"
    last_stand.write_text(text, encoding="utf-8")
    state = new_game(1, scenario=str(last_stand))
    state.counters[0] = 2
    travel(state, "south")
    act(state, "location_action", action="claim")
    assert character(state, ADA)["fallen"]
    assert state.result()["outcome"] == "win" and state.result()["reason"] == "victory"
