"""The Witches of Blackmore (Leo Colovini): trick-taking with a turning trump wheel, 2-6 players.

Read top to bottom: `params.py` (components from `data.toml`), `actions.py` (vocabulary),
`state.py` (the rules), `game.py` (metadata and options), `render.py` (terminal text).
"""

from spielwerk.games.witches.game import WitchesGame
from spielwerk.games.witches.state import WitchesState

__all__ = ["WitchesGame", "WitchesState"]
