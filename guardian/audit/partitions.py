"""Daily RANGE partitions of `audit_tokens` on Postgres (a no-op on SQLite).

Partition `audit_tokens_pYYYYMMDD` holds created_at in [day 00:00 UTC, next day 00:00 UTC).
There is deliberately no DEFAULT partition: a row for a day without a partition fails loudly
(the writer then spools it and creates the partition before the replay) instead of landing
somewhere a partition drop cannot reach. `guardian db upgrade` creates days ahead; the writer
creates any missing day it sees in a batch, before its COPY.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from datetime import UTC, date, datetime, timedelta

import sqlalchemy as sa
from sqlalchemy import Connection, Engine

log = logging.getLogger(__name__)

_NAME = re.compile(r"^audit_tokens_p(\d{8})$")


def partition_name(day: date) -> str:
    return f"audit_tokens_p{day:%Y%m%d}"


def existing_partitions(conn: Connection) -> dict[date, str]:
    rows = conn.execute(sa.text(
        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
        "JOIN pg_class p ON p.oid = i.inhparent WHERE p.relname = 'audit_tokens'")).scalars()
    out: dict[date, str] = {}
    for name in rows:
        m = _NAME.match(name)
        if m:
            out[datetime.strptime(m.group(1), "%Y%m%d").date()] = name
    return out


def ensure_partitions(conn: Connection, days: Iterable[date]) -> list[str]:
    """Create the missing daily partitions for `days`; returns the names created."""
    if conn.dialect.name != "postgresql":
        return []
    have = existing_partitions(conn)
    created = []
    for day in sorted(set(days) - set(have)):
        start = datetime(day.year, day.month, day.day, tzinfo=UTC)
        end = start + timedelta(days=1)
        name = partition_name(day)
        # IF NOT EXISTS: another replica may create the same day concurrently.
        conn.execute(sa.text(
            f"CREATE TABLE IF NOT EXISTS {name} PARTITION OF audit_tokens "
            f"FOR VALUES FROM ('{start.isoformat()}') TO ('{end.isoformat()}')"))
        created.append(name)
    if created:
        log.info("created audit_tokens partitions %s", ", ".join(created))
    return created


def ensure_partitions_ahead(db: Engine, days_ahead: int = 7, days_back: int = 1) -> list[str]:
    if db.dialect.name != "postgresql":
        return []
    today = datetime.now(UTC).date()
    with db.begin() as conn:
        return ensure_partitions(conn, (today + timedelta(days=d)
                                        for d in range(-days_back, days_ahead + 1)))
