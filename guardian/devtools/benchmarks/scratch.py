"""A throw-away, migrated Postgres database for a benchmark run.

Benchmarks measure against the real server but must never touch real data: each run gets a
fresh database next to the configured one, created, migrated, and dropped afterwards.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager

import typer

DEFAULT_PG_URL = "postgresql://postgres@127.0.0.1/postgres"


def _create(url: str) -> tuple[str, str, str]:
    """CREATE DATABASE next to `url`'s; returns (scratch url, admin conninfo, name)."""
    import psycopg
    from sqlalchemy.engine import make_url

    u = make_url(url)
    name = f"guardian_bench_{uuid.uuid4().hex[:10]}"
    admin = (f"host={u.host or '127.0.0.1'} port={u.port or 5432} "
             f"user={u.username or 'postgres'} dbname={u.database or 'postgres'}"
             + (f" password={u.password}" if u.password else ""))
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    scratch = u.set(drivername="postgresql+psycopg", database=name)
    return scratch.render_as_string(hide_password=False), admin, name


@contextmanager
def scratch_postgres(url: str | None, *, keep: bool = False) -> Iterator[str]:
    """Yield the URL of a fresh database with the audit schema; drop it after unless `keep`.

    `url` defaults to GUARDIAN_DATABASE_URL, else the local server. A non-Postgres URL is a
    usage error (exit 2); an unreachable server is reported in one line (exit 1).
    """
    import psycopg

    from guardian.audit import migrate
    from guardian.core.db import is_postgres
    from guardian.settings import get_settings

    base = url or get_settings().database_url or DEFAULT_PG_URL
    if not is_postgres(base):
        raise typer.BadParameter("this benchmark measures Postgres; pass --url "
                                 "postgresql://user@host/db", param_hint="--url")
    try:
        scratch, admin, name = _create(base)
    except psycopg.Error as exc:
        typer.secho(f"cannot create a scratch database on {base}: {exc}", fg="red", err=True)
        raise typer.Exit(1) from None
    try:
        migrate.upgrade(scratch)
        yield scratch
    finally:
        if keep:
            typer.echo(f"kept {scratch}")
        else:
            with psycopg.connect(admin, autocommit=True) as conn:
                conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
