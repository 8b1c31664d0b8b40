"""The games. Each package holds its rules, its component data (TOML) and its text rendering;
rules import nothing above `spielwerk.core`."""

from spielwerk.games.inkheart_dice import InkheartDiceGame
from spielwerk.games.witches import WitchesGame

BUILTIN_GAMES = (WitchesGame, InkheartDiceGame)
