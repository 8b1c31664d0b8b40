"""A Tintenblut bot that plays from its view alone, the way a careful player would.

It values a seat's tiles by the points they would bring if converted in the best sets of
different kinds (a 4-set is worth 7, a 3-set 4, a 2-set 2), plus provisions and advantage
cards at fixed rates. Then, decision by decision:

- location card: the reward of the destination (alone or in company, as the map stands), less
  the journey's provisions, plus what it could convert there this turn (special spaces of the
  track need the right locations), less the risk of villain cards (alone in the Nachtburg; the
  highest card number of the round draws at the end of it). It passes when every card is
  worse than nothing and the hand is nearly spent. Der Schwarze Prinz goes first when it saves
  at least two provisions on the best card;
- after arriving: Staubfinger is moved in (one step) when the shared row is worth more than the
  step, or to keep it company in the Nachtburg; advantage cards with an immediate gain are used
  at once (Die Nessel, Schleierkauz, Fenoglio), Farid/Roxane when the other reward row is
  better, Orpheus against a heavy villain pile, Der Speckfürst when the exchange helps;
- exchange and conversions: it searches the short sequences of the turn (an exchange, then up
  to one set of each size) for the most points, keeping the leftover tiles varied;
- Natternkopf losses: the most plentiful kind first; the villain drawer leads the next round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from spielwerk.agents.base import Agent, Turn
from spielwerk.agents.guidance import lead_values
from spielwerk.core.actions import Action
from spielwerk.core.state import State
from spielwerk.games.inkspell.actions import CONVERSION_SETS
from spielwerk.games.inkspell.params import PARAMS
from spielwerk.games.inkspell.state import (
    GAIN_ADVANTAGE,
    GAIN_PROVISION,
    NACHTBURG,
    REWARDS,
    STEPS,
    InkspellState,
    in_company,
    journey_cost,
    special_blocked,
)

KINDS = PARAMS.tile_keys
LOCATION = {key: i for i, key in enumerate(PARAMS.location_keys)}
NUM_KINDS = len(KINDS)
PROVISION_VALUE = 0.8
ADVANTAGE_VALUE = 1.6  # an unknown advantage card: its effect or 1-3 points at the end
REALISED_BONUS = 0.35  # a point on the track is safer than a point in tiles
REALISED = 1.1  # in the turn's conversions a point now beats tiles worth as much later
VILLAIN_CARD = 1.0  # a villain card in front of the seat, before any Natternkopf
AT_RISK = 0.15  # per tile or provision the next Natternkopf could halve
STEP_COST = 1.0  # one Staubfinger step
TILE_POTENTIAL = 1.55  # a tile with time left: most end up in 3- and 4-sets
LOPSIDED = 0.5  # per tile between the most and the least plentiful kind


def set_points(counts: Sequence[int]) -> int:
    """Points of the tiles in layered sets of different kinds (ignoring turn limits)."""
    points = 0
    counts = list(counts)
    while True:
        size = sum(1 for c in counts if c > 0)
        if size < 2:
            return points
        points += STEPS[min(size, max(STEPS))]
        counts = [c - 1 if c > 0 else 0 for c in counts]


def tile_value(counts: Sequence[int], horizon: float = 1.0) -> float:
    """What tiles in hand are worth: with time left (`horizon` 1) about TILE_POTENTIAL each,
    less for a lopsided mix, never less than their set points now; at the very end (0) their
    set points only matter if converted now, so nothing."""
    if horizon <= 0:
        return 0.0
    now = set_points(counts)
    future = TILE_POTENTIAL * sum(counts) - LOPSIDED * (max(counts) - min(counts))
    return horizon * max(now, future)


def best_conversions(
    counts: Sequence[int],
    score: int,
    position: int,
    used: Sequence[int] = (),
    horizon: float = 1.0,
) -> tuple[int, float, list[tuple[int, ...]]]:
    """The conversions of this turn (each set size once) that give the most points (each worth
    REALISED) plus value of the tiles kept: (points, value kept, the sets in the order to
    convert them). Without that edge a big pile of tiles is worth as much as the points it
    could make, and the bot would hoard them for rounds instead of converting."""
    best: tuple[int, float, list[tuple[int, ...]]] = (0, tile_value(counts, horizon), [])

    def search(
        tiles: list[int], at: int, done: frozenset[int], path: list[tuple[int, ...]]
    ) -> None:
        nonlocal best
        gained = at - score
        left = tile_value(tiles, horizon)
        if REALISED * gained + left > REALISED * best[0] + best[1] + 1e-9:
            best = (gained, left, path)
        for kinds in reversed(CONVERSION_SETS):  # the big sets first: they win ties
            size = len(kinds)
            if size in done or not all(tiles[k] for k in kinds):
                continue
            if special_blocked(at, STEPS[size], position):
                continue
            rest = tiles.copy()
            for k in kinds:
                rest[k] -= 1
            search(rest, at + STEPS[size], done | {size}, [*path, kinds])

    search(list(counts), score, frozenset(used), [])
    return best


class InkspellHeuristic(Agent):
    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def act(self, turn: Turn) -> Action:
        view = turn.view
        phase = view["phase"]
        legal = turn.legal_actions
        me = turn.player
        if phase == "choose_card":
            return self._choose_card(view, me, legal)
        if phase == "arrived":
            return self._arrived(view, me, legal)
        if phase == "exchange_convert":
            return self._after(view, me, legal)
        if phase == "natternkopf_loss":
            tiles = view["tiles"][me]
            return max(legal, key=lambda a: tiles[str(a.to_json()["tile"])])
        if phase == "start_choice":
            return next(a for a in legal if a.to_json()["choice"] == "lead")
        return legal[0]

    # ------------------------------------------------------------------ the location card
    def _choose_card(self, view: dict[str, Any], me: int, legal: list[Action]) -> Action:
        board = _Board(view, me)
        scored: list[tuple[float, Action]] = []
        prince: Action | None = None
        passing: Action | None = None
        for action in legal:
            data = action.to_json()
            if data["type"] == "advantage":
                prince = action
            elif data["type"] == "pass":
                passing = action
            else:
                target = LOCATION[str(data.get("to", data["card"]))]
                scored.append((board.destination_value(str(data["card"]), target), action))
        if prince is not None and scored:
            best_paid = max(value for value, _ in scored)
            best_free = max(
                board.destination_value(
                    str(a.to_json()["card"]),
                    LOCATION[str(a.to_json().get("to", a.to_json()["card"]))],
                    free=True,
                )
                for _, a in scored
            )
            if best_free - best_paid >= 2 * PROVISION_VALUE:
                return prince
        if not scored:
            assert passing is not None
            return passing
        value, action = max(scored, key=lambda pair: pair[0])
        # Passing takes the played cards back: worth it when only poor cards are left.
        if passing is not None and value < 0.5 and len(view["hands"][me]) <= 4:
            return passing
        return action

    # ------------------------------------------------------------------ after arriving
    def _arrived(self, view: dict[str, Any], me: int, legal: list[Action]) -> Action:
        board = _Board(view, me)
        here = board.position
        rewards = [a for a in legal if a.type == "reward"]
        steps = {str(a.to_json()["to"]): a for a in legal if a.type == "staubfinger"}
        uses = [a for a in legal if a.type == "advantage"]
        # Advantage cards with a plain gain, or a better row.
        best_use = self._best_advantage(board, uses)
        if best_use is not None:
            return best_use
        # Staubfinger one step away from here: company for the shared row, or in the Nachtburg.
        key = PARAMS.location_keys[here]
        if key in steps and not board.company(here):
            solo, shared = board.row_value(here, 0), board.row_value(here, 1)
            gain = shared - solo
            if here == NACHTBURG:
                gain += board.villain_cost()
            if gain > STEP_COST:
                return steps[key]
        return max(rewards, key=lambda a: board.reward_value(a))

    def _best_advantage(self, board: _Board, uses: list[Action]) -> Action | None:
        here = board.position
        best: tuple[float, Action] | None = None
        for action in uses:
            data = action.to_json()
            card = str(data["card"])
            value = 0.0
            if card == "nessel":
                value = 2 * PROVISION_VALUE
            elif card == "schleierkauz":
                value = PROVISION_VALUE + board.tile_gain({str(data["tile"]): 1})
            elif card == "fenoglio":
                tiles = str(data["tiles"])
                value = board.tile_gain({tiles[0]: 1, tiles[1]: 1})
            elif card == "farid":
                if LOCATION[str(data["to"])] == here and not board.company(here):
                    value = board.row_value(here, 1) - board.row_value(here, 0)
                    value += board.villain_cost() if here == NACHTBURG else 0.0
            elif card == "roxane":
                row = 0 if data["row"] == "solo" else 1
                value = board.row_value(here, row) - board.current_row_value()
            elif card == "orpheus":
                villain = PARAMS.villain_keys.index(str(data["villain"]))
                value = 0.4 * PARAMS.villain_values[villain] if board.villain_sum >= 5 else 0.0
            elif card == "speckfuerst":
                value = 0.0  # kept for its end point unless an exchange clearly helps
            # Using a card gives up its end point.
            value -= 1.0
            if value > 0 and (best is None or value > best[0]):
                best = (value, action)
        return None if best is None else best[1]

    # ------------------------------------------------------------------ exchange and conversions
    def _after(self, view: dict[str, Any], me: int, legal: list[Action]) -> Action:
        board = _Board(view, me)
        counts = board.tiles
        used = tuple(view["turn"]["converted"])
        horizon = board.horizon
        base_points, base_left, path = best_conversions(
            counts, board.score, board.position, used, horizon
        )
        best_value = REALISED * base_points + base_left + PROVISION_VALUE * board.provisions
        choice: Action | None = None
        if path:
            kinds = path[0]
            key = PARAMS.kinds_key(kinds)
            choice = next(a for a in legal if a.type == "convert" and a.to_json()["tiles"] == key)
        for action in legal:
            if action.type != "exchange":
                continue
            give, get = str(action.to_json()["give"]), str(action.to_json()["get"])
            tiles = counts.copy()
            money = board.provisions
            for c in give:
                if c == "P":
                    money -= 1
                else:
                    tiles[KINDS.index(c)] -= 1
            if get == "P":
                money += 1
            else:
                tiles[KINDS.index(get)] += 1
            points, left, _ = best_conversions(tiles, board.score, board.position, used, horizon)
            value = REALISED * points + left + PROVISION_VALUE * money
            if value > best_value + 0.5:
                best_value, choice = value, action
        if choice is not None:
            return choice
        return next(a for a in legal if a.type == "end_turn")


class _Board:
    """The position from one seat's view, in the game's numbers."""

    def __init__(self, view: dict[str, Any], me: int) -> None:
        self.view = view
        self.me = me
        self.positions = [LOCATION[p] if p is not None else -1 for p in view["positions"]]
        self.position = self.positions[me]
        self.staubfinger = LOCATION[view["staubfinger"]]
        self.tiles = [int(view["tiles"][me][k]) for k in KINDS]
        self.provisions = int(view["provisions"][me])
        self.score = int(view["scores"][me])
        self.villain_sum = int(view["villain_sums"][me])
        self.white_women = view["white_women"] == me
        self.supply = view["supply"]
        sums = view["villain_sums"]
        # How much tiles kept are worth compared with points now: nothing in the final round,
        # less once the end is near or when the next Natternkopf would hit this seat.
        if view["final_round"]:
            self.horizon = 0.0
        elif view["end_triggered"]:
            self.horizon = 0.6
        elif self.villain_sum and self.villain_sum == max(sums):
            self.horizon = 0.75
        else:
            self.horizon = 1.0

    def villain_cost(self) -> float:
        """What drawing a villain card costs: more with more to lose to a Natternkopf and a
        heavier pile already."""
        at_risk = sum(self.tiles) + self.provisions
        return VILLAIN_CARD + AT_RISK * at_risk * (1 + self.villain_sum / 8)

    def company(self, location: int, ignore_staubfinger: bool = False) -> bool:
        """The rules' company at `location` (without Staubfinger if asked)."""
        staubfinger = -1 if ignore_staubfinger else self.staubfinger
        return in_company(location, self.me, self.positions, staubfinger)

    def tile_gain(self, gained: dict[str, int]) -> float:
        tiles = self.tiles.copy()
        for key, amount in gained.items():
            tiles[KINDS.index(key)] += min(amount, int(self.supply[key]))
        return tile_value(tiles, self.horizon) - tile_value(self.tiles, self.horizon)

    def entry_value(self, gain: int, amount: int, tiles: list[int]) -> float:
        if gain == GAIN_PROVISION:
            return PROVISION_VALUE * amount
        if gain == GAIN_ADVANTAGE:
            return ADVANTAGE_VALUE * amount if self.view["advantage_deck"] else 0.0
        before = tile_value(tiles, self.horizon)
        tiles[gain] += amount
        return tile_value(tiles, self.horizon) - before

    def row_value(self, location: int, row: int) -> float:
        """What a reward row is worth to this seat (one entry if it has the White Women)."""
        entries = REWARDS[location][row]
        if self.white_women and len(entries) > 1:
            return max(self.entry_value(g, a, self.tiles.copy()) for g, a in entries)
        tiles = self.tiles.copy()
        return sum(self.entry_value(g, a, tiles) for g, a in entries)

    def current_row_value(self) -> float:
        row = 1 if self.company(self.position) else 0
        return self.row_value(self.position, row)

    def reward_value(self, action: Action) -> float:
        data = action.to_json()
        row = 0 if data["row"] == "solo" else 1
        entries = REWARDS[self.position][row]
        take = str(data["take"])
        if take != "all":
            entries = (entries[0 if take == "first" else 1],)
        tiles = self.tiles.copy()
        return sum(self.entry_value(g, a, tiles) for g, a in entries)

    def destination_value(self, card: str, target: int, free: bool = False) -> float:
        """Reward, journey cost, conversions possible there, villain risks."""
        cost = 0 if free else journey_cost(self.position, target)
        row = 1 if self.company(target) else 0
        value = self.row_value(target, row) - PROVISION_VALUE * cost
        # Tiles after the reward (roughly: the tile entries of the row).
        tiles = self.tiles.copy()
        for gain, amount in REWARDS[target][row]:
            if gain >= 0 and not (self.white_women and len(REWARDS[target][row]) > 1):
                tiles[gain] += amount
        points, _, _ = best_conversions(tiles, self.score, target, (), self.horizon)
        value += REALISED_BONUS * points
        if target == NACHTBURG and row == 0:
            value -= self.villain_cost()
        # The highest card number of the round draws a villain card at its end.
        seat_numbers = PARAMS.location_numbers[self.me]
        index = PARAMS.tintenwelt if card == PARAMS.tintenwelt_key else LOCATION[card]
        number = seat_numbers[index]
        others = [n for q, n in enumerate(self.view["last_played"]) if q != self.me]
        if number > max(others, default=0):
            value -= self.villain_cost()
        return value


class InkspellValuation:
    """The heuristic's own estimate of where a game in progress stands, as a search's leaf
    value: each seat's victory track plus what its tiles (`tile_value`, less as the end
    nears), provisions and held advantage cards would be worth, and its lead over the best
    other seat's estimate squashed to (0, 1) as in `LeadValuation`. It reads a determinized
    state (`spielwerk.agents.guidance.Valuation`): only public counts and the seat's own
    holdings, never another seat's hidden card types."""

    def __init__(self, scale: float = 8.0) -> None:
        self.scale = scale

    def estimates(self, state: InkspellState) -> list[float]:
        if state.final_round:
            horizon = 0.0
        elif state.end_triggered:
            horizon = 0.6
        else:
            horizon = 1.0
        return [
            state.scores[p]
            + tile_value(state.tiles[p], horizon)
            + PROVISION_VALUE * horizon * state.provisions[p]
            + ADVANTAGE_VALUE * len(state.held[p])
            for p in range(state.num_players)
        ]

    def leaf(self, state: State) -> list[float] | None:
        assert isinstance(state, InkspellState)
        return lead_values(self.estimates(state), self.scale)

    def terminal(self, state: State) -> Sequence[float]:
        return state.returns()
