"""Learn the rollout policy of a game's compiled search (Witches, Isolde, Tintenblut) from a
deeper search's moves, or from the heuristic bot's.

The compiled search (`spielwerk.agents.kernel_mcts`) values a new leaf by one rollout, played
uniformly at random; in Witches it stops gaining past 800-1,600 iterations (docs/agents.md).
AlphaGo's answer (Silver et al. 2016, "the fast rollout policy") is a rollout that plays like
a player, cheaply: here a linear softmax over a handful of features of each legal move (for a
card: does it win the trick as it stands, is the mover last, the trick's points, its value,
trump, its place on the wheel, leading or following; for a trump choice: the mover's cards of
the new trump, their strength, the value the change costs; in Isolde, for a move on a board:
what the board would give the mover before and after it, weighted by when the board scores,
the discs passed, the steps; for a draft pick: the card's best such gain, its value, the cards
of its type kept; in Tintenblut, what the move does to the mover's holdings up to the end of
its arrival, valued as the heuristic bot values them, the villain cards it risks, the journey,
the card number), computed in the kernel (`ROLLOUT_FEATURES`, `rollout_policy` of the module
`spielwerk.agents.rollouts` names) from the mover's own cards and public facts.

1. Self-play: every seat is the compiled search at `iterations` (4,000: past the plateau, so
   its choices are as good as that search gets), valued as the game's `mcts` seat values its
   rollouts (`configs.MCTS_CONFIGS`: Tintenblut's cut after 60 decisions and valued by the
   lead), with uniformly random rollouts, or with the policy of `start` to learn from a search
   that already rolls out with one (expert iteration: the expert is then the search the start
   model plays with, its cut and valuation included). At every decision with a choice: each
   legal move's features (read from the Turn's sample, a state of the mover's information set;
   the features read only what the mover knows) and the root's visit shares. At a simultaneous
   step (Isolde's draft) every deciding seat searches and is recorded on its own, and their
   picks are applied together. With `--teacher heuristic` the game's heuristic bot plays every
   seat instead and its chosen move is the target (one-hot): a cheap first policy to start
   expert iteration from.
2. Fit: maximum likelihood of the visit shares under the softmax of `weights . features`
   (a multinomial logit, convex), by Newton's method with a small L2 penalty: one answer,
   whatever the start.
3. The weights go into a model file (`rollout/w`, and `rollout_policy` in its metadata) beside
   the network of a base model, with play settings that roll out with them and cut and value
   the rollouts as the game's `mcts` seat does (`write_model`).

Seeded: game g has the seed `seed * 1,000,003 + g` (as `spielwerk train`), and every search (or
heuristic) a seed of its own from it, so a run gives the same weights on any machine.

    python -m spielwerk.learn.rollout_policy witches --games 300 --iterations 4000 --seed 1 \\
        --base bench/results/learning/witches-kernel/witches.npz --play-iterations 500 \\
        --out witches.npz
    python -m spielwerk.learn.rollout_policy inkspell --teacher heuristic --games 60 --seed 1 \\
        --base spielwerk/models/inkspell.npz --play-iterations 150 --out ink-clone.npz
"""

from __future__ import annotations

import argparse
import datetime
import multiprocessing
import random
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

import spielwerk
from spielwerk.agents.base import Agent, make_turn
from spielwerk.agents.configs import MCTS_CONFIGS, PLAIN, SearchConfig
from spielwerk.agents.heuristics import heuristic_factory
from spielwerk.agents.kernel_mcts import KernelMCTSAgent, most_visited
from spielwerk.agents.network import ROLLOUT_WEIGHTS, read_model, save_model
from spielwerk.agents.rollouts import ROLLOUT_POLICIES, LearnedRollout, learned_rollout
from spielwerk.games.kernels import has_kernel, kernel_rules
from spielwerk.learn.selfplay import game_seed

Array = npt.NDArray[np.float64]
L2 = 1e-3
"""The penalty on the squared weights: keeps the fit finite where a feature never varies
among a decision's moves, and is otherwise negligible beside the log-likelihood."""
TEACHERS = ("search", "heuristic")
"""Whose moves the policy learns: the compiled search's visit shares, or the heuristic bot's
choice (one-hot)."""
DEFAULT_PLAYERS = {"inkspell": 3}
"""The player count of the self-play where it is not 4 (Tintenblut is usually played by 3)."""


