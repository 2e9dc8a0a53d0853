"""The test tiers, and the shared database fixtures.

Tiers: the default `pytest` runs the FAST tier: every test not marked `integration`, `e2e`,
`slow` or `gpu`, each under a per-test timeout (FAST_TIMEOUT_S) so a slow unit test fails
loudly instead of creeping into the tier. `pytest --tier full` runs everything (what CI runs,
in stages: `.ci/run`). Tests are marked automatically by what they use (TIER_FIXTURES below:
a server, a subprocess, Postgres, the demo pair, a browser), so a new test that starts a
server cannot land in the fast tier by forgetting a mark. An explicit `-m` expression or a
test id (`file.py::test`) on the command line selects as written, whatever the tier.

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

# Fixtures shared across directories (the fake-backend API client, the demo pair).
pytest_plugins = ["tests.support.fixtures"]

# torch's OpenMP pool sleeps between ops instead of spinning: on 2 shared cores a spinning
# pool starves the uvicorn/streamlit subprocesses that tests start. Read when torch first
# loads, which is after this file is imported.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
# The suite runs in dev mode (public development audit secrets, no secrets file written into
# anyone's home) and trusts Starlette's TestClient host; tests of the production rules unset
# these (tests/guardian/security/test_secrets.py, tests/guardian/api/test_browser_safety.py).
os.environ.setdefault("GUARDIAN_DEV_MODE", "1")
os.environ.setdefault("GUARDIAN_TRUSTED_HOSTS", "localhost,127.0.0.1,[::1],testserver")

# A fixture (anywhere in a test's fixture closure) -> the mark it implies. Postgres through a
# parametrised `db_url[postgres]` is found by its parameter (see _implied_marks).
TIER_FIXTURES: dict[str, str] = {
    "pg_server_url": "integration",  # a real PostgreSQL server
    "demo_pair_paths": "integration",  # the demo pair, built on first use (minutes)
    "live_server": "integration",  # a uvicorn server in a thread (tests/support/servers.py)
    "subprocess_sidecar": "integration",  # `guardian serve` as a real process
    "chromium": "e2e",  # a headless browser
}
SLOW_MARKS = ("integration", "e2e", "slow", "gpu")
FAST_TIMEOUT_S = 60.0


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--tier", choices=("fast", "full"),
                     default=os.environ.get("GUARDIAN_TEST_TIER", "fast"),
                     help="fast (default): unit tests only, each under a timeout; full: "
                          "everything (integration, e2e, slow; gpu where a GPU is)")


def _implied_marks(item: pytest.Item) -> set[str]:
    marks = {TIER_FIXTURES[f] for f in getattr(item, "fixturenames", ()) if f in TIER_FIXTURES}
    callspec = getattr(item, "callspec", None)
    if callspec is not None and "postgres" in [str(v) for v in callspec.params.values()]:
        marks.add("integration")
    return marks


def _explicit_selection(config: pytest.Config) -> bool:
    return bool(config.option.markexpr) or any("::" in a for a in config.args)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for mark in _implied_marks(item) - {m.name for m in item.iter_markers()}:
            item.add_marker(getattr(pytest.mark, mark))
    if config.getoption("tier") == "full" or _explicit_selection(config):
        return
    keep, drop = [], []
    for item in items:
        (drop if any(item.get_closest_marker(m) for m in SLOW_MARKS) else keep).append(item)
    for item in keep:
        if item.get_closest_marker("timeout") is None:
            item.add_marker(pytest.mark.timeout(FAST_TIMEOUT_S))
    if drop:
        config.hook.pytest_deselected(items=drop)
        items[:] = keep


def pytest_report_header(config: pytest.Config) -> str:
    if config.getoption("tier") == "full" or _explicit_selection(config):
        return "tier: full (integration, e2e and slow tests included)"
    return (f"tier: fast (unit tests, {FAST_TIMEOUT_S:.0f} s each at most); "
            "the whole suite: pytest --tier full")


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


# --- migrations from a template -----------------------------------------------------------
# Alembic takes 1-2 s to build the schema in a new SQLite file, and ~160 tests start from one.
# The migrations run for real once per session into a template file; after that, an upgrade to
# head of an empty SQLite file (what `guardian.audit.upgrade` finds on a first start: the file
# it just created private) starts from a copy of the template's bytes, and Alembic then sees
# the head and does nothing. The result is the file the migrations make, byte for byte.
# Tests of the migrations themselves opt out with `@pytest.mark.real_migrations`, and so does
# any process the tests start (the sidecar as a subprocess migrates for real);
# GUARDIAN_TEST_REAL_MIGRATIONS=1 turns the template off for a whole run.
_TEMPLATE: dict[str, bytes] = {}


def _sqlite_template(real_upgrade, tmp_root) -> bytes:  # type: ignore[no-untyped-def]
    if "head" not in _TEMPLATE:
        import sqlite3

        from guardian.audit.migrate import alembic_config

        path = tmp_root / "schema-template.db"
        real_upgrade(alembic_config(f"sqlite:///{path}"), "head")
        with sqlite3.connect(path) as conn:  # fold the WAL into the file
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        _TEMPLATE["head"] = path.read_bytes()
    return _TEMPLATE["head"]


@pytest.fixture(autouse=True)
def _migrate_sqlite_from_template(request: pytest.FixtureRequest,
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    if (request.node.get_closest_marker("real_migrations") is not None
            or os.environ.get("GUARDIAN_TEST_REAL_MIGRATIONS")):
        return
    from guardian.audit import migrate
    from guardian.core.db import sqlite_path

    real = migrate.command.upgrade
    tmp_root = request.config._tmp_path_factory.getbasetemp()  # type: ignore[attr-defined]

    def upgrade(config, revision, *args, **kwargs):  # type: ignore[no-untyped-def]
        path = sqlite_path(config.get_main_option("sqlalchemy.url"))
        if (revision == "head" and path is not None and path.is_file()
                and path.stat().st_size == 0 and not path.with_name(path.name + "-wal").exists()):
            with open(path, "r+b") as f:  # keeps the file (and its private mode) as created
                f.write(_sqlite_template(real, tmp_root))
        return real(config, revision, *args, **kwargs)

    monkeypatch.setattr(migrate.command, "upgrade", upgrade)


@pytest.fixture(autouse=True)
def _settings_not_carried_over() -> Iterator[None]:
    """`get_settings()` is cached: a test that built settings from its own environment (a
    monkeypatched variable, a CLI run) must not hand them, and their home and signing key,
    to the tests after it (a module-scoped seed signing with another test's home, say)."""
    yield
    from guardian.settings import get_settings

    get_settings.cache_clear()
