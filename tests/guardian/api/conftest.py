"""Fixtures: an app around the fake backend, with one API key per role."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.policy import Policy, RoutePolicy, ShadowPolicy
from guardian.security.auth import ROLES, KeyStore
from tests.guardian.api.fakes import FakeBackend, ListSink

KEYS = {role: f"sg-test-{role}" for role in ROLES}


def policy(mode: str = "target_only", sample_rate: float = 0.0, **route: object) -> Policy:
    return Policy(routes={
        "default": RoutePolicy(mode=mode, shadow=ShadowPolicy(sample_rate=sample_rate), **route),
        "canary": RoutePolicy(mode="speculative", models=["fake-canary"],
                              shadow=ShadowPolicy(sample_rate=sample_rate)),
    })


def keystore() -> KeyStore:
    store = KeyStore()
    for role, key in KEYS.items():
        store.add(key, f"{role}-key", role)  # type: ignore[arg-type]
    return store


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


def auth(role: str = "inference") -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[role]}"}