def _learned(game_name: str) -> LearnedRollout:
    learned = learned_rollout(game_name)
    if learned is None:
        raise ValueError(f"{game_name} has no learned rollout policy")
    return learned


def search_config(game_name: str) -> SearchConfig:
    """The valuation of the game's `mcts` seat (`configs.MCTS_CONFIGS`), which the expert and
    the written model's search use."""
    return MCTS_CONFIGS.get(game_name, PLAIN)


@dataclass(frozen=True)
class Valuation:
    """How a search cuts and values its rollouts (`KernelMCTSAgent`'s arguments)."""

    rollout_decisions: int | None = None
    lead_scale: float | None = None
    leaf_estimate: bool = False
    score_weight: float = 0.0

    @classmethod
    def configured(cls, game_name: str) -> Valuation:
        """The `mcts` seat's (`configs.MCTS_CONFIGS`)."""
        config = search_config(game_name)
        return cls(config.rollout_decisions, config.lead_scale, False, config.score_weight)

    @classmethod
    def of_model(cls, metadata: dict[str, Any]) -> Valuation:
        """A model file's (`write_model`), for the search that rolls out with its policy."""
        decisions = metadata.get("rollout_decisions")
        scale = metadata.get("lead_scale")
        return cls(
            None if decisions is None else int(decisions),
            None if scale is None else float(scale),
            bool(metadata.get("leaf_estimate", False)),
            float(metadata.get("score_weight", 0.0)),
        )


def expert(
    game_name: str,
    iterations: int,
    seed: int,
    start: Array | None = None,
    valuation: Valuation | None = None,
) -> KernelMCTSAgent:
    """The compiled search built as the `mcts` seat builds it (`agents._compiled`), at
    `iterations`, rolling out with the weights `start` if given, and cutting and valuing its
    rollouts as `valuation` says (default: as the `mcts` seat)."""
    config = search_config(game_name)
    if valuation is None:
        valuation = Valuation.configured(game_name)
    return KernelMCTSAgent(
        game_name,
        iterations=iterations,
        exploration=config.exploration,
        seed=seed,
        score_weight=valuation.score_weight,
        rollout_weights=start,
        rollout_decisions=valuation.rollout_decisions,
        lead_scale=valuation.lead_scale,
        leaf_estimate=valuation.leaf_estimate,
    )


@dataclass
class Decisions:
    """What the searches saw and chose: per decision, each legal move's features (rows) and
    the root's visit shares over those moves."""

    features: list[Array] = field(default_factory=list)
    targets: list[Array] = field(default_factory=list)
    games: int = 0


def record_game(
    game_name: str,
    players: int,
    g: int,
    iterations: int,
    seed: int,
    start: Array | None = None,
    teacher: str = "search",
    valuation: Valuation | None = None,
) -> Decisions:
    """Game `g` of the self-play: the compiled search (`start`: its rollout weights, else
    uniform rollouts) in every seat, or with `teacher` "heuristic" the heuristic bot; every
    decision with more than one legal move recorded (the search's visit shares, the
    heuristic's move one-hot). Seeded by `seed` and `g` alone, so games can be played in any
    process and order."""
    game = spielwerk.load(game_name)
    rules = kernel_rules(game_name)
    policy = _learned(game_name)
    decisions = Decisions()
    seed_g = game_seed(seed, g)
    searches = []
    heuristics: list[Agent] = []
    if teacher == "heuristic":
        factory = heuristic_factory(game_name)
        if factory is None:
            raise ValueError(f"{game_name} has no heuristic to learn from")
        heuristics = [factory(seed_g * 8 + p) for p in range(players)]
    else:
        searches = [
            expert(game_name, iterations, seed_g * 8 + p, start, valuation) for p in range(players)
        ]
    state = game.new_state(players, seed=seed_g)
    chance = random.Random(seed_g)
    samples = random.Random(seed_g ^ 0x5A5A5A5A)
    while not state.is_terminal():
        if state.is_chance():
            state.apply(state.sample_chance(chance))
            continue
        to_move = state.to_move
        # A simultaneous step: every deciding seat chooses from the same state.
        seats = sorted(to_move) if isinstance(to_move, frozenset) else [int(to_move)]
        moves = []
        for seat in seats:
            turn = make_turn(state, seat, True, samples)
            legal = turn.legal_actions
            if len(legal) == 1:
                moves.append((seat, legal[0]))
                continue
            assert turn.sample is not None
            ids = np.array([action.id for action in legal], dtype=np.int64)
            rows = np.zeros((len(ids), len(policy.features)))
            policy.rollout_features(rules.from_state(turn.sample), ids, rows)
            decisions.features.append(rows)
            if heuristics:
                chosen = heuristics[seat].act(turn)
                decisions.targets.append((ids == chosen.id).astype(np.float64))
                moves.append((seat, chosen))
                continue
            visits, sums = searches[seat].root(turn)
            decisions.targets.append(visits / visits.sum())
            moves.append((seat, legal[most_visited(visits, sums)]))
        for seat, action in moves:
            state.apply(action, seat)
    decisions.games = 1
    return decisions


