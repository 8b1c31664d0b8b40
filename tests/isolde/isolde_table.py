"""Build exact Die Holde Isolde situations.

Every card dealt is a chance `deal` action, so a test fixes a round by choosing them: `draft_into`
deals the packets so that, with each seat keeping the card the test names at every step, each
seat ends the draft with exactly the hand the test asked for. Plays, Isolde moves and the
advanced choices go through the public API in their JSON form.

`place` sets discs on a board directly, as a rulebook example lays them out (seat and distance,
rearmost first; discs on one space listed bottom first). It writes the two board fields of the
state and nothing else; everything after it runs through the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import spielwerk
from spielwerk.core.conformance import play_on
from spielwerk.core.state import State
from spielwerk.games.isolde.params import PARAMS
from spielwerk.games.isolde.state import IsoldeState

BOARD_IDS = tuple(b.id for b in PARAMS.boards)
# Cards that move on boards not scored in rounds 1, 2, 4, 5 (quest and charity, scored after
# round 6; the king only with 5 players, scored after rounds 3 and 6): plays that leave the
# boards under test alone.
QUIET = tuple(
    f"{kind}-{v}" for kind in ("quest", "charity", "king") for v in (2, 2, 3, 3, 4, 4, 5, 5)
)
FIFTH = ("isolde-2", "isolde-3", "isolde-4", "isolde-5", "studies-2")
"""The unplayed fifth card of each seat in a quiet round."""


def new_game(players: int, **options: Any) -> IsoldeState:
    state = spielwerk.load("isolde", **options).new_state(players, seed=0)
    assert isinstance(state, IsoldeState)
    return state


def deal(state: State, packets: Sequence[Sequence[str]]) -> None:
    """Deal `packets[seat]` (5 cards each): one card at a time from the start player on."""
    n = state.num_players
    start = state.view(None)["start_player"]
    for i in range(5):
        for k in range(n):
            seat = (start + k) % n
            state.apply({"type": "deal", "card": packets[seat][i]})


def keep(state: State, seat: int, card: str) -> None:
    state.apply({"type": "keep", "seat": seat, "card": card}, player=seat)


def packets_for(state: State, hands: Sequence[Sequence[str]]) -> list[list[str]]:
    """The packets to deal so that seat r keeps hands[r][t] at draft step t."""
    n = state.num_players
    direction = 1 if state.view(None)["pass_direction"] == "left" else -1
    return [[hands[(q + t * direction) % n][t] for t in range(5)] for q in range(n)]


def draft_into(state: State, hands: Sequence[Sequence[str]]) -> None:
    """Deal and draft so that every seat ends the draft holding `hands[seat]`."""
    deal(state, packets_for(state, hands))
    for step in range(4):
        for seat in range(state.num_players):
            keep(state, seat, hands[seat][step])


def quiet_hands(players: int) -> list[list[str]]:
    """Five cards per seat: four quiet ones and a fifth that is never played."""
    return [[*QUIET[4 * s : 4 * s + 4], FIFTH[s]] for s in range(players)]


def play(state: State, card: str, board: str | None = None) -> None:
    """The seat to move plays `card` (on `board`; by default the card's own board)."""
    kind = card.rpartition("-")[0]
    state.apply({"type": "play", "card": card, "board": board or kind})


def play_quietly(state: State) -> None:
    """Everyone plays quiet cards (quest/charity) until the play phase is over."""
    for _ in play_on(state, 100, until=lambda s: s.view(None)["phase"] != "play"):
        seat = state.to_move
        assert isinstance(seat, int)
        hand = state.view(seat)["hand"]
        quiet = [c for c in hand if c in QUIET]
        play(state, quiet[0])


def quiet_round(state: State) -> None:
    """A round that leaves every board but quest and charity alone (no Isolde moves are
    pending: nobody may stand off the start space on Isolde's board)."""
    draft_into(state, quiet_hands(state.num_players))
    play_quietly(state)


def place(state: IsoldeState, board: str, discs: Sequence[tuple[int, int]]) -> None:
    """Lay the discs of a board out: (seat, distance), rearmost first, a stack bottom first.
    Seats not named stay on the start space, below the named ones."""
    b = BOARD_IDS.index(board)
    named = [seat for seat, _ in discs]
    assert len(set(named)) == len(named)
    rest = [s for s in range(state.num_players) if s not in named]
    distances = dict(discs)
    assert all(distances[s] >= distances[t] for s, t in zip(named[1:], named, strict=False))
    state.order[b] = (*rest, *named)
    state.dist[b] = tuple(distances.get(s, 0) for s in range(state.num_players))


def discs(state: State, board: str) -> list[tuple[int, int]]:
    """(seat, distance) on a board, front first."""
    view = state.view(None)
    found = next(b for b in view["boards"] if b["board"] == board)
    return [(d["seat"], d["distance"]) for d in found["discs"]]


def awards(state: State, round_number: int, board: str) -> dict[int, int]:
    """Points each seat won or lost on a board in a round."""
    result: dict[int, int] = {}
    for award in state.view(None)["awards"]:
        if award["round"] == round_number and award["board"] == board:
            result[award["seat"]] = result.get(award["seat"], 0) + award["points"]
    return result


def bonus(state: State, board: str) -> None:
    state.apply({"type": "bonus_move", "board": board})


def set_scores(state: IsoldeState, scores: Sequence[int]) -> None:
    """Lay out each seat's shields (their sum): the points won before the situation a test
    starts from. Writes the score field only."""
    state.scores = list(scores)
