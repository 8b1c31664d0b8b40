"""The rules of Tintenblut, in the order a game is played.

Rulebook: shared/seeds/000 (German); gaps settled in shared/rules/inkspell.md. Read top to
bottom: set-up, a turn (card, Staubfinger, advantage card, reward, Nachtburg, exchange,
conversions), villain cards and the Natternkopf, the end of a round, the end of the game.

Randomness is explicit: every location card turned up at set-up is a chance `flip`, every
advantage and villain card that comes up is a chance draw from an unordered pool (the villain
deck is one pool per tier: tier I lies on top of II on top of III). The only secrets are the
advantage cards in the players' hands; `resample` re-deals those (and when they were drawn).

A turn is a sequence of decisions, each one action; where a decision has a single possible
outcome that every seat can foresee (the reward of a player who can neither move Staubfinger
nor hold a card to play, the end of a turn with nothing left to do, a forced tile loss) it is
carried out at once and is not an action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, Self

from spielwerk.core.actions import Action
from spielwerk.core.compiled import mypyc_attr
from spielwerk.core.hidden import place_played_draws
from spielwerk.core.i18n import DEFAULT_LANG, Lang
from spielwerk.core.state import CHANCE, TERMINAL, State
from spielwerk.games.inkspell import words
from spielwerk.games.inkspell.actions import (
    ADVANTAGE,
    ADVANTAGE_CHOICES,
    ADVANTAGE_IDS,
    CONVERSION_SETS,
    CONVERT,
    DRAW_ADVANTAGE,
    DRAW_VILLAIN,
    END_TURN,
    EXCHANGE,
    EXCHANGES,
    FLIP,
    LOSE_TILE,
    PAIRS,
    PASS,
    PLAY,
    PLAY_ANYWHERE,
    RATES,
    REWARD,
    ROW_NAMES,
    SHARED,
    SOLO,
    START,
    STAUBFINGER,
    TAKE_ALL,
    TAKE_NAMES,
    exchange_text,
    reward_id,
)
from spielwerk.games.inkspell.params import ADVANTAGE as ADVANTAGE_REWARD
from spielwerk.games.inkspell.params import PARAMS, PROVISION

if TYPE_CHECKING:
    from spielwerk.games.inkspell.game import InkspellGame

NUM_KINDS = PARAMS.num_kinds
NUM_LOCATIONS = PARAMS.num_locations
TINTENWELT = PARAMS.tintenwelt
CASTLES = PARAMS.castles
NACHTBURG = PARAMS.lonely_villain_location
TRACK = PARAMS.track_length
STEPS = dict(PARAMS.conversion_steps)
NATTERNKOPF = PARAMS.natternkopf
VILLAIN_VALUES = PARAMS.villain_values

# Reward entries in code form: a tile kind 0..3, or one of these.
GAIN_PROVISION, GAIN_ADVANTAGE = -1, -2
_GAIN_CODE = {PROVISION: GAIN_PROVISION, ADVANTAGE_REWARD: GAIN_ADVANTAGE}
_GAIN_CODE.update({key: k for k, key in enumerate(PARAMS.tile_keys)})
REWARDS: tuple[tuple[tuple[tuple[int, int], ...], ...], ...] = tuple(
    tuple(tuple((_GAIN_CODE[what], amount) for what, amount in row) for row in (solo, shared))
    for solo, shared in zip(PARAMS.solo, PARAMS.shared, strict=True)
)
"""REWARDS[location][SOLO or SHARED]: the (gain, amount) entries of that row."""

# Advantage card types by effect.
PRINZ = PARAMS.advantage_of("free_journey")
NESSEL = PARAMS.advantage_of("provisions")
SCHLEIERKAUZ = PARAMS.advantage_of("provision_and_tile")
SPECKFUERST = PARAMS.advantage_of("exchange")
FARID = PARAMS.advantage_of("move_staubfinger")
ROXANE = PARAMS.advantage_of("choose_row")
ORPHEUS = PARAMS.advantage_of("discard_villain")
FENOGLIO = PARAMS.advantage_of("two_tiles")
NO_EFFECT = frozenset(a for a, e in enumerate(PARAMS.advantage_effects) if e == "none")

# Component codes for `component_zones` (conservation checks).
PROVISION_CODE = NUM_KINDS
LOCATION_CODE, VILLAIN_CODE, ADVANTAGE_CODE = 100, 200, 300

# Phases.
SETUP, CHOOSE_CARD, ARRIVED, DRAW_CARD, VILLAIN, LOSS, AFTER, START_CHOICE, OVER = range(9)
PHASE_NAMES = (
    "setup",
    "choose_card",
    "arrived",
    "draw_advantage",
    "villain",
    "natternkopf_loss",
    "exchange_convert",
    "start_choice",
    "over",
)
# Why a villain card is drawn.
IN_TURN, END_OF_ROUND = 0, 1


def _allowed_positions(score: int, steps: int) -> frozenset[int]:
    """The figure's locations from which moving `steps` from `score` enters or crosses no
    special space it may not: the intersection of the crossed spaces' location groups."""
    allowed = frozenset(range(NUM_LOCATIONS))
    for space in range(score + 1, score + steps + 1):
        for special, group in PARAMS.special_spaces:
            if space % TRACK == special:
                allowed &= group
    return allowed


_ALLOWED = {
    steps: tuple(_allowed_positions(score, steps) for score in range(TRACK))
    for steps in STEPS.values()
}


def special_blocked(score: int, steps: int, position: int) -> bool:
    """Would moving `steps` from `score` enter or cross a special space that the figure at
    `position` may not enter? Rulebook "Die Sonderfelder": a special space "darf ... nur
    betreten oder überquert werden, wenn sich die Spielfigur ... an einem zugehörigen Ort
    befindet"; on every lap (rules file)."""
    return position not in _ALLOWED[steps][score % TRACK]


def journey_cost(start: int, target: int) -> int:
    """Rulebook: the first location of the route is free, every further one costs 1 provision:
    shortest road distance - 1, at least 0."""
    return max(0, PARAMS.distance[start][target] - 1)


