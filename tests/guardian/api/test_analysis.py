"""Canary serving and the analysis endpoints in the sidecar app (fake engine, SQLite
governance): the sticky split per request key, auto-widening on a passing analysis, the
rollback that drops it to 0, the Argo Rollouts / Flagger contract — with the documented
AnalysisTemplate's conditions read from the docs (docs/guides/release-managers.md, "Analysis
endpoints") and evaluated against the live endpoint — and the governance gauges on /metrics."""

from __future__ import annotations

import json
import re
import textwrap
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from fastapi.testclient import TestClient

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.governance import canary
from guardian.governance.checks import Check
from guardian.governance.gatereport import GateReport
from guardian.governance.modes import STICKY_HEADER, canary_bucket
from guardian.governance.promotion import record_gate_result
from guardian.governance.runtime import Governance, attach
from guardian.policy import load_policy
from tests.support.api import auth, keystore
from tests.support.docs import doc_section
from tests.support.fakes import FakeBackend, ListSink

DOC_PAGE, DOC_SECTION = "guides/release-managers.md", "Analysis endpoints for Argo Rollouts and Flagger"
POLICY = """version: 1
default_route: default
routes:
  default:
    mode: target_only
    shadow: {sample_rate: 1.0}
    canary: {steps: [25, 100], step_duration_s: 0.4, auto_advance: false}
    triggers:
      cooldown_s: 600
      evaluation_interval_s: 0.05
      acceptance: {min_samples: 8}
      near_tie: {min_samples: 8}
      latency: {enabled: false}
      drift: {enabled: false}
"""
BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}


@pytest.fixture
def app(tmp_path) -> Iterator[tuple[TestClient, FakeBackend, Any, Governance]]:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    upgrade(url)
    path = tmp_path / "policy.yaml"
    path.write_text(POLICY)
    backend, sink = FakeBackend(), ListSink()
    services = build_services(backend, sink, keys=keystore(), policy=load_policy(path))
    gov = attach(services, url=url, policy_file=path, resolver_ttl_s=0.05)
    yield TestClient(create_app(services=services)), backend, services, gov
    close_services(services)


def _start_canary(services: Any, gov: Governance, backend: FakeBackend, spool: Path) -> None:
    policy = services.core.policy
    report = GateReport(backend.pair_hash, policy.content_hash, "default", {}, "g.jsonl", "",
                        "now", [], [Check("greedy_equivalence", "pass", 0, 0, "")], True)
    from guardian.audit.writer import AuditWriter

    writer = AuditWriter(gov.db.url.render_as_string(hide_password=False), spool_dir=spool)
    record_gate_result(writer, None, report, actor="ci")
    writer.close()
    canary.start(gov.store, canary.CanaryStore(gov.db), services.sink, route="default",
                 pair_hash=backend.pair_hash, policy=policy, actor="api-key:release-key",
                 role="release", reason="draft v2")


def _served(client: TestClient, key: str | None = None) -> dict[str, Any]:
    headers = {**auth(), **({STICKY_HEADER: key} if key else {})}
    r = client.post("/v1/completions", json=BODY, headers=headers)
    assert r.status_code == 200, r.text
    return r.json()["spec_guardian"]


def _wait(pred, timeout: float = 10.0, on_timeout=None) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not pred():
        assert time.monotonic() < deadline, f"timed out: {on_timeout() if on_timeout else ''}"
        time.sleep(0.02)


def _analysis(client: TestClient, role: str = "analysis") -> dict[str, Any]:
    r = client.get("/v1/analysis/default", headers=auth(role))
    assert r.status_code == 200, r.text
    return r.json()


# --- the documented Argo Rollouts metrics, evaluated like Argo does --------------------------
def _doc_metrics() -> list[dict[str, Any]]:
    """Every metric with a web provider in the doc's YAML blocks."""
    metrics = []
    for block in re.findall(r"```yaml\n(.*?)```", doc_section(DOC_PAGE, DOC_SECTION), flags=re.S):
        doc = yaml.safe_load(textwrap.dedent(block))
        if isinstance(doc, dict) and doc.get("kind") == "AnalysisTemplate":
            metrics += doc["spec"]["metrics"]
        elif isinstance(doc, list):
            metrics += [m for m in doc if isinstance(m, dict) and "provider" in m]
    return [m for m in metrics if "web" in m.get("provider", {})]


