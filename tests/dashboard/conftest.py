"""Dashboard fixtures: a database seeded through the audit store's own row builders and an
AppTest factory that opens a page of the real app against it.

`seeded` (module, SQLite and Postgres): a database with ~2,400 requests over the last day
(three routes, one that drifts and is rolled back, an incident in the last 30 minutes) and the
`SeedSummary` of what was written, so tests compare the pages' figures with the data, not with
the queries.

Every page needs a login (`dashboard.auth`): `dashboard_keys` is a keys file with one key per
role, and `open_page(..., role=...)` logs in through the real login form (admin by default).
"""
from __future__ import annotations

import pytest

from tests.support.dashboard import (  # noqa: F401  (helpers, importable from here too)
    _ESCAPED,
    _SPAN,
    APP,
    LOGIN_ROLES,
    PII,
    SEEDED_ROUTES_POLICY,
    KeysFile,
    Seeded,
    add_pii_request,
    login,
    rendered,
    seed,
)


@pytest.fixture(scope="module", params=["sqlite", pytest.param("postgres",
                                                                marks=pytest.mark.integration)])
def seeded(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Seeded:
    """The same seeded traffic on SQLite and on Postgres (a fresh database per module)."""
    if request.param == "postgres":
        return seed(request.getfixturevalue("pg_url"))
    return seed(f"sqlite:///{tmp_path_factory.mktemp('dash') / 'guardian.db'}")
