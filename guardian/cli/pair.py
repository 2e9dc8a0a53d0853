"""`guardian pair ...`: build the demo pair, inspect a pair, generate with it."""

from __future__ import annotations

import typer

app = typer.Typer(help="Model pairs: build the demo pair, show identity, generate.", no_args_is_help=True)
