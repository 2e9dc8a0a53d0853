"""Engine factory shared by the audit store, the CLI and the dashboard.

One place decides driver defaults: `postgresql://` URLs get the psycopg 3 driver, Postgres
connections get a connect timeout (so a dead server fails fast and the audit writer spools
instead of hanging), and SQLite gets WAL mode so the dashboard can read while the writer writes.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event
from sqlalchemy.engine import make_url

log = logging.getLogger(__name__)


def normalize_url(url: str) -> str:
    """Use psycopg 3 for bare `postgresql://` / `postgres://` URLs."""
    u = make_url(url)
    if u.drivername in ("postgresql", "postgres"):
        u = u.set(drivername="postgresql+psycopg")
    return u.render_as_string(hide_password=False)


def sqlite_path(url: str) -> Path | None:
    """The file an SQLite URL names (None: not SQLite, in memory, or a `file:` URI)."""
    u = make_url(normalize_url(url))
    if (u.get_backend_name() != "sqlite" or u.database in (None, "", ":memory:")
            or u.query.get("uri") or u.database.startswith("file:")):
        return None
    return Path(u.database)


def is_postgres(url_or_engine: str | Engine) -> bool:
    url = url_or_engine.url if isinstance(url_or_engine, Engine) else make_url(url_or_engine)
    return url.get_backend_name() == "postgresql"


def make_engine(url: str, *, connect_timeout_s: float = 5, statement_timeout_ms: int | None = None,
                **kwargs: Any) -> Engine:
    """Create an Engine for `url` with the project's defaults."""
    url = normalize_url(url)
    connect_args: dict[str, Any] = {}
    if is_postgres(url):
        connect_args["connect_timeout"] = max(1, int(connect_timeout_s))  # libpq wants an int
        # Pinned: a role's own search_path (a schema named after it first, by default) must
        # not change which audit_requests a query reads (guardian.audit.readers).
        options = ["-c search_path=public"]
        if statement_timeout_ms:
            options.append(f"-c statement_timeout={statement_timeout_ms}")
        connect_args["options"] = " ".join(options)
        kwargs.setdefault("pool_pre_ping", True)
    else:
        # SQLite busy timeout: how long to wait for another writer's lock before the call
        # fails (the audit writer then spools and retries).
        connect_args["timeout"] = connect_timeout_s
    db = create_engine(url, connect_args=connect_args, **kwargs)
    if db.url.get_backend_name() == "sqlite":
        event.listen(db, "connect", _sqlite_pragmas)
    return db


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    # WAL: readers (dashboard, `audit verify`) never block the writer and vice versa.
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()


class DatabaseUnreachable(RuntimeError):
    """The database could not be opened; the message is the driver's first line."""


def has_audit_schema(db: Engine, table: str = "audit_requests") -> bool:
    """Whether the migrated schema's `table` exists; DatabaseUnreachable (one readable line) if
    the DB is down."""
    import sqlalchemy as sa

    try:
        with db.connect() as conn:
            return sa.inspect(conn).has_table(table)
    except Exception as exc:  # any driver error: callers turn it into a user-facing message
        first = (str(exc).strip().splitlines() or [type(exc).__name__])[0]
        raise DatabaseUnreachable(first) from None
