"""Generic conformance checks for any spielwerk game (DESIGN.md, "Conformance").

Every check is a pure function that inspects a state through the public contract only and raises
`AssertionError` with a message naming the game, the step and what went wrong. Third-party game
authors can run the whole battery on their own game::

    from spielwerk.core.conformance import run_conformance
    run_conformance("mygame", num_players=3, seed=7)

or call single checks (`check_illegal_actions`, `check_no_leak`, ...) from their own tests.

States are compared by `fingerprint`: every `__slots__` field over the class hierarchy (and any
`__dict__`), deep-copied, except the shared `game` object, which is reduced to its name and
options. "Changes nothing" means "leaves the fingerprint equal".
"""

from __future__ import annotations

import copy
import json
import math
import os
import random
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from types import GetSetDescriptorType
from typing import Any

from spielwerk.core.actions import Action
from spielwerk.core.errors import IllegalAction
from spielwerk.core.game import Game
from spielwerk.core.record import replay
from spielwerk.core.registry import list_games, load
from spielwerk.core.state import CHANCE, TERMINAL, State

__all__ = [
    "DEFAULT_MAX_STEPS",
    "ConformanceReport",
    "chance_kind",
    "check_chance_sampling",
    "check_clone_independent",
    "check_conservation",
    "check_encoding",
    "check_illegal_actions",
    "check_legal_actions_apply",
    "check_no_leak",
    "check_observation_no_leak",
    "check_replay",
    "check_result",
    "check_returns",
    "check_structure",
    "check_views_json",
    "component_multiset",
    "deciders",
    "fingerprint",
    "fingerprint_diff",
    "option_configurations",
    "play_on",
    "play_random",
    "player_counts",
    "random_step",
    "run_conformance",
]

DEFAULT_MAX_STEPS = 20_000
_SKIPPED_SLOTS = frozenset({"game", "__weakref__", "__dict__"})


# ---------------------------------------------------------------------------------- fingerprints
class _Unset:
    """Marks a slot that has no value (never assigned)."""

    def __repr__(self) -> str:
        return "<unset>"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Unset)

    def __hash__(self) -> int:
        return 0


_UNSET = _Unset()


@cache
def _slot_names(klass: type) -> tuple[str, ...]:
    slots = klass.__dict__.get("__slots__")
    if slots is None:
        # A class compiled by mypyc (spielwerk.native) has no __slots__: its fields are getset
        # descriptors.
        slots = tuple(
            name
            for name, member in klass.__dict__.items()
            if isinstance(member, GetSetDescriptorType)
            and not (name.startswith("__") and name.endswith("__"))
        )
    if isinstance(slots, str):
        slots = (slots,)
    names = []
    for name in slots:
        if name.startswith("__") and not name.endswith("__"):
            name = f"_{klass.__name__.lstrip('_')}{name}"  # private names are mangled
        names.append(name)
    return tuple(names)


_ATOMS = frozenset({int, float, str, bool, bytes, type(None)})


def _canonical(value: Any, active: set[int]) -> Any:
    """A comparable copy of a value: containers are copied element by element, random
    generators become their internal state, objects without `__eq__` the tuple of their fields,
    anything else a deep copy."""
    kind = type(value)
    if kind in _ATOMS:
        return value
    if kind is tuple and all(type(v) in _ATOMS for v in value):
        return value  # the common case (a history entry, a trick): immutable all the way down
    marker = id(value)
    if marker in active:
        return "<cycle>"
    active.add(marker)
    try:
        if isinstance(value, list):
            return [v if type(v) in _ATOMS else _canonical(v, active) for v in value]
        if isinstance(value, tuple):
            return tuple(v if type(v) in _ATOMS else _canonical(v, active) for v in value)
        if isinstance(value, dict):
            return {k: _canonical(v, active) for k, v in value.items()}
        if isinstance(value, set | frozenset):
            return frozenset(_canonical(v, active) for v in value)
        if isinstance(value, random.Random):
            return ("random.Random", value.getstate())
        tolist = getattr(value, "tolist", None)  # numpy arrays and friends
        if callable(tolist):
            return (kind.__qualname__, tolist())
        if getattr(kind, "__eq__", None) is getattr(object, "__eq__", None):
            fields: dict[str, Any] = {}
            for klass in kind.__mro__:
                for name in _slot_names(klass):
                    if name not in ("__weakref__", "__dict__") and hasattr(value, name):
                        fields[name] = _canonical(getattr(value, name), active)
            for name, item in getattr(value, "__dict__", {}).items():
                fields[name] = _canonical(item, active)
            return (kind.__qualname__, fields)
        return copy.deepcopy(value)
    finally:
        active.discard(marker)


def _snapshot(value: Any) -> Any:
    return _canonical(value, set())


def fingerprint(state: State) -> dict[str, Any]:
    """Everything the state holds: each `__slots__` field over the MRO (and any `__dict__`
    entry), deep-copied, so that later mutation of the state cannot change the fingerprint.
    The shared `game` object is represented by its name and options only."""
    cls = type(state)
    result: dict[str, Any] = {"__class__": f"{cls.__module__}.{cls.__qualname__}"}
    for klass in cls.__mro__:
        for name in _slot_names(klass):
            if name in _SKIPPED_SLOTS or name in result:
                continue
            try:
                value = object.__getattribute__(state, name)
            except AttributeError:
                result[name] = _UNSET
                continue
            # The history holds (actor, id) pairs of ints by contract: a plain copy will do.
            result[name] = list(value) if name == "history" else _snapshot(value)
    for name, value in getattr(state, "__dict__", {}).items():
        if name != "game":
            result[f"__dict__.{name}"] = _snapshot(value)
    game = getattr(state, "game", None)
    if game is not None:
        result["game"] = (game.name, sorted(dict(game.options).items()))
    return result


