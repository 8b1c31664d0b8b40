"""Tintenblut (Inkspell): travel the Inkworld with location cards, collect experience tiles
(with Staubfinger's help), convert them into victory points, beware the villains, 2-4 players.

Read top to bottom: `params.py` (components from `data.toml`), `actions.py` (vocabulary),
`state.py` (the rules), `game.py` (metadata and options), `render.py` (terminal text).
"""

from spielwerk.games.inkspell.game import InkspellGame
from spielwerk.games.inkspell.state import InkspellState

__all__ = ["InkspellGame", "InkspellState"]
