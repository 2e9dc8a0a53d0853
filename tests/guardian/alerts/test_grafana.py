"""The shipped Grafana dashboard (dashboard/grafana/spec-guardian.json) parses, and every
metric it queries is one the sidecar exports: checked against a live scrape of a governed
app (audit writer on SQLite, speculative traffic, a rollback)."""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families

from guardian.app import build_services, close_services, create_app
from guardian.audit import upgrade
from guardian.audit.writer import AuditWriter
from guardian.governance.runtime import attach
from guardian.policy import load_policy
from tests.support.api import auth, keystore
from tests.support.fakes import FakeBackend

DASHBOARD = Path(__file__).resolve().parents[3] / "dashboard" / "grafana" / "spec-guardian.json"
POLICY = """version: 1
default_route: default
routes:
  default:
    mode: speculative
    shadow: {sample_rate: 1.0}
    gate: {require_report: false}
    triggers: {evaluation_interval_s: 0.05}
"""
# PromQL words that are not metric names
PROMQL = {"sum", "max", "min", "avg", "count", "rate", "increase", "irate", "by", "without",
          "histogram_quantile", "scalar", "label_values", "and", "or", "unless", "on",
          "ignoring", "group_left", "group_right", "bool", "offset", "abs", "clamp_min",
          "topk", "bottomk", "sort", "sort_desc", "absent", "vector", "time", "delta", "deriv"}


def _exprs(dash: dict[str, Any]) -> list[str]:
    out = [t["expr"] for p in dash["panels"] for t in p.get("targets", [])]
    for var in dash["templating"]["list"]:
        q = var.get("query")
        if isinstance(q, dict):
            out.append(q["query"])
    return out


def metric_names(expr: str) -> set[str]:
    expr = re.sub(r'"(?:[^"\\]|\\.)*"', '""', expr)  # strings
    expr = re.sub(r"\{[^}]*\}", "", expr)  # label matchers
    expr = re.sub(r"\[[^\]]*\]", "", expr)  # ranges
    expr = re.sub(r"\b(by|without|on|ignoring)\s*\([^)]*\)", "", expr)  # grouping labels
    expr = re.sub(r"label_values\(\s*([A-Za-z_:][\w:]*)\s*,[^)]*\)", r"\1", expr)
    expr = re.sub(r"\$\w+", "", expr)  # Grafana variables ($__range, $route)
    tokens = set(re.findall(r"(?<![\w.])[A-Za-z_:][\w:]*", expr))
    return {t for t in tokens if t not in PROMQL}


def test_metric_name_extraction() -> None:
    assert metric_names('sum by (route) (rate(a_total{route=~"$route",le="2.5"}[5m])) / '
                        "scalar(sum(rate(vllm:b_total[5m]))) == 1") == {"a_total", "vllm:b_total"}
    assert metric_names("label_values(guardian_route_mode, route)") == {"guardian_route_mode"}


def _exported(tmp_path: Path) -> set[str]:
    url = f"sqlite:///{tmp_path / 'g.db'}"
    upgrade(url)
    path = tmp_path / "policy.yaml"
    path.write_text(POLICY)
    backend = FakeBackend()
    writer = AuditWriter(url, spool_dir=tmp_path / "spool")
    services = build_services(backend, writer, keys=keystore(), policy=load_policy(path))
    gov = attach(services, url=url, policy_file=path, resolver_ttl_s=0.05)
    try:
        client = TestClient(create_app(services=services))
        body = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}
        for _ in range(3):
            assert client.post("/v1/completions", json=body, headers=auth()).status_code == 200
        backend.spec_flip_at = 2  # a divergence: the route rolls back
        client.post("/v1/completions", json=body, headers=auth())
        deadline = time.monotonic() + 10
        while (gov.store.get("default") is None
               or gov.store.get("default").mode != "target_only"):
            assert time.monotonic() < deadline
            time.sleep(0.05)
        text = client.get("/metrics", headers=auth("oncall")).text
    finally:
        close_services(services)
    return {s.name for f in text_string_to_metric_families(text) for s in f.samples}


def test_dashboard_parses_and_queries_only_exported_metrics(tmp_path: Path) -> None:
    dash = json.loads(DASHBOARD.read_text())
    assert dash["uid"] and dash["panels"] and dash["schemaVersion"] >= 30
    ids = [p["id"] for p in dash["panels"]]
    assert len(ids) == len(set(ids))
    for p in dash["panels"]:
        assert p["targets"] and p["datasource"]["uid"] == "${datasource}", p["title"]
        refs = [t["refId"] for t in p["targets"]]
        assert len(refs) == len(set(refs)), p["title"]
    used = set().union(*(metric_names(e) for e in _exprs(dash)))
    exported = _exported(tmp_path)
    assert used - exported == set(), f"not exported by the sidecar: {used - exported}"
    # it covers what on-call needs: modes, canary, rollbacks, triggers, acceptance, audit
    for needed in ("guardian_route_mode", "guardian_canary_weight_percent",
                   "guardian_route_rolled_back", "guardian_governance_rollbacks_total",
                   "vllm:spec_decode_num_accepted_tokens_total", "guardian_audit_db_up",
                   "gen_ai_server_request_duration_seconds_bucket"):
        assert needed in used, needed
