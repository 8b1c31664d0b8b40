"""The command-line interface `spielwerk` (typer) and terminal play (rich)."""

from spielwerk.cli.main import app, main

__all__ = ["app", "main"]
