"""Governance inside the sidecar app (fake engine, SQLite route state): a divergence rolls the
route back from the next request on, the admin API goes through the governance rules, and
the policy reloads without a restart."""

from __future__ import annotations

import time
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.audit.events import RequestEvent, ShadowEvent
from guardian.governance.checks import Check
from guardian.governance.gatereport import GateReport
from guardian.governance.promotion import record_gate_result
from guardian.governance.runtime import Governance, attach
from guardian.policy import load_policy
from tests.support.api import auth, keystore
from tests.support.fakes import FakeBackend, ListSink

POLICY = """version: 1
default_route: default
routes:
  default:
    mode: {mode}
    shadow: {{sample_rate: 1.0}}
    triggers:
      cooldown_s: 600
      evaluation_interval_s: 0.05
    # These tests are about rollback / promotion / reload on a route already serving
    # speculatively; the file-mode gate has its own tests (test_gate_serving.py).
    gate: {{require_report: false}}
"""
BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}


@pytest.fixture
def app(tmp_path) -> Iterator[tuple[TestClient, FakeBackend, ListSink, Governance, object]]:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    upgrade(url)
    path = tmp_path / "policy.yaml"
    path.write_text(POLICY.format(mode="speculative"))
    backend, sink = FakeBackend(), ListSink()
    services = build_services(backend, sink, keys=keystore(),
                              policy=load_policy(path))
    gov = attach(services, url=url, policy_file=path, resolver_ttl_s=0.05)
    yield TestClient(create_app(services=services)), backend, sink, gov, path
    close_services(services)


def _served(client: TestClient) -> dict:
    return client.post("/v1/completions", json=BODY, headers=auth()).json()["spec_guardian"]


def _record_report(gov: Governance, backend: FakeBackend, policy_hash: str, spool: Path, *,
                   passed: bool = True) -> None:
    """A gate result for the serving pair under `policy_hash`, written to the audit DB."""
    from guardian.audit.writer import AuditWriter

    report = GateReport(backend.pair_hash, policy_hash, "default", {}, "g.jsonl", "", "now", [],
                        [Check("greedy_equivalence", "pass" if passed else "fail", 0, 0, "")],
                        passed)
    writer = AuditWriter(gov.db.url.render_as_string(hide_password=False), spool_dir=spool)
    record_gate_result(writer, None, report, actor="ci")
    writer.close()


