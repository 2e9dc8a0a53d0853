"""Migrations: up/down round trip, `alembic check` clean, append-only guards, partitions."""

from __future__ import annotations

import pytest
import sqlalchemy as sa

from guardian.audit import migrate
from guardian.audit.models import Base
from guardian.core.db import make_engine

pytestmark = [pytest.mark.integration, pytest.mark.real_migrations]


def _tables(url: str) -> set[str]:
    engine = make_engine(url)
    try:
        return set(sa.inspect(engine).get_table_names())
    finally:
        engine.dispose()


def test_upgrade_downgrade_round_trip_and_check(fresh_db_url: str) -> None:
    migrate.upgrade(fresh_db_url)
    assert migrate.current(fresh_db_url) == migrate.head()
    assert set(Base.metadata.tables) <= _tables(fresh_db_url)
    migrate.check(fresh_db_url)  # raises if models and migrated schema differ

    migrate.downgrade(fresh_db_url, "base")
    assert migrate.current(fresh_db_url) is None
    assert not (set(Base.metadata.tables) & _tables(fresh_db_url))

    migrate.upgrade(fresh_db_url)  # and up again on the downgraded database
    migrate.check(fresh_db_url)


def test_chained_tables_reject_update_and_delete(fresh_db_url: str, make_writer) -> None:  # type: ignore[no-untyped-def]
    from guardian.audit.testing import request_event

    migrate.upgrade(fresh_db_url)
    w = make_writer(fresh_db_url)
    w.submit(request_event(3))
    w.flush()
    engine = make_engine(fresh_db_url)
    try:
        for stmt in ("UPDATE audit_tokens SET origin = 'target'", "DELETE FROM audit_tokens",
                     "UPDATE audit_requests SET route = 'x'", "DELETE FROM audit_requests"):
            with pytest.raises(sa.exc.DatabaseError, match="append-only"), engine.begin() as conn:
                conn.execute(sa.text(stmt))
        with engine.connect() as conn:
            assert conn.execute(sa.text("SELECT count(*) FROM audit_tokens")).scalar() == 3
    finally:
        engine.dispose()


def test_postgres_token_table_is_partitioned_by_day(fresh_pg_url: str) -> None:
    migrate.upgrade(fresh_pg_url)
    engine = make_engine(fresh_pg_url)
    try:
        with engine.connect() as conn:
            kind = conn.execute(sa.text(
                "SELECT relkind FROM pg_class WHERE relname = 'audit_tokens'")).scalar()
            strategy = conn.execute(sa.text(
                "SELECT partstrat FROM pg_partitioned_table p JOIN pg_class c "
                "ON c.oid = p.partrelid WHERE c.relname = 'audit_tokens'")).scalar()
            parts = conn.execute(sa.text(
                "SELECT count(*) FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhparent "
                "WHERE c.relname = 'audit_tokens'")).scalar()
    finally:
        engine.dispose()
    assert (kind, strategy) == ("p", "r")  # partitioned, by RANGE
    assert parts >= 8  # yesterday .. a week ahead
