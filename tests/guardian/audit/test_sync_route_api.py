"""Through the HTTP API: a `sync` route's response waits for its durable audit record (503,
never an unaudited 200, when it cannot be made durable); attribution of every request and
governance act; the audit series on `/metrics`."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.audit.config import AuditSettings
from guardian.audit.events import GovernanceEvent, RequestEvent
from guardian.audit.heads import HeadsConfig
from guardian.audit.signing import generate
from guardian.audit.writer import AuditUnavailable, AuditWriter
from guardian.core.db import make_engine
from guardian.policy.model import AuditPolicy, Policy, RoutePolicy, ShadowPolicy
from guardian.security.auth import hash_key
from tests.support.api import KEYS, auth, keystore
from tests.support.fakes import FakeBackend, ListSink


def _policy() -> Policy:
    quiet = ShadowPolicy(sample_rate=0.0)
    return Policy(default_route="default", routes={
        "default": RoutePolicy(shadow=quiet),
        "ledger": RoutePolicy(models=["ledger"], shadow=quiet,
                              audit=AuditPolicy(durability="sync")),
    })


class HeldSink(ListSink):
    """A sink whose sync futures the test completes (or fails) itself."""

    def __init__(self) -> None:
        super().__init__()
        self.pending: list[Future[None]] = []
        self.durable_calls = 0
        self.cfg = AuditSettings(sync_timeout_s=1.0)

    def submit_durable(self, event: Any) -> Future[None]:
        self.durable_calls += 1
        self.submit(event)
        fut: Future[None] = Future()
        self.pending.append(fut)
        return fut


@pytest.fixture
def held() -> Any:
    sink = HeldSink()
    services = build_services(FakeBackend(), sink, policy=_policy(), keys=keystore())
    client = TestClient(create_app(services=services), raise_server_exceptions=False)
    yield client, sink
    close_services(services)


def _complete(client: TestClient, model: str, **extra: Any) -> Any:
    return client.post("/v1/completions", headers=auth(), json={
        "model": model, "prompt": "hello", "max_tokens": 3, **extra})


def test_sync_route_response_waits_for_the_durable_record(held: Any) -> None:
    client, sink = held

    def release_later() -> None:
        while not sink.pending:
            time.sleep(0.01)
        time.sleep(0.3)
        sink.pending[0].set_result(None)

    threading.Thread(target=release_later, daemon=True).start()
    t0 = time.perf_counter()
    r = _complete(client, "ledger")
    assert r.status_code == 200, r.text
    assert time.perf_counter() - t0 >= 0.3  # held until the record was durable
    assert sink.durable_calls == 1
    # An async route never waits.
    assert _complete(client, "fake-target").status_code == 200
    assert sink.durable_calls == 1


@pytest.mark.parametrize("stream", [False, True])
def test_sync_route_answers_503_when_the_record_cannot_be_made_durable(held: Any,
                                                                       stream: bool) -> None:
    client, sink = held

    def fail_later() -> None:
        while not sink.pending:
            time.sleep(0.01)
        sink.pending[0].set_exception(AuditUnavailable("the audit spool is full or unwritable"))

    threading.Thread(target=fail_later, daemon=True).start()
    r = _complete(client, "ledger", stream=stream)
    if not stream:
        assert r.status_code == 503
        err = r.json()["error"]
        assert err["code"] == "audit_unavailable" and "spool is full" in err["message"]
        # ...and counted as the failure it is, once (before: a success in the errors SLI)
        metrics = client.get("/metrics", headers=auth("oncall")).text
        counted = [line for line in metrics.splitlines()
                   if line.startswith("guardian_requests_total{") and 'route="ledger"' in line]
        assert len(counted) == 1 and 'error_type="audit_unavailable"' in counted[0], counted
        return
    # Stream: text may have gone out, but no final chunk (finish_reason) and an in-band error.
    chunks = [json.loads(line[6:]) for line in r.text.splitlines()
              if line.startswith("data: {")]
    assert r.text.rstrip().endswith("data: [DONE]")
    assert "error" in chunks[-1] and "durable" in chunks[-1]["error"]["message"]
    assert not any(c.get("choices") and c["choices"][0].get("finish_reason") for c in chunks)


def test_sync_route_answers_503_when_the_record_is_not_durable_in_time(held: Any) -> None:
    client, sink = held
    t0 = time.perf_counter()
    r = _complete(client, "ledger")  # nobody completes the future
    assert r.status_code == 503 and r.json()["error"]["code"] == "audit_unavailable"
    assert "timed out" in r.json()["error"]["message"]
    assert 1.0 <= time.perf_counter() - t0 < 5
    assert sink.pending[0].cancelled()  # the writer's later completion is then ignored


@pytest.fixture
def real(tmp_path: Path) -> Any:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    upgrade(url)
    writer = AuditWriter(url, spool_dir=tmp_path / "spool", replica_id="api",
                         config=AuditSettings(flush_interval_s=0.05))
    services = build_services(FakeBackend(), writer, policy=_policy(), keys=keystore())
    client = TestClient(create_app(services=services), raise_server_exceptions=False)
    yield client, writer, url, tmp_path
    close_services(services)


def test_sync_route_with_the_real_writer_and_the_audit_metrics(real: Any) -> None:
    client, writer, _url, _ = real
    r = _complete(client, "ledger")
    assert r.status_code == 200
    # Durable when answered: fsync'd in the WAL (or already in the DB).
    assert writer.counters["sync_events"] == 1 and writer.counters["wal_fsyncs"] == 1
    m = client.get("/metrics", headers=auth("oncall"))
    assert m.status_code == 200
    text = m.text
    for series in ("guardian_audit_queue_depth", "guardian_audit_spool_bytes",
                   "guardian_audit_spool_segments", "guardian_audit_wal_bytes",
                   "guardian_audit_last_durable_write_age_seconds", "guardian_audit_db_up",
                   'guardian_audit_records_total{', 'outcome="quarantined"',
                   'guardian_audit_dropped_events_total{', "guardian_audit_sync_events_total"):
        assert series in text, series
    # This writer publishes no signed heads: the head-age series is absent, not zero.
    assert "guardian_audit_last_signed_head_age" not in text


def test_head_age_series_comes_from_the_writers_head_publisher(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'audit.db'}"
    upgrade(url)
    signer = generate(tmp_path / "key", tmp_path / "trust.json", "api")
    writer = AuditWriter(url, spool_dir=tmp_path / "spool", replica_id="api",
                         config=AuditSettings(flush_interval_s=0.05),
                         heads=HeadsConfig(signer, tmp_path / "heads", interval_s=3600))
    services = build_services(FakeBackend(), writer, policy=_policy(), keys=keystore())
    try:
        client = TestClient(create_app(services=services), raise_server_exceptions=False)
        assert _complete(client, "ledger").status_code == 200
        text = client.get("/metrics", headers=auth("oncall")).text
        (line,) = [ln for ln in text.splitlines()
                   if ln.startswith("guardian_audit_last_signed_head_age_seconds")]
        assert 0 <= float(line.split()[-1]) < 60  # the start-up head, seconds ago
    finally:
        close_services(services)


def test_every_request_and_governance_act_is_attributed_without_the_key(real: Any) -> None:
    client, writer, url, tmp_path = real
    ids = {}
    ids["model"] = _complete(client, "ledger").headers["x-request-id"]
    ids["default"] = _complete(client, "fake-target").headers["x-request-id"]
    r = client.post("/v1/completions", headers={**auth(), "X-Guardian-Route": "default"},
                    json={"model": "fake-target", "prompt": "hi", "max_tokens": 2})
    ids["header"] = r.headers["x-request-id"]
    assert client.post("/admin/routes/default/rollback", headers=auth("oncall"),
                       json={"reason": "drill"}).status_code == 200
    writer.flush(timeout_s=10)
    engine = make_engine(url)
    with engine.connect() as conn:
        rows = {rid: json.loads(p) if isinstance(p, str) else p for rid, p in conn.execute(
            sa.text("SELECT request_id, params FROM audit_requests"))}
        gov = conn.execute(sa.text("SELECT kind, actor FROM audit_governance "
                                   "WHERE kind = 'rollback'")).all()
        (details,) = conn.execute(sa.text("SELECT details FROM audit_governance "
                                          "WHERE kind = 'rollback'")).one()
    engine.dispose()
    origin = (json.loads(details) if isinstance(details, str) else details)["origin"]
    # How the act came in: over the API, by which key (its id, never the key) and role.
    assert origin["via"] == "api" and origin["role"] == "oncall"
    assert origin["key_id"] == hash_key(KEYS["oncall"])[:12]
    for reason, rid in ids.items():
        params = rows[rid]
        assert params["principal"] == "api-key:inference-key"
        assert params["key_id"] and params["key_id"] not in KEYS["inference"]
        assert params["route_reason"] == reason
    assert gov == [("rollback", "api-key:oncall-key")]
    # The key itself is nowhere in the trail (database file, spool, WAL).
    for path in [tmp_path / "audit.db", *(tmp_path / "spool").rglob("*")]:
        if path.is_file():
            data = path.read_bytes()
            for key in KEYS.values():
                assert key.encode() not in data, (path, key)


def test_memory_sinks_without_submit_durable_still_serve_sync_routes(tmp_path: Path) -> None:
    sink = ListSink()
    services = build_services(FakeBackend(), sink, policy=_policy(), keys=keystore())
    try:
        client = TestClient(create_app(services=services), raise_server_exceptions=False)
        assert _complete(client, "ledger").status_code == 200
        assert len(sink.of(RequestEvent)) == 1
        assert not sink.of(GovernanceEvent)
    finally:
        close_services(services)
