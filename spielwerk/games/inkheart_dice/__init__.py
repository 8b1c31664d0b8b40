"""Tintenherz - Das Würfelspiel (Inkheart dice game): take, steal and secure character cards
with two dice, 2-4 players.

Read top to bottom: `params.py` (components from `data.toml`), `actions.py` (vocabulary),
`state.py` (the rules), `game.py` (metadata and options), `render.py` (terminal text).
"""

from spielwerk.games.inkheart_dice.game import InkheartDiceGame
from spielwerk.games.inkheart_dice.state import InkheartDiceState

__all__ = ["InkheartDiceGame", "InkheartDiceState"]
