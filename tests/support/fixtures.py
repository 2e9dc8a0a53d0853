"""Fixtures shared across test directories (registered by tests/conftest.py as a plugin):
the API tests' fake backend, sink and client factory, the demo pair, and the dashboard's keys
file and logged-in page opener."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.policy import Policy
from tests.support.api import keystore, policy
from tests.support.dashboard import APP, LOGIN_ROLES, KeysFile, login
from tests.support.fakes import FakeBackend, ListSink


@pytest.fixture(scope="session")
def demo_pair_paths():
    from engine.demo_pair import ensure_demo_pair

    # Reuse the user's cache when set, else a per-user cache shared by test runs: the build
    # takes minutes and is deterministic, so building it once is enough.
    home = os.environ.get("GUARDIAN_HOME") or Path.home() / ".cache" / "spec-guardian"
    return ensure_demo_pair(home, progress=False)


@pytest.fixture
def backend() -> FakeBackend:
    return FakeBackend()


@pytest.fixture
def sink() -> ListSink:
    return ListSink()


@pytest.fixture
def make_client(backend: FakeBackend, sink: ListSink) -> Iterator:
    made = []

    def make(pol: Policy | None = None, **kw: object) -> TestClient:
        services = build_services(backend, sink, policy=pol or policy(), keys=keystore(), **kw)
        client = TestClient(create_app(services=services), raise_server_exceptions=False)
        made.append(services)
        return client

    yield make
    for services in made:
        close_services(services)


@pytest.fixture
def client(make_client) -> TestClient:
    return make_client()


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
