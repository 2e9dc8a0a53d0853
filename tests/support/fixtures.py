"""Fixtures shared across test directories (registered by tests/conftest.py as a plugin):
the API tests' fake backend, sink and client factory, and the demo pair."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.policy import Policy
from tests.support.api import keystore, policy
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