def fingerprint_diff(before: Mapping[str, Any], after: Mapping[str, Any]) -> str:
    """The fields that differ between two fingerprints, for error messages."""
    lines = []
    for key in sorted(set(before) | set(after)):
        a, b = before.get(key, _UNSET), after.get(key, _UNSET)
        if a != b:
            lines.append(f"  {key}: {_short(a)} -> {_short(b)}")
    return "\n".join(lines) or "  (no difference)"


def _short(value: object, limit: int = 160) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


# ---------------------------------------------------------------------------------- basics
class _Where:
    """Names the game, options, seed and step in messages; computed only when a check fails."""

    __slots__ = ("state",)

    def __init__(self, state: State) -> None:
        self.state = state

    def __str__(self) -> str:
        state = self.state
        game = state.game
        opts = ", ".join(f"{k}={v!r}" for k, v in dict(game.options).items())
        steps = len(state.to_record()["actions"])
        return f"[{game.name}({opts}) players={state.num_players} seed={state.seed} step={steps}]"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _where(state: State) -> _Where:
    return _Where(state)


def deciders(state: State) -> list[int]:
    """Who acts now: `[CHANCE]`, `[seat]`, the sorted seats of a simultaneous decision, or `[]`
    at the end."""
    to_move = state.to_move
    if isinstance(to_move, frozenset):
        return sorted(to_move)
    if to_move == TERMINAL:
        return []
    return [to_move]


def _legal_of(state: State, actor: int) -> list[Action]:
    """Legal actions of one decider (chance outcomes for CHANCE)."""
    if actor == CHANCE:
        return state.legal_actions()
    return state.legal_actions(actor)


def _apply_as(state: State, action: Action | int | Mapping[str, Any], actor: int) -> None:
    """Apply with the player argument only where the contract requires it."""
    if isinstance(state.to_move, frozenset):
        state.apply(action, player=actor)
    else:
        state.apply(action)


def _total_actions(game: Game) -> int:
    return int(game.num_distinct_actions) + int(getattr(game, "max_chance_outcomes", 0))


def _actor_label(actor: int) -> str | int:
    return "chance" if actor == CHANCE else actor


def random_step(state: State, rng: random.Random) -> tuple[int, Action]:
    """Apply one random legal move (a chance outcome from `sample_chance`, or a uniformly chosen
    action of one deciding seat); return (actor, action)."""
    to_move = state.to_move
    if to_move == CHANCE:
        action = state.sample_chance(rng)
        state.apply(action)
        return CHANCE, action
    movers = deciders(state)
    if not movers:
        raise AssertionError(f"{_where(state)} random_step called on a finished game")
    actor = rng.choice(movers)
    legal = state.legal_actions(actor)
    if not legal:
        raise AssertionError(f"{_where(state)} seat {actor} is to move but has no legal action")
    action = rng.choice(legal)
    _apply_as(state, action, actor)
    return actor, action


def play_on(
    state: State,
    max_steps: int = DEFAULT_MAX_STEPS,
    *,
    until: Callable[[State], bool] | None = None,
) -> Iterator[int]:
    """Loop counter for a test that plays `state` on (`for _ in play_on(state): ...`): it
    stops when the game is over or `until(state)` holds, and fails with a message naming the
    game and the step after `max_steps` rounds, so a rule that stops a game from moving on
    fails the test at once instead of hanging it until a time-out."""
    for step in range(max_steps):
        if state.is_terminal() or (until is not None and until(state)):
            return
        yield step
    if state.is_terminal() or (until is not None and until(state)):
        return
    goal = "the game did not end" if until is None else "the awaited moment did not come"
    raise AssertionError(f"{_where(state)} {goal} within {max_steps} steps")


def play_random(
    game: Game, num_players: int, seed: int, *, max_steps: int = DEFAULT_MAX_STEPS
) -> State:
    """Play one random game (moves from `random.Random(seed)`) and return the final state.
    Fails if the game does not end within `max_steps` actions."""
    state = game.new_state(num_players, seed=seed)
    rng = random.Random(seed)
    for _ in range(max_steps):
        if state.is_terminal():
            return state
        random_step(state, rng)
    if not state.is_terminal():
        raise AssertionError(f"{_where(state)} the game did not end within {max_steps} actions")
    return state


def decision_states(game: Game, num_players: int, seed: int) -> list[State]:
    """A copy of the state at every decision of one seeded random game, for tests that judge
    what a seat may do there: chance from `sample_chance`, each deciding seat (every one of a
    simultaneous decision, lowest first) a uniform choice, all from `random.Random(seed)`."""
    state = game.new_state(num_players, seed=seed)
    rng = random.Random(seed)
    copies: list[State] = []
    for _ in play_on(state):
        if state.is_chance():
            state.apply(state.sample_chance(rng))
            continue
        copies.append(state.clone())
        seats = deciders(state)
        moves = [(seat, rng.choice(state.legal_actions(seat))) for seat in seats]
        for seat, action in moves:
            _apply_as(state, action, seat)
    return copies


