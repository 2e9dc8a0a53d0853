"""`guardian db ...`: apply, roll back and inspect the Alembic migrations."""

from __future__ import annotations

import typer

app = typer.Typer(help="Database schema (Alembic migrations in migrations/).", no_args_is_help=True)

URL_HELP = "SQLAlchemy URL (default: GUARDIAN_DATABASE_URL, else the SQLite file in GUARDIAN_HOME)."


def _url(url: str | None) -> str:
    if url:
        return url
    from guardian.core.fileio import private_dir
    from guardian.settings import get_settings

    settings = get_settings()
    if not settings.database_url:
        private_dir(settings.home)
    return settings.resolved_database_url


def missing_sqlite_file(url: str) -> str | None:
    """The path of the SQLite file `url` names when that file does not exist (else None).

    Connecting creates an empty file there, so a command that only reads checks this first:
    a mistyped path is an error, not an empty database left behind."""
    from pathlib import Path

    from sqlalchemy.engine import make_url

    u = make_url(url)
    if (u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:")
            or u.query.get("uri") or u.database.startswith("file:")):
        return None
    return None if Path(u.database).exists() else u.database


def require_sqlite_file(url: str) -> None:
    """Exit 1 with one line when `url` names a SQLite file that does not exist."""
    path = missing_sqlite_file(url)
    if path is not None:
        typer.secho(f"no SQLite database at {path} (check --url / GUARDIAN_DATABASE_URL); "
                    "`guardian db upgrade` creates one", fg="red", err=True)
        raise typer.Exit(1)


def _fail(action: str, url: str, exc: Exception) -> typer.Exit:
    from sqlalchemy.engine import make_url

    first = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    typer.secho(f"{action} failed on {make_url(url).render_as_string(hide_password=True)}: "
                f"{first}\nCheck that the database is running and the URL is right.",
                fg="red", err=True)
    return typer.Exit(1)


@app.command()
def upgrade(url: str | None = typer.Option(None, "--url", help=URL_HELP),
            revision: str = typer.Option("head", help="Target revision.")) -> None:
    """Apply migrations up to REVISION (default: head); creates token partitions on Postgres."""
    from guardian.audit import migrate

    url = _url(url)
    try:
        migrate.upgrade(url, revision)
        typer.echo(f"database at revision {migrate.current(url)}")
    except Exception as exc:
        raise _fail("upgrade", url, exc) from None


@app.command()
def downgrade(revision: str = typer.Argument(..., help="Target revision: a revision id, "
                                             "'base', or a step back such as -1 (written "
                                             "`guardian db downgrade --yes -- -1`)."),
              url: str | None = typer.Option(None, "--url", help=URL_HELP),
              yes: bool = typer.Option(False, "--yes", help="Confirm: a downgrade drops the "
                                       "tables and columns added after REVISION, with the "
                                       "audit records in them.")) -> None:
    """Roll migrations back to REVISION ('base' removes every audit table and record).
    Destroys audit data: it needs --yes, and belongs before a restore from backup, never on
    a live trail."""
    from guardian.audit import migrate

    if not yes:
        typer.secho(f"refusing to downgrade to {revision!r} without --yes: it drops the "
                    "tables and columns added after it, with the audit records they hold",
                    fg=typer.colors.RED, err=True)
        raise typer.Exit(2)
    url = _url(url)
    try:
        migrate.downgrade(url, revision)
        typer.echo(f"database at revision {migrate.current(url) or 'base'}")
    except Exception as exc:
        raise _fail("downgrade", url, exc) from None


@app.command()
def current(url: str | None = typer.Option(None, "--url", help=URL_HELP)) -> None:
    """Print the database's revision and the newest available one."""
    from guardian.audit import migrate

    url = _url(url)
    if (missing := missing_sqlite_file(url)) is not None:  # read only: create no empty file
        typer.echo(f"current: base (no database file at {missing})\nhead:    {migrate.head()}\n"
                   "run `guardian db upgrade` to create and migrate it")
        return
    try:
        cur = migrate.current(url)
    except Exception as exc:
        raise _fail("reading the revision", url, exc) from None
    head = migrate.head()
    typer.echo(f"current: {cur or 'base (not migrated)'}\nhead:    {head}")
    if cur != head:
        typer.echo("run `guardian db upgrade` to migrate")


@app.command()
def check(url: str | None = typer.Option(None, "--url", help=URL_HELP)) -> None:
    """Fail if the models and the migrated schema differ (alembic check)."""
    from guardian.audit import migrate

    url = _url(url)
    require_sqlite_file(url)
    try:
        migrate.check(url)
    except Exception as exc:
        raise _fail("schema check", url, exc) from None
    typer.echo("schema matches the models")