def record_decisions(
    game_name: str,
    players: int,
    games: int,
    iterations: int,
    seed: int,
    start: Array | None = None,
    progress: Callable[[int, Decisions], None] | None = None,
    jobs: int = 1,
    teacher: str = "search",
    valuation: Valuation | None = None,
) -> Decisions:
    """Self-play of `games` games (`record_game`), in `jobs` processes; the decisions come in
    game order, so the result does not depend on `jobs`."""
    decisions = Decisions()

    def add(part: Decisions) -> None:
        decisions.features.extend(part.features)
        decisions.targets.extend(part.targets)
        decisions.games += part.games
        if progress is not None:
            progress(decisions.games, decisions)

    if jobs <= 1:
        for g in range(games):
            add(record_game(game_name, players, g, iterations, seed, start, teacher, valuation))
        return decisions
    # One game a task, collected in order: progress comes often and the result in game order.
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = [
            pool.submit(
                record_game, game_name, players, g, iterations, seed, start, teacher, valuation
            )
            for g in range(games)
        ]
        for future in futures:
            add(future.result())
    return decisions


def _padded(decisions: Decisions) -> tuple[Array, Array, npt.NDArray[np.bool_]]:
    """Features (decisions, widest, features), targets and the mask of real moves."""
    count = len(decisions.features)
    widest = max(len(t) for t in decisions.targets)
    width = decisions.features[0].shape[1]
    features = np.zeros((count, widest, width))
    targets = np.zeros((count, widest))
    mask = np.zeros((count, widest), dtype=np.bool_)
    for d, (rows, shares) in enumerate(zip(decisions.features, decisions.targets, strict=True)):
        features[d, : len(shares)] = rows
        targets[d, : len(shares)] = shares
        mask[d, : len(shares)] = True
    return features, targets, mask