def _wait(pred, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_divergence_in_shadow_rolls_the_route_back_for_the_next_request(app) -> None:
    client, backend, sink, gov, path = app
    assert _served(client)["served_path"] == "speculative"
    backend.spec_flip_at = 2  # the speculative path now emits a wrong token (margin 5: a bug)
    assert _served(client)["served_path"] == "speculative"
    _wait(lambda: gov.store.get("default") is not None)
    state = gov.store.get("default")
    assert state.mode == "target_only" and state.updated_by == "trigger:divergence"
    after = _served(client)
    assert after["mode"] == "target_only" and after["served_path"] == "target_only"
    assert client.get("/admin/routes", headers=auth("oncall")).json()["routes"][0]["mode"] == "target_only"
    # Re-enable: refused in the cool-down (409 with the reason), allowed with force, audited.
    r = client.post("/admin/routes/default/reenable", json={"reason": "fixed"}, headers=auth("oncall"))
    assert r.status_code == 409 and "cool-down" in r.json()["error"]["message"]
    backend.spec_flip_at = None
    # Forcing skips the cool-down, not the evidence: a passing gate report for this pair and
    # policy is needed to turn speculation back on (issue 13).
    r = client.post("/admin/routes/default/reenable?force=true", json={"reason": "engine fixed"},
                    headers=auth("oncall"))
    assert r.status_code == 409 and "no gate report for pair" in r.json()["error"]["message"]
    _record_report(gov, backend, gov.reloader.policy.content_hash, path.parent / "spool")
    r = client.post("/admin/routes/default/reenable?force=true", json={"reason": "engine fixed"},
                    headers=auth("oncall"))
    assert r.status_code == 200
    _wait(lambda: _served(client)["served_path"] == "speculative", timeout=2)
    kinds = [e.kind for e in sink.events if getattr(e, "kind", None) in ("rollback", "reenable")]
    assert kinds == ["rollback", "reenable"]


def test_promotion_through_the_api_needs_a_passing_report_for_this_pair_and_policy(app) -> None:
    client, backend, _sink, gov, path = app
    path.write_text(POLICY.format(mode="target_only"))
    assert client.post("/admin/policy/reload", headers=auth("oncall")).status_code == 200
    r = client.post("/admin/routes/default/promote", json={"reason": "go"}, headers=auth("release"))
    assert r.status_code == 409 and "not registered" in r.json()["error"]["message"]
    from engine.compat import PairIdentity

    gov.registry.register(PairIdentity(backend.pair_hash, "d", "t", "tok", "tpl", "draft", "target"),
                          actor="test")
    policy = client.app.state.services.policy
    report = GateReport(backend.pair_hash, policy.content_hash, "default", {}, "g.jsonl", "", "now",
                        [], [Check("greedy_equivalence", "pass", 0, 0, "")], True)
    stale = GateReport(backend.pair_hash, "0" * 64, "default", {}, "g.jsonl", "", "now", [], [], True)
    from guardian.audit.writer import AuditWriter

    writer = AuditWriter(gov.db.url.render_as_string(hide_password=False),
                         spool_dir=path.parent / "spool")
    record_gate_result(writer, gov.registry, stale, actor="ci")
    writer.flush()
    r = client.post("/admin/routes/default/promote", json={"reason": "go"}, headers=auth("release"))
    assert r.status_code == 409 and "stale gate report" in r.json()["error"]["message"]
    time.sleep(0.01)  # newest report wins: order by time
    record_gate_result(writer, gov.registry, report, actor="ci")
    writer.close()
    r = client.post("/admin/routes/default/promote", json={"reason": "go"}, headers=auth("release"))
    assert r.status_code == 200, r.text
    assert _served(client)["served_path"] == "speculative"


def test_policy_reload_refuses_an_invalid_file_and_keeps_the_last_good(app) -> None:
    client, _, _, _gov, path = app
    before = client.get("/admin/routes", headers=auth("oncall")).json()["policy_hash"]
    path.write_text(POLICY.format(mode="sideways"))
    r = client.post("/admin/policy/reload", headers=auth("oncall"))
    assert r.status_code == 400
    assert "policy.yaml:5: routes.default.mode" in r.json()["error"]["message"]
    assert client.get("/admin/routes", headers=auth("oncall")).json()["policy_hash"] == before
    path.write_text(POLICY.format(mode="target_only"))
    r = client.post("/admin/policy/reload", headers=auth("oncall"))
    assert r.status_code == 200 and r.json()["policy_hash"] != before
    assert _served(client)["mode"] == "target_only"


@pytest.mark.parametrize("act", ["rollback", "reenable?force=true", "promote"])
def test_a_concurrent_route_change_is_a_409_not_a_server_error(app, monkeypatch, act) -> None:
    from guardian.governance.routestate import RouteStateStore, StateConflict

    client, _backend, _sink, gov, _ = app
    if act == "promote":  # promotion checks the gate report first: give it a passing one
        monkeypatch.setattr("guardian.governance.promotion.speculation_evidence",
                            lambda *a, **k: {})
        monkeypatch.setattr(gov.registry, "get", lambda pair: {"pair_hash": pair})
        monkeypatch.setattr(gov.registry, "set_state", lambda *a, **k: None)
    elif act.startswith("reenable"):  # so does re-enabling
        monkeypatch.setattr("guardian.governance.rollback.speculation_evidence",
                            lambda *a, **k: {})

    def conflict(self, route, mode, **kwargs):
        raise StateConflict(f"route {route!r} changed concurrently; retry")

    monkeypatch.setattr(RouteStateStore, "set_mode", conflict)
    role = "release" if act == "promote" else "oncall"
    r = client.post(f"/admin/routes/default/{act}", json={"reason": "drill"}, headers=auth(role))
    assert r.status_code == 409, r.text
    assert "changed concurrently" in r.json()["error"]["message"]


def test_a_late_verdict_about_a_request_served_before_re_enable_is_not_counted(app) -> None:
    """The flake this fixes: a shadow verdict judged after re-enable about a request served
    before it (still on the broken path) rolled the re-enabled route back again."""
    _client, _backend, _sink, gov, _path = app
    controller = gov.controller
    before = datetime.now(UTC)
    req = RequestEvent(
        request_id="req-old", created_at=before, route="default", mode="speculative",
        served_path="speculative", pair_hash=controller.pair_hash, policy_hash="p",
        endpoint="completions", redaction="full", prompt_text="x", completion_text="y",
        prompt_token_ids=[1], completion_token_ids=[2], finish_reason="length", params={},
        queue_time_s=0, compute_time_s=0.1, time_to_first_token_s=0.01,
        time_per_output_token_s=0.01, stats={}, trace=[])
    controller.observe(req)
    controller.reset("default")  # re-enabled now
    late = ShadowEvent(request_id="req-old", created_at=datetime.now(UTC), route="default",
                       pair_hash=controller.pair_hash, policy_hash="p",
                       shadow_path="target_only", verdict="divergence",
                       first_divergence_position=2, margin_at_divergence=5.0, tolerance=0.5,
                       stats={"request_created_at": req.created_at.isoformat()},
                       shadow_compute_time_s=0.1)
    controller.observe(late)
    assert [v.request_id for v in controller.window("default").verdicts] == []
    fresh = ShadowEvent(request_id="req-new", created_at=datetime.now(UTC), route="default",
                        pair_hash=controller.pair_hash, policy_hash="p",
                        shadow_path="target_only", verdict="divergence",
                        first_divergence_position=2, margin_at_divergence=5.0, tolerance=0.5,
                        stats={"request_created_at": datetime.now(UTC).isoformat()},
                        shadow_compute_time_s=0.1)
    controller.observe(fresh)  # about a request served after the re-enable: counted
    assert [v.request_id for v in controller.window("default").verdicts] == ["req-new"]


def test_evidence_measured_before_a_re_enable_does_not_roll_the_route_back(app, monkeypatch) -> None:
    """The controller measured a divergence; a re-enable lands before it acts: the rollback
    is refused as stale (compare-and-set on the route's state version), not applied."""
    from guardian.governance import rollback as rb

    client, backend, _sink, gov, _path = app
    assert _served(client)["served_path"] == "speculative"
    window = gov.controller.window("default")
    window.add_verdict("divergence", "req-x", 2, 5.0, 0.0002)
    real = rb.evaluate_triggers

    def re_enabled_meanwhile(*args, **kwargs):  # type: ignore[no-untyped-def]
        out = real(*args, **kwargs)
        gov.store.set_mode("default", "speculative", actor="api-key:oncall", reason="fixed",
                           pair_hash=backend.pair_hash)
        return out

    monkeypatch.setattr(rb, "evaluate_triggers", re_enabled_meanwhile)
    result = gov.controller.evaluate("default")
    assert "divergence" in result.fired and result.action == "state_changed"
    assert gov.store.get("default").mode == "speculative"
