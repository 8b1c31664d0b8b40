"""Self-play training on the compiled vector environment: a linear softmax policy for the
Witches of Blackmore learns by REINFORCE from games against itself, then plays against random
seats. NumPy only; a few minutes on one core.

    .venv/bin/python examples/selfplay_witches.py                 # the defaults below
    .venv/bin/python examples/selfplay_witches.py --updates 50    # a quick look

Every step of `spielwerk.vector.VectorEnv` is one decision in each of its games, by that game's
seat to move; the observation is that seat's observation tensor (only what it may know) and
`infos["action_mask"]` its legal actions. All four seats share the policy. When a game ends,
each of its decisions is credited with the return of the seat that made it (1 for a win, a
share of a shared win) minus the average return 1/4, and the policy takes a gradient step on
the log-probabilities of the actions chosen.
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from spielwerk.vector import VectorEnv

PLAYERS = 4


class LinearPolicy:
    """Logits = observation @ weights + bias; illegal actions masked out."""

    def __init__(self, observation_size: int, actions: int, rng: np.random.Generator) -> None:
        self.weights = np.zeros((observation_size, actions))
        self.bias = np.zeros(actions)
        self.rng = rng

    def probabilities(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        logits = observations @ self.weights + self.bias
        logits = np.where(masks > 0, logits, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        weights = np.exp(logits)
        return weights / weights.sum(axis=1, keepdims=True)

    def sample(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        probabilities = self.probabilities(observations, masks)
        draws = self.rng.random((len(probabilities), 1))
        return (probabilities.cumsum(axis=1) < draws).sum(axis=1).clip(0, masks.shape[1] - 1)

    def greedy(self, observations: np.ndarray, masks: np.ndarray) -> np.ndarray:
        return self.probabilities(observations, masks).argmax(axis=1)

    def update(
        self,
        observations: np.ndarray,
        masks: np.ndarray,
        actions: np.ndarray,
        advantages: np.ndarray,
        learning_rate: float,
    ) -> None:
        """One REINFORCE step: gradient of sum(advantage * log pi(action | observation))."""
        probabilities = self.probabilities(observations, masks)
        chosen = np.zeros_like(probabilities)
        chosen[np.arange(len(actions)), actions] = 1.0
        signal = advantages[:, None] * (chosen - probabilities) / len(actions)
        self.weights += learning_rate * observations.T @ signal
        self.bias += learning_rate * signal.sum(axis=0)


def train(policy: LinearPolicy, updates: int, envs: int, learning_rate: float, seed: int) -> int:
    """Self-play: each update plays one game in each of `envs` environments (all started
    together; moves after a game's end are not used) and takes one gradient step. Returns the
    number of decisions used."""
    environment = VectorEnv("witches", num_envs=envs, num_players=PLAYERS, copy=True)
    used = 0
    for update in range(updates):
        observations, infos = environment.reset(seed=seed * 1_000_003 + update)
        steps = []
        ended = np.full(envs, -1)
        returns = np.zeros((envs, PLAYERS))
        while (ended < 0).any():
            masks, seats = infos["action_mask"], infos["to_move"]
            actions = policy.sample(observations, masks)
            steps.append((observations, masks, actions, seats))
            observations, _, terminated, _, infos = environment.step(actions)
            finished = terminated & (ended < 0)
            ended[finished] = len(steps) - 1
            returns[finished] = infos["returns"][finished]
        rows = [
            (obs[live], masks[live], actions[live], returns[live, seats[live]] - 1.0 / PLAYERS)
            for k, (obs, masks, actions, seats) in enumerate(steps)
            for live in [ended >= k]
        ]
        policy.update(
            np.concatenate([r[0] for r in rows]),
            np.concatenate([r[1] for r in rows]),
            np.concatenate([r[2] for r in rows]),
            np.concatenate([r[3] for r in rows]),
            learning_rate,
        )
        used += sum(len(r[2]) for r in rows)
    return used


def win_rate(policy: LinearPolicy | None, games: int, seed: int, greedy: bool = False) -> float:
    """Seat 0's average return against three random seats (policy None: random too); the
    policy samples its moves, or takes its most likely one (`greedy`)."""
    envs = 256
    environment = VectorEnv("witches", num_envs=envs, num_players=PLAYERS)
    observations, infos = environment.reset(seed=seed)
    total, played = 0.0, 0
    while played < games:
        actions = environment.random_actions()
        if policy is not None:
            mine = infos["to_move"] == 0
            if mine.any():
                choose = policy.greedy if greedy else policy.sample
                actions[mine] = choose(observations[mine], infos["action_mask"][mine])
        observations, _, terminated, _, infos = environment.step(actions)
        ended = np.flatnonzero(terminated)
        total += float(infos["returns"][ended, 0].sum())
        played += len(ended)
    return total / played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--updates", type=int, default=200, help="gradient steps")
    parser.add_argument("--envs", type=int, default=256, help="games played at once")
    parser.add_argument("--learning-rate", type=float, default=0.5)
    parser.add_argument("--eval-games", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    environment = VectorEnv("witches", num_envs=1, num_players=PLAYERS)
    size = environment.single_observation_space.shape[0]
    policy = LinearPolicy(size, int(environment.single_action_space.n), np.random.default_rng(1))
    print(f"seat 0 random vs 3 random seats: {win_rate(None, args.eval_games, 7):.3f}")
    start = time.perf_counter()
    decisions = train(policy, args.updates, args.envs, args.learning_rate, args.seed)
    elapsed = time.perf_counter() - start
    print(
        f"trained: {args.updates} updates, {decisions:,} self-play decisions in {elapsed:.0f} s "
        f"({decisions / elapsed:,.0f} a second, policy included)"
    )
    for greedy in (False, True):
        rate = win_rate(policy, args.eval_games, 7, greedy)
        print(f"seat 0 trained ({'greedy' if greedy else 'sampling'}) vs 3 random: {rate:.3f}")


if __name__ == "__main__":
    main()