# ---------------------------------------------------------------------- precomputed tables
# The rules above as lookup tables, so that listing the legal actions (the hot path of random
# play and search) is a few indexings. Each table is built from the functions above.
COST = tuple(tuple(journey_cost(a, b) for b in range(NUM_LOCATIONS)) for a in range(NUM_LOCATIONS))
"""COST[start][target]: the journey's provisions."""
_MAX_COST = max(max(row) for row in COST)
_ANYWHERE = tuple(
    tuple(
        tuple(PLAY_ANYWHERE + t for t in range(NUM_LOCATIONS) if COST[here][t] <= money)
        for money in range(_MAX_COST + 1)
    )
    for here in range(NUM_LOCATIONS)
)
"""_ANYWHERE[here][min(provisions, max cost)]: Die Tintenwelt's affordable destinations."""
_ANYWHERE_FREE = tuple(PLAY_ANYWHERE + t for t in range(NUM_LOCATIONS))
_STAUBFINGER_STEPS = tuple(
    tuple(
        STAUBFINGER + loc for loc in sorted({*PARAMS.neighbours[sf], *PARAMS.secret_neighbours[sf]})
    )
    for sf in range(NUM_LOCATIONS)
)
"""Staubfinger's one-step moves from each location: the roads and the secret path [seed]."""
_SIZE_BITS = tuple(
    tuple(
        sum(1 << size for size, steps in STEPS.items() if here in _ALLOWED[steps][lap])
        for here in range(NUM_LOCATIONS)
    )
    for lap in range(TRACK)
)
"""_SIZE_BITS[score mod 40][location]: bit `size` set if a set of that size may convert."""
_ALL_SIZES = sum(1 << size for size in STEPS)
_CONVERT_IDS = tuple(
    tuple(
        tuple(
            CONVERT + i
            for i, kinds in enumerate(CONVERSION_SETS)
            if sizes >> len(kinds) & 1 and all(present >> k & 1 for k in kinds)
        )
        for sizes in range(_ALL_SIZES + 1)
    )
    for present in range(1 << NUM_KINDS)
)
"""_CONVERT_IDS[kinds held (bit mask)][sizes allowed (bit mask)]: the conversions offered."""
_BUY_IDS = {
    rate: tuple(
        tuple(
            EXCHANGE + i
            for i, (paid, _, kind) in enumerate(EXCHANGES)
            if paid == rate and stocked >> kind & 1
        )
        for stocked in range(1 << NUM_KINDS)
    )
    for rate in RATES
}
"""_BUY_IDS[rate][kinds in the supply (bit mask)]: buying one tile for `rate` provisions."""


def _kinds_mask(counts: Sequence[int]) -> int:
    """The kinds with a non-zero count, as a bit mask."""
    mask = 0
    for kind, count in enumerate(counts):
        if count:
            mask |= 1 << kind
    return mask


