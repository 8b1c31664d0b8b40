"""May a player take back their last action? Board Game Arena's rule, for any game.

A seat may take back its own last action while nobody else has acted since (no other seat,
no chance event: a die rolled or a card turned up is out in the world) and the action itself
showed nobody anything that was hidden from them: a card played from a hidden hand, a card
passed face down and seen by its receiver. Taking such an action back would let its player
choose again knowing what the others now know.

"Showed nothing hidden" is decided from the game's own information model, with no rule per
game: for every other viewer (each other seat and the spectator), the action must be legal
and look the same in every state that viewer cannot tell apart from the real one. If in some
such state (a `State.resample` for that viewer) the action is illegal or the viewer's view
after it differs, then what the viewer saw depended on something hidden from them. The states
are drawn at random, so an action that reveals something nearly certain already may pass;
`SAMPLES` draws per viewer make a reveal of anything less likely than 1 in 2 missed with
probability below 2^-16.
"""

from __future__ import annotations

import random

from spielwerk.core.state import CHANCE, State

SAMPLES = 16
"""States drawn per other viewer."""


def last_step_by(state: State, seat: int) -> bool:
    """True if the newest step of the game is `seat`'s own action."""
    return bool(state.history) and state.history[-1][0] == seat


def reveals_hidden(before: State, action_id: int, actor: int, rng: random.Random) -> bool:
    """True if `actor`'s action `action_id`, applied in `before`, shows some other viewer
    something hidden from them (see the module's text)."""
    after = before.clone()
    after.apply(action_id, player=actor)
    viewers: list[int | None] = [None, *(p for p in range(before.num_players) if p != actor)]
    for viewer in viewers:
        seen = after.view(viewer)
        for _ in range(SAMPLES):
            other = before.resample(viewer, rng)
            if actor not in _deciders(other) or action_id not in other.legal_ids(actor):
                return True
            other.apply(action_id, player=actor)
            if other.view(viewer) != seen:
                return True
    return False


REFUSALS: dict[str, str] = {
    "over": "the game is over",
    "nothing": "there is nothing to take back",
    "chance": "chance has acted since (a roll or a card came up): it cannot be taken back",
    "other": "another player has acted since: your move cannot be taken back",
    "hidden": "your move showed hidden information to the others: it cannot be taken back",
}
"""Why a seat may not take back its last action: a key for pages that word it themselves, and
the reason in English."""


def undo_refusal(
    state: State, seat: int, rng: random.Random, before: State | None = None
) -> str | None:
    """None if `seat` may take back its last action now, else why not (a key of REFUSALS).
    `before`: the state before the last action, if the caller has it (else it is replayed
    from the history); the answer is the same either way."""
    if state.is_terminal():
        return "over"
    if not state.history:
        return "nothing"
    actor, action_id = state.history[-1]
    if actor == CHANCE:
        return "chance"
    if actor != seat:
        return "other"
    if before is None:
        before = state.game.new_state(state.num_players, seed=state.seed)
        for step_actor, step_id in state.history[:-1]:
            before.apply_trusted(step_id, step_actor)
    if reveals_hidden(before, action_id, actor, rng):
        return "hidden"
    return None


def _deciders(state: State) -> frozenset[int]:
    to_move = state.to_move
    return to_move if isinstance(to_move, frozenset) else frozenset([to_move])
