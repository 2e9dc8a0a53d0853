"""The `guardian` command: one Typer app, one sub-app module per resource.

Sub-app modules import heavy dependencies (torch, sqlalchemy) inside their commands so that
`guardian --help` stays instant.
"""

from __future__ import annotations

import logging

import typer

from guardian.cli import (
    alerts,
    audit,
    bench,
    canary,
    dashboard,
    db,
    demo,
    gate,
    keys,
    pair,
    policy,
    route,
    serve,
)

app = typer.Typer(
    name="guardian",
    help="spec-guardian: run speculative decoding safely — shadow checks, audit, gates, rollback.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.command("serve", help=serve.serve.__doc__)(serve.serve)
app.add_typer(dashboard.app, name="dashboard")
app.command("demo", help=demo.demo.__doc__)(demo.demo)
app.add_typer(pair.app, name="pair")
app.add_typer(gate.app, name="gate")
app.add_typer(route.app, name="route")
app.add_typer(canary.app, name="canary")
app.add_typer(alerts.app, name="alerts")
app.add_typer(policy.app, name="policy")
app.add_typer(audit.app, name="audit")
app.add_typer(db.app, name="db")
app.add_typer(bench.app, name="bench")
app.add_typer(keys.app, name="keys")


@app.callback()
def _root(
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log at DEBUG level."),
) -> None:
    """spec-guardian command line."""
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )


def main() -> None:
    from guardian.secrets import SecretsError

    try:
        app()
    except SecretsError as exc:  # any command that needs the audit secrets: one line, no trace
        typer.secho(f"error: {exc}", fg=typer.colors.RED, err=True)
        raise SystemExit(2) from None