def random_game_digest(game: Game, num_players: int, seed: int) -> dict[str, Any]:
    """One seeded random game (the moves of `play_random`) as JSON: at every step the actor,
    its legal ids and the action, every seat's view and observation tensor at every tenth step
    and at the end, the returns and the result. The compiled rules and their source
    (`spielwerk.native`) must give the same digest."""
    state = game.new_state(num_players, seed=seed)
    rng = random.Random(seed)
    steps: list[Any] = []

    def views() -> list[Any]:
        seats = range(num_players)
        return [[state.view(p), state.observation_tensor(p)] for p in seats]

    for step in play_on(state):
        if step % 10 == 0:
            steps.append(views())
        to_move = state.to_move
        legal = state.legal_ids() if isinstance(to_move, int) else None
        actor, action = random_step(state, rng)
        steps.append([actor, legal, action.id])
    steps.append(views())
    return {"steps": steps, "returns": state.returns(), "result": state.result()}


def games_under_test() -> list[str]:
    """The registered games, or only those named in the environment variable
    SPIELWERK_TEST_GAMES (comma-separated), for checking one game while others are in work."""
    only = os.environ.get("SPIELWERK_TEST_GAMES")
    return only.split(",") if only else list_games()


def player_counts(game: Game) -> list[int]:
    """Every supported player count."""
    return list(range(game.min_players, game.max_players + 1))


def option_configurations(name: str) -> list[dict[str, Any]]:
    """The defaults, then each other value of every option that has `choices` (the rest at
    defaults): the option sets a conformance run should cover."""
    specs = load(name).option_specs
    configs: list[dict[str, Any]] = [{}]
    for spec in specs:
        for choice in spec.choices or ():
            if choice != spec.default:
                configs.append({spec.name: choice})
    return configs


# ---------------------------------------------------------------------------------- checks
def check_structure(state: State) -> None:
    """`to_move` is well formed and agrees with `is_terminal`, `legal_actions` and the id
    layout (player actions below `num_distinct_actions`, chance outcomes above); the legality
    tests of `apply` (`is_legal_id`, `_apply_if_legal`) agree with `legal_ids` on every id."""
    where = _where(state)
    game = state.game
    n = state.num_players
    to_move = state.to_move
    if isinstance(to_move, frozenset):
        assert to_move, f"{where} an empty set of simultaneous deciders"
        assert all(isinstance(p, int) and 0 <= p < n for p in to_move), (
            f"{where} simultaneous deciders {sorted(to_move)} are not all seats 0..{n - 1}"
        )
    else:
        assert isinstance(to_move, int) and not isinstance(to_move, bool), (
            f"{where} to_move must be an int or a frozenset, got {to_move!r}"
        )
        assert to_move in (CHANCE, TERMINAL) or 0 <= to_move < n, (
            f"{where} to_move {to_move} is neither CHANCE, TERMINAL nor a seat 0..{n - 1}"
        )
    assert state.is_terminal() == (to_move == TERMINAL), (
        f"{where} is_terminal() is {state.is_terminal()} but to_move is {to_move!r}"
    )
    movers = deciders(state)
    num_player_ids = game.num_distinct_actions
    total = _total_actions(game)
    for seat in range(n):
        if seat in movers:
            continue
        assert state.legal_actions(seat) == [], (
            f"{where} seat {seat} is not to move but has legal actions "
            f"{[str(a) for a in state.legal_actions(seat)]}"
        )
    if to_move == TERMINAL:
        assert state.legal_ids() == [], f"{where} the game is over but actions are legal"
        return
    for actor in movers:
        actions = _legal_of(state, actor)
        ids = state.legal_ids() if actor == CHANCE else state.legal_ids(actor)
        who = "chance" if actor == CHANCE else f"seat {actor}"
        assert actions, f"{where} {who} is to move but has no legal action"
        assert [a.id for a in actions] == ids, (
            f"{where} legal_actions and legal_ids of {who} disagree"
        )
        assert len(set(ids)) == len(ids), f"{where} {who} has duplicate legal ids {ids}"
        legal = set(ids)
        disagree = [i for i in range(total) if state.is_legal_id(actor, i) != (i in legal)]
        assert not disagree, (
            f"{where} is_legal_id and legal_ids of {who} disagree on the ids {disagree[:10]}"
        )
        # The check-and-move of `apply` (a game may do both in one dispatch): every id that is
        # not legal is refused, and refusing changes nothing. Legal ids are applied through it
        # by check_legal_actions_apply.
        probe = state.clone()
        untouched = fingerprint(probe)
        accepted = [i for i in range(total) if i not in legal and probe._apply_if_legal(actor, i)]
        assert not accepted, f"{where} apply's check lets {who} make the illegal id {accepted[0]}"
        after = fingerprint(probe)
        assert after == untouched, (
            f"{where} apply's check, refusing the illegal ids of {who}, changed the state:\n"
            f"{fingerprint_diff(untouched, after)}"
        )
        for action in actions:
            assert isinstance(action, Action), f"{where} {action!r} is not an Action"
            if actor == CHANCE:
                assert num_player_ids <= action.id < total, (
                    f"{where} chance outcome {action} has id {action.id}, outside the chance "
                    f"ids {num_player_ids}..{total - 1}"
                )
            else:
                assert 0 <= action.id < num_player_ids, (
                    f"{where} player action {action} has id {action.id}, outside the player "
                    f"ids 0..{num_player_ids - 1}"
                )
    if to_move == CHANCE:
        _check_chance(state)
    elif isinstance(to_move, int):
        assert state.legal_ids() == state.legal_ids(to_move), (
            f"{where} legal_ids() differs from legal_ids({to_move}) for the seat to move"
        )
    check_returns(state)