def _json_path(body: dict[str, Any], path: str) -> Any:
    m = re.fullmatch(r"\{\$((?:\.[A-Za-z_][A-Za-z0-9_]*)+)\}", path)
    assert m, f"unsupported jsonPath {path!r}"
    value: Any = body
    for part in m.group(1).split(".")[1:]:
        value = value[part]
    return value


def _condition(expr: str, result: Any) -> bool:
    m = re.fullmatch(r"result\s*(==|!=|>=|<=|>|<)\s*(.+)", expr.strip())
    assert m, f"unsupported condition {expr!r}"
    op, literal = m.group(1), json.loads(m.group(2))
    return {"==": result == literal, "!=": result != literal,
            ">=": result is not None and result >= literal,
            "<=": result is not None and result <= literal,
            ">": result is not None and result > literal,
            "<": result is not None and result < literal}[op]


def argo_phase(client: TestClient, metric: dict[str, Any], route: str = "default") -> str:
    """Fetch the metric's URL from the live app and judge it as Argo's web provider does:
    Successful / Failed, or Inconclusive when neither condition holds."""
    web = metric["provider"]["web"]
    url = web["url"].replace("{{args.route}}", route).split("://", 1)[1]
    url = url[url.index("/"):]
    r = client.get(url, headers=auth("analysis"))
    assert r.status_code == 200, r.text
    result = _json_path(r.json(), web["jsonPath"])
    if _condition(metric["failureCondition"], result):
        return "Failed"
    if _condition(metric["successCondition"], result):
        return "Successful"
    return "Inconclusive"


def test_the_doc_has_the_verdict_metric_and_a_flagger_webhook() -> None:
    names = [m["name"] for m in _doc_metrics()]
    assert "spec-guardian-verdict" in names
    assert "/v1/analysis/default/webhook" in doc_section(DOC_PAGE, DOC_SECTION)


# --- the whole story ---------------------------------------------------------------------------
def test_canary_split_widening_analysis_and_rollback(app, tmp_path) -> None:  # type: ignore[no-untyped-def]
    client, backend, services, gov = app
    verdict = next(m for m in _doc_metrics() if m["name"] == "spec-guardian-verdict")
    # Before any speculative traffic: inconclusive, for Argo and for Flagger.
    a = _analysis(client)
    assert a["verdict"] == "inconclusive" and a["mode"] == "target_only"
    assert argo_phase(client, verdict) == "Inconclusive"
    assert client.post("/v1/analysis/default/webhook", headers=auth("analysis")).status_code == 425

    _start_canary(services, gov, backend, tmp_path / "spool")
    _wait(lambda: gov.resolver.canary("default") is not None)
    # The split: exactly the keys whose bucket falls inside 25 % are served speculatively,
    # and they stay there (sticky).
    keys = [f"user-{i}" for i in range(40)]
    paths = {k: _served(client, k)["served_path"] for k in keys}
    expected = {k: "speculative" if canary_bucket("default", f"h:{k}") < 25 else "target_only"
                for k in keys}
    assert paths == expected
    assert 3 <= list(paths.values()).count("speculative") <= 20
    assert {k: _served(client, k)["served_path"] for k in keys[:10]} == {
        k: expected[k] for k in keys[:10]}
    metrics = client.get("/metrics", headers=auth("oncall")).text
    assert 'guardian_canary_weight_percent{route="default"} 25.0' in metrics
    assert 'guardian_route_mode{mode="speculative",route="default"} 1.0' in metrics
    assert "vllm:spec_decode_num_accepted_tokens_total{" in metrics

    # Enough speculative evidence: the analysis passes (Argo: Successful; Flagger: 200).
    _wait(lambda: _analysis(client)["verdict"] == "pass", on_timeout=lambda: _analysis(client))
    a = _analysis(client)
    assert a["canary_weight_pct"] == 25.0 and a["checks"]["acceptance"]["outcome"] == "pass"
    assert argo_phase(client, verdict) == "Successful"
    assert client.post("/v1/analysis/default/webhook", headers=auth("analysis")).status_code == 200
    alpha = next(m for m in _doc_metrics() if m["name"] == "spec-guardian-alpha")
    assert argo_phase(client, alpha) == "Successful"

    # auto_advance on (hot-swapped policy): after a whole passing step it widens to 100 %.
    services.core.policy = services.core.policy.model_copy(update={"routes": {
        "default": services.core.policy.route("default").model_copy(update={
            "canary": services.core.policy.route("default").canary.model_copy(
                update={"auto_advance": True})})}})
    _wait(lambda: canary.CanaryStore(gov.db).get("default").status == "complete")
    row = canary.CanaryStore(gov.db).get("default")
    assert row.weight_pct == 100 and row.updated_by == canary.ANALYSIS_ACTOR
    _wait(lambda: all(_served(client, k)["served_path"] == "speculative" for k in keys[:8]))

    # Start a second canary after completion is refused? No: a completed one may be restarted
    # only through a new start; here, a divergence rolls the route back instead.
    backend.spec_flip_at = 2
    _served(client, "user-0")
    _wait(lambda: gov.store.get("default").mode == "target_only")
    a = _analysis(client)
    assert a["verdict"] == "fail" and a["rolled_back"]
    assert argo_phase(client, verdict) == "Failed"
    r = client.post("/v1/analysis/default/webhook", headers=auth("analysis"))
    assert r.status_code == 412 and r.json()["error"]["code"] == "fail"
    assert r.json()["analysis"]["rolled_back"] is True
    # The gauges read the resolver's view of the route, which follows the store a moment
    # later: wait for them rather than read them once.
    def metrics() -> str:
        return client.get("/metrics", headers=auth("oncall")).text

    _wait(lambda: 'guardian_route_rolled_back{route="default"} 1.0' in metrics()
          and 'guardian_canary_weight_percent{route="default"} 0.0' in metrics(),
          timeout=5.0, on_timeout=metrics)
    events = [e for e in services.sink.events if getattr(e, "kind", None) == "canary"]
    assert [e.details["action"] for e in events] == ["start", "complete"]


