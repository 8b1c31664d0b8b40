"""The network in JAX, for training: initialisation, forward pass, loss and one optimiser step.

The same multilayer perceptron as `spielwerk.agents.network.Model.forward` (which plays with
NumPy): ReLU hidden layers, a policy head over every player action id and a value head with
one output per seat relative to the viewer. The test suite checks that both forward passes
agree on the same weights.

Loss, per sample: cross-entropy of the policy (softmax over the legal actions only) against
the search's visit distribution (on the samples that are policy targets), plus `value_weight`
x the mean squared error of the seat values (over the seats of that game) against the game's
outcome; AdamW adds weight decay.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from spielwerk.agents.network import Params


class Batch(NamedTuple):
    observations: jax.Array  # (batch, observation size) float32
    masks: jax.Array  # (batch, actions) bool: legal actions
    policies: jax.Array  # (batch, actions) float32: search visit shares, 0 off the mask
    policy_weights: jax.Array  # (batch,) float32: 1 where the policy is a target, else 0
    values: jax.Array  # (batch, seats) float32: outcome per seat relative to the viewer
    seat_masks: jax.Array  # (batch, seats) float32: 1 for the seats of that game


JaxParams = dict[str, jax.Array]


def apply(params: Mapping[str, jax.Array], observations: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Policy logits and seat values (the JAX twin of `Model.forward`)."""
    x = observations
    index = 0
    while f"hidden_{index}/w" in params:
        x = jax.nn.relu(x @ params[f"hidden_{index}/w"] + params[f"hidden_{index}/b"])
        index += 1
    return x @ params["policy/w"] + params["policy/b"], x @ params["value/w"] + params["value/b"]


def losses(
    params: Mapping[str, jax.Array], batch: Batch, value_weight: float
) -> tuple[jax.Array, dict[str, jax.Array]]:
    logits, values = apply(params, batch.observations)
    masked = jnp.where(batch.masks, logits, -1e9)
    log_policy = jax.nn.log_softmax(masked)
    cross_entropy = -jnp.sum(batch.policies * jnp.where(batch.masks, log_policy, 0.0), 1)
    weight = batch.policy_weights
    policy_loss = jnp.sum(weight * cross_entropy) / jnp.maximum(jnp.sum(weight), 1.0)
    seat_count = jnp.maximum(jnp.sum(batch.seat_masks, 1), 1.0)
    squared = jnp.sum(batch.seat_masks * (values - batch.values) ** 2, 1) / seat_count
    value_loss = jnp.mean(squared)
    total = policy_loss + value_weight * value_loss
    return total, {"loss": total, "policy_loss": policy_loss, "value_loss": value_loss}


def make_optimizer(learning_rate: float, weight_decay: float) -> optax.GradientTransformation:
    return optax.adamw(learning_rate, weight_decay=weight_decay)


class Trainer:
    """Parameters, optimiser state and a jitted update step."""

    def __init__(
        self,
        params: Params,
        learning_rate: float = 1e-3,
        weight_decay: float = 1e-4,
        value_weight: float = 1.0,
    ) -> None:
        self.optimizer = make_optimizer(learning_rate, weight_decay)
        self.params: JaxParams = {name: jnp.asarray(array) for name, array in params.items()}
        self.opt_state: Any = self.optimizer.init(self.params)
        optimizer = self.optimizer

        def step(
            params: JaxParams, opt_state: Any, batch: Batch
        ) -> tuple[JaxParams, Any, dict[str, jax.Array]]:
            grads, metrics = jax.grad(losses, has_aux=True)(params, batch, value_weight)
            updates, opt_state = optimizer.update(grads, opt_state, params)
            return optax.apply_updates(params, updates), opt_state, metrics

        def evaluate(params: JaxParams, batch: Batch) -> dict[str, jax.Array]:
            return losses(params, batch, value_weight)[1]

        self._step = jax.jit(step)
        self._evaluate = jax.jit(evaluate)

    def step(self, batch: Batch) -> dict[str, float]:
        self.params, self.opt_state, metrics = self._step(self.params, self.opt_state, batch)
        return {name: float(value) for name, value in metrics.items()}

    def evaluate(self, batch: Batch) -> dict[str, float]:
        return {name: float(value) for name, value in self._evaluate(self.params, batch).items()}

    def numpy_params(self) -> Params:
        return {name: np.asarray(array, dtype=np.float32) for name, array in self.params.items()}

    # ------------------------------------------------------------------ checkpoints
    def optimizer_arrays(self) -> dict[str, np.ndarray[Any, Any]]:
        """The optimiser state as named arrays (no pickle), for a checkpoint."""
        leaves = jax.tree_util.tree_leaves(self.opt_state)
        return {f"opt/{index}": np.asarray(leaf) for index, leaf in enumerate(leaves)}

    def restore_optimizer(self, arrays: Mapping[str, np.ndarray[Any, Any]]) -> None:
        leaves, treedef = jax.tree_util.tree_flatten(self.opt_state)
        if len(arrays) != len(leaves):
            raise ValueError(
                f"the checkpoint holds {len(arrays)} optimiser arrays, not {len(leaves)}"
            )
        restored = []
        for index, leaf in enumerate(leaves):
            array = np.asarray(arrays[f"opt/{index}"])
            if array.shape != np.shape(leaf):
                raise ValueError(f"optimiser array {index} has shape {array.shape}")
            restored.append(jnp.asarray(array, dtype=jnp.asarray(leaf).dtype))
        self.opt_state = jax.tree_util.tree_unflatten(treedef, restored)