def _check_chance(state: State) -> None:
    where = _where(state)
    legal = set(state.legal_ids())
    try:
        outcomes = state.chance_outcomes()
    except NotImplementedError:
        outcomes = None  # not enumerable: sample_chance alone must do
    if outcomes is not None:
        ids = [a.id for a, _ in outcomes]
        table = state.game.actions
        expected = [(table[i], p) for i, p in state.chance_ids()]
        assert outcomes == expected, (
            f"{where} chance_outcomes() differs from the outcomes of chance_ids()"
        )
        assert all(table[a.id] is a for a, _ in outcomes), (
            f"{where} chance_outcomes() hands out actions that are not the game's own"
        )
        assert len(set(ids)) == len(ids), f"{where} chance_outcomes lists an outcome twice"
        assert set(ids) == legal, (
            f"{where} chance_outcomes {sorted(ids)} differ from legal_ids {sorted(legal)}"
        )
        total = math.fsum(p for _, p in outcomes)
        assert all(0.0 < p <= 1.0 for _, p in outcomes), (
            f"{where} chance probabilities must lie in (0, 1]: {[p for _, p in outcomes]}"
        )
        assert abs(total - 1.0) < 1e-9, f"{where} chance probabilities sum to {total}, not 1"
    before = fingerprint(state)
    seed = random.Random(state.seed).random()
    first = state.sample_chance(random.Random(seed))
    second = state.sample_chance(random.Random(seed))
    assert first == second, f"{where} sample_chance gave {first} and {second} for one RNG state"
    assert first.id in legal, f"{where} sample_chance gave {first}, not a legal outcome"
    after = fingerprint(state)
    assert before == after, (
        f"{where} sample_chance changed the state:\n{fingerprint_diff(before, after)}"
    )


CHANCE_ALPHA = 1e-6
"""False alarm rate of one chance-sampling check on a correct game (for a fixed seed the
verdict is fixed: a run cannot flake)."""


def chance_kind(state: State) -> tuple[str, ...]:
    """What kind of chance event is pending, for picking a few of each kind to sample: the
    sorted action types of its outcomes ("draw", "roll", "guardian_die", ...)."""
    return tuple(sorted({a.type for a in state.legal_actions()}))


def check_chance_sampling(
    state: State,
    rng: random.Random,
    *,
    least_expected: float = 50.0,
    min_samples: int = 2_000,
    max_samples: int = 40_000,
    alpha: float = CHANCE_ALPHA,
) -> None:
    """At a chance node whose outcomes are listed (`chance_outcomes()`), `sample_chance(rng)`
    draws each outcome as often as its probability says: Pearson's chi-square test over many
    draws (at least `min_samples`, and enough for `least_expected` draws of the rarest
    outcome, at most `max_samples`;
    outcomes expected fewer than 5 times share one bin) must not reject at `alpha`, and no
    outcome expected 25 times or more may be missing. A sampler that always takes the first
    card, skips the last one or ignores the weights fails; with a seeded `rng` the verdict is
    fixed. Sampling leaves the state unchanged."""
    where = _where(state)
    if state.to_move != CHANCE:
        return
    try:
        outcomes = state.chance_outcomes()
    except NotImplementedError:
        return  # not enumerable: nothing to compare with
    if len(outcomes) < 2:
        return
    from scipy.special import chdtrc  # the chi-square survival function; only this check

    index = {action.id: i for i, (action, _) in enumerate(outcomes)}
    least = min(p for _, p in outcomes)
    samples = min(max_samples, max(min_samples, math.ceil(least_expected / least)))
    counts = [0] * len(outcomes)
    before = fingerprint(state)
    for _ in range(samples):
        drawn = state.sample_chance(rng).id
        slot = index.get(drawn)
        assert slot is not None, f"{where} sample_chance gave id {drawn}, not a listed outcome"
        counts[slot] += 1
    after = fingerprint(state)
    assert before == after, (
        f"{where} sample_chance changed the state:\n{fingerprint_diff(before, after)}"
    )
    for (action, p), count in zip(outcomes, counts, strict=True):
        # A Poisson count with mean >= 25 is 0 with probability below 2e-11.
        assert count or p * samples < 25, (
            f"{where} sample_chance never drew {action} in {samples} draws "
            f"(expected {p * samples:.0f} times)"
        )
    observed: list[float] = []
    expected: list[float] = []
    rest_observed = rest_expected = 0.0
    for (_, p), count in zip(outcomes, counts, strict=True):
        if p * samples >= 5:
            observed.append(count)
            expected.append(p * samples)
        else:
            rest_observed += count
            rest_expected += p * samples
    if rest_expected:
        observed.append(rest_observed)
        expected.append(rest_expected)
    if len(observed) < 2:
        return  # too rare to test at this sample size
    statistic = math.fsum((o - e) ** 2 / e for o, e in zip(observed, expected, strict=True))
    p_value = float(chdtrc(len(observed) - 1, statistic))
    if p_value < alpha:
        worst = sorted(
            zip(outcomes, counts, strict=True),
            key=lambda item: -abs(item[1] - item[0][1] * samples) / math.sqrt(item[0][1] * samples),
        )[:4]
        detail = ", ".join(
            f"{action}: drawn {count}, expected {p * samples:.1f}" for (action, p), count in worst
        )
        raise AssertionError(
            f"{where} sample_chance does not follow chance_outcomes(): chi-square "
            f"{statistic:.1f} over {len(observed) - 1} degrees of freedom, p = {p_value:.2g} "
            f"after {samples} draws ({detail})"
        )