def _objective(
    w: Array, features: Array, targets: Array, mask: npt.NDArray[np.bool_], l2: float
) -> tuple[float, Array, Array]:
    """Mean cross-entropy of the targets under the softmax, plus l2 x |w|^2: value, gradient,
    Hessian."""
    count = features.shape[0]
    logits = np.where(mask, features @ w, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    log_q = np.where(mask, logits - np.log(np.exp(logits).sum(axis=1, keepdims=True)), 0.0)
    q = np.where(mask, np.exp(log_q), 0.0)
    loss = -float((targets * log_q).sum()) / count + l2 * float(w @ w)
    grad = np.einsum("da,dak->k", q - targets, features) / count + 2 * l2 * w
    mean = np.einsum("da,dak->dk", q, features)
    hessian = (
        np.einsum("da,dak,dal->kl", q, features, features) - mean.T @ mean
    ) / count + 2 * l2 * np.eye(len(w))
    return loss, grad, hessian


def fit(decisions: Decisions, l2: float = L2, steps: int = 100) -> tuple[Array, float]:
    """The weights that maximise the likelihood of the visit shares (with the L2 penalty), by
    Newton's method with backtracking; returns them and the final loss."""
    features, targets, mask = _padded(decisions)
    w = np.zeros(features.shape[2])
    loss, grad, hessian = _objective(w, features, targets, mask, l2)
    for _ in range(steps):
        step = np.linalg.solve(hessian, grad)
        size = 1.0
        while True:
            trial = w - size * step
            trial_loss, trial_grad, trial_hessian = _objective(trial, features, targets, mask, l2)
            if trial_loss <= loss - 1e-4 * size * float(grad @ step) or size < 1e-8:
                break
            size /= 2
        w, loss, grad, hessian = trial, trial_loss, trial_grad, trial_hessian
        if float(np.abs(grad).max()) < 1e-9:
            break
    return w, loss


def agreement(decisions: Decisions, weights: Array) -> float:
    """Share of decisions whose most likely move under the policy is the teacher's (the
    search's most visited one, or the heuristic's)."""
    hits = sum(
        int(np.argmax(rows @ weights) == np.argmax(shares))
        for rows, shares in zip(decisions.features, decisions.targets, strict=True)
    )
    return hits / max(len(decisions.targets), 1)


def write_model(
    base: Path,
    out: Path,
    weights: Array,
    learned: dict[str, Any],
    play_iterations: int,
    exploration: float | None = None,
    rollout_decisions: int | None = None,
    leaf_estimate: bool = False,
) -> None:
    """`base` (a model of the compiled search, or of the PUCT search) with the rollout policy's
    weights added and play settings that use them alone: the compiled search at
    `play_iterations` with the learned rollouts, cut and valued as the game's `mcts` seat does
    (`rollout_decisions`, `lead_scale` from `configs.MCTS_CONFIGS`, where it has them), the value
    head neither at the root nor at the leaves (`blend`, `leaf_mix` 0: in Witches both were
    weaker than the plain search, docs/learning.md), and `exploration` as the search's constant:
    if not given, the base's where it plays the compiled search already, else the `mcts` seat's
    (a base trained for the PUCT search has PUCT's, which is not the compiled search's).
    `rollout_decisions`, if given, cuts the rollouts there instead; `leaf_estimate` values the
    cut by the lead in the heuristic's estimate instead of the score (Tintenblut:
    `LearnedRollout.estimate_lead_values`)."""
    model = read_model(base)
    name = model.game_name
    features = _learned(name).features
    config = search_config(name)
    metadata = dict(model.metadata)
    keys = (
        "search",
        "blend",
        "leaf_mix",
        "play_iterations",
        "exploration",
        "rollout_decisions",
        "lead_scale",
        "leaf_estimate",
    )
    was = {key: metadata.get(key) for key in keys}
    if exploration is None and metadata.get("search") != "kernel":
        exploration = config.exploration
    for key in ("rollout_decisions", "lead_scale", "leaf_estimate"):
        metadata.pop(key, None)
    if rollout_decisions is None:
        rollout_decisions = config.rollout_decisions
    if rollout_decisions is not None:
        metadata["rollout_decisions"] = rollout_decisions
    if config.lead_scale is not None:
        metadata["lead_scale"] = config.lead_scale
    if leaf_estimate:
        metadata["leaf_estimate"] = True
    metadata.update(
        search="kernel",
        blend=0.0,
        leaf_mix=0.0,
        play_iterations=play_iterations,
        rollout_policy={"features": list(features), "learned": learned},
        play_tuning={
            "date": learned["date"],
            "was": was,
            "why": "the compiled search with the learned rollout policy, at mcts:1000's time "
            "a decision (docs/learning.md)",
        },
    )
    if exploration is not None:
        metadata["exploration"] = exploration
    params = dict(model.params)
    params[ROLLOUT_WEIGHTS] = weights.astype(np.float32)
    save_model(out, params, metadata)
    read_model(out)  # the file must load as written


def _command() -> str:
    """This run's command line, for the model's record."""
    return "python -m spielwerk.learn.rollout_policy " + " ".join(sys.argv[1:])


def _write(args: argparse.Namespace, weights: Array, learned: dict[str, Any]) -> None:
    """`write_model` with the play settings the command line gives."""
    write_model(
        args.base,
        args.out,
        weights,
        learned,
        args.play_iterations,
        args.exploration,
        args.rollout_decisions,
        args.leaf == "estimate",
    )


def rewrite_weights(args: argparse.Namespace) -> None:
    """`--weights-from`: a learned policy with other play settings (sharpened, another budget,
    cut or valuation), its record kept and the rewrite added to it."""
    source = read_model(args.weights_from)
    stored = source.params.get(ROLLOUT_WEIGHTS)
    if stored is None or source.game_name != args.game:
        sys.exit(f"{args.weights_from} has no {args.game} rollout policy")
    if source.metadata["rollout_policy"]["features"] != list(_learned(args.game).features):
        sys.exit(f"{args.weights_from} names other features than the {args.game} kernel's")
    learned = dict(source.metadata["rollout_policy"]["learned"])
    learned["sharpen"] = float(learned.get("sharpen", 1.0)) * args.sharpen
    learned["rewritten"] = {
        "command": _command(),
        "date": datetime.date.today().isoformat(),
        "from": str(args.weights_from),
    }
    weights = args.sharpen * np.asarray(stored, dtype=np.float64)
    _write(args, weights, learned)
    print(f"weights: {np.round(weights, 3).tolist()}; wrote {args.out}")


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m spielwerk.learn.rollout_policy", description=__doc__.split("\n")[0]
    )
    parser.add_argument("game", choices=list(ROLLOUT_POLICIES))
    parser.add_argument(
        "--players", type=int, help="seats in self-play (default: 3 in inkspell, else 4)"
    )
    parser.add_argument("--games", type=int, default=300, help="self-play games (default 300)")
    parser.add_argument("--iterations", type=int, default=4000, help="the expert's budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=Path, help="a model whose rollout policy the expert uses")
    parser.add_argument(
        "--teacher",
        choices=TEACHERS,
        default="search",
        help="learn the search's visit shares (default) or the heuristic bot's moves",
    )
    parser.add_argument("--base", type=Path, required=True, help="the model file to extend")
    parser.add_argument("--play-iterations", type=int, required=True)
    parser.add_argument(
        "--exploration", type=float, help="the search's exploration constant (default: the base's)"
    )
    parser.add_argument(
        "--sharpen",
        type=float,
        default=1.0,
        help="multiply the fitted weights (a sharper policy: lower temperature; default 1)",
    )
    parser.add_argument(
        "--rollout-decisions",
        type=int,
        help="the written model's cut of its rollouts (default: the mcts seat's)",
    )
    parser.add_argument(
        "--leaf",
        choices=("lead", "estimate"),
        default="lead",
        help="value the written model's cut rollouts by the score lead (default) or by the "
        "lead in the heuristic's estimate",
    )
    parser.add_argument(
        "--weights-from",
        type=Path,
        help="no self-play: take the rollout weights (and their record) of this model, "
        "sharpened, with new play settings",
    )
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument(
        "--jobs", type=int, default=1, help="self-play processes (the result is the same)"
    )
    args = parser.parse_args(argv)
    if args.players is None:
        args.players = DEFAULT_PLAYERS.get(args.game, 4)
    if args.teacher == "heuristic" and args.start is not None:
        sys.exit("--start names the expert's rollouts: the heuristic teacher has none")
    if not has_kernel(args.game):
        sys.exit(
            "the rollout policy lives in the compiled kernel: pip install 'spielwerk[kernels]'"
        )
    if args.weights_from is not None:
        rewrite_weights(args)
        return
    start = None
    valuation = None
    if args.start is not None:
        # Expert iteration: the expert is the search the start model plays with.
        start_model = read_model(args.start)
        stored = start_model.params.get(ROLLOUT_WEIGHTS)
        if stored is None:
            sys.exit(f"{args.start} has no rollout policy")
        start = np.asarray(stored, dtype=np.float64)
        valuation = Valuation.of_model(start_model.metadata)
    began = time.time()

    def progress(done: int, decisions: Decisions) -> None:
        if done % 10 == 0 or done == args.games:
            minutes = (time.time() - began) / 60
            print(
                f"{done}/{args.games} games, {len(decisions.targets)} decisions, {minutes:.1f} min"
            )

    decisions = record_decisions(
        args.game,
        args.players,
        args.games,
        args.iterations,
        args.seed,
        start,
        progress,
        args.jobs,
        args.teacher,
        valuation,
    )
    fitted, loss = fit(decisions)
    weights = args.sharpen * fitted
    learned = {
        "command": _command(),
        "date": datetime.date.today().isoformat(),
        "seed": args.seed,
        "players": args.players,
        "games": decisions.games,
        "teacher": args.teacher,
        "decisions": len(decisions.targets),
        "l2": L2,
        "loss": round(loss, 5),
        "agreement": round(agreement(decisions, fitted), 4),
        "sharpen": args.sharpen,
        "minutes": round((time.time() - began) / 60, 1),
    }
    if args.teacher == "search":
        used = valuation or Valuation.configured(args.game)
        learned["expert_iterations"] = args.iterations
        learned["expert_rollouts"] = "uniform" if start is None else str(args.start)
        learned["expert_rollout_decisions"] = used.rollout_decisions
        learned["expert_lead_scale"] = used.lead_scale
        learned["expert_leaf_estimate"] = used.leaf_estimate
    _write(args, weights, learned)
    print(f"weights: {np.round(weights, 3).tolist()}")
    print(
        f"loss {loss:.4f}, agreement with the {args.teacher} {learned['agreement']:.3f}; "
        f"wrote {args.out}"
    )


if __name__ == "__main__":
    main()