def test_a_rollback_during_a_canary_aborts_it(app, tmp_path) -> None:  # type: ignore[no-untyped-def]
    client, backend, services, gov = app
    _start_canary(services, gov, backend, tmp_path / "spool")
    _wait(lambda: gov.resolver.canary("default") is not None)
    key = next(f"u{i}" for i in range(200) if canary_bucket("default", f"h:u{i}") < 25)
    backend.spec_flip_at = 2
    assert _served(client, key)["served_path"] == "speculative"
    _wait(lambda: canary.CanaryStore(gov.db).get("default").status == "aborted")
    row = canary.CanaryStore(gov.db).get("default")
    assert row.weight_pct == 0 and row.updated_by == "trigger:divergence"
    # Replicas see the abort on their next state refresh (~0.5 s), this one included: the
    # next requests go target-only from then on (read once, CI caught it before the refresh).
    _wait(lambda: _served(client, key)["served_path"] == "target_only")
    _wait(lambda: _analysis(client, "release")["canary"]["status"] == "aborted")
    assert _analysis(client, "release")["verdict"] == "fail"
    _wait(lambda: 'guardian_canary_step{route="default"} -1.0'
          in client.get("/metrics", headers=auth("oncall")).text)


def test_analysis_roles_and_errors(app) -> None:  # type: ignore[no-untyped-def]
    client, *_ = app
    for role in ("inference", "mirror", "compliance"):
        r = client.get("/v1/analysis/default", headers=auth(role))
        assert r.status_code == 403 and r.json()["error"]["code"] == "insufficient_role"
    for role in ("analysis", "oncall", "release", "admin"):
        assert client.get("/v1/analysis/default", headers=auth(role)).status_code == 200
    # the analysis key reads verdicts only: no traffic, no metrics, no route changes
    assert client.post("/v1/completions", json=BODY, headers=auth("analysis")).status_code == 403
    assert client.get("/metrics", headers=auth("analysis")).status_code == 403
    assert client.post("/admin/routes/default/rollback", json={"reason": "x"},
                       headers=auth("analysis")).status_code == 403
    r = client.get("/v1/analysis/nope", headers=auth("analysis"))
    assert r.status_code == 404 and r.json()["error"]["code"] == "route_not_found"
    assert client.get("/v1/analysis/default").status_code == 401


def test_analysis_without_governance_is_a_clear_404() -> None:
    services = build_services(FakeBackend(), ListSink(), keys=keystore())
    try:
        client = TestClient(create_app(services=services))
        r = client.get("/v1/analysis/default", headers=auth("analysis"))
        assert r.status_code == 404 and r.json()["error"]["code"] == "no_governance"
    finally:
        close_services(services)
