"""Issue #5: a policy FILE saying `mode: speculative` does not bypass the promotion gate.

With an audit database attached (real SQLite, the app's own `attach`), the route serves
speculatively only once a passing gate report exists for this exact pair hash and policy
hash; until then it serves target_only and the decision is audited once.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.audit.writer import AuditWriter
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
    mode: speculative
    shadow: {{sample_rate: 0.0}}
    gate: {{require_report: {require}}}
"""
BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}

Start = Callable[[bool], tuple[TestClient, FakeBackend, ListSink, Governance, Path]]


@pytest.fixture
def start(tmp_path) -> Iterator[Start]:
    opened = []

    def go(require: bool) -> tuple[TestClient, FakeBackend, ListSink, Governance, Path]:
        url = f"sqlite:///{tmp_path / 'g.db'}"
        upgrade(url)
        path = tmp_path / "policy.yaml"
        path.write_text(POLICY.format(require=str(require).lower()))
        backend, sink = FakeBackend(), ListSink()
        services = build_services(backend, sink, keys=keystore(), policy=load_policy(path))
        gov = attach(services, url=url, policy_file=path, resolver_ttl_s=60, start_controller=False)
        opened.append(services)
        return TestClient(create_app(services=services)), backend, sink, gov, tmp_path

    yield go
    for services in opened:
        close_services(services)


def _served(client: TestClient) -> dict:
    r = client.post("/v1/completions", json=BODY, headers=auth())
    assert r.status_code == 200, r.text
    return r.json()["spec_guardian"]


def _record(gov: Governance, tmp: Path, pair_hash: str, policy_hash: str, passed: bool = True) -> None:
    checks = [Check("greedy_equivalence", "pass" if passed else "fail", 0, 0, "")]
    report = GateReport(pair_hash, policy_hash, "default", {}, "g.jsonl", "", "now", [], checks, passed)
    writer = AuditWriter(gov.engine.url.render_as_string(hide_password=False), spool_dir=tmp / "spool")
    record_gate_result(writer, None, report, actor="ci")
    writer.close()
    gov.resolver.refresh()  # what the background loop does every ttl_s


def _decisions(sink: ListSink) -> list:
    return [e for e in sink.events if getattr(e, "kind", None) == "policy_decision"]


def test_file_speculative_without_a_report_serves_target_only_and_is_audited_once(start, caplog) -> None:
    client, backend, sink, _gov, _ = start(True)
    policy_hash = client.app.state.services.core.policy_hash
    with caplog.at_level(logging.WARNING, logger="guardian.governance.routestate"):
        first, second = _served(client), _served(client)
    assert first["served_path"] == second["served_path"] == "target_only"
    assert first["mode"] == "target_only"
    reason = (f"no passing gate report for pair {backend.pair_hash[:12]} under policy "
              f"{policy_hash[:12]}; run guardian gate and guardian route promote")
    [event] = _decisions(sink)  # once per (route, pair, policy), not per request
    assert event.route == "default" and event.pair_hash == backend.pair_hash
    assert event.policy_hash == policy_hash
    assert event.details == {"requested_mode": "speculative", "effective_mode": "target_only",
                             "reason": reason}
    assert [r for r in caplog.records if r.levelno == logging.WARNING and reason in r.getMessage()]
    # the admin view agrees with what is served
    assert client.get("/admin/routes", headers=auth("oncall")).json()["routes"][0]["mode"] == "target_only"


def test_a_passing_report_for_this_pair_and_policy_makes_it_speculative(start) -> None:
    client, backend, sink, gov, tmp = start(True)
    assert _served(client)["served_path"] == "target_only"
    _record(gov, tmp, backend.pair_hash, client.app.state.services.core.policy_hash)
    assert _served(client)["served_path"] == "speculative"
    assert len(_decisions(sink)) == 1


def test_a_report_for_another_policy_or_pair_or_a_failing_one_does_not_count(start) -> None:
    client, backend, sink, gov, tmp = start(True)
    policy_hash = client.app.state.services.core.policy_hash
    _record(gov, tmp, backend.pair_hash, "0" * 64)
    assert _served(client)["served_path"] == "target_only"
    _record(gov, tmp, "e" * 64, policy_hash)  # another pair
    assert _served(client)["served_path"] == "target_only"
    _record(gov, tmp, backend.pair_hash, policy_hash, passed=False)
    assert _served(client)["served_path"] == "target_only"
    assert len(_decisions(sink)) == 1


def test_require_report_false_keeps_the_file_mode(start) -> None:
    client, _, sink, _, _ = start(False)
    assert _served(client)["served_path"] == "speculative"
    assert _decisions(sink) == []


def test_db_route_state_still_overrides_the_file(start) -> None:
    client, backend, _, gov, tmp = start(True)
    assert _served(client)["served_path"] == "target_only"
    policy_hash = client.app.state.services.core.policy_hash
    # a route state saying speculative is no evidence by itself (someone who can write the
    # database could have written it): it serves only with the signed report behind it
    gov.store.set_mode("default", "speculative", actor="test", reason="promoted",
                       pair_hash=backend.pair_hash, policy_hash=policy_hash)
    gov.resolver.refresh()
    assert _served(client)["served_path"] == "target_only"
    # a promotion's route state, with the signed passing report promotion checked
    _record(gov, tmp, backend.pair_hash, policy_hash)
    assert _served(client)["served_path"] == "speculative"
