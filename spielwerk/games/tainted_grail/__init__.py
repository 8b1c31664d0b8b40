"""Tainted Grail, the day cycle: a cooperative day-cycle engine for 1-4 characters, driven by
scenario files, with an original demo scenario.

Read top to bottom: `params.py` (engine constants from `data.toml`), `scenario.py` (the scenario
format and its checks), `actions.py` (vocabulary), `state.py` (the rules), `observation.py`
(the tensor, from views), `game.py` (metadata and options), `render.py` (terminal text).
Scenarios live in `scenarios/*.toml`.
"""

from spielwerk.games.tainted_grail.game import TaintedGrailGame
from spielwerk.games.tainted_grail.scenario import ScenarioError
from spielwerk.games.tainted_grail.state import TaintedGrailState

__all__ = ["ScenarioError", "TaintedGrailGame", "TaintedGrailState"]
