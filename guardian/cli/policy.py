"""`guardian policy validate|show`: check a policy file before it is deployed; see what is active."""

from __future__ import annotations

import json
from pathlib import Path

import typer

from guardian.cli.route import POLICY_HELP

app = typer.Typer(help="Policy files: validate, show.", no_args_is_help=True)


@app.command()
def validate(file: Path = typer.Argument(..., help="Policy YAML to check.")) -> None:
    """Validate a policy file; exit 0 when valid, 2 with every problem (file:line: field: why)."""
    from guardian.cli.route import load_policy

    policy = load_policy(file)
    typer.secho(f"{file}: valid (hash {policy.content_hash}, routes: "
                f"{', '.join(sorted(policy.routes))})", fg="green")


@app.command()
def show(file: Path | None = typer.Argument(None, help=POLICY_HELP),
         as_json: bool = typer.Option(False, "--json", help="Print the validated policy as JSON."),
         ) -> None:
    """Show the active policy (or FILE): hash, and each route's mode, shadow rate, gamma, triggers."""
    from rich.console import Console
    from rich.table import Table

    from guardian.cli.route import load_policy

    policy = load_policy(file)
    if as_json:
        typer.echo(json.dumps({"policy_hash": policy.content_hash,
                               "policy": policy.model_dump(mode="json")}, indent=2))
        return
    columns = ("route", "mode", "proposer", "shadow", "gamma", "shed at", "redaction",
               "triggers", "gate")
    rows = []
    for name, r in sorted(policy.routes.items()):
        t = r.triggers
        rows.append((name, r.mode, r.proposer, f"{r.shadow.sample_rate:g}",
                     f"{r.gamma.strategy} {r.gamma.initial} [{r.gamma.min}..{r.gamma.max}]",
                     str(r.load_shed_queue_depth), r.redaction,
                     f"alpha≥{t.acceptance.min_alpha:g}, p95≤{t.latency.max_ratio:g}x, "
                     f"JS≤{t.drift.max_js:g}, cool-down {t.cooldown_s:g}s",
                     f"alpha≥{r.gate.min_alpha:g}, speedup≥{r.gate.min_speedup:g}"))
    console = Console()
    title = f"policy {policy.content_hash[:12]} (default route {policy.default_route})"
    if console.width >= 150:  # one row per route fits
        table = Table(title=title)
        for col in columns:
            table.add_column(col)
        for row in rows:
            table.add_row(*row)
        console.print(table)
        return
    # A narrow terminal (80 columns, a pipe): one block per route, so nothing is cut to "…".
    console.print(title)
    for row in rows:
        table = Table(title=f"route {row[0]}", show_header=False, title_justify="left")
        table.add_column("setting", style="bold", no_wrap=True)
        table.add_column("value", overflow="fold")
        for col, value in zip(columns[1:], row[1:], strict=True):
            table.add_row(col, value)
        console.print(table)
