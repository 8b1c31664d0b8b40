"""The measurements of `spielwerk bench`, each a small function returning figures.

Every loop that drives a game from Python has the same shape for spielwerk and for OpenSpiel:
integer actions, chance drawn from the listed outcomes by one `random.random()` call, a player
action chosen uniformly from the legal ones; neither side checks legality on apply (spielwerk's
`apply_trusted`, OpenSpiel's `apply_action`).
"""

from __future__ import annotations

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import spielwerk
from spielwerk.agents.base import make_turn
from spielwerk.agents.mcts import MCTSAgent
from spielwerk.core.state import CHANCE, State

Figures = dict[str, Any]


def _timed_games(play_one: Callable[[int], int], budget: float, min_games: int) -> Figures:
    """Play games (seeds 0, 1, ...) until `budget` seconds and `min_games` games have passed."""
    games = steps = 0
    start = time.perf_counter()
    while True:
        steps += play_one(games)
        games += 1
        elapsed = time.perf_counter() - start
        if elapsed >= budget and games >= min_games:
            break
    return {
        "games": games,
        "steps": steps,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "steps_per_s": steps / elapsed,
    }


def random_game(game: spielwerk.Game, players: int, seed: int) -> int:
    """One random game on the fast path; returns its number of steps (chance included)."""
    state = game.new_state(players, seed=seed)
    rng = random.Random(seed)
    rand = rng.random
    steps = 0
    while True:
        to_move = state.to_move
        if to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), CHANCE)
        elif isinstance(to_move, int):
            if to_move < 0:
                return steps
            ids = state.legal_ids(to_move)
            state.apply_trusted(ids[int(rand() * len(ids))], to_move)
        else:  # simultaneous: the lowest seat still to choose goes first
            seat = min(to_move)
            ids = state.legal_ids(seat)
            state.apply_trusted(ids[int(rand() * len(ids))], seat)
        steps += 1


def spielwerk_random_play(name: str, players: int, budget: float, min_games: int = 20) -> Figures:
    game = spielwerk.load(name)
    return _timed_games(lambda seed: random_game(game, players, seed), budget, min_games)


def openspiel_random_play(name: str, budget: float, min_games: int = 20) -> Figures:
    """An OpenSpiel C++ game driven by the same Python loop."""
    return _timed_games(openspiel_random_game(name), budget, min_games)


def openspiel_random_game(name: str) -> Callable[[int], int]:
    """One random game of OpenSpiel's C++ `name` through a Python loop: seed in, steps out."""
    import pyspiel

    game = pyspiel.load_game(name)

    def play_one(seed: int) -> int:
        rand = random.Random(seed).random
        state = game.new_initial_state()
        steps = 0
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rand() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rand() * len(legal))])
            steps += 1
        return steps

    return play_one


def openspiel_evaluate_bots(name: str, budget: float, min_games: int = 100) -> Figures:
    """OpenSpiel's all-C++ loop: `evaluate_bots` with uniform random C++ bots."""
    import pyspiel

    game = pyspiel.load_game(name)
    bots = [pyspiel.make_uniform_random_bot(p, 1000 + p) for p in range(game.num_players())]

    def play_one(seed: int) -> int:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed)
        return 0  # steps are not reported by evaluate_bots

    figures = _timed_games(play_one, budget, min_games)
    figures.pop("steps_per_s")
    figures.pop("steps")
    return figures


def mid_game_state(name: str, players: int, decisions: int = 20, seed: int = 1) -> State:
    """A state after `decisions` random player decisions (chance resolved), a player to move."""
    state = spielwerk.load(name).new_state(players, seed=seed)
    rng = random.Random(seed)
    made = 0
    while not state.is_terminal():
        if state.to_move == CHANCE:
            state.apply_trusted(state.sample_chance_id(rng), CHANCE)
            continue
        if made >= decisions:
            break
        seat = state.to_move if isinstance(state.to_move, int) else min(state.to_move)
        state.apply_trusted(rng.choice(state.legal_ids(seat)), seat)
        made += 1
    return state


def _per_call_us(fn: Callable[[], object], budget: float) -> float:
    calls = 0
    start = time.perf_counter()
    while True:
        for _ in range(50):
            fn()
        calls += 50
        elapsed = time.perf_counter() - start
        if elapsed >= budget:
            return elapsed / calls * 1e6


def state_costs(name: str, players: int, budget: float) -> Figures:
    """Microseconds per `clone()`, `view(seat)` and `resample(seat)` in mid-game."""
    state = mid_game_state(name, players)
    seat = state.to_move if isinstance(state.to_move, int) else min(state.to_move)
    rng = random.Random(0)
    return {
        "clone_us": _per_call_us(state.clone, budget),
        "view_us": _per_call_us(lambda: state.view(seat), budget),
        "resample_us": _per_call_us(lambda: state.resample(seat, rng), budget),
    }