def check_returns(state: State) -> None:
    """`returns()` holds one finite float per seat (all 0.0 before the end); so does
    `running_scores()` where the game keeps one."""
    where = _where(state)
    values = state.returns()
    assert len(values) == state.num_players, (
        f"{where} returns() has {len(values)} entries for {state.num_players} seats"
    )
    for value in values:
        assert isinstance(value, float) and math.isfinite(value), (
            f"{where} returns() must hold finite floats, got {values!r}"
        )
    if not state.is_terminal():
        assert all(v == 0.0 for v in values), f"{where} returns before the end: {values}"
    running = state.running_scores()
    if running is not None:
        assert len(running) == state.num_players and all(
            isinstance(v, float) and math.isfinite(v) for v in running
        ), f"{where} running_scores() must be one finite float per seat, got {running!r}"


def check_result(state: State) -> None:
    """At the end, `result()` is a non-empty JSON-ready dict and `returns()` is well formed."""
    where = _where(state)
    assert state.is_terminal(), f"{where} check_result needs a finished game"
    result = state.result()
    assert isinstance(result, dict) and result, f"{where} result() is empty at the end: {result!r}"
    text = json.dumps(result, allow_nan=False)
    assert json.loads(text) == result, f"{where} result() does not survive JSON: {result!r}"
    check_returns(state)


def check_views_json(state: State) -> None:
    """Every seat's view and the public view (`None`) is a dict that `json.dumps` writes without
    help and that reads back equal, and looking at views changes nothing."""
    where = _where(state)
    before = fingerprint(state)
    for viewer in [None, *range(state.num_players)]:
        view = state.view(viewer)
        assert isinstance(view, dict), f"{where} view({viewer}) is not a dict: {type(view)}"
        try:
            text = json.dumps(view, allow_nan=False)
        except (TypeError, ValueError) as error:
            raise AssertionError(f"{where} view({viewer}) is not JSON-ready: {error}") from None
        assert json.loads(text) == view, (
            f"{where} view({viewer}) changes in a JSON round trip (tuples, non-str keys?)"
        )
    after = fingerprint(state)
    assert before == after, f"{where} view() changed the state:\n{fingerprint_diff(before, after)}"


def component_multiset(state: State) -> Counter[Hashable]:
    """All components over all zones of `component_zones()`, as a multiset."""
    where = _where(state)
    zones = state.component_zones()
    assert isinstance(zones, Mapping), f"{where} component_zones() must return a mapping"
    counter: Counter[Hashable] = Counter()
    for zone, items in zones.items():
        try:
            counter.update(items)
        except TypeError:
            raise AssertionError(f"{where} zone {zone!r} holds unhashable components") from None
    return counter


def check_conservation(state: State, baseline: Counter[Hashable]) -> None:
    """The multiset of components is the same as at the start: nothing appears or vanishes."""
    now = component_multiset(state)
    if now != baseline:
        gained = now - baseline
        lost = baseline - now
        raise AssertionError(
            f"{_where(state)} components are not conserved: "
            f"appeared {dict(gained)!r}, vanished {dict(lost)!r}"
        )


def check_encoding(state: State) -> None:
    """`encode`/`decode` and `action_from_json(to_json)` round-trip on every legal action, and
    each action's JSON form survives `json.dumps`."""
    where = _where(state)
    game = state.game
    total = _total_actions(game)
    for actor in deciders(state):
        for action in _legal_of(state, actor):
            code = game.encode(action)
            assert isinstance(code, int) and 0 <= code < total, (
                f"{where} encode({action}) = {code!r}, outside 0..{total - 1}"
            )
            assert game.decode(code) == action, (
                f"{where} decode(encode({action})) = {game.decode(code)}"
            )
            data = action.to_json()
            assert isinstance(data, dict) and isinstance(data.get("type"), str), (
                f"{where} {action}.to_json() must be a dict with a 'type': {data!r}"
            )
            wire = json.loads(json.dumps(data, allow_nan=False))
            assert wire == data, f"{where} {action}.to_json() changes in a JSON round trip"
            assert game.action_from_json(wire) == action, (
                f"{where} action_from_json({wire}) = {game.action_from_json(wire)}, not {action}"
            )


def _bad_attempts(
    state: State, rng: random.Random, samples: int
) -> Iterator[tuple[str, Any, int | None]]:
    """(what, action, player) triples that must all be refused now."""
    game = state.game
    n = state.num_players
    total = _total_actions(game)
    num_player_ids = game.num_distinct_actions
    movers = deciders(state)
    legal_by_actor = {actor: _legal_of(state, actor) for actor in movers}
    legal_ids = {a.id for actions in legal_by_actor.values() for a in actions}
    one_player = movers[0] if len(movers) == 1 else None
    player_arg = None if not isinstance(state.to_move, frozenset) else movers[0]

    # Ids that are not legal now, in all three forms; always one chance id at a player node
    # and one player id at a chance node.
    illegal = [i for i in range(total) if i not in legal_ids]
    picks = rng.sample(illegal, min(samples, len(illegal)))
    if state.to_move == CHANCE:
        wrong_kind = [i for i in illegal if i < num_player_ids]
    else:
        wrong_kind = [i for i in illegal if i >= num_player_ids]
    if wrong_kind:
        picks.append(rng.choice(wrong_kind))
    for index, action_id in enumerate(picks):
        action = game.decode(action_id)
        form: Any = (action, action_id, action.to_json())[index % 3]
        yield (
            f"illegal action {action} (id {action_id}) as {type(form).__name__}",
            form,
            (player_arg),
        )

    # Out-of-range integers and values that are no action at all.
    for bad in (-1, total, total + 7, 10**12, True):
        yield f"out-of-range id {bad!r}", bad, player_arg
    malformed: list[Any] = [None, "play", 3.5, [], {}, {"type": None}, {"type": 7}]
    malformed.append({"type": "\u00abno such action type\u00bb"})
    sample_legal = next(iter(a for actions in legal_by_actor.values() for a in actions), None)
    template = (sample_legal or game.decode(0)).to_json()
    malformed.append({**template, "\u00abbogus\u00bb": 1})
    for key in template:
        if key != "type":
            malformed.append({**template, key: "\u00abnonsense\u00bb"})
            malformed.append({**template, key: [1, 2]})
    if len(template) > 1:
        malformed.append({"type": template["type"]})
    for bad in malformed:
        yield f"malformed action {bad!r}", bad, player_arg

    if state.to_move == TERMINAL:
        return
    # A legal action offered by someone who is not to move.
    for actor, actions in legal_by_actor.items():
        action = rng.choice(actions)
        others = [p for p in range(n) if p not in movers]
        if actor != CHANCE:
            others.append(CHANCE)
        for other in others:
            who = "chance" if other == CHANCE else f"seat {other}"
            yield f"{action} (legal for {_actor_label(actor)}) by {who}", action, other
        if actor == CHANCE:
            yield f"chance outcome {action} by seat 0", action, 0
    if isinstance(state.to_move, frozenset):
        action = legal_by_actor[movers[0]][0]
        yield f"{action} without naming the player at a simultaneous decision", action, None
    elif one_player is not None and one_player != CHANCE:
        # Another seat's out-of-turn action: a legal action id of the mover, with the wrong
        # player, was covered above; also out-of-range seat numbers.
        action = legal_by_actor[one_player][0]
        for bad_seat in (n, n + 3, -7):
            yield f"{action} by non-existent seat {bad_seat}", action, bad_seat


