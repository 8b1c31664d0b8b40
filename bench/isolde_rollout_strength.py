"""How well the learned Isolde rollout policy plays on its own: one seat draws every move from
the policy of a model file (its weights scaled by each of `--scales`), the three others play
uniformly at random, whole 4-player games in the kernel, the policy seat rotated over the four
places. Prints the policy seat's win share (0.25 is fair). A probe of how far the policy is
from uniform play, not a measure of the search that rolls out with it (docs/learning.md).

    PYTHONPATH=. .venv/bin/python bench/isolde_rollout_strength.py spielwerk/models/isolde.npz
"""

from __future__ import annotations

import argparse

import numpy as np

import spielwerk
from spielwerk.core.kernel import kernel
from spielwerk.core.kernel_ops import generator, lowest_bit
from spielwerk.games.isolde import kernel as isolde
from spielwerk.games.isolde import kernel_policy as policy
from spielwerk.games.isolde.state import DEALING, DRAFTING, OVER, TIEBREAK


@kernel
def _play(s: np.ndarray, rng: np.ndarray, weights: np.ndarray) -> None:
    """Play `s` to the end, seat p drawing its moves from the policy `weights[p]`."""
    ids = np.empty(isolde.MAX_LEGAL, dtype=np.int64)
    odds = np.empty(isolde.MAX_LEGAL)
    cache = np.zeros((policy.SEATS * policy.NUM_KINDS, 3))  # `policy.new_keep_cache()`
    while True:
        phase = s[isolde.PHASE]
        if phase == OVER:
            return
        if phase == DEALING:
            isolde.apply(s, isolde.sample_chance(s, rng))
            continue
        if phase == DRAFTING:
            seat = lowest_bit(s[isolde.DECIDING])
        elif phase == TIEBREAK:
            seat = s[isolde.START_PLAYER]
        else:
            seat = s[isolde.TO_MOVE]
        count = policy.rollout_logits(s, seat, weights[seat], ids, odds, cache)
        isolde.apply(s, policy._draw(ids, odds, count, rng))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("model")
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--scales", type=float, nargs="+", default=[1.0, 2.0, 4.0])
    args = parser.parse_args()
    learned = np.load(args.model)["rollout/w"].astype(np.float64)
    game = spielwerk.load("isolde")
    rng = generator(args.seed)
    returns = np.zeros(4)
    for scale in args.scales:
        won = 0.0
        for g in range(args.games):
            weights = np.zeros((4, policy.NUM_ROLLOUT_FEATURES))
            weights[g % 4] = learned * scale
            s = isolde.initial(game, 4)
            _play(s, rng, weights)
            isolde.returns(s, returns)
            won += returns[g % 4]
        print(f"weights x {scale}: the policy seat wins {won / args.games:.3f} of {args.games}")


if __name__ == "__main__":
    main()
