"""`guardian bench ...`: side-by-side benchmarks whose output is a ratio measured in one run."""

from __future__ import annotations

import typer

app = typer.Typer(help="Benchmarks (ratios measured side by side in one process).", no_args_is_help=True)