def check_illegal_actions(
    state: State, rng: random.Random, samples: int = 6, *, each: bool = True
) -> None:
    """Illegal ids (including chance ids at a player node and vice versa), wrong players,
    out-of-range ints, malformed JSON and any action after the end raise `IllegalAction` with a
    message, and leave the state's fingerprint unchanged (compared after each attempt, or once
    after all of them if `each` is false)."""
    where = _where(state)
    before = fingerprint(state)
    tried: list[str] = []
    for what, action, player in _bad_attempts(state, rng, samples):
        tried.append(what)
        try:
            if player is None:
                state.apply(action)
            else:
                state.apply(action, player=player)
        except IllegalAction as error:
            assert str(error).strip(), f"{where} {what}: IllegalAction without a message"
        except Exception as error:
            raise AssertionError(
                f"{where} {what} raised {type(error).__name__}({error}) instead of IllegalAction"
            ) from error
        else:
            raise AssertionError(f"{where} {what} was accepted")
        if each:
            after = fingerprint(state)
            if after != before:
                raise AssertionError(
                    f"{where} refusing {what} changed the state:\n{fingerprint_diff(before, after)}"
                )
    after = fingerprint(state)
    if after != before:
        raise AssertionError(
            f"{where} refusing one of {tried} changed the state:\n{fingerprint_diff(before, after)}"
        )


def check_legal_actions_apply(state: State, rng: random.Random, limit: int | None = None) -> None:
    """Each legal action (or `limit` random ones per decider) applies to a clone without error,
    `apply_trusted` gives the same state as `apply`, the record grows by exactly that entry,
    and the original is untouched."""
    where = _where(state)
    before = fingerprint(state)
    history = len(state.to_record()["actions"])
    for actor in deciders(state):
        actions = _legal_of(state, actor)
        if limit is not None and len(actions) > limit:
            actions = rng.sample(actions, limit)
        for action in actions:
            checked = state.clone()
            try:
                _apply_as(checked, action, actor)
            except Exception as error:
                raise AssertionError(
                    f"{where} legal action {action} of {_actor_label(actor)} failed: "
                    f"{type(error).__name__}: {error}"
                ) from error
            trusted = state.clone()
            trusted.apply_trusted(action.id, actor)
            a, b = fingerprint(checked), fingerprint(trusted)
            assert a == b, (
                f"{where} apply_trusted({action}) differs from apply:\n{fingerprint_diff(a, b)}"
            )
            entries = checked.to_record()["actions"]
            assert len(entries) == history + 1, (
                f"{where} applying {action} added {len(entries) - history} record entries"
            )
            expected = {"actor": _actor_label(actor), "action": action.to_json()}
            assert entries[-1] == expected, (
                f"{where} record entry for {action} is {entries[-1]!r}, expected {expected!r}"
            )
    after = fingerprint(state)
    assert before == after, (
        f"{where} applying actions to clones changed the original:\n"
        f"{fingerprint_diff(before, after)}"
    )


def _mutable_parts(value: Any, depth: int = 0) -> Iterator[Any]:
    """Lists, dicts and sets reachable from a value (a few levels deep)."""
    if depth > 3:
        return
    if isinstance(value, list | dict | set):
        yield value
    items: Iterable[Any] = ()
    if isinstance(value, list | tuple | set | frozenset):
        items = value
    elif isinstance(value, dict):
        items = value.values()
    for item in items:
        yield from _mutable_parts(item, depth + 1)