def spielwerk_mcts(name: str, players: int, iterations: int) -> Figures:
    """spielwerk's information-set MCTS from a mid-game position: iterations per second."""
    state = mid_game_state(name, players)
    seat = state.to_move
    assert isinstance(seat, int)
    agent = MCTSAgent(iterations=iterations, seed=0)
    turn = make_turn(state, seat, True, random.Random(0))
    start = time.perf_counter()
    agent.act(turn)
    elapsed = time.perf_counter() - start
    return {
        "iterations": agent.last_iterations,
        "iterations_per_s": agent.last_iterations / elapsed,
    }


def openspiel_ismcts(name: str, players: int, iterations: int) -> Figures:
    """OpenSpiel's Python ISMCTS bot (random rollouts) on the same spielwerk game through the
    OpenSpiel adapter, from the same position, with the same budget."""
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    from spielwerk.adapters.openspiel import SpielwerkOpenSpielState, register

    register()
    game = pyspiel.load_game(f"spielwerk_{name}(players={players})")
    state = SpielwerkOpenSpielState(game, mid_game_state(name, players))
    bot = ismcts.ISMCTSBot(
        game,
        mcts.RandomRolloutEvaluator(1, np.random.RandomState(0)),
        uct_c=2.0,
        max_simulations=iterations,
        random_state=np.random.RandomState(1),
    )
    start = time.perf_counter()
    bot.step(state)
    elapsed = time.perf_counter() - start
    return {"iterations": iterations, "iterations_per_s": iterations / elapsed}


def startup(snippets: dict[str, str], runs: int) -> dict[str, Figures]:
    """Per snippet, seconds for a fresh interpreter to run it (median of `runs`) minus a bare
    interpreter start; the snippets and the bare start take turns, so that a change of load
    touches all alike.

    Modules run from their compiled byte-code, as in an installed package (pip compiles it on
    install): the byte-code goes to a scratch directory (`PYTHONPYCACHEPREFIX`, even where
    `PYTHONDONTWRITEBYTECODE` is set), written by one untimed run of each snippet first."""
    import os
    import tempfile

    codes = {"": "pass"} | snippets
    with tempfile.TemporaryDirectory() as scratch:
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        env["PYTHONPYCACHEPREFIX"] = scratch

        def once(code: str) -> float:
            start = time.perf_counter()
            subprocess.run([sys.executable, "-c", code], check=True, env=env)
            return time.perf_counter() - start

        for code in codes.values():
            once(code)
        times: dict[str, list[float]] = {name: [] for name in codes}
        for _ in range(runs):
            for name, code in codes.items():
                times[name].append(once(code))
    bare = statistics.median(times.pop(""))
    return {
        name: {"seconds": max(0.0, statistics.median(spent) - bare), "interpreter_seconds": bare}
        for name, spent in times.items()
    }


# ---------------------------------------------------------------------- issue 21: the kernels
def public_api_game(game: spielwerk.Game, players: int, seed: int) -> int:
    """One random game through the public API only: `legal_actions()`, `chance_outcomes()` and
    a checked `apply(Action)`, as a newcomer writes it; returns its number of steps."""
    state = game.new_state(players, seed=seed)
    rand = random.Random(seed).random
    steps = 0
    while not state.is_terminal():
        if state.is_chance():
            outcomes = state.chance_outcomes()
            state.apply(outcomes[int(rand() * len(outcomes))][0])
        else:
            legal = state.legal_actions()
            state.apply(legal[int(rand() * len(legal))])
        steps += 1
    return steps


def spielwerk_public_api(name: str, players: int, budget: float, min_games: int = 20) -> Figures:
    game = spielwerk.load(name)
    return _timed_games(lambda seed: public_api_game(game, players, seed), budget, min_games)


def interleaved_games(
    loops: dict[str, Callable[[int], int]], budget: float, rounds: int = 10
) -> dict[str, Figures]:
    """Games/s of several loops timed in turns: `rounds` rounds, in each every loop plays for
    budget / rounds seconds (the order alternating), games numbered on across rounds. A
    virtual machine whose speed drifts over minutes slows all loops alike, so their ratio is
    steadier than that of loops timed one after the other."""
    games = dict.fromkeys(loops, 0)
    steps = dict.fromkeys(loops, 0)
    seconds = dict.fromkeys(loops, 0.0)
    slice_seconds = budget / rounds
    names = list(loops)
    for round_number in range(rounds):
        for name in names if round_number % 2 == 0 else names[::-1]:
            play_one = loops[name]
            start = time.perf_counter()
            while True:
                steps[name] += play_one(games[name])
                games[name] += 1
                if time.perf_counter() - start >= slice_seconds:
                    break
            seconds[name] += time.perf_counter() - start
    return {
        name: {
            "games": games[name],
            "steps": steps[name],
            "seconds": seconds[name],
            "games_per_s": games[name] / seconds[name],
            "steps_per_s": steps[name] / seconds[name],
            "rounds": rounds,
        }
        for name in names
    }


def public_api_against_hearts(name: str, players: int, budget: float) -> dict[str, Figures]:
    """The public-API loop of `name` and OpenSpiel hearts' loop (`openspiel_random_play`'s),
    timed in turns (`interleaved_games`)."""
    game = spielwerk.load(name)
    play_hearts = openspiel_random_game("hearts")

    return interleaved_games(
        {name: lambda seed: public_api_game(game, players, seed), "openspiel:hearts": play_hearts},
        budget,
    )


