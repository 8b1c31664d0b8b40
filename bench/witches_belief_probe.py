"""How much does a Witches seat's observation say about where the cards it has not seen are?

A probe for inference in the determinizations (docs/learning.md, "Witches: what the search
cannot learn from"): if the cards a seat saw played told it which hidden cards an opponent
holds, a belief network could deal the search's worlds better than uniformly. This script
plays self-play games of the compiled `mcts` (the true state at every decision is kept),
then fits a network from the mover's observation tensor to each unseen card's place (the
face-down pile or one of the other hands, relative seats) and reports its cross-entropy on
held-out games against the determinizer's own distribution (every unseen card equally likely
in every free slot). A network that learns nothing matches the uniform figure.

    .venv/bin/python bench/witches_belief_probe.py --minutes 15 --iterations 300 --seed 1
"""

from __future__ import annotations

import argparse
import random
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax

import spielwerk
from spielwerk.agents.base import make_turn
from spielwerk.agents.kernel_mcts import KernelMCTSAgent
from spielwerk.core.kernel import kernel
from spielwerk.core.state import CHANCE
from spielwerk.games.witches import kernel as witches

CARDS = 54
PLACES = 4
"""The face-down pile, then the other three hands, clockwise from the viewer (4 players)."""


def self_play(minutes: float, iterations: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Kernel arrays of the true state at every decision, and each one's game number."""
    game = spielwerk.load("witches")
    states: list[np.ndarray] = []
    numbers: list[int] = []
    end = time.monotonic() + minutes * 60
    number = 0
    while time.monotonic() < end:
        deal = seed * 1_000_000 + number
        rng = random.Random(deal)
        seats = [KernelMCTSAgent("witches", iterations, seed=deal * 8 + p) for p in range(4)]
        state = game.new_state(4, seed=deal)
        while not state.is_terminal():
            if state.to_move == CHANCE:
                state.apply_trusted(state.sample_chance_id(rng), CHANCE)
                continue
            seat = int(state.to_move)  # type: ignore[arg-type]
            states.append(witches.from_state(state))
            numbers.append(number)
            state.apply(seats[seat].act(make_turn(state, seat, True, rng)))
        number += 1
    return np.array(states), np.array(numbers)


@kernel
def encode(
    states: np.ndarray, observations: np.ndarray, places: np.ndarray, free: np.ndarray
) -> None:
    """The mover's observation; each card's place (-1: seen by the mover); the unseen cards
    of each place (the slots the determinizer fills)."""
    for i in range(states.shape[0]):
        s = states[i]
        viewer = s[witches.TO_MOVE]
        n = s[witches.N]
        witches.observe(s, viewer, observations[i])
        places[i, :] = -1
        free[i, :] = 0.0
        for card in range(CARDS):
            if (s[witches.POOL] >> card) & 1:
                places[i, card] = 0
                free[i, 0] += 1.0
        for rel in range(1, n):
            seat = (viewer + rel) % n
            hidden = s[witches.HANDS + seat] & ~s[witches.KNOWN + seat]
            for card in range(CARDS):
                if (hidden >> card) & 1:
                    places[i, card] = rel
                    free[i, rel] += 1.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=15.0, help="self-play time")
    parser.add_argument("--iterations", type=int, default=300, help="the players' mcts budget")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    states, numbers = self_play(args.minutes, args.iterations, args.seed)
    print(f"{numbers[-1] + 1} games, {len(states)} decisions")
    x = np.zeros((len(states), witches.OBSERVATION_SIZE), dtype=np.float32)
    places = np.zeros((len(states), CARDS), dtype=np.int64)
    free = np.zeros((len(states), PLACES), dtype=np.float32)
    encode(states, x, places, free)
    prior = np.log(np.maximum(free, 1e-9)).astype(np.float32)  # uniform over the free slots
    unseen = (places >= 0).astype(np.float32)
    held_out = numbers % 10 == 0

    def cross_entropy(
        p: dict[str, jax.Array],
        xb: jax.Array,
        log_free: jax.Array,
        truth: jax.Array,
        seen: jax.Array,
    ) -> jax.Array:
        """Mean negative log-likelihood of each unseen card's true place (logits added to the
        uniform deal's log-probabilities, so a network of zeros is the uniform deal)."""
        h = jax.nn.relu(xb @ p["w0"] + p["b0"])
        logits = (h @ p["w1"] + p["b1"]).reshape(-1, CARDS, PLACES) * p["scale"]
        log_p = jax.nn.log_softmax(logits + log_free[:, None, :], axis=-1)
        picked = jnp.take_along_axis(log_p, jnp.maximum(truth, 0)[..., None], axis=-1)[..., 0]
        return -jnp.sum(picked * seen) / jnp.sum(seen)

    def batch(rows: np.ndarray) -> tuple[np.ndarray, ...]:
        return x[rows], prior[rows], places[rows], unseen[rows]

    first, second = jax.random.split(jax.random.PRNGKey(args.seed))
    hidden = 256
    params = {
        "w0": jax.random.normal(first, (witches.OBSERVATION_SIZE, hidden))
        * np.sqrt(2 / witches.OBSERVATION_SIZE),
        "b0": jnp.zeros(hidden),
        "w1": jax.random.normal(second, (hidden, CARDS * PLACES)) * 0.01,
        "b1": jnp.zeros(CARDS * PLACES),
        "scale": jnp.ones(()),
    }
    optimizer = optax.adamw(3e-4, weight_decay=1e-4)
    opt_state = optimizer.init(params)

    @jax.jit
    def train_step(
        p: dict[str, jax.Array], o: optax.OptState, *data: jax.Array
    ) -> tuple[dict[str, jax.Array], optax.OptState]:
        grads = jax.grad(cross_entropy)(p, *data)
        updates, o = optimizer.update(grads, o, p)
        return optax.apply_updates(p, updates), o

    evaluate = jax.jit(cross_entropy)

    def held_out_loss(p: dict[str, jax.Array]) -> float:
        rows = np.flatnonzero(held_out)
        losses = [
            float(evaluate(p, *batch(rows[i : i + 8192]))) * float(unseen[rows[i : i + 8192]].sum())
            for i in range(0, len(rows), 8192)
        ]
        return sum(losses) / float(unseen[rows].sum())

    uniform = held_out_loss({**params, "scale": jnp.zeros(())})
    print(f"uniform deal: {uniform:.4f} nats per unseen card (held-out games)")
    rng = np.random.default_rng(args.seed)
    train_rows = np.flatnonzero(~held_out)
    for epoch in range(args.epochs):
        order = rng.permutation(train_rows)
        for start in range(0, len(order) - 511, 512):
            params, opt_state = train_step(params, opt_state, *batch(order[start : start + 512]))
        loss = held_out_loss(params)
        print(f"epoch {epoch}: {loss:.4f} nats, {100 * (uniform - loss) / uniform:.1f}% less")


if __name__ == "__main__":
    main()
