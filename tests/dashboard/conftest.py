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

from collections.abc import Callable, Iterator

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


@pytest.fixture(scope="session")
def dashboard_keys(tmp_path_factory: pytest.TempPathFactory) -> KeysFile:
    """A sidecar keys file holding one key per role (`LOGIN_ROLES`)."""
    from guardian.security.auth import add_key_to_file

    path = tmp_path_factory.mktemp("keys") / "keys.yaml"
    return KeysFile(path, {role: add_key_to_file(path, f"{role}-1", role)  # type: ignore[arg-type]
                           for role in LOGIN_ROLES})


@pytest.fixture
def open_page(monkeypatch: pytest.MonkeyPatch,
              dashboard_keys: KeysFile) -> Iterator[Callable[..., object]]:
    """open_page(url, page, role="admin", **query_params) -> a run AppTest, logged in with
    the key of `role`, showing `page` ("overview"...)."""
    import streamlit as st
    from streamlit.testing.v1 import AppTest

    def run(url: str, page: str, role: str = "admin", **query: str) -> AppTest:
        monkeypatch.setenv("GUARDIAN_DATABASE_URL", url)
        monkeypatch.setenv("GUARDIAN_API_KEYS_FILE", str(dashboard_keys.path))
        monkeypatch.delenv("GUARDIAN_DASHBOARD_DEV", raising=False)
        st.cache_data.clear()
        at = AppTest.from_file(APP, default_timeout=60)
        for k, v in query.items():
            at.query_params[k] = v
        at.run()
        login(at, dashboard_keys.keys[role])
        assert at.session_state["auth_access"].role == role
        if page != "overview":
            at.switch_page(f"views/{page}.py").run()
        assert not at.exception, [e.value for e in at.exception]
        return at

    yield run
    st.cache_data.clear()
