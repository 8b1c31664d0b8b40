"""The games' text for the terminal: see `spielwerk.core.text`, where it lives (the web and the
adapters use it too)."""

from spielwerk.core.text import GENERIC, GameText, View, game_text, render_json

__all__ = ["GENERIC", "GameText", "View", "game_text", "render_json"]