def check_clone_independent(state: State, rng: random.Random) -> None:
    """A clone starts equal; mutating it (in place, and by applying an action) leaves the
    original alone; the same action applied to two clones gives equal states."""
    where = _where(state)
    before = fingerprint(state)
    twin = state.clone()
    assert twin is not state, f"{where} clone() returned the state itself"
    copied = fingerprint(twin)
    assert copied == before, f"{where} clone differs:\n{fingerprint_diff(before, copied)}"

    # Poke every mutable container of the clone; the original must not notice. Undone after,
    # in case a game deliberately shares read-only data.
    sentinel = object()
    for klass in type(twin).__mro__:
        for name in _slot_names(klass):
            if name in _SKIPPED_SLOTS or not hasattr(twin, name):
                continue
            for part in _mutable_parts(getattr(twin, name)):
                if isinstance(part, list):
                    part.append(sentinel)
                elif isinstance(part, dict):
                    part[sentinel] = sentinel
                else:
                    part.add(sentinel)
                try:
                    now = fingerprint(state)
                finally:
                    if isinstance(part, list):
                        part.pop()
                    elif isinstance(part, dict):
                        del part[sentinel]
                    else:
                        part.discard(sentinel)
                assert now == before, (
                    f"{where} the clone shares its field {name!r} with the original:\n"
                    f"{fingerprint_diff(before, now)}"
                )

    if state.is_terminal():
        return
    first, second = state.clone(), state.clone()
    actor = rng.choice(deciders(state))
    action = rng.choice(_legal_of(state, actor))
    _apply_as(first, action, actor)
    after = fingerprint(state)
    assert after == before, (
        f"{where} applying {action} to a clone changed the original:\n"
        f"{fingerprint_diff(before, after)}"
    )
    _apply_as(second, action, actor)
    a, b = fingerprint(first), fingerprint(second)
    assert a == b, f"{where} {action} applied to two clones differs:\n{fingerprint_diff(a, b)}"


