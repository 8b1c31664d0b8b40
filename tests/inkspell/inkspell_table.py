"""Build exact Tintenblut positions.

Set-up is played through the public API: each seat turns up location cards (chance `flip`s)
until one shows a free location. Every later random event is a chance action too, so a test
fixes the game by choosing them (`draw_advantage`, `draw_villain`).

`arrange` lays out a literal table the way the rulebook's examples describe one (tiles,
provisions, score, villain and advantage cards in front of a seat): it moves the components
from the supply or the decks, so every component stays counted once. It writes the state's
fields directly; such a state is for checking rules, not for replay.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import spielwerk
from spielwerk.core.conformance import play_on
from spielwerk.core.state import State
from spielwerk.games.inkspell.params import PARAMS
from spielwerk.games.inkspell.state import InkspellState

KINDS = PARAMS.tile_keys  # ("M", "S", "K", "E")
LOCATIONS = PARAMS.location_keys


def location(key: str) -> int:
    return LOCATIONS.index(key)


def new_game(
    positions: Sequence[str], flips: Sequence[Sequence[str]] = (), **options: Any
) -> InkspellState:
    """Set-up with seat p's figure at `positions[p]`; `flips[p]` are cards seat p turns up
    (and must turn up again) before it."""
    state = spielwerk.load("inkspell", **options).new_state(len(positions), seed=0)
    assert isinstance(state, InkspellState)
    for seat, where in enumerate(positions):
        for card in flips[seat] if seat < len(flips) else ():
            flip(state, card)
        flip(state, where)
    return state


def flip(state: State, card: str) -> None:
    state.apply({"type": "flip", "card": card})


def play(state: State, card: str, to: str | None = None) -> None:
    if to is None:
        state.apply({"type": "play", "card": card})
    else:
        state.apply({"type": "play", "card": card, "to": to})


def pass_turn(state: State) -> None:
    state.apply({"type": "pass"})


def staubfinger(state: State, to: str) -> None:
    state.apply({"type": "staubfinger", "to": to})


def use(state: State, card: str, **choice: str) -> None:
    state.apply({"type": "advantage", "card": card, **choice})


def reward(state: State, row: str, take: str = "all") -> None:
    state.apply({"type": "reward", "row": row, "take": take})


def lose(state: State, *tiles: str) -> None:
    for tile in tiles:
        state.apply({"type": "lose_tile", "tile": tile})


def exchange(state: State, give: str, get: str) -> None:
    state.apply({"type": "exchange", "give": give, "get": get})


def convert(state: State, tiles: str) -> None:
    state.apply({"type": "convert", "tiles": tiles})


def end_turn(state: State) -> None:
    state.apply({"type": "end_turn"})


def start(state: State, choice: str) -> None:
    state.apply({"type": "start", "choice": choice})


def draw_advantage(state: State, card: str) -> None:
    state.apply({"type": "draw_advantage", "card": card})


def draw_villain(state: State, card: str) -> None:
    state.apply({"type": "draw_villain", "card": card})


def legal(state: State, player: int | None = None) -> list[dict[str, Any]]:
    """The legal actions in JSON form."""
    return [a.to_json() for a in state.legal_actions(player)]


def legal_of_type(state: State, kind: str) -> list[dict[str, Any]]:
    return [a for a in legal(state) if a["type"] == kind]


def public(state: State) -> dict[str, Any]:
    return state.view(None)


def tiles_of(state: State, seat: int) -> str:
    """A seat's tiles as text in kind order: "MMSE"."""
    counts = public(state)["tiles"][seat]
    return "".join(k * counts[k] for k in KINDS)


# ---------------------------------------------------------------------- literal tables
def arrange(
    state: InkspellState,
    seat: int,
    *,
    tiles: str | None = None,
    provisions: int | None = None,
    score: int | None = None,
    position: str | None = None,
    villains: Iterable[str] | None = None,
    advantage: Iterable[str] | None = None,
    white_women: bool = False,
) -> None:
    """Give `seat` exactly these components (taken from / returned to the supply and decks).
    Advantage cards given here count as held since before the current turn; `white_women`
    puts the White Women with the seat's figure."""
    if tiles is not None:
        old = state.tiles[seat]
        new = tuple(tiles.count(k) for k in KINDS)
        for k in range(len(KINDS)):
            state.supply_tiles[k] += old[k] - new[k]
            assert state.supply_tiles[k] >= 0, "the supply cannot cover these tiles"
        state.tiles[seat] = new
    if provisions is not None:
        state.supply_provisions += state.provisions[seat] - provisions
        assert state.supply_provisions >= 0
        state.provisions[seat] = provisions
    if score is not None:
        state.scores[seat] = score
    if position is not None:
        state.position[seat] = location(position)
    if villains is not None:
        for v in state.villains[seat]:
            state.villain_discard.append(v)
        cards = [PARAMS.villain_keys.index(key) for key in villains]
        for v in cards:
            if v in state.villain_discard:
                state.villain_discard.remove(v)
                continue
            tier = next(i for i, t in enumerate(state.villain_deck) if v in t)
            state.villain_deck[tier] = tuple(c for c in state.villain_deck[tier] if c != v)
        state.villains[seat] = tuple(cards)
    if advantage is not None:
        for _, card in state.held[seat]:
            state.advantage_pool.append(card)
        held = []
        for key in advantage:
            card = PARAMS.advantage_keys.index(key)
            state.advantage_pool.remove(card)
            held.append((-1, card))
        state.advantage_pool.sort()
        state.held[seat] = tuple(held)
    if white_women:
        state.white_women = seat


# ---------------------------------------------------------------------- moving on
def settle(state: InkspellState, lead: bool = True) -> None:
    """Play on with plain choices until a seat must choose a location card (or the game is
    over): the first reward offered, the first card of each deck that is no Natternkopf,
    the first tile for a Natternkopf loss, no exchange or conversion, the villain drawer
    leads (or, with `lead=False`, is last)."""
    for _ in play_on(state, 1_000):
        phase = public(state)["phase"]
        if phase == "arrived":
            rewards = legal_of_type(state, "reward")
            reward(state, rewards[0]["row"], rewards[0]["take"])
        elif phase == "draw_advantage":
            draw_advantage(state, state.legal_actions()[0].to_json()["card"])  # type: ignore[arg-type]
        elif phase == "villain":
            cards = [a.to_json()["card"] for a in state.legal_actions()]
            plain = [c for c in cards if not str(c).startswith("natternkopf")]
            draw_villain(state, str((plain or cards)[0]))
        elif phase == "natternkopf_loss":
            state.apply(state.legal_actions()[0])
        elif phase == "exchange_convert":
            end_turn(state)
        elif phase == "start_choice":
            start(state, "lead" if lead else "last")
        else:
            return