def _sell_ids(rate: int, held: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(
        EXCHANGE + i
        for i, (_, given, kind) in enumerate(EXCHANGES)
        if kind < 0 and len(given) == rate and all(held[k] >= given.count(k) for k in given)
    )


_SELL_IDS = {
    rate: {held: _sell_ids(rate, held) for held in product(range(rate + 1), repeat=NUM_KINDS)}
    for rate in RATES
}
"""_SELL_IDS[rate][tiles by kind, each capped at rate]: `rate` tiles for one provision."""


def in_company(location: int, player: int, positions: list[int], staubfinger: int) -> bool:
    """Is another figure (a player's, at `positions`, or Staubfinger) at `location`? The White
    Women count as one figure with the player they stand with [seed]."""
    if staubfinger == location:
        return True
    mine = 1 if positions[player] == location else 0
    return positions.count(location) > mine


# Compiled by mypyc (spielwerk.native); open to Python subclasses, whose clone() makes them too.
@mypyc_attr(allow_interpreted_subclasses=True)
class InkspellState(State):
    __slots__ = (
        "advantage_box",
        "advantage_draws",
        "advantage_plays",
        "advantage_pool",
        "advantage_used",
        "converted",
        "current",
        "end_triggered",
        "exchanged",
        "final_points",
        "final_round",
        "flipped",
        "hands",
        "held",
        "last_played",
        "losses",
        "passed",
        "pending_draws",
        "phase",
        "played",
        "position",
        "prince",
        "provisions",
        "round",
        "round_drawer",
        "row_choice",
        "scores",
        "setup_seat",
        "speckfuerst",
        "start_player",
        "staubfinger",
        "supply_provisions",
        "supply_tiles",
        "tiles",
        "turn_start",
        "turns_in_round",
        "villain_box",
        "villain_context",
        "villain_deck",
        "villain_discard",
        "villains",
        "white_women",
    )

    game: InkspellGame

    def __init__(self, game: InkspellGame, num_players: int, seed: int) -> None:
        super().__init__(game, num_players, seed)
        n = num_players
        self.phase = SETUP
        self.round = 0
        self.start_player = PARAMS.start_player
        self.current = PARAMS.start_player
        self.turns_in_round = 0
        # The board.
        self.position = [-1] * n  # each figure's location (-1 before set-up places it)
        self.staubfinger = PARAMS.staubfinger_start
        self.white_women = -1  # the seat the White Women stand with, -1: still by the track
        self.scores = [0] * n  # victory track: 0 = start, counting on past one lap
        # Supply and possessions (limited supply [seed]).
        self.supply_tiles = list(PARAMS.tile_counts)
        self.supply_provisions = PARAMS.provisions - PARAMS.start_provisions * n
        # Per-seat collections are tuples, replaced when they change: cheap to clone.
        self.tiles = [(0,) * NUM_KINDS for _ in range(n)]
        self.provisions = [PARAMS.start_provisions] * n
        # Location cards: in hand (sorted), played (in order); numbers of the last played card.
        self.hands = [tuple(range(PARAMS.num_location_cards)) for _ in range(n)]
        self.played: list[tuple[int, ...]] = [() for _ in range(n)]
        self.last_played = [0] * n  # villain number of the most recent card, 0: none yet
        self.passed = [False] * n  # passed this round: takes the cards back at its end
        # Set-up: the seat turning up cards, and the cards it has turned up.
        self.setup_seat = PARAMS.start_player
        self.flipped: list[int] = []
        # Villain cards: the deck as pools, top tier first; open in front of the players.
        self.villain_deck = [
            tuple(v for v in range(PARAMS.num_villains) if PARAMS.villain_tiers[v] == tier)
            for tier in sorted(set(PARAMS.villain_tiers))
        ]
        self.villains: list[tuple[int, ...]] = [() for _ in range(n)]
        self.villain_discard: list[int] = []
        self.villain_box: list[int] = []  # tier I cards removed at a rebuild
        self.villain_context = IN_TURN
        self.round_drawer = -1  # who drew the end-of-round villain card, -1: nobody
        self.losses: list[tuple[int, int]] = []  # Natternkopf: (seat, tiles still to give up)
        # Advantage cards: the face-down pool (types, sorted), each hand as (history index of
        # the draw, type) in draw order, and the used cards (back in the box, public).
        self.advantage_pool = sorted(
            a for a, count in enumerate(PARAMS.advantage_counts) for _ in range(count)
        )
        self.held: list[tuple[tuple[int, int], ...]] = [() for _ in range(n)]
        self.advantage_box: list[int] = []
        # Public facts about the hidden cards, for `resample`: when each seat drew an
        # advantage card, and (start of that turn, history index, type) of each card it used.
        self.advantage_draws: list[tuple[int, ...]] = [() for _ in range(n)]
        self.advantage_plays: list[tuple[tuple[int, int, int], ...]] = [() for _ in range(n)]
        self.pending_draws = 0
        # This turn.
        self.turn_start = 0  # history index at which the turn began
        self.advantage_used = False  # one advantage card per turn [seed]
        self.prince = False  # Der Schwarze Prinz: the journey is free
        self.speckfuerst = False  # Der Speckfürst: exchange anywhere, 1:1 in a castle
        self.row_choice = -1  # Roxane: the chosen reward row
        self.exchanged = False
        self.converted = 0  # bit mask of the set sizes converted this turn
        # The end.
        self.end_triggered = False
        self.final_round = False
        self.final_points = [0] * n
        self.to_move = CHANCE

    # ================================================================== legal actions
    def legal_ids(self, player: int | None = None) -> list[int]:
        actor = self._legal_actor(player)
        if actor is None:
            return []
        phase = self.phase
        if phase == CHOOSE_CARD:
            return self._card_choices()
        if phase == ARRIVED:
            return self._arrival_choices()
        if phase == AFTER:
            return self._after_choices()
        if phase == LOSS:
            tiles = self.tiles[actor]
            return [LOSE_TILE + k for k in range(NUM_KINDS) if tiles[k]]
        if phase == START_CHOICE:
            return [START, START + 1]
        return [i for i, _ in self.chance_ids()]

    def _card_choices(self) -> list[int]:
        """Play an affordable location card (cost paid before moving [seed]), Der Schwarze
        Prinz before moving [seed], or pass as the turn's only action [seed]."""
        me = self.current
        hand = self.hands[me]  # sorted: Die Tintenwelt, if held, comes last
        anywhere = hand[-1] == TINTENWELT
        if self.prince:  # the journey is free; the card is played, so no passing any more
            ids = [PLAY + card for card in hand if card != TINTENWELT]
            if anywhere:
                ids += _ANYWHERE_FREE
            return ids
        costs = COST[self.position[me]]
        money = self.provisions[me]
        ids = [PLAY + card for card in hand if card != TINTENWELT and costs[card] <= money]
        if anywhere:
            ids += _ANYWHERE[self.position[me]][min(money, _MAX_COST)]
        if PRINZ in self.playable(me):
            ids.append(ADVANTAGE_IDS[PRINZ][0])
        ids.append(PASS)
        return ids

    def _arrival_choices(self) -> list[int]:
        """After arriving: Staubfinger steps, one advantage card, then the reward."""
        me = self.current
        ids = list(_STAUBFINGER_STEPS[self.staubfinger]) if self.provisions[me] else []
        if not self.advantage_used:
            for card in sorted(set(self.playable(me))):
                ids += self._advantage_uses(me, card)
        row = self.reward_row(me)
        if self.white_women == me and len(REWARDS[self.position[me]][row]) > 1:
            ids += [reward_id(row, 1), reward_id(row, 2)]  # one entry only [seed]
        else:
            ids.append(reward_id(row, TAKE_ALL))
        return ids

    def _advantage_uses(self, me: int, card: int) -> list[int]:
        """The ways to use one advantage card after moving (Der Schwarze Prinz only before
        moving [seed]; Meggie, Mo and Resa never [seed])."""
        if card == PRINZ or card in NO_EFFECT:
            return []
        choices = ADVANTAGE_IDS[card]
        if card == SCHLEIERKAUZ:
            return [choices[k] for k in self._kinds_in_supply()]
        if card == FENOGLIO:
            stocked = set(self._kinds_in_supply())
            pairs = [i for i, pair in enumerate(PAIRS) if set(pair) <= stocked]
            return [choices[i] for i in pairs or range(len(PAIRS))]
        if card == FARID:
            return [choices[loc] for loc in range(NUM_LOCATIONS) if loc != self.staubfinger]
        if card == ROXANE:
            return [choices[SOLO], choices[SHARED]]
        if card == ORPHEUS:
            return [choices[v] for v in sorted(self.villains[me])]
        return [choices[0]]  # Die Nessel, Der Speckfürst

    def _kinds_in_supply(self) -> list[int]:
        """Kinds a "tile of your choice" can be: those left in the supply (all if none is)."""
        return [k for k in range(NUM_KINDS) if self.supply_tiles[k]] or list(range(NUM_KINDS))

    def _after_choices(self) -> list[int]:
        """The exchange (once, before converting [design]), conversions, end of the turn."""
        me = self.current
        tiles = self.tiles[me]
        ids = [] if self.exchanged or self.converted else self._exchanges(me, tiles)
        sizes = _SIZE_BITS[self.scores[me] % TRACK][self.position[me]] & ~self.converted
        ids += _CONVERT_IDS[_kinds_mask(tiles)][sizes]
        ids.append(END_TURN)
        return ids

    def _exchanges(self, me: int, tiles: tuple[int, ...]) -> list[int]:
        """Rulebook "In einer Burg einmal 2 : 1 tauschen": in a castle, 2 provisions -> 1 tile
        or 2 tiles -> 1 provision; with Der Speckfürst 2:1 anywhere, 1:1 in a castle [seed].
        The supply must hold what is bought [design]."""
        in_castle = self.position[me] in CASTLES
        if not (in_castle or self.speckfuerst):
            return []
        rate = (
            PARAMS.speckfuerst_castle_rate
            if self.speckfuerst and in_castle
            else PARAMS.exchange_rate
        )
        ids: list[int] = []
        if self.provisions[me] >= rate:
            ids += _BUY_IDS[rate][_kinds_mask(self.supply_tiles)]
        if self.supply_provisions:
            capped = tuple(t if t < rate else rate for t in tiles)
            ids += _SELL_IDS[rate][capped]
        return ids

    def chance_ids(self) -> list[tuple[int, float]]:
        phase = self.phase
        if phase == SETUP:
            cards = self.hands[self.setup_seat]
            return [(FLIP + c, 1.0 / len(cards)) for c in cards]
        if phase == DRAW_CARD:
            pool = self.advantage_pool
            counts = {a: pool.count(a) for a in sorted(set(pool))}
            return [(DRAW_ADVANTAGE + a, n / len(pool)) for a, n in counts.items()]
        tier = self._villain_tier()
        return [(DRAW_VILLAIN + v, 1.0 / len(tier)) for v in tier]

    def sample_chance_id(self, rng: random.Random) -> int:
        phase = self.phase
        if phase == SETUP:
            cards = self.hands[self.setup_seat]
            return FLIP + cards[int(rng.random() * len(cards))]
        if phase == DRAW_CARD:
            pool = self.advantage_pool
            return DRAW_ADVANTAGE + pool[int(rng.random() * len(pool))]
        tier = self._villain_tier()
        return DRAW_VILLAIN + tier[int(rng.random() * len(tier))]

    # ================================================================== helpers a seat can see
    def playable(self, player: int) -> list[int]:
        """Advantage cards `player` held at the start of this turn: only those may be used
        ("Diese Vorteilskarte muss er bereits zu Beginn seines Zuges auf der Hand haben")."""
        start = self.turn_start
        return [card for when, card in self.held[player] if when < start]

    def company(self, location: int, player: int) -> bool:
        return in_company(location, player, self.position, self.staubfinger)

    def reward_row(self, player: int) -> int:
        """Upper row alone, lower row with company [seed]; Roxane chooses [design]."""
        if self.row_choice >= 0:
            return self.row_choice
        return SHARED if self.company(self.position[player], player) else SOLO

    def villain_sum(self, player: int) -> int:
        return sum(VILLAIN_VALUES[v] for v in self.villains[player])

    def _villain_tier(self) -> tuple[int, ...]:
        """The top non-empty tier of the villain deck (I above II above III) [seed]."""
        for tier in self.villain_deck:
            if tier:
                return tier
        return ()

    # ================================================================== applying actions
    def _apply_id(self, actor: int, action_id: int) -> None:
        if action_id >= DRAW_VILLAIN:
            self._draw_villain(action_id - DRAW_VILLAIN)
        elif action_id >= DRAW_ADVANTAGE:
            self._draw_advantage(action_id - DRAW_ADVANTAGE)
        elif action_id >= FLIP:
            self._flip(action_id - FLIP)
        elif action_id >= START:
            self._choose_start(action_id - START)
        elif action_id == END_TURN:
            self._end_turn()
        elif action_id >= CONVERT:
            self._convert(CONVERSION_SETS[action_id - CONVERT])
        elif action_id >= EXCHANGE:
            self._exchange(EXCHANGES[action_id - EXCHANGE])
        elif action_id >= LOSE_TILE:
            self._lose_tile(actor, action_id - LOSE_TILE)
        elif action_id >= REWARD:
            offset = action_id - REWARD
            self._take_reward(offset // len(TAKE_NAMES), offset % len(TAKE_NAMES))
        elif action_id >= ADVANTAGE:
            self._use_advantage(*ADVANTAGE_CHOICES[action_id - ADVANTAGE])
        elif action_id >= STAUBFINGER:
            self._move_staubfinger(action_id - STAUBFINGER)
        elif action_id == PASS:
            self._pass()
        elif action_id >= PLAY_ANYWHERE:
            self._play(TINTENWELT, action_id - PLAY_ANYWHERE)
        else:
            self._play(action_id - PLAY, action_id - PLAY)

    # ------------------------------------------------------------------ set-up
    def _flip(self, card: int) -> None:
        """Rulebook "Spielvorbereitung": in turn order each player turns up the top card of
        their shuffled location cards and places the figure there; Die Tintenwelt or a location
        with another player's figure: the next card. Staubfinger's camp is allowed."""
        seat = self.setup_seat
        self.hands[seat] = _without(self.hands[seat], card)
        self.flipped.append(card)
        if card == TINTENWELT or card in self.position:
            return
        self.position[seat] = card
        self.hands[seat] = tuple(sorted(self.hands[seat] + tuple(self.flipped)))  # all back
        self.flipped = []
        self.setup_seat = (seat + 1) % self.num_players
        if self.setup_seat == PARAMS.start_player:
            self._start_round()

    # ------------------------------------------------------------------ rounds and turns
    def _start_round(self) -> None:
        """The start player begins, the others follow clockwise. Once the end is triggered,
        the round under way is finished and one more full round is the final round. [seed]"""
        self.round += 1
        if self.end_triggered:
            self.final_round = True
        self.passed = [False] * self.num_players
        self.turns_in_round = 0
        self.current = self.start_player
        self._start_turn()

    def _start_turn(self) -> None:
        """A player's turn begins; with an empty hand, all played location cards come back
        first ("Erst wenn er alle seine Ortskarten ausgespielt hat, darf er sie zu Beginn
        seines nächsten Zuges wieder auf die Hand nehmen")."""
        me = self.current
        self.turn_start = len(self.history)
        self.advantage_used = False
        self.prince = False
        self.speckfuerst = False
        self.row_choice = -1
        self.exchanged = False
        self.converted = 0
        if not self.hands[me]:
            self.hands[me] = tuple(sorted(self.played[me]))
            self.played[me] = ()
        self.phase = CHOOSE_CARD
        self.to_move = me

    def _play(self, card: int, target: int) -> None:
        """Play a location card, pay the journey, move. [seed]"""
        me = self.current
        cost = 0 if self.prince else COST[self.position[me]][target]
        self._pay(me, cost)
        self.hands[me] = _without(self.hands[me], card)
        self.played[me] += (card,)
        self.last_played[me] = PARAMS.location_numbers[me][card]
        self.position[me] = target
        self.phase = ARRIVED
        self._settle_arrival()

    def _pass(self) -> None:
        """Passing is the whole turn; the played cards come back at the end of the round.
        [seed]"""
        self.passed[self.current] = True
        self._end_turn()

    def _pay(self, player: int, provisions: int) -> None:
        self.provisions[player] -= provisions
        self.supply_provisions += provisions

    def _add_tile(self, player: int, kind: int, amount: int) -> None:
        tiles = list(self.tiles[player])
        tiles[kind] += amount
        self.tiles[player] = tuple(tiles)

    def _gain(self, player: int, gain: int, amount: int) -> None:
        """Take from the supply, as far as it goes [design: limited supply]."""
        if gain == GAIN_PROVISION:
            amount = min(amount, self.supply_provisions)
            self.supply_provisions -= amount
            self.provisions[player] += amount
        else:
            amount = min(amount, self.supply_tiles[gain])
            self.supply_tiles[gain] -= amount
            self._add_tile(player, gain, amount)

    # ------------------------------------------------------------------ after arriving
    def _settle_arrival(self) -> None:
        """If the only thing left before the reward is to take it, and every seat can see that
        (no provision for Staubfinger, no advantage card held since the turn began or one used
        already), take it at once. Whether the held cards could be used is not looked at: that
        would tell the other seats something about them."""
        me = self.current
        if self.provisions[me] > 0 or self.white_women == me:
            return
        if not self.advantage_used and self.playable(me):
            return
        self._take_reward(self.reward_row(me), TAKE_ALL)

    def _move_staubfinger(self, target: int) -> None:
        """One step, 1 provision, the first step included; the secret path too. [seed]"""
        self._pay(self.current, 1)
        self.staubfinger = target
        self._settle_arrival()

    def _use_advantage(self, card: int, choice: int) -> None:
        """One advantage card per turn, held since the turn began; used cards leave the game.
        [seed] Effects per the rules file's table."""
        me = self.current
        when = next(w for w, c in self.held[me] if c == card and w < self.turn_start)
        self.held[me] = _without(self.held[me], (when, card))
        self.advantage_plays[me] += ((self.turn_start, len(self.history), card),)
        self.advantage_box.append(card)
        self.advantage_used = True
        if card == PRINZ:
            self.prince = True
            return  # before moving: the turn goes on with the choice of a card
        if card == NESSEL:
            self._gain(me, GAIN_PROVISION, PARAMS.nessel_amount)
        elif card == SCHLEIERKAUZ:
            self._gain(me, GAIN_PROVISION, 1)
            self._gain(me, choice, 1)
        elif card == SPECKFUERST:
            self.speckfuerst = True
        elif card == FARID:
            self.staubfinger = choice
        elif card == ROXANE:
            self.row_choice = choice
        elif card == ORPHEUS:
            self.villains[me] = _without(self.villains[me], choice)
            self.villain_discard.append(choice)
        elif card == FENOGLIO:
            for kind in PAIRS[choice]:
                self._gain(me, kind, 1)
        self._settle_arrival()

    def _take_reward(self, row: int, take: int) -> None:
        """The reward row of the destination [seed]; the White Women's player takes one entry
        [seed]. Advantage cards are drawn one by one (chance); an empty deck gives none."""
        me = self.current
        entries = REWARDS[self.position[me]][row]
        if take != TAKE_ALL:
            entries = (entries[take - 1],)
        draws = 0
        for gain, amount in entries:
            if gain == GAIN_ADVANTAGE:
                draws += amount
            else:
                self._gain(me, gain, amount)
        self.pending_draws = min(draws, len(self.advantage_pool))
        self._continue_reward()

    def _continue_reward(self) -> None:
        if self.pending_draws:
            self.phase = DRAW_CARD
            self.to_move = CHANCE
            return
        self._check_nachtburg()

    def _draw_advantage(self, card: int) -> None:
        """Looked at and laid face down before the player [seed]."""
        me = self.current
        self.advantage_pool.remove(card)
        index = len(self.history)
        self.held[me] += ((index, card),)
        self.advantage_draws[me] += (index,)
        self.pending_draws -= 1
        self._continue_reward()

    def _check_nachtburg(self) -> None:
        """Rulebook "Alleine in der Nachtburg": ending the move alone there draws a villain
        card at once (Staubfinger counts as company [design])."""
        me = self.current
        here = self.position[me]
        if here == NACHTBURG and not self.company(here, me):
            self._villain_draw(me, IN_TURN)
        else:
            self._enter_after()

    # ------------------------------------------------------------------ exchange and conversions
    def _enter_after(self) -> None:
        self.phase = AFTER
        self.to_move = self.current
        self._settle_after()

    def _settle_after(self) -> None:
        """Nothing left to exchange or convert: the turn ends by itself."""
        if self._after_choices() == [END_TURN]:
            self._end_turn()

    def _exchange(self, exchange: tuple[int, tuple[int, ...], int]) -> None:
        me = self.current
        provisions, given, kind = exchange
        self.exchanged = True
        if kind >= 0:
            self._pay(me, provisions)
            self._gain(me, kind, 1)
        else:
            for k in given:
                self._add_tile(me, k, -1)
                self.supply_tiles[k] += 1
            self._gain(me, GAIN_PROVISION, 1)
        self._settle_after()

    def _convert(self, kinds: tuple[int, ...]) -> None:
        """Rulebook "Erfahrungsplättchen in Siegpunkte umwandeln": 2/3/4 different kinds move
        2/4/7 spaces, each combination at most once per turn."""
        me = self.current
        for k in kinds:
            self._add_tile(me, k, -1)
            self.supply_tiles[k] += 1
        self.converted |= 1 << len(kinds)
        self._advance(me, STEPS[len(kinds)])
        self._settle_after()

    def _advance(self, player: int, steps: int) -> None:
        """Move a scoring stone; the White Women and the end trigger watch it. [seed]"""
        self.scores[player] += steps
        score = self.scores[player]
        holder = self.white_women
        if holder < 0:
            if score >= PARAMS.white_women_space:
                self.white_women = player  # the first to reach or cross green
        elif holder != player and score > self.scores[holder]:
            self.white_women = player  # overtaking, not merely drawing level [seed]
        if score >= PARAMS.end_trigger:
            self.end_triggered = True

    def _end_turn(self) -> None:
        self.turns_in_round += 1
        if self.turns_in_round == self.num_players:
            self._end_round()
            return
        self.current = (self.current + 1) % self.num_players
        self._start_turn()

    # ------------------------------------------------------------------ villains
    def _villain_draw(self, drawer: int, context: int) -> None:
        """Draw the top villain card; an empty deck is rebuilt first: the tier I cards of the
        discard pile leave the game, II and III are shuffled into a new deck [seed] (only when
        a card must be drawn; if nothing is left, nothing is drawn [design])."""
        self.villain_context = context
        if not self._villain_tier():
            discard = self.villain_discard
            self.villain_box += [v for v in discard if PARAMS.villain_tiers[v] == 1]
            self.villain_deck = [tuple(sorted(v for v in discard if PARAMS.villain_tiers[v] != 1))]
            self.villain_discard = []
        if not self._villain_tier():
            self._villain_done()
            return
        self.phase = VILLAIN
        self.to_move = CHANCE

    def villain_drawer(self) -> int:
        return self.current if self.villain_context == IN_TURN else self.round_drawer

    def _draw_villain(self, villain: int) -> None:
        """Laid face up before the drawer; a Natternkopf strikes at once. [seed]"""
        drawer = self.villain_drawer()
        deck = self.villain_deck
        tier = next(i for i, cards in enumerate(deck) if cards)
        deck[tier] = _without(deck[tier], villain)
        self.villains[drawer] += (villain,)
        if villain in NATTERNKOPF:
            self._natternkopf()
        self._continue_losses()

    def _natternkopf(self) -> None:
        """Rulebook "Die Bösewichtkarten": every player adds up their villain cards (the new
        Natternkopf counts for its drawer); all with the highest sum lose half their
        provisions and half their tiles, rounded up against them, choosing the tiles, and
        discard their villain cards."""
        sums = [self.villain_sum(p) for p in range(self.num_players)]
        worst = max(sums)
        for p in range(self.num_players):
            if sums[p] != worst:
                continue
            self._pay(p, (self.provisions[p] + 1) // 2)
            self.losses.append((p, (sum(self.tiles[p]) + 1) // 2))
            self.villain_discard += self.villains[p]
            self.villains[p] = ()

    def _continue_losses(self) -> None:
        """Ask each losing player in seat order for the tiles to give up, one at a time; a
        choice that is no choice (one kind left, or every tile goes) is made at once."""
        while self.losses:
            seat, due = self.losses[0]
            tiles = self.tiles[seat]
            if due and sum(1 for t in tiles if t) > 1 and due < sum(tiles):
                self.phase = LOSS
                self.to_move = seat
                return
            for k in range(NUM_KINDS):
                lost = min(due, tiles[k])
                self._add_tile(seat, k, -lost)
                self.supply_tiles[k] += lost
                due -= lost
            self.losses.pop(0)
        self._villain_done()

    def _lose_tile(self, player: int, kind: int) -> None:
        self._add_tile(player, kind, -1)
        self.supply_tiles[kind] += 1
        seat, due = self.losses[0]
        self.losses[0] = (seat, due - 1)
        self._continue_losses()

    def _villain_done(self) -> None:
        if self.villain_context == IN_TURN:
            self._enter_after()
            return
        if self.final_round or self.round >= int(self.game.options["max_rounds"]):
            self._finish()
        elif self.round_drawer < 0:
            self._start_round()  # nobody drew: the start marker stays [design]
        else:
            self.phase = START_CHOICE
            self.to_move = self.round_drawer

    # ------------------------------------------------------------------ the end of a round
    def _end_round(self) -> None:
        """Rulebook: the player with the highest number on the last location card played draws
        a villain card; players who passed take their cards back [seed]. A player who has not
        played yet counts 0; if everybody counts 0, nobody draws [design]."""
        n = self.num_players
        for p in range(n):
            if self.passed[p]:
                self.hands[p] = tuple(sorted(self.hands[p] + self.played[p]))
                self.played[p] = ()
        top = max(self.last_played)
        self.round_drawer = self.last_played.index(top) if top > 0 else -1
        if self.round_drawer >= 0:
            self._villain_draw(self.round_drawer, END_OF_ROUND)
        else:
            self.villain_context = END_OF_ROUND
            self._villain_done()

    def _choose_start(self, choice: int) -> None:
        """Rulebook "Neuer Startspieler": the drawer starts the next round or is last (the start
        marker goes to the left neighbour)."""
        drawer = self.round_drawer
        self.start_player = drawer if choice == 0 else (drawer + 1) % self.num_players
        self._start_round()

    # ------------------------------------------------------------------ the end of the game
    def _finish(self) -> None:
        """Rulebook "Spielende": the unused advantage cards are turned up and score (Meggie, Mo,
        Resa 3, the others 1); special spaces no longer restrict."""
        for p in range(self.num_players):
            points = sum(PARAMS.advantage_points[card] for _, card in self.held[p])
            self.final_points[p] = points
            self.scores[p] += points
        self.phase = OVER
        self.to_move = TERMINAL

    # ================================================================== copies
    def clone(self) -> Self:
        cls = type(self)  # a compiled class refuses object.__new__
        new = cls.__new__(cls)
        new.game = self.game
        new.num_players = self.num_players
        new.seed = self.seed
        new.history = self.history.copy()
        new.to_move = self.to_move
        new.phase = self.phase
        new.round = self.round
        new.start_player = self.start_player
        new.current = self.current
        new.turns_in_round = self.turns_in_round
        new.position = self.position.copy()
        new.staubfinger = self.staubfinger
        new.white_women = self.white_women
        new.scores = self.scores.copy()
        new.supply_tiles = self.supply_tiles.copy()
        new.supply_provisions = self.supply_provisions
        new.tiles = self.tiles.copy()
        new.provisions = self.provisions.copy()
        new.hands = self.hands.copy()
        new.played = self.played.copy()
        new.last_played = self.last_played.copy()
        new.passed = self.passed.copy()
        new.setup_seat = self.setup_seat
        new.flipped = self.flipped.copy()
        new.villain_deck = self.villain_deck.copy()
        new.villains = self.villains.copy()
        new.villain_discard = self.villain_discard.copy()
        new.villain_box = self.villain_box.copy()
        new.villain_context = self.villain_context
        new.round_drawer = self.round_drawer
        new.losses = self.losses.copy()
        new.advantage_pool = self.advantage_pool.copy()
        new.held = self.held.copy()
        new.advantage_box = self.advantage_box.copy()
        new.advantage_draws = self.advantage_draws.copy()
        new.advantage_plays = self.advantage_plays.copy()
        new.pending_draws = self.pending_draws
        new.turn_start = self.turn_start
        new.advantage_used = self.advantage_used
        new.prince = self.prince
        new.speckfuerst = self.speckfuerst
        new.row_choice = self.row_choice
        new.exchanged = self.exchanged
        new.converted = self.converted
        new.end_triggered = self.end_triggered
        new.final_round = self.final_round
        new.final_points = self.final_points.copy()
        return new

    def resample(self, player: int | None, rng: random.Random) -> Self:
        """Deal the advantage cards `player` has not seen afresh, history included.

        Unseen are the face-down pool and the cards other seats hold (until the end, when all
        are turned up). For each other seat, every card it used is matched to one of its draws
        made before the turn in which it used it (a uniformly random choice among those still
        free, in the order used: the truth shows one always exists); the cards it still holds
        fill its remaining draws: dealt from the unseen cards, or, at the end, the revealed
        cards in random order. Only what `player` knows enters the computation, so two states
        that seat cannot tell apart give the same sample for the same `rng` state, and the
        sample's history replays to it.
        """
        over = self.phase == OVER
        unseen = list(self.advantage_pool)
        if not over:
            for q in range(self.num_players):
                if q != player:
                    unseen.extend(card for _, card in self.held[q])
        unseen.sort()
        rng.shuffle(unseen)
        deal = iter(unseen)
        new = self.clone()
        new.seed = rng.randrange(2**31)  # the true seed would predict the real draws
        history = new.history
        for q in range(self.num_players):
            if q == player:
                continue
            used = [(turn_start, card) for turn_start, _, card in self.advantage_plays[q]]
            free = place_played_draws(history, self.advantage_draws[q], used, DRAW_ADVANTAGE, rng)
            if over:
                revealed = sorted(card for _, card in self.held[q])
                rng.shuffle(revealed)
                cards = revealed
            else:
                cards = [next(deal) for _ in free]
            for slot, card in zip(free, cards, strict=True):
                history[slot] = (CHANCE, DRAW_ADVANTAGE + card)
            new.held[q] = _held_after(history, self.advantage_draws[q], self.advantage_plays[q])
        new.advantage_pool = sorted(deal)
        return new

    # ================================================================== outcome
    def tie_break_values(self) -> list[int]:
        """Rulebook: on equal scores, more experience tiles and provisions wins."""
        return [sum(self.tiles[p]) + self.provisions[p] for p in range(self.num_players)]

    def winners(self) -> list[int]:
        keys = [(s, t) for s, t in zip(self.scores, self.tie_break_values(), strict=True)]
        best = max(keys)
        return [p for p, key in enumerate(keys) if key == best]

    def running_scores(self) -> list[float]:
        """The victory track (at the end: the final scores)."""
        return [float(score) for score in self.scores]

    def returns(self) -> list[float]:
        """1 shared equally among the winners (after the tie-break), 0 for the others."""
        if self.to_move != TERMINAL:
            return [0.0] * self.num_players
        winners = self.winners()
        return [1.0 / len(winners) if p in winners else 0.0 for p in range(self.num_players)]

    def result(self) -> dict[str, Any]:
        if self.to_move != TERMINAL:
            return {}
        return {
            "scores": self.scores.copy(),
            "winners": self.winners(),
            "tie_break": "more experience tiles plus provisions; still equal: shared win",
            "tiles_and_provisions": self.tie_break_values(),
            "advantage_points": self.final_points.copy(),
            "rounds": self.round,
            # The end trigger ends the game only through a final round played in full; an end
            # triggered in round max_rounds is cut by the limit. [design]
            "end": "end trigger" if self.final_round else "round limit",
        }

    # ================================================================== what a seat sees
    def view(self, player: int | None) -> dict[str, Any]:
        keys = PARAMS.location_keys
        card_key = PARAMS.location_card_key
        vkey = PARAMS.villain_keys
        akey = PARAMS.advantage_keys
        to_move: Any = self.to_move
        if to_move == CHANCE:
            to_move = "chance"
        elif to_move == TERMINAL:
            to_move = None
        over = self.phase == OVER
        n = self.num_players
        view: dict[str, Any] = {
            "game": "inkspell",
            "viewer": player,
            "players": n,
            "phase": PHASE_NAMES[self.phase],
            "to_move": to_move,
            "round": self.round,
            "max_rounds": int(self.game.options["max_rounds"]),
            "start_player": self.start_player,
            "current": self.current if self.phase not in (SETUP, OVER) else None,
            "end_triggered": self.end_triggered,
            "final_round": self.final_round,
            "positions": [keys[loc] if loc >= 0 else None for loc in self.position],
            "staubfinger": keys[self.staubfinger],
            "white_women": self.white_women if self.white_women >= 0 else None,
            "scores": self.scores.copy(),
            "tiles": [{PARAMS.tile_keys[k]: t[k] for k in range(NUM_KINDS)} for t in self.tiles],
            "provisions": self.provisions.copy(),
            "supply": {
                **{PARAMS.tile_keys[k]: self.supply_tiles[k] for k in range(NUM_KINDS)},
                PROVISION: self.supply_provisions,
            },
            "hands": [[card_key(c) for c in h] for h in self.hands],
            "played": [[card_key(c) for c in p] for p in self.played],
            "last_played": self.last_played.copy(),
            "passed": self.passed.copy(),
            "setup_flipped": [card_key(c) for c in self.flipped],
            "villains": [[vkey[v] for v in vs] for vs in self.villains],
            "villain_sums": [self.villain_sum(p) for p in range(n)],
            "villain_deck": [len(tier) for tier in self.villain_deck],
            "villain_discard": [vkey[v] for v in self.villain_discard],
            "villain_removed": [vkey[v] for v in self.villain_box],
            "advantage_deck": len(self.advantage_pool),
            "advantage_counts": [len(h) for h in self.held],
            "advantage_used": [akey[a] for a in self.advantage_box],
            "advantage": None,
            "playable_advantage": None,
            "revealed_advantage": (
                [sorted(akey[c] for _, c in h) for h in self.held] if over else None
            ),
            "turn": {
                "advantage_used": self.advantage_used,
                "prince": self.prince,
                "speckfuerst": self.speckfuerst,
                "row_choice": ROW_NAMES[self.row_choice] if self.row_choice >= 0 else None,
                "exchanged": self.exchanged,
                "converted": [size for size in STEPS if self.converted >> size & 1],
            },
            "natternkopf_losses": [{"seat": s, "tiles": d} for s, d in self.losses],
            "result": self.result() if over else None,
        }
        if player is not None:
            view["advantage"] = sorted(akey[c] for _, c in self.held[player])
            if self.phase not in (SETUP, OVER) and player == self.current:
                view["playable_advantage"] = sorted(akey[c] for c in self.playable(player))
        return view

    def describe(self, action: Action, viewer: int | None, lang: Lang = DEFAULT_LANG) -> str:
        """Text of an action in `lang`; an advantage card drawn is named only to its
        receiver."""
        aid = action.id
        say = words.TEXTS.say
        if aid >= DRAW_VILLAIN:
            label = words.villain(lang, PARAMS.villain_keys[aid - DRAW_VILLAIN])
            seat = words.seat(lang, self.villain_drawer())
            return say(lang, "describe.draw_villain", seat=seat, villain=label)
        if aid >= DRAW_ADVANTAGE:
            card = aid - DRAW_ADVANTAGE
            shown = (
                words.advantage(lang, PARAMS.advantage_keys[card])
                if viewer == self.current
                else say(lang, "describe.an_advantage_card")
            )
            return say(
                lang, "describe.draw_advantage", seat=words.seat(lang, self.current), card=shown
            )
        if aid >= FLIP:
            card = aid - FLIP
            key = (
                "flip_again"
                if card == TINTENWELT
                else "flip_occupied"
                if card in self.position
                else "flip_place"
            )
            return say(
                lang,
                f"describe.{key}",
                seat=words.seat(lang, self.setup_seat),
                place=words.location_of(lang, card),
            )
        return say(lang, f"describe.{self._decision(aid)[0]}", **self._params(aid, lang))

    def label(self, action: Action, seat: int, lang: Lang = DEFAULT_LANG) -> str:
        """The button of `seat`'s own decision, speaking to the player ("Pass", "Passe")."""
        if action.id >= FLIP:
            return self.describe(action, seat, lang)
        params = self._params(action.id, lang)
        params.pop("seat", None)
        return words.TEXTS.say(lang, f"button.{self._decision(action.id)[0]}", **params)

    def _decision(self, aid: int) -> tuple[str, int]:
        """A player's action: its text key and the acting seat."""
        if aid >= START:
            return ("start_lead" if aid == START else "start_last"), self.round_drawer
        if aid == END_TURN:
            return "end_turn", self.current
        for first, key in (
            (CONVERT, "convert"),
            (EXCHANGE, "exchange"),
            (LOSE_TILE, "lose_tile"),
            (REWARD, "reward"),
            (ADVANTAGE, "advantage"),
            (STAUBFINGER, "staubfinger"),
        ):
            if aid >= first:
                loser = self.to_move if isinstance(self.to_move, int) else self.current
                return key, (loser if key == "lose_tile" else self.current)
        if aid == PASS:
            return "pass", self.current
        return ("play_anywhere" if aid >= PLAY_ANYWHERE else "play"), self.current

    def _params(self, aid: int, lang: Lang) -> dict[str, object]:
        """The parameters of a player's action text in `lang` (its seat included)."""
        key, who = self._decision(aid)
        params: dict[str, object] = {"seat": words.seat(lang, who)}
        if key == "start_last":
            params["next"] = words.seat(lang, (self.round_drawer + 1) % self.num_players)
        elif key == "convert":
            kinds = CONVERSION_SETS[aid - CONVERT]
            params["tiles"] = ", ".join(words.tile(lang, PARAMS.tile_keys[k]) for k in kinds)
            params["steps"] = STEPS[len(kinds)]
        elif key == "exchange":
            give, get = exchange_text(EXCHANGES[aid - EXCHANGE])
            params.update(give=words.items(lang, give), get=words.items(lang, get))
        elif key == "lose_tile":
            params["tile"] = words.tile(lang, PARAMS.tile_keys[aid - LOSE_TILE])
            params["n"] = self.losses[0][1] - 1 if self.losses else 0  # still to give after it
        elif key == "reward":
            offset = aid - REWARD
            row, take = offset // len(TAKE_NAMES), offset % len(TAKE_NAMES)
            entries = _row_keys(REWARDS[self.position[self.current]][row])
            if take != TAKE_ALL:
                entries = (entries[take - 1],)
            params["row"] = words.TEXTS.say(lang, f"row.{ROW_NAMES[row]}")
            params["entries"] = words.entries(lang, entries)
        elif key == "advantage":
            card, choice = ADVANTAGE_CHOICES[aid - ADVANTAGE]
            params["card"] = words.advantage(lang, PARAMS.advantage_keys[card])
            params["choice"] = _choice_text(card, choice, lang)
        elif key == "staubfinger":
            params["place"] = words.location_of(lang, aid - STAUBFINGER)
        elif key in ("play", "play_anywhere"):
            target = aid - (PLAY_ANYWHERE if key == "play_anywhere" else PLAY)
            cost = 0 if self.prince else journey_cost(self.position[self.current], target)
            params["place"] = words.location_of(lang, target)
            params["card"] = words.location_of(lang, TINTENWELT)
            params["cost"] = _cost(cost, lang)
        return params

    def component_zones(self) -> Mapping[str, Sequence[int]]:
        zones: dict[str, Sequence[int]] = {
            "supply_tiles": [k for k in range(NUM_KINDS) for _ in range(self.supply_tiles[k])],
            "supply_provisions": [PROVISION_CODE] * self.supply_provisions,
            "villain_deck": [VILLAIN_CODE + v for tier in self.villain_deck for v in tier],
            "villain_discard": [VILLAIN_CODE + v for v in self.villain_discard],
            "villain_box": [VILLAIN_CODE + v for v in self.villain_box],
            "advantage_pool": [ADVANTAGE_CODE + a for a in self.advantage_pool],
            "advantage_box": [ADVANTAGE_CODE + a for a in self.advantage_box],
            "setup_flipped": [LOCATION_CODE + 10 * self.setup_seat + c for c in self.flipped],
        }
        for p in range(self.num_players):
            base = LOCATION_CODE + 10 * p
            zones[f"tiles_{p}"] = [k for k in range(NUM_KINDS) for _ in range(self.tiles[p][k])]
            zones[f"provisions_{p}"] = [PROVISION_CODE] * self.provisions[p]
            zones[f"hand_{p}"] = [base + c for c in self.hands[p]]
            zones[f"played_{p}"] = [base + c for c in self.played[p]]
            zones[f"villains_{p}"] = [VILLAIN_CODE + v for v in self.villains[p]]
            zones[f"advantage_{p}"] = [ADVANTAGE_CODE + a for _, a in self.held[p]]
        return zones


def _held_after(
    history: Sequence[tuple[int, int]],
    draws: Sequence[int],
    plays: Sequence[tuple[int, int, int]],
) -> tuple[tuple[int, int], ...]:
    """A seat's hand of advantage cards as `_use_advantage` leaves it: the cards drawn at
    `draws` (read from `history`), less each card used, the earliest drawn copy first."""
    events = [(slot, -1, history[slot][1] - DRAW_ADVANTAGE) for slot in draws]
    events += [(index, turn_start, card) for turn_start, index, card in plays]
    held: tuple[tuple[int, int], ...] = ()
    for when, turn_start, card in sorted(events):
        if turn_start < 0:
            held += ((when, card),)
        else:
            held = _without(held, next(h for h in held if h[1] == card and h[0] < turn_start))
    return held


def _without(items: tuple[Any, ...], item: Any) -> tuple[Any, ...]:
    """The tuple less the first occurrence of `item`."""
    index = items.index(item)
    return items[:index] + items[index + 1 :]


# ---------------------------------------------------------------------- texts
def _row_keys(entries: Sequence[tuple[int, int]]) -> tuple[tuple[str, int], ...]:
    """A reward row with gains as data keys ("P", "V", a tile kind)."""
    keys = {GAIN_PROVISION: PROVISION, GAIN_ADVANTAGE: ADVANTAGE_REWARD}
    return tuple((keys.get(gain) or PARAMS.tile_keys[gain], amount) for gain, amount in entries)


def _choice_text(card: int, choice: int, lang: Lang) -> str:
    if choice < 0:
        return ""
    say = words.TEXTS.say
    if card == SCHLEIERKAUZ:
        return say(lang, "choice.schleierkauz", tile=words.tile(lang, PARAMS.tile_keys[choice]))
    if card == FENOGLIO:
        a, b = [words.tile(lang, PARAMS.tile_keys[k]) for k in PAIRS[choice]]
        return say(lang, "choice.fenoglio", a=a, b=b)
    if card == FARID:
        return say(lang, "choice.farid", place=words.location_of(lang, choice))
    if card == ROXANE:
        return say(lang, "choice.roxane", row=say(lang, f"row.{ROW_NAMES[choice]}"))
    if card == ORPHEUS:
        return say(lang, "choice.orpheus", villain=words.villain(lang, PARAMS.villain_keys[choice]))
    return ""


def _cost(cost: int, lang: Lang) -> str:
    if cost == 0:
        return words.TEXTS.say(lang, "describe.free")
    return words.TEXTS.say(lang, "describe.cost", n=cost)
