"""`guardian bench engine` (placeholder until implemented)."""

from __future__ import annotations

import typer


def cli() -> None:
    """Not implemented yet."""
    raise typer.Exit(code=2)
