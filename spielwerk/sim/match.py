"""Run one game between agents: chance from a seeded RNG, each seat asked with its own Turn."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from spielwerk.agents.base import Agent, make_turn
from spielwerk.core.actions import Action
from spielwerk.core.game import Game
from spielwerk.core.state import CHANCE, State

StepHook = Callable[[State, int, Action], None]
"""Called with the state *before* each action, the actor and the action (e.g. to print it)."""


@dataclass
class ThinkTime:
    """What each seat's agent spent choosing in one game: wall seconds and decisions, per seat
    (equal-time strength claims quote seconds per decision)."""

    seconds: list[float] = field(default_factory=list)
    decisions: list[int] = field(default_factory=list)


MAX_STEPS = 1_000_000
"""Far beyond any game's length at its bounded options (Tintenherz: 5000 turns at most)."""


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int | None = None,
    on_step: StepHook | None = None,
    max_steps: int = MAX_STEPS,
    think: ThinkTime | None = None,
) -> State:
    """Play one game to the end and return the final state (its record holds everything).
    RuntimeError after `max_steps` steps: a game that never ends is a bug in its rules, and
    a simulation should say so rather than hang. `think`, if given, gets each seat's time
    spent choosing and its number of decisions."""
    state = game.new_state(len(agents), seed=seed)
    if think is not None:
        think.seconds[:] = [0.0] * len(agents)
        think.decisions[:] = [0] * len(agents)
    chance_rng = random.Random(state.seed)
    sample_rng = random.Random(state.seed ^ 0x5A5A5A5A)
    while not state.is_terminal():
        if len(state.history) >= max_steps:
            raise RuntimeError(
                f"{game.name} (seed {state.seed}) did not end within {max_steps} steps"
            )
        to_move = state.to_move
        if to_move == CHANCE:
            moves: list[tuple[int, Action]] = [(CHANCE, state.sample_chance(chance_rng))]
        elif isinstance(to_move, frozenset):
            # Simultaneous decision: every seat chooses from the same state, none sees another.
            moves = [(p, _ask(agents[p], state, p, sample_rng, think)) for p in sorted(to_move)]
        else:
            moves = [(to_move, _ask(agents[to_move], state, to_move, sample_rng, think))]
        for actor, action in moves:
            if on_step is not None:
                on_step(state, actor, action)
            state.apply(action, player=actor)
    return state


def _ask(
    agent: Agent, state: State, player: int, rng: random.Random, think: ThinkTime | None
) -> Action:
    if think is None:
        return agent.act(make_turn(state, player, agent.wants_sample, rng))
    start = time.perf_counter()
    action = agent.act(make_turn(state, player, agent.wants_sample, rng))
    think.seconds[player] += time.perf_counter() - start
    think.decisions[player] += 1
    return action
