"""The games. Each package holds its rules, its component data (TOML) and its text rendering;
rules import nothing above `spielwerk.core`."""

BUILTIN_GAMES: dict[str, str] = {
    "witches": "spielwerk.games.witches:WitchesGame",
    "inkheart_dice": "spielwerk.games.inkheart_dice:InkheartDiceGame",
    "isolde": "spielwerk.games.isolde:IsoldeGame",
    "inkspell": "spielwerk.games.inkspell:InkspellGame",
    "tainted_grail": "spielwerk.games.tainted_grail:TaintedGrailGame",
}
"""Game name -> "module:Class", imported when the game is first loaded."""
