"""The `guardian` command: one Typer app, one sub-app module per resource.

Sub-app modules import heavy dependencies (torch, sqlalchemy) inside their commands so that
`guardian --help` stays instant.
"""

from __future__ import annotations

import logging
import os
from typing import NoReturn

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
    witness,
)

app = typer.Typer(
    name="guardian",
    help="spec-guardian: run speculative decoding safely — shadow checks, audit, gates, rollback.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)
app.command("serve", help=serve.serve.__doc__)(serve.serve)
# Single commands (not sub-apps: their usage line would promise a COMMAND).
app.command("dashboard", help=dashboard.LOGIN_HELP)(dashboard.dashboard)
app.command("demo", help=demo.demo.__doc__)(demo.demo)
app.add_typer(pair.app, name="pair")
app.command("gate", help=gate.gate.__doc__)(gate.gate)
app.add_typer(route.app, name="route")
app.add_typer(canary.app, name="canary")
app.add_typer(alerts.app, name="alerts")
app.add_typer(policy.app, name="policy")
app.add_typer(audit.app, name="audit")
app.add_typer(db.app, name="db")
app.add_typer(bench.app, name="bench")
app.add_typer(keys.app, name="keys")
app.add_typer(witness.app, name="witness")


@app.callback()
def _root(
    ctx: typer.Context,
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Log at DEBUG level."),
) -> None:
    """spec-guardian command line."""
    if ctx.invoked_subcommand != "serve":  # serve logs it with the rest of its start-up
        _note_dotenv()
    logging.basicConfig(
        level=logging.DEBUG if verbose else logging.INFO,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # Alembic announces each of its plugins, and its SQLite/DDL assumptions, at INFO on every
    # database command; `guardian db` keeps the lines naming each migration it runs.
    logging.getLogger("alembic.runtime.plugins").setLevel(logging.DEBUG if verbose
                                                          else logging.WARNING)
    if not verbose and ctx.invoked_subcommand != "db":
        logging.getLogger("alembic.runtime.migration").setLevel(logging.WARNING)


def _note_dotenv() -> None:
    """Say so when a `.env` in the working directory supplies settings: it can name the keys
    file acts are checked against, the trust file `audit verify` believes, the database - a
    command run in someone else's directory should not take them silently."""
    from guardian.cli.envcheck import dotenv_note

    if (note := dotenv_note()) is not None:
        typer.secho(f"note: {note}", fg=typer.colors.YELLOW, err=True)


def main() -> None:
    """Run the app behind one error boundary: a user sees one line saying what is wrong, never
    a Python traceback (set GUARDIAN_DEBUG=1 to get the traceback instead)."""
    from guardian.security.secrets import SecretsError

    try:
        app()
    except SecretsError as exc:  # any command that needs the audit secrets: one line, no trace
        _fail(str(exc), 2)
    except KeyboardInterrupt:
        _fail("interrupted", 130)
    except Exception as exc:  # the boundary: commands report what they expect themselves
        if os.environ.get("GUARDIAN_DEBUG", "").strip().lower() in ("1", "true", "yes"):
            raise
        status, message = describe_error(exc)
        _fail(f"{message} (GUARDIAN_DEBUG=1 shows the traceback)", status)


def _fail(message: str, status: int) -> NoReturn:
    typer.secho(f"error: {message}", fg=typer.colors.RED, err=True)
    raise SystemExit(status) from None


def describe_error(exc: BaseException) -> tuple[int, str]:
    """(exit status, one line) for an error no command handled: 2 for bad input (settings,
    files, arguments), 1 for anything else."""
    from pydantic import ValidationError
    from pydantic_settings import SettingsError

    if isinstance(exc, ValidationError) and exc.title == "Settings":
        return 2, "invalid settings: " + "; ".join(
            f"GUARDIAN_{'_'.join(str(p) for p in e['loc']).upper()}: {e['msg']}"
            for e in exc.errors(include_url=False))
    if isinstance(exc, SettingsError):
        return 2, f"invalid settings: {exc}"
    if isinstance(exc, UnicodeDecodeError):
        return 2, f"cannot read input: it is not UTF-8 text ({exc.reason} at byte {exc.start})"
    if isinstance(exc, UnicodeEncodeError):
        return 2, "an argument is not valid text (undecodable bytes in a name, id or path)"
    if isinstance(exc, OSError) and exc.filename is not None:
        what = exc.strerror or type(exc).__name__
        return 2, f"{what}: {exc.filename}"
    if isinstance(exc, RecursionError):  # a YAML/JSON input nested thousands deep
        return 2, "an input is nested too deeply to read (maximum recursion depth exceeded)"
    if isinstance(exc, OverflowError):
        return 2, f"a number or date is out of range ({exc})"
    if type(exc).__name__ == "ArgumentError" and "URL" in str(exc):  # SQLAlchemy make_url
        return 2, f"invalid database URL: {exc}"
    text = str(exc).splitlines()[0] if str(exc).strip() else ""
    return 1, f"{type(exc).__name__}: {text}" if text else type(exc).__name__
