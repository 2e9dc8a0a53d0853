"""The dashboard's connection to the audit database: its URL, the read-only engine (one per
process) and the schema check. (Split out of `dashboard.data`, which re-exports these names.)

The database is `GUARDIAN_DATABASE_URL` (else the embedded SQLite file), opened read-only:
Postgres sessions start with `default_transaction_read_only` (on top of the read-only role
`guardian dashboard` recommends), SQLite connections with `PRAGMA query_only`.
"""

from __future__ import annotations

from typing import Any

import streamlit as st
from sqlalchemy import Engine, event

from guardian.core.db import DatabaseUnreachable, has_audit_schema

CACHE_TTL_S = 60
STATEMENT_TIMEOUT_MS = 15_000  # a runaway query must not hold a Postgres backend forever


class DashboardDataError(RuntimeError):
    """The database cannot be read; the message says what to do."""


def database_url() -> str:
    from guardian.settings import Settings

    # Built per call (cheap): the URL can change between tests and reruns.
    return Settings().resolved_database_url


def _read_only(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    if type(dbapi_conn).__module__.startswith("sqlite3"):
        cur.execute("PRAGMA query_only = ON")
    else:
        cur.execute("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY")
        cur.execute(f"SET statement_timeout = {STATEMENT_TIMEOUT_MS}")
        dbapi_conn.commit()  # keep the settings: the pool rolls back what is left open
    cur.close()


@st.cache_resource(show_spinner=False)
def db_for(url: str) -> Engine:
    """The read-only audit database (a SQLAlchemy Engine) at `url`, one per process."""
    from guardian.core.db import make_engine

    db = make_engine(url, pool_size=4, max_overflow=4) if url.startswith("postgres") \
        else make_engine(url)
    event.listen(db, "connect", _read_only)
    return db


def get_db() -> Engine:
    """The read-only audit database, after checking the audit schema is there."""
    url = database_url()
    db = db_for(url)
    safe = db.url.render_as_string(hide_password=True)
    try:
        ok = has_audit_schema(db)
    except DatabaseUnreachable as exc:
        raise DashboardDataError(f"cannot open the audit database {safe}: {exc}. Check that it "
                                 "is running and GUARDIAN_DATABASE_URL is right.") from None
    if not ok:
        raise DashboardDataError(f"no audit schema in {safe}: run `guardian db upgrade` (and send "
                                 "traffic through the sidecar) first.")
    return db


def _db() -> Engine:
    return db_for(database_url())
