"""The action vocabulary of Tintenblut and its integer layout.

A turn is a sequence of small decisions, each its own action (locations, tiles and cards are
named by the keys in `data.toml`):

PLAY            {"type": "play", "card": "ombra"}                  play a location card, travel
PLAY_ANYWHERE   {"type": "play", "card": "tintenwelt", "to": "hof"}  Die Tintenwelt: anywhere
PASS            {"type": "pass"}                                   pass (the whole turn)
STAUBFINGER     {"type": "staubfinger", "to": "hof"}               move Staubfinger one step
ADVANTAGE       {"type": "advantage", "card": "nessel"}            use an advantage card, with
                its choice where it has one: "tile" (Schleierkauz), "to" (Farid), "row"
                (Roxane), "villain" (Orpheus), "tiles" (Fenoglio: two kinds, e.g. "MS")
REWARD          {"type": "reward", "row": "solo", "take": "all"}   take the reward row (White
                Women: "take" is "first" or "second", one entry of the row)
LOSE_TILE       {"type": "lose_tile", "tile": "M"}                 Natternkopf: give up a tile
EXCHANGE        {"type": "exchange", "give": "PP", "get": "M"}     the castle exchange
CONVERT         {"type": "convert", "tiles": "MSK"}                a set of different kinds
END_TURN        {"type": "end_turn"}
START           {"type": "start", "choice": "lead"}                villain drawer: lead or last
chance:
FLIP            {"type": "flip", "card": "ombra"}                  set-up: a location card
DRAW_ADVANTAGE  {"type": "draw_advantage", "card": "meggie"}       an advantage card comes up
DRAW_VILLAIN    {"type": "draw_villain", "card": "basta"}          a villain card comes up
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from spielwerk.core.actions import Action, ActionTable, JSONScalar
from spielwerk.games.inkspell.params import PARAMS, PROVISION, tile_sets

NUM_LOCATIONS = PARAMS.num_locations
NUM_KINDS = PARAMS.num_kinds
NUM_VILLAINS = PARAMS.num_villains
NUM_ADVANTAGE_TYPES = PARAMS.num_advantage_types
ROW_NAMES = ("solo", "shared")
SOLO, SHARED = 0, 1
TAKE_NAMES = ("all", "first", "second")
TAKE_ALL = 0
START_CHOICES = ("lead", "last")

PAIRS = tile_sets(NUM_KINDS, (2,))
"""Two different tile kinds (Fenoglio)."""
CONVERSION_SETS = tile_sets(NUM_KINDS, tuple(size for size, _ in PARAMS.conversion_steps))
"""Every set of different kinds that converts into steps, smallest first."""

# One exchange: (provisions given, tile kinds given, kind received or -1 for one provision).
Exchange = tuple[int, tuple[int, ...], int]
RATES = tuple(sorted({PARAMS.exchange_rate, PARAMS.speckfuerst_castle_rate}, reverse=True))
"""How many items buy one: 2 (the castle exchange), 1 (Der Speckfürst in a castle)."""
EXCHANGES: tuple[Exchange, ...] = (
    *((rate, (), kind) for rate in RATES for kind in range(NUM_KINDS)),
    *(
        (0, given, -1)
        for rate in RATES
        for given in combinations_with_replacement(range(NUM_KINDS), rate)
    ),
)

# Advantage card actions: (card type, its choice), the choice being a kind, a location, a row,
# a villain card or a pair of kinds, by effect; -1 for cards without a choice.
CHOICE_PARAM = {
    "provision_and_tile": "tile",
    "move_staubfinger": "to",
    "choose_row": "row",
    "discard_villain": "villain",
    "two_tiles": "tiles",
}
_CHOICE_COUNT = {
    "provision_and_tile": NUM_KINDS,
    "move_staubfinger": NUM_LOCATIONS,
    "choose_row": len(ROW_NAMES),
    "discard_villain": NUM_VILLAINS,
    "two_tiles": len(PAIRS),
}
ADVANTAGE_CHOICES: tuple[tuple[int, int], ...] = tuple(
    (card, choice)
    for card, effect in enumerate(PARAMS.advantage_effects)
    if effect != "none"
    for choice in (range(_CHOICE_COUNT[effect]) if effect in _CHOICE_COUNT else (-1,))
)

PLAY = 0
PLAY_ANYWHERE = PLAY + NUM_LOCATIONS
PASS = PLAY_ANYWHERE + NUM_LOCATIONS
STAUBFINGER = PASS + 1
ADVANTAGE = STAUBFINGER + NUM_LOCATIONS
REWARD = ADVANTAGE + len(ADVANTAGE_CHOICES)
LOSE_TILE = REWARD + len(ROW_NAMES) * len(TAKE_NAMES)
EXCHANGE = LOSE_TILE + NUM_KINDS
CONVERT = EXCHANGE + len(EXCHANGES)
END_TURN = CONVERT + len(CONVERSION_SETS)
START = END_TURN + 1
NUM_PLAYER_ACTIONS = START + len(START_CHOICES)
FLIP = NUM_PLAYER_ACTIONS
DRAW_ADVANTAGE = FLIP + PARAMS.num_location_cards
DRAW_VILLAIN = DRAW_ADVANTAGE + NUM_ADVANTAGE_TYPES
NUM_ACTIONS = DRAW_VILLAIN + NUM_VILLAINS


ADVANTAGE_IDS: tuple[tuple[int, ...], ...] = tuple(
    tuple(ADVANTAGE + i for i, (c, _) in enumerate(ADVANTAGE_CHOICES) if c == card)
    for card in range(NUM_ADVANTAGE_TYPES)
)
"""ADVANTAGE_IDS[card type][choice]: the action ids of one card, by its choice (index 0 for a
card without one; empty for the cards without an effect)."""


def reward_id(row: int, take: int) -> int:
    return REWARD + row * len(TAKE_NAMES) + take


def _choice_text(effect: str, choice: int) -> JSONScalar:
    if effect == "provision_and_tile":
        return PARAMS.tile_keys[choice]
    if effect == "move_staubfinger":
        return PARAMS.location_keys[choice]
    if effect == "choose_row":
        return ROW_NAMES[choice]
    if effect == "discard_villain":
        return PARAMS.villain_keys[choice]
    return PARAMS.kinds_key(PAIRS[choice])


def exchange_text(exchange: Exchange) -> tuple[str, str]:
    """(give, get) as in the JSON form: (2, (), 0) -> ("PP", "M")."""
    provisions, tiles, kind = exchange
    give = PROVISION * provisions + PARAMS.kinds_key(tiles)
    get = PROVISION if kind < 0 else PARAMS.tile_keys[kind]
    return give, get


def build_action_table() -> ActionTable:
    keys = PARAMS.location_keys
    tiles = PARAMS.tile_keys
    player: list[Action] = []
    player += [Action(PLAY + i, "play", (("card", keys[i]),)) for i in range(NUM_LOCATIONS)]
    player += [
        Action(PLAY_ANYWHERE + i, "play", (("card", PARAMS.tintenwelt_key), ("to", keys[i])))
        for i in range(NUM_LOCATIONS)
    ]
    player.append(Action(PASS, "pass"))
    player += [
        Action(STAUBFINGER + i, "staubfinger", (("to", keys[i]),)) for i in range(NUM_LOCATIONS)
    ]
    for index, (card, choice) in enumerate(ADVANTAGE_CHOICES):
        effect = PARAMS.advantage_effects[card]
        params: tuple[tuple[str, JSONScalar], ...] = (("card", PARAMS.advantage_keys[card]),)
        if choice >= 0:
            params += ((CHOICE_PARAM[effect], _choice_text(effect, choice)),)
        player.append(Action(ADVANTAGE + index, "advantage", params))
    player += [
        Action(
            reward_id(row, take), "reward", (("row", ROW_NAMES[row]), ("take", TAKE_NAMES[take]))
        )
        for row in range(len(ROW_NAMES))
        for take in range(len(TAKE_NAMES))
    ]
    player += [Action(LOSE_TILE + k, "lose_tile", (("tile", tiles[k]),)) for k in range(NUM_KINDS)]
    for index, exchange in enumerate(EXCHANGES):
        give, get = exchange_text(exchange)
        player.append(Action(EXCHANGE + index, "exchange", (("give", give), ("get", get))))
    player += [
        Action(CONVERT + i, "convert", (("tiles", PARAMS.kinds_key(kinds)),))
        for i, kinds in enumerate(CONVERSION_SETS)
    ]
    player.append(Action(END_TURN, "end_turn"))
    player += [
        Action(START + i, "start", (("choice", choice),)) for i, choice in enumerate(START_CHOICES)
    ]
    chance: list[Action] = []
    chance += [
        Action(FLIP + c, "flip", (("card", PARAMS.location_card_key(c)),))
        for c in range(PARAMS.num_location_cards)
    ]
    chance += [
        Action(DRAW_ADVANTAGE + a, "draw_advantage", (("card", PARAMS.advantage_keys[a]),))
        for a in range(NUM_ADVANTAGE_TYPES)
    ]
    chance += [
        Action(DRAW_VILLAIN + v, "draw_villain", (("card", PARAMS.villain_keys[v]),))
        for v in range(NUM_VILLAINS)
    ]
    return ActionTable(player, chance)
