"""Issue 13, item 8: fail-safe route state across a restart during a database outage.

The resolver keeps the last known route state in `<home>/route-state.json`; a replica that
starts while the database is unreachable serves that state (a rolled-back route stays
target_only), with no file it serves nothing speculatively, and once the database answers
its state wins.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.core.db import make_engine
from guardian.governance import laststate
from guardian.governance.routestate import ModeResolver, RouteStateStore
from guardian.policy import load_policy
from tests.support.api import auth, keystore
from tests.support.fakes import FakeBackend, ListSink

# Both routes would serve speculatively from the file alone (no gate report needed), so only
# the route state can keep them target_only: what these tests are about.
POLICY = """version: 1
default_route: default
routes:
  default:
    mode: speculative
    gate: {require_report: false}
  canary:
    mode: speculative
    models: [fake-canary]
    gate: {require_report: false}
"""
# Nothing listens on port 1: connection refused at once, like a database that is down.
UNREACHABLE = "postgresql+psycopg://postgres@127.0.0.1:1/guardian"


class Replica:
    def __init__(self, url: str, path: Path) -> None:
        self.backend, self.sink = FakeBackend(), ListSink()
        self.services = build_services(self.backend, self.sink, keys=keystore(),
                                       policy=load_policy(path))
        from guardian.governance.runtime import attach

        self.gov = attach(self.services, url=url, policy_file=path, resolver_ttl_s=0.05,
                          watch_policy=False)
        self.client = TestClient(create_app(services=self.services))

    def served(self, model: str = "fake-target") -> str:
        r = self.client.post("/v1/completions", headers=auth(), json={
            "model": model, "prompt": "hi", "max_tokens": 4, "temperature": 0})
        assert r.status_code == 200, r.text
        return r.json()["spec_guardian"]["served_path"]

    def modes(self) -> dict[str, str]:
        r = self.client.get("/admin/routes", headers=auth("oncall"))
        return {x["route"]: x["mode"] for x in r.json()["routes"]}

    def stop(self) -> None:
        close_services(self.services)


@pytest.fixture
def start(tmp_path) -> Iterator:
    path = tmp_path / "policy.yaml"
    path.write_text(POLICY)
    running: list[Replica] = []

    def go(url: str) -> Replica:
        replica = Replica(url, path)
        running.append(replica)
        return replica

    yield go
    for replica in running:
        replica.stop()


@pytest.fixture
def url(tmp_path) -> str:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    upgrade(url)
    return url


def _wait(pred, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.02)


def test_a_rollback_survives_a_restart_while_the_database_is_down(start, fresh_db_url,
                                                                  guardian_home) -> None:
    url = fresh_db_url  # SQLite and Postgres
    upgrade(url)
    first = start(url)
    assert first.served() == "speculative"
    r = first.client.post("/admin/routes/default/rollback", json={"reason": "divergence"},
                          headers=auth("oncall"))
    assert r.status_code == 200
    saved = json.loads((guardian_home / laststate.FILE_NAME).read_text())
    assert saved["routes"]["default"]["mode"] == "target_only"
    assert saved["routes"]["default"]["updated_by"] == "api-key:oncall-key"
    first.stop()

    second = start(UNREACHABLE)  # the database is down when the replica starts again
    assert second.gov.resolver.source == "file"
    assert second.served() == "target_only"  # the rollback was not forgotten
    assert second.modes() == {"default": "target_only", "canary": "speculative"}
    decision = second.gov.resolver.decide("default", "speculative")
    assert decision.source == "database" and "api-key:oncall-key" in decision.reason

    # The database answers again, and says something newer (another replica re-enabled the
    # route meanwhile): the database wins over the file, and the file follows it.
    RouteStateStore(make_engine(url)).set_mode("default", "speculative", actor="api-key:other",
                                               reason="re-enabled with a gate report")
    second.gov.store.db = make_engine(url)
    _wait(lambda: second.gov.resolver.source == "database")
    assert second.served() == "speculative"
    _wait(lambda: json.loads((guardian_home / laststate.FILE_NAME).read_text())
          ["routes"]["default"]["mode"] == "speculative")


def test_no_database_and_no_state_file_serves_nothing_speculatively(start, url,
                                                                    guardian_home) -> None:
    assert not (guardian_home / laststate.FILE_NAME).exists()
    replica = start(UNREACHABLE)
    assert replica.gov.resolver.source == "unknown"
    assert replica.served() == "target_only" and replica.served("fake-canary") == "target_only"
    assert replica.modes() == {"default": "target_only", "canary": "target_only"}
    decision = replica.gov.resolver.decide("canary", "speculative")
    assert decision.source == "unknown_state" and "no speculation" in decision.reason
    # The database comes back (with no route state): the policy file's modes apply again.
    replica.gov.store.db = make_engine(url)
    _wait(lambda: replica.gov.resolver.source == "database")
    assert replica.served() == "speculative" and replica.served("fake-canary") == "speculative"
    assert (guardian_home / laststate.FILE_NAME).exists()


def test_an_unusable_state_file_is_unknown_state(start, guardian_home) -> None:
    guardian_home.mkdir(parents=True, exist_ok=True)
    (guardian_home / laststate.FILE_NAME).write_text('{"format": 1, "routes": {"default": {}}}')
    replica = start(UNREACHABLE)
    assert replica.gov.resolver.source == "unknown"
    assert replica.modes() == {"default": "target_only", "canary": "target_only"}


def test_the_file_is_rewritten_only_when_the_state_changed(store, tmp_path, monkeypatch) -> None:
    path = tmp_path / "state" / laststate.FILE_NAME
    writes: list[dict] = []
    real_save = laststate.save

    def counting_save(p, rows, **kw):
        writes.append(rows)
        real_save(p, rows, **kw)

    monkeypatch.setattr(laststate, "save", counting_save)
    resolver = ModeResolver(store, state_file=path)
    assert writes == [{}] and json.loads(path.read_text())["routes"] == {}
    for _ in range(3):
        assert resolver.refresh()
    assert len(writes) == 1  # nothing changed: no rewrite
    store.set_mode("default", "target_only", actor="trigger:divergence", reason="div")
    assert len(writes) == 2  # a write through the store is persisted at once
    assert resolver.refresh() and len(writes) == 2
    # Atomic replace: no temporary files left behind next to it.
    assert [p.name for p in path.parent.iterdir()] == [laststate.FILE_NAME]