def kernel_mcts(name: str, players: int, iterations: int) -> Figures:
    """spielwerk's compiled information-set MCTS (random rollouts) from the mid-game position
    of `spielwerk_mcts`, after one warm-up search (compiled code loaded)."""
    from spielwerk.agents.kernel_mcts import KernelMCTSAgent

    state = mid_game_state(name, players)
    seat = state.to_move
    assert isinstance(seat, int)
    turn = make_turn(state, seat, True, random.Random(0))
    KernelMCTSAgent(name, iterations=10, seed=1).act(turn)
    agent = KernelMCTSAgent(name, iterations=iterations, seed=0)
    start = time.perf_counter()
    agent.act(turn)
    elapsed = time.perf_counter() - start
    return {
        "iterations": agent.last_iterations,
        "iterations_per_s": agent.last_iterations / elapsed,
    }


def openspiel_cpp_ismcts(name: str, iterations: int, decisions: int = 20) -> Figures:
    """OpenSpiel's C++ `ISMCTSBot` (random rollouts, UCT c = 2) on its own C++ game, from the
    position after `decisions` random decisions, with the same budget."""
    import pyspiel

    game = pyspiel.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(1)
    made = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            continue
        if made >= decisions:
            break
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1
    evaluator = pyspiel.RandomRolloutEvaluator(1, 0)
    final = pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
    pyspiel.ISMCTSBot(0, evaluator, 2.0, 10, -1, final, False, False).step(state)  # warm-up
    bot = pyspiel.ISMCTSBot(0, evaluator, 2.0, iterations, -1, final, False, False)
    start = time.perf_counter()
    bot.step(state)
    elapsed = time.perf_counter() - start
    return {"iterations": iterations, "iterations_per_s": iterations / elapsed}


def pettingzoo_aec(name: str, players: int, budget: float) -> Figures:
    """Agent-steps per second of random games through `spielwerk.adapters.pettingzoo.env` (the
    AEC loop with PettingZoo's order checks): `last()`, a random legal action from the mask,
    `step()`."""
    import numpy as np

    from spielwerk.adapters.pettingzoo import env

    environment = env(name, num_players=players)
    _aec_loop(environment, 0.0, np)  # warm-up: the kernel's compiled code loaded
    return _aec_loop(environment, budget, np)


def _aec_loop(environment: Any, budget: float, np: Any) -> Figures:
    rand = random.Random(0).random
    steps = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget or games < 2:
        environment.reset(seed=games)
        for _agent in environment.agent_iter():
            observation, _, termination, truncation, _ = environment.last()
            if termination or truncation:
                environment.step(None)
                continue
            legal = np.flatnonzero(observation["action_mask"])
            environment.step(int(legal[int(rand() * len(legal))]))
            steps += 1
        games += 1
    elapsed = time.perf_counter() - start
    return {"games": games, "agent_steps": steps, "agent_steps_per_s": steps / elapsed}


def pettingzoo_leduc(budget: float) -> Figures | None:
    """PettingZoo's own Leduc Hold'em (classic) with the same loop, if it can be loaded."""
    try:
        import numpy as np
        from pettingzoo.classic import leduc_holdem_v4
    except Exception:  # rlcard missing: no anchor
        return None
    return _aec_loop(leduc_holdem_v4.env(), budget, np)


def vector_env(name: str, players: int, envs: int, budget: float) -> Figures:
    """Agent-steps per second of `spielwerk.vector.VectorEnv` with uniformly random legal
    actions (the compiled `random_actions`), buffers not copied, one core."""
    from spielwerk.vector import VectorEnv

    environment = VectorEnv(name, num_envs=envs, num_players=players)
    environment.reset(seed=0)
    actions = environment.random_actions()
    environment.step(actions)  # warm-up
    steps = 0
    start = time.perf_counter()
    while time.perf_counter() - start < budget:
        for _ in range(10):
            environment.random_actions(actions)
            environment.step(actions)
        steps += 10 * envs
    elapsed = time.perf_counter() - start
    return {"envs": envs, "agent_steps": steps, "agent_steps_per_s": steps / elapsed}


def kernel_start(cold: bool, games: tuple[str, ...] = (), jobs: int = 2) -> Figures:
    """Seconds for fresh interpreters to compile (`cold`: an empty cache directory) or load
    (the cache filled) the kernels and kernel search of `games` (all if none), `jobs` games at
    a time: `python -m spielwerk.agents.kernel_mcts [GAME ...] --jobs N`, as `make test` runs
    it before the tests and a game's first use runs it for that game."""
    import os
    import tempfile

    env = dict(os.environ)
    with tempfile.TemporaryDirectory() as scratch:
        if cold:
            env["SPIELWERK_CACHE_DIR"] = scratch
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-m", "spielwerk.agents.kernel_mcts", *games, "--jobs", str(jobs)],
            check=True,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        return {"seconds": time.perf_counter() - start}
