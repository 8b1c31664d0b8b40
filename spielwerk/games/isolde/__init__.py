"""Die Holde Isolde (Nicolas Poncin): simultaneous drafting and seven race tracks, 2-5 players.

Read top to bottom: `params.py` (components from `data.toml`), `actions.py` (vocabulary),
`state.py` (the rules), `hidden.py` (what a seat cannot know, for `resample`), `game.py`
(metadata and options), `render.py` (terminal text).
"""

from spielwerk.games.isolde.game import IsoldeGame
from spielwerk.games.isolde.state import IsoldeState

__all__ = ["IsoldeGame", "IsoldeState"]
