"""The uniformly random agent: a baseline and the conformance suite's driver."""

from __future__ import annotations

import random

from spielwerk.agents.base import Agent, Turn
from spielwerk.core.actions import Action


class RandomAgent(Agent):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> Action:
        return self.rng.choice(turn.legal_actions)
