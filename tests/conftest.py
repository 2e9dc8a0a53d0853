"""Shared database fixtures.

* `pg_server_url` (session): URL of the Postgres server on 127.0.0.1:5432 (override with
  GUARDIAN_TEST_PG, e.g. postgresql://postgres@127.0.0.1:5432/postgres); skips with the reason
  when no server answers.
* `pg_url` (module): a fresh, empty database with a random name on that server, dropped after
  the module - engineers running tests in parallel never share one.
* `fresh_pg_url` (function): the same, one database per test.
* `sqlite_url` (function): a fresh SQLite file under tmp_path.
* `db_url`: parametrised over both (`db_url[sqlite]`, `db_url[postgres]`).
* `fresh_db_url`: parametrised over `sqlite_url` / `fresh_pg_url`.
* `migrated_db_url`: `db_url` with the audit migrations applied.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator

import pytest

# torch's OpenMP pool sleeps between ops instead of spinning: on 2 shared cores a spinning
# pool starves the uvicorn/streamlit subprocesses that tests start. Read when torch first
# loads, which is after this file is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# The suite runs in dev mode (public development audit secrets, no secrets file written into
# anyone's home) and trusts Starlette's TestClient host; tests of the production rules unset
# these (tests/guardian/security/test_secrets.py, tests/guardian/api/test_browser_safety.py).
os.environ.setdefault("GUARDIAN_DEV_MODE", "1")
os.environ.setdefault("GUARDIAN_TRUSTED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

PG_ADMIN_URL = os.environ.get("GUARDIAN_TEST_PG", "postgresql://postgres@127.0.0.1:5432/postgres")


def _pg_admin_conninfo() -> str:
    from sqlalchemy.engine import make_url

    u = make_url(PG_ADMIN_URL)
    parts = [f"host={u.host or '127.0.0.1'}", f"port={u.port or 5432}",
             f"user={u.username or 'postgres'}", f"dbname={u.database or 'postgres'}"]
    if u.password:
        parts.append(f"password={u.password}")
    return " ".join(parts)


@pytest.fixture(scope="session")
def pg_server_url() -> str:
    import psycopg

    try:
        with psycopg.connect(_pg_admin_conninfo(), connect_timeout=3):
            pass
    except psycopg.OperationalError as exc:
        pytest.skip(f"no PostgreSQL server reachable at {PG_ADMIN_URL} ({exc}); start it with "
                    "`pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start` "
                    "or set GUARDIAN_TEST_PG")
    return PG_ADMIN_URL


class PgDatabases:
    """Creates uniquely named databases on the test server and drops them again."""

    def __init__(self, server_url: str) -> None:
        self.server_url = server_url

    def create(self) -> str:
        import psycopg
        from sqlalchemy.engine import make_url

        name = f"guardian_test_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(_pg_admin_conninfo(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = make_url(self.server_url).set(drivername="postgresql+psycopg", database=name)
        return url.render_as_string(hide_password=False)

    def drop(self, url: str) -> None:
        import psycopg
        from sqlalchemy.engine import make_url

        name = make_url(url).database
        with psycopg.connect(_pg_admin_conninfo(), autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


@pytest.fixture(scope="session")
def pg_databases(pg_server_url: str) -> PgDatabases:
    return PgDatabases(pg_server_url)


def _scratch_database(pg_databases: PgDatabases) -> Iterator[str]:
    url = pg_databases.create()
    try:
        yield url
    finally:
        pg_databases.drop(url)


@pytest.fixture(scope="module")
def pg_url(pg_databases: PgDatabases) -> Iterator[str]:
    """A scratch database shared by one test module."""
    yield from _scratch_database(pg_databases)


@pytest.fixture
def fresh_pg_url(pg_databases: PgDatabases) -> Iterator[str]:
    """Like `pg_url` but one database per test (for tests that tamper with or prune data)."""
    yield from _scratch_database(pg_databases)


@pytest.fixture
def sqlite_url(tmp_path) -> str:  # type: ignore[no-untyped-def]
    return f"sqlite:///{tmp_path / 'guardian.db'}"


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request: pytest.FixtureRequest) -> str:
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("pg_url")


@pytest.fixture(params=["sqlite", "postgres"])
def fresh_db_url(request: pytest.FixtureRequest) -> str:
    """`db_url` with a database of its own per test on Postgres too."""
    if request.param == "sqlite":
        return request.getfixturevalue("sqlite_url")
    return request.getfixturevalue("fresh_pg_url")


@pytest.fixture
def migrated_db_url(db_url: str) -> str:
    from guardian.audit import upgrade

    upgrade(db_url)
    return db_url


@pytest.fixture(autouse=True)
def _settings_not_carried_over() -> Iterator[None]:
    """`get_settings()` is cached: a test that built settings from its own environment (a
    monkeypatched variable, a CLI run) must not hand them, and their home and signing key,
    to the tests after it (a module-scoped seed signing with another test's home, say)."""
    yield
    from guardian.settings import get_settings

    get_settings.cache_clear()
