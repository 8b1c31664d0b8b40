"""The conformance checker catches broken games.

Each test builds a deliberately broken variant of a real game (a subclass that breaks one
contract) and shows that the matching check fails with a message saying what is wrong, while
the unbroken game passes the same check. Without this, a checker that never fails would look
just as green.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

import spielwerk
from spielwerk.core.actions import Action
from spielwerk.core.conformance import (
    _bad_attempts,
    check_chance_sampling,
    check_clone_independent,
    check_conservation,
    check_encoding,
    check_illegal_actions,
    check_legal_actions_apply,
    check_no_leak,
    check_replay,
    check_returns,
    check_structure,
    check_views_json,
    component_multiset,
    fingerprint,
    option_configurations,
    play_on,
    random_step,
)
from spielwerk.core.state import CHANCE, State
from spielwerk.games.tainted_grail import TaintedGrailGame
from spielwerk.games.tainted_grail.state import TaintedGrailState
from spielwerk.games.witches import WitchesGame, WitchesState
from spielwerk.games.witches.actions import DRAW


def game_with(state_class: type[WitchesState], **overrides: Any) -> WitchesGame:
    """A witches game whose states are of `state_class` (same name, rules and options)."""

    class Variant(WitchesGame):
        def _new_state(self, num_players: int, seed: int) -> WitchesState:
            return state_class(self, num_players, seed)

    for attribute, value in overrides.items():
        setattr(Variant, attribute, value)
    return Variant()


def advance(state: State, steps: int, seed: int = 0) -> State:
    rng = random.Random(seed)
    for _ in range(steps):
        random_step(state, rng)
    return state


def in_play(game: spielwerk.Game, players: int = 3, steps: int = 21) -> State:
    """A position in the middle of a trick (after the deal and some plays)."""
    state = advance(game.new_state(players, seed=3), steps)
    assert state.to_move != CHANCE and not state.is_terminal()
    return state


REAL = spielwerk.load("witches")


# ------------------------------------------------------------------------------------ fingerprint
def test_fingerprint_covers_every_slot_but_the_game() -> None:
    """The fingerprint has one entry per `__slots__` field over the MRO; `game` is reduced to
    its name and options."""
    state = in_play(REAL)
    slots = {
        name
        for klass in type(state).__mro__
        for name in getattr(klass, "__slots__", ())
        if name != "game"
    }
    fp = fingerprint(state)
    assert slots <= set(fp)
    assert fp["game"] == (
        "witches",
        [("start_player", 0), ("wheel", "descending")],
    )
    assert fp["__class__"].endswith("WitchesState")


def test_fingerprint_sees_any_change_and_is_a_copy() -> None:
    state = in_play(REAL)
    before = fingerprint(state)
    assert fingerprint(state.clone()) == before
    state.scores[0] += 1  # type: ignore[attr-defined]
    assert fingerprint(state) != before
    state.scores[0] -= 1  # type: ignore[attr-defined]
    assert fingerprint(state) == before
    before["hands"][0].append(99)  # mutating the fingerprint does not touch the state
    assert fingerprint(state) != before


def test_option_configurations_cover_each_choice() -> None:
    assert option_configurations("witches") == [{}, {"wheel": "ascending"}]


# ------------------------------------------------------------------------------------ mutants
class LeakyView(WitchesState):
    """Shows every hand to every seat (the spectator's view is right)."""

    __slots__ = ()

    def view(self, player: int | None) -> dict[str, Any]:
        view = super().view(player)
        if player is not None:
            view["all_hands"] = [sorted(h) for h in self.hands]
        return view


def test_no_leak_catches_a_view_that_shows_other_hands() -> None:
    check_no_leak(in_play(REAL), random.Random(1))
    with pytest.raises(AssertionError, match="can tell a resample from the truth"):
        check_no_leak(in_play(game_with(LeakyView)), random.Random(1))


class LeakyActions(WitchesState):
    """Offers a seat actions that depend on the next seat's hand."""

    __slots__ = ()

    def describe(self, action: Action, viewer: int | None) -> str:
        text = super().describe(action, viewer)
        nxt = (int(self.to_move) + 1) % self.num_players if self.to_move >= 0 else 0
        return f"{text} (next holds {sorted(self.hands[nxt])})"


def test_no_leak_catches_action_texts_that_reveal_hidden_cards() -> None:
    with pytest.raises(AssertionError, match="action texts differ"):
        check_no_leak(in_play(game_with(LeakyActions)), random.Random(1))


class PeekingResample(WitchesState):
    """Re-deals unseen cards by a permutation of the *true* cards, keeping the true order of
    draws: fair in distribution, but the sample is a function of the hidden truth."""

    __slots__ = ()

    def resample(self, player: int | None, rng: random.Random) -> PeekingResample:
        unseen = list(self.pool)
        for q, hand in enumerate(self.hands):
            if q != player:
                unseen.extend(c for c in hand if c not in self.known[q])
        shuffled = unseen.copy()
        rng.shuffle(shuffled)
        swap = dict(zip(unseen, shuffled, strict=True))
        new = self.clone()
        new.seed = rng.randrange(2**31)
        new.pool = sorted(swap[c] for c in self.pool)
        for q, hand in enumerate(self.hands):
            if q != player:
                new.hands[q] = sorted(swap.get(c, c) for c in hand)
        draw = 2 * 54 + 1
        new.history = [
            (a, draw + swap.get(i - draw, i - draw)) if a == CHANCE else (a, i)
            for a, i in self.history
        ]
        return new


def test_no_leak_catches_a_resample_that_depends_on_the_hidden_truth() -> None:
    """Such a sample passes every view comparison, but resampling it differs from resampling
    the truth with the same RNG state: the check sees the dependence."""
    with pytest.raises(AssertionError, match="depends on more than seat"):
        check_no_leak(in_play(game_with(PeekingResample)), random.Random(1))


class SharedClone(WitchesState):
    """clone() forgets to copy the hands."""

    __slots__ = ()

    def clone(self) -> SharedClone:
        new = super().clone()
        new.hands = self.hands
        return new


def test_clone_check_catches_shared_lists() -> None:
    check_clone_independent(in_play(REAL), random.Random(2))
    with pytest.raises(AssertionError, match="shares its field 'hands'"):
        check_clone_independent(in_play(game_with(SharedClone)), random.Random(2))


class DirtyRefusal(WitchesState):
    """Touches the state before validating the action."""

    __slots__ = ()

    def apply(self, action: Any, player: int | None = None) -> None:
        self.seed += 1  # part of the state (it seeds default chance draws and the record)
        super().apply(action, player)


def test_illegal_action_check_catches_a_refusal_that_changes_the_state() -> None:
    check_illegal_actions(in_play(REAL), random.Random(3))
    with pytest.raises(AssertionError, match="changed the state"):
        check_illegal_actions(in_play(game_with(DirtyRefusal)), random.Random(3))


class Lenient(WitchesState):
    """Silently ignores illegal actions instead of raising."""

    __slots__ = ()

    def apply(self, action: Any, player: int | None = None) -> None:
        with contextlib.suppress(spielwerk.IllegalAction):
            super().apply(action, player)


def test_illegal_action_check_catches_silently_ignored_actions() -> None:
    with pytest.raises(AssertionError, match="was accepted"):
        check_illegal_actions(in_play(game_with(Lenient)), random.Random(3))


class WrongError(WitchesState):
    """Raises KeyError for unknown action ids."""

    __slots__ = ()

    def apply(self, action: Any, player: int | None = None) -> None:
        if isinstance(action, int) and not 0 <= action < 163:
            raise KeyError(action)
        super().apply(action, player)


def test_illegal_action_check_insists_on_illegal_action() -> None:
    with pytest.raises(AssertionError, match="raised KeyError"):
        check_illegal_actions(in_play(game_with(WrongError)), random.Random(3))


def test_bad_attempts_cover_each_kind() -> None:
    """Chance ids at a player node, wrong seats, out-of-range ints and malformed JSON."""
    state = in_play(REAL)
    what = [w for w, _, _ in _bad_attempts(state, random.Random(0), 4)]
    text = "\n".join(what)
    assert "draw" in text  # a chance outcome offered at a player node
    assert "by seat" in text and "by chance" in text
    assert "out-of-range id -1" in text
    assert "malformed action {}" in text
    chance_node = REAL.new_state(3, seed=1)
    text = "\n".join(w for w, _, _ in _bad_attempts(chance_node, random.Random(0), 4))
    assert "play" in text and "by seat 0" in text


class ForgetfulZones(WitchesState):
    """Leaves the trump pile out of its component zones."""

    __slots__ = ()

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        zones = dict(super().component_zones())
        del zones["trump_pile"]
        return zones


def test_conservation_catches_a_vanishing_card() -> None:
    game = game_with(ForgetfulZones)
    state = game.new_state(3, seed=0)
    baseline = component_multiset(state)
    advance(state, 18)  # the deal: nothing on the trump pile yet
    check_conservation(state, baseline)
    advance(state, 1)  # the turn-up
    with pytest.raises(AssertionError, match="vanished"):
        check_conservation(state, baseline)


class TupleView(WitchesState):
    """Puts a tuple and an int-keyed dict in its view."""

    __slots__ = ()

    def view(self, player: int | None) -> dict[str, Any]:
        view = super().view(player)
        view["sizes_by_seat"] = {p: len(h) for p, h in enumerate(self.hands)}
        return view


class SetView(WitchesState):
    __slots__ = ()

    def view(self, player: int | None) -> dict[str, Any]:
        view = super().view(player)
        view["seats"] = set(range(self.num_players))
        return view


def test_views_check_catches_views_that_are_not_json() -> None:
    check_views_json(in_play(REAL))
    with pytest.raises(AssertionError, match="JSON round trip"):
        check_views_json(in_play(game_with(TupleView)))
    with pytest.raises(AssertionError, match="not JSON-ready"):
        check_views_json(in_play(game_with(SetView)))


class IntReturns(WitchesState):
    __slots__ = ()

    def returns(self) -> list[float]:
        return [0] * self.num_players  # type: ignore[list-item]


class ShortReturns(WitchesState):
    __slots__ = ()

    def returns(self) -> list[float]:
        return [0.0]


class ShortRunningScores(WitchesState):
    __slots__ = ()

    def running_scores(self) -> list[float] | None:
        return [1.0]


def test_returns_check() -> None:
    check_returns(in_play(REAL))
    with pytest.raises(AssertionError, match="finite floats"):
        check_returns(in_play(game_with(IntReturns)))
    with pytest.raises(AssertionError, match="1 entries for 3 seats"):
        check_returns(in_play(game_with(ShortReturns)))
    with pytest.raises(AssertionError, match="running_scores"):
        check_returns(in_play(game_with(ShortRunningScores)))


class LopsidedChance(WitchesState):
    __slots__ = ()

    def chance_ids(self) -> list[tuple[int, float]]:
        return [(i, p * 2) for i, p in super().chance_ids()]

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        return [(a, p * 2) for a, p in super().chance_outcomes()]


class OutcomesApartFromIds(WitchesState):
    """Lists chance outcomes that are not the pairs of `chance_ids` (a fast path gone wrong)."""

    __slots__ = ()

    def chance_outcomes(self) -> list[tuple[Action, float]]:
        outcomes = super().chance_outcomes()
        return outcomes[1:] + outcomes[:1]


class LaxLegality(WitchesState):
    """A cheap legality test that lets a card not in the hand through."""

    __slots__ = ()

    def is_legal_id(self, actor: int, action_id: int) -> bool:
        return action_id < 54 or super().is_legal_id(actor, action_id)


def test_structure_check_catches_probabilities_not_summing_to_one() -> None:
    check_structure(REAL.new_state(3, seed=0))
    with pytest.raises(AssertionError, match="sum to"):
        check_structure(game_with(LopsidedChance).new_state(3, seed=0))


def test_structure_check_catches_fast_paths_that_disagree_with_the_plain_ones() -> None:
    with pytest.raises(AssertionError, match="differs from the outcomes of chance_ids"):
        check_structure(game_with(OutcomesApartFromIds).new_state(3, seed=0))
    with pytest.raises(AssertionError, match="is_legal_id and legal_ids of seat"):
        check_structure(in_play(game_with(LaxLegality)))


class LaxApplyCheck(WitchesState):
    """`apply`'s check-and-move lets a card that is not in the hand through (a fast path
    that trusts the id)."""

    __slots__ = ()

    def _apply_if_legal(self, actor: int, action_id: int) -> bool:
        if action_id < 54 and action_id not in self.hands[actor]:
            self.hands[actor].append(action_id)  # a card from nowhere, played
        return super()._apply_if_legal(actor, action_id)


class RefusalLeavesATrace(WitchesState):
    """`apply`'s check refuses the right ids but counts each refusal in the state."""

    __slots__ = ()

    def _apply_if_legal(self, actor: int, action_id: int) -> bool:
        if not self.is_legal_id(actor, action_id):
            self.scores[actor] += 1
            return False
        return super()._apply_if_legal(actor, action_id)


class RefusesToKeepTrump(WitchesState):
    """`apply`'s check refuses a legal action (keeping the trump)."""

    __slots__ = ()

    def _apply_if_legal(self, actor: int, action_id: int) -> bool:
        return action_id != 54 and super()._apply_if_legal(actor, action_id)


def test_structure_check_offers_every_illegal_id_to_the_check_of_apply() -> None:
    check_structure(in_play(REAL))
    with pytest.raises(AssertionError, match=r"apply's check lets seat \d make the illegal id"):
        check_structure(in_play(game_with(LaxApplyCheck)))
    with pytest.raises(AssertionError, match=r"refusing the illegal ids of seat \d, changed"):
        check_structure(in_play(game_with(RefusalLeavesATrace)))


def test_legal_action_check_catches_apply_refusing_a_legal_action() -> None:
    state = game_with(RefusesToKeepTrump).new_state(3, seed=3)
    rng = random.Random(0)
    for _ in play_on(state, 200, until=lambda s: s.view(None)["phase"] == "choose_trump"):
        random_step(state, rng)
    with pytest.raises(
        AssertionError, match=r"legal action keep_trump of \d failed: IllegalAction"
    ):
        check_legal_actions_apply(state, random.Random(0))


class OffersToAll(WitchesState):
    """Claims every seat may play at any time."""

    __slots__ = ()

    def legal_ids(self, player: int | None = None) -> list[int]:
        if player is not None and self.to_move >= 0 and player != self.to_move:
            return list(self.hands[player])
        return super().legal_ids(player)


def test_structure_check_catches_actions_for_seats_not_to_move() -> None:
    with pytest.raises(AssertionError, match="is not to move but has legal actions"):
        check_structure(in_play(game_with(OffersToAll)))


def test_encoding_check_catches_a_bad_encoder() -> None:
    check_encoding(in_play(REAL))
    broken = game_with(WitchesState, encode=lambda self, action: action.id + 1)
    with pytest.raises(AssertionError, match="decode"):
        check_encoding(in_play(broken))


class ForgetsLastAction(WitchesState):
    __slots__ = ()

    def to_record(self) -> dict[str, Any]:
        record = super().to_record()
        record["actions"] = record["actions"][:-1]
        return record


def test_replay_check_catches_a_record_that_does_not_rebuild_the_state() -> None:
    check_replay(in_play(REAL))
    with pytest.raises(
        AssertionError, match=r"replay does not rebuild the state:\n(.|\n)*history:"
    ):
        check_replay(in_play(game_with(ForgetsLastAction)))


class TrustedDiffers(WitchesState):
    """apply_trusted skips the history."""

    __slots__ = ()

    def apply_trusted(self, action_id: int, actor: int) -> None:
        self._apply_id(actor, action_id)


def test_legal_action_check_compares_apply_trusted_with_apply() -> None:
    check_legal_actions_apply(in_play(REAL), random.Random(0))
    with pytest.raises(AssertionError, match="apply_trusted"):
        check_legal_actions_apply(in_play(game_with(TrustedDiffers)), random.Random(0))


class CrashOnKeep(WitchesState):
    """Keeping the trump crashes."""

    __slots__ = ()

    def _choose_trump(self, action_id: int) -> None:
        if action_id == 54:
            raise RuntimeError("boom")
        super()._choose_trump(action_id)


def test_legal_action_check_reports_a_crashing_legal_action() -> None:
    state = game_with(CrashOnKeep).new_state(3, seed=3)
    rng = random.Random(0)
    for _ in play_on(state, 200, until=lambda s: s.view(None)["phase"] == "choose_trump"):
        random_step(state, rng)
    with pytest.raises(
        AssertionError, match=r"legal action keep_trump of \d failed: RuntimeError: boom"
    ):
        check_legal_actions_apply(state, random.Random(0))


class FirstCardSampler(WitchesState):
    """Always draws the first card left in the pile."""

    __slots__ = ()

    def sample_chance_id(self, rng: random.Random) -> int:
        rng.random()
        return DRAW + self.pool[0]


class LastCardNeverSampler(WitchesState):
    """Never draws the last card of the pile (an off-by-one)."""

    __slots__ = ()

    def sample_chance_id(self, rng: random.Random) -> int:
        pool = self.pool
        return DRAW + pool[int(rng.random() * (len(pool) - 1))]


class FairDieSampler(TaintedGrailState):
    """Rolls the guardian die as if each of the five faces were on one side (stay is on two)."""

    __slots__ = ()

    def sample_chance_id(self, rng: random.Random) -> int:
        if self.pending[0] == "gdie":
            ids = [i for i, _ in self.chance_ids()]
            return ids[int(rng.random() * len(ids))]
        return super().sample_chance_id(rng)


def test_chance_sampling_check_catches_a_sampler_that_ignores_the_probabilities() -> None:
    """Every chance node's sampled frequencies must match `chance_outcomes()` (a chi-square test
    with a fixed seed, so it cannot flake): the real sampler passes; one that always takes the
    first card, one that never takes the last card, and one that rolls the guardian die as if
    its faces were equally likely fail."""
    check_chance_sampling(REAL.new_state(3, seed=0), random.Random(0))
    with pytest.raises(AssertionError, match="sample_chance never drew draw card=red-2"):
        check_chance_sampling(game_with(FirstCardSampler).new_state(3, seed=0), random.Random(0))
    with pytest.raises(AssertionError, match="never drew draw card=grey-9"):
        check_chance_sampling(
            game_with(LastCardNeverSampler).new_state(3, seed=0), random.Random(0)
        )

    class FairDieGrail(TaintedGrailGame):
        def _new_state(self, num_players: int, seed: int) -> TaintedGrailState:
            return FairDieSampler(self, num_players, seed)

    table = str(
        Path(__file__).parents[1] / "tainted_grail" / "table.toml"
    )  # a guardian on the grid
    for game in (spielwerk.load("tainted_grail", scenario=table), FairDieGrail(scenario=table)):
        state = game.new_state(1, seed=0)
        state.apply({"type": "pass"})
        for _ in play_on(state, 20, until=lambda s: s.to_move == CHANCE and s.pending[0] == "gdie"):
            state.apply(state.legal_actions()[0])
        if isinstance(state, FairDieSampler):
            with pytest.raises(AssertionError, match="does not follow chance_outcomes"):
                check_chance_sampling(state, random.Random(0))
        else:
            check_chance_sampling(state, random.Random(0))
