"""A replay buffer of self-play samples: the newest `capacity` samples, sampled uniformly.

Arrays of fixed shape (observations as float16, which holds the tensors' small integers and
fractions closely enough, to halve the memory), filled as a ring. Its contents and its
position go into a checkpoint as plain arrays, so a resumed run trains on the same data.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from spielwerk.learn.model import Batch
from spielwerk.learn.selfplay import GameSamples


class ReplayBuffer:
    def __init__(self, capacity: int, observation_size: int, num_actions: int, seats: int) -> None:
        self.capacity = capacity
        self.observations = np.zeros((capacity, observation_size), dtype=np.float16)
        self.masks = np.zeros((capacity, num_actions), dtype=np.bool_)
        self.policies = np.zeros((capacity, num_actions), dtype=np.float32)
        self.policy_weights = np.zeros(capacity, dtype=np.float32)
        self.values = np.zeros((capacity, seats), dtype=np.float32)
        self.seat_masks = np.zeros((capacity, seats), dtype=np.float32)
        self.size = 0
        self.position = 0
        self.added = 0

    def add(self, game: GameSamples) -> None:
        for row in range(len(game.legal)):
            at = self.position
            self.observations[at] = game.observations[row]
            legal = np.asarray(game.legal[row], dtype=np.intp)
            self.masks[at] = False
            self.masks[at, legal] = True
            self.policies[at] = 0.0
            self.policies[at, legal] = game.policies[row]
            self.policy_weights[at] = game.policy_weights[row]
            self.values[at] = game.values[row]
            self.seat_masks[at] = 0.0
            self.seat_masks[at, : game.seats_used] = 1.0
            self.position = (at + 1) % self.capacity
            self.size = min(self.size + 1, self.capacity)
            self.added += 1

    def sample(self, rng: np.random.Generator, batch_size: int) -> Batch:
        rows = rng.integers(0, self.size, size=batch_size)
        return self.batch(rows)

    def batch(self, rows: npt.NDArray[np.intp]) -> Batch:
        return Batch(
            self.observations[rows].astype(np.float32),  # type: ignore[arg-type]
            self.masks[rows],  # type: ignore[arg-type]
            self.policies[rows],  # type: ignore[arg-type]
            self.policy_weights[rows],  # type: ignore[arg-type]
            self.values[rows],  # type: ignore[arg-type]
            self.seat_masks[rows],  # type: ignore[arg-type]
        )

    # ------------------------------------------------------------------ checkpoints
    def arrays(self) -> dict[str, npt.NDArray[np.generic]]:
        n = self.size
        return {
            "replay/observations": self.observations[:n],
            "replay/masks": self.masks[:n],
            "replay/policies": self.policies[:n],
            "replay/policy_weights": self.policy_weights[:n],
            "replay/values": self.values[:n],
            "replay/seat_masks": self.seat_masks[:n],
            "replay/counters": np.asarray([self.position, self.added], dtype=np.int64),
        }

    def restore(self, arrays: Mapping[str, npt.NDArray[np.generic]]) -> None:
        n = len(arrays["replay/observations"])
        if n > self.capacity:
            raise ValueError(f"the checkpoint holds {n} samples, more than the buffer's capacity")
        for name in ("observations", "masks", "policies", "policy_weights", "values", "seat_masks"):
            getattr(self, name)[:n] = arrays[f"replay/{name}"]
        self.size = n
        position, added = (int(v) for v in arrays["replay/counters"])
        self.position = position % self.capacity
        self.added = added