def check_replay(state: State, expected_actions: Sequence[Mapping[str, Any]] | None = None) -> None:
    """`to_record()` survives JSON, lists exactly the actions applied (if given), and
    `replay` of it rebuilds the same state and result."""
    where = _where(state)
    record = state.to_record()
    try:
        text = json.dumps(record, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise AssertionError(f"{where} the record is not JSON-ready: {error}") from None
    wire = json.loads(text)
    assert wire == record, f"{where} the record changes in a JSON round trip"
    game = state.game
    assert wire["game"] == game.name, f"{where} record names game {wire['game']!r}"
    assert wire["players"] == state.num_players, f"{where} record has the wrong player count"
    assert wire["options"] == json.loads(json.dumps(dict(game.options))), (
        f"{where} record options {wire['options']} differ from the game's"
    )
    if expected_actions is not None:
        assert wire["actions"] == list(expected_actions), (
            f"{where} the record's actions differ from the actions applied"
        )
    rebuilt = replay(wire)
    a, b = fingerprint(state), fingerprint(rebuilt)
    assert a == b, f"{where} replay does not rebuild the state:\n{fingerprint_diff(a, b)}"
    if state.is_terminal():
        assert rebuilt.result() == state.result(), f"{where} replay changes the result"
        assert wire["result"] == state.result(), f"{where} the record's result is wrong"
        assert rebuilt.returns() == state.returns(), f"{where} replay changes the returns"
    else:
        assert wire["result"] is None, f"{where} an unfinished game's record has a result"


def _texts(state: State, seat: int) -> list[str]:
    return [state.describe(a, seat) for a in state.legal_actions(seat)]


def check_no_leak(state: State, rng: random.Random) -> None:
    """For each seat p (and the spectator, None): a `resample(p, rng)` gives p the same view,
    the same legal actions and the same action texts, keeps the public view, leaves the
    original untouched, depends on nothing p does not know (resampling the resample with the
    same RNG state gives the same state), and its own record replays."""
    where = _where(state)
    before = fingerprint(state)
    public = state.view(None)
    samples: list[tuple[int | None, State]] = []
    for viewer in [None, *range(state.num_players)]:
        sample = state.resample(viewer, rng)
        samples.append((viewer, sample))
        assert sample is not state, f"{where} resample({viewer}) returned the state itself"
        after = fingerprint(state)
        assert after == before, (
            f"{where} resample({viewer}) changed the original:\n{fingerprint_diff(before, after)}"
        )
        assert sample.num_players == state.num_players, f"{where} resample changed the seats"
        assert sample.to_move == state.to_move, (
            f"{where} resample({viewer}) changed to_move: {state.to_move!r} -> {sample.to_move!r}"
        )
        if viewer is not None:
            mine, theirs = state.view(viewer), sample.view(viewer)
            assert mine == theirs, (
                f"{where} seat {viewer} can tell a resample from the truth by its view"
                + _view_diff(mine, theirs)
            )
            ids, sample_ids = state.legal_ids(viewer), sample.legal_ids(viewer)
            assert ids == sample_ids, (
                f"{where} seat {viewer} has legal ids {ids} but {sample_ids} in a resample"
            )
            texts, sample_texts = _texts(state, viewer), _texts(sample, viewer)
            assert texts == sample_texts, (
                f"{where} seat {viewer}'s action texts differ in a resample: "
                f"{texts} vs {sample_texts}"
            )
        assert sample.view(None) == public, (
            f"{where} resample({viewer}) changed the public view"
            + _view_diff(public, sample.view(None))
        )
    for viewer, sample in samples:
        # A resample may depend only on what the viewer knows: resampling `sample` (which the
        # viewer cannot tell from the truth) must give exactly what resampling the truth gives.
        seed = rng.randrange(2**32)
        from_truth = fingerprint(state.resample(viewer, random.Random(seed)))
        from_sample = fingerprint(sample.resample(viewer, random.Random(seed)))
        assert from_truth == from_sample, (
            f"{where} resample({viewer}) depends on more than seat {viewer} knows:\n"
            f"{fingerprint_diff(from_truth, from_sample)}"
        )
        rebuilt = replay(json.loads(json.dumps(sample.to_record())))
        a, b = fingerprint(sample), fingerprint(rebuilt)
        assert a == b, (
            f"{where} the record of resample({viewer}) does not replay to it:\n"
            f"{fingerprint_diff(a, b)}"
        )


SeatPolicy = Callable[[State, int, Sequence[int]], Sequence[float]]
"""A learned policy as search uses it: (state, seat, legal ids) -> one weight per legal id."""


def check_observation_no_leak(
    state: State, rng: random.Random, policy: SeatPolicy | None = None
) -> None:
    """What a network reads carries nothing a seat may not know: for each deciding seat p, the
    observation tensor (of `game.observation_shape`, finite) is the same on the state and on a
    `resample(p, rng)` of it, and so are `policy`'s move weights for p, if a policy is given
    (e.g. `spielwerk.agents.network.NetworkPrior`). Games without a tensor are skipped."""
    if state.game.observation_layout is None or state.is_terminal():
        return
    where = _where(state)
    shape = state.game.observation_shape
    for seat in deciders(state):
        if seat == CHANCE:
            continue
        sample = state.resample(seat, rng)
        mine, theirs = state.observation_tensor(seat), sample.observation_tensor(seat)
        assert (len(mine),) == shape and all(math.isfinite(x) for x in mine), (
            f"{where} seat {seat}'s observation tensor is not {shape} finite floats"
        )
        differ = [i for i, (a, b) in enumerate(zip(mine, theirs, strict=True)) if a != b]
        assert not differ, (
            f"{where} seat {seat} can tell a resample from the truth by its observation tensor "
            f"(positions {differ[:10]})"
        )
        if policy is not None:
            legal = state.legal_ids(seat)
            weights, sample_weights = (
                list(policy(state, seat, legal)),
                list(policy(sample, seat, legal)),
            )
            assert weights == sample_weights, (
                f"{where} seat {seat}'s policy differs on a resample: {weights} vs {sample_weights}"
            )


def _view_diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> str:
    keys = sorted(k for k in set(a) | set(b) if a.get(k) != b.get(k))
    return ": " + "; ".join(f"{k}: {_short(a.get(k))} vs {_short(b.get(k))}" for k in keys)


def _check_describe(state: State) -> None:
    where = _where(state)
    for actor in deciders(state):
        for action in _legal_of(state, actor):
            for viewer in [None, *range(state.num_players)]:
                text = state.describe(action, viewer)
                assert isinstance(text, str) and text.strip(), (
                    f"{where} describe({action}, {viewer}) is not a non-empty text: {text!r}"
                )


# ---------------------------------------------------------------------------------- driver
@dataclass
class ConformanceReport:
    """What one conformance run played."""

    game: str
    options: dict[str, Any]
    num_players: int
    seed: int
    steps: int
    result: dict[str, Any]
    returns: list[float]
    record: dict[str, Any] = field(repr=False)


Check = Callable[[State], None]


def run_conformance(
    game: Game | str,
    num_players: int,
    seed: int,
    *,
    every: int = 4,
    max_steps: int = DEFAULT_MAX_STEPS,
    extra_checks: Sequence[Check] = (),
    sampled_per_kind: int = 2,
) -> ConformanceReport:
    """Play one random game and run every check at every step; the costly ones (all legal
    actions on clones, clone mutation, replay, resample for every seat) every `every`-th step
    and at the end; the chance-sampling test at the first `sampled_per_kind` chance nodes of
    each kind (`chance_kind`). `extra_checks` are called with the state at every step."""
    if isinstance(game, str):
        game = load(game)
    if every < 1:
        raise ValueError("every must be at least 1")
    state = game.new_state(num_players, seed=seed)
    again = game.new_state(num_players, seed=seed)
    a, b = fingerprint(state), fingerprint(again)
    assert a == b, (
        f"{_where(state)} new_state is not determined by its seed:\n{fingerprint_diff(a, b)}"
    )
    baseline = component_multiset(state)
    assert baseline, f"{_where(state)} component_zones() lists no components"
    moves = random.Random(seed)  # the game's course depends only on the seed
    checks = random.Random(seed ^ 0x5EED_C0DE)
    applied: list[dict[str, Any]] = []
    sampled: Counter[tuple[str, ...]] = Counter()
    step = 0
    while True:
        full = step % every == 0 or state.is_terminal()
        check_structure(state)
        check_conservation(state, baseline)
        check_views_json(state)
        check_encoding(state)
        check_illegal_actions(state, checks, samples=6 if full else 2, each=full)
        for extra in extra_checks:
            extra(state)
        if state.to_move == CHANCE:
            kind = chance_kind(state)
            if sampled[kind] < sampled_per_kind:
                sampled[kind] += 1
                check_chance_sampling(state, checks)
        if full:
            _check_describe(state)
            check_legal_actions_apply(state, checks)
            check_clone_independent(state, checks)
            check_replay(state, applied)
            check_no_leak(state, checks)
            check_observation_no_leak(state, checks)
        else:
            check_legal_actions_apply(state, checks, limit=1)
        if state.is_terminal():
            break
        if step >= max_steps:
            raise AssertionError(f"{_where(state)} the game did not end within {max_steps} actions")
        actor, action = random_step(state, moves)
        applied.append({"actor": _actor_label(actor), "action": action.to_json()})
        step += 1
    check_result(state)
    record = state.to_record()
    return ConformanceReport(
        game=game.name,
        options=dict(game.options),
        num_players=num_players,
        seed=seed,
        steps=step,
        result=state.result(),
        returns=state.returns(),
        record=record,
    )
