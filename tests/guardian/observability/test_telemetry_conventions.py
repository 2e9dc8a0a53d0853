"""Prometheus / OpenTelemetry conventions: vLLM-named spec-decode counters that agree with
the project's own, GenAI attributes on metrics and spans, and W3C trace context taken from
an incoming `traceparent`."""

from __future__ import annotations

import re

from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from guardian.observability.telemetry import Telemetry, genai_operation
from tests.support.api import auth, policy

BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"


def _samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    out = {}
    for family in text_string_to_metric_families(text):
        for s in family.samples:
            out[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return out


def _total(samples, name: str, **match: str) -> float:  # type: ignore[no-untyped-def]
    return sum(v for (n, labels), v in samples.items()
               if n == name and all(dict(labels).get(k) == val for k, val in match.items()))


def test_vllm_counters_have_vllm_names_and_agree_with_the_project_counters(make_client) -> None:
    client = make_client(policy(mode="speculative"))
    for _ in range(3):
        assert client.post("/v1/completions", json=BODY, headers=auth()).status_code == 200
    text = client.get("/metrics", headers=auth("oncall")).text
    s = _samples(text)  # also proves the exposition parses
    for name in ("vllm:spec_decode_num_drafts_total", "vllm:spec_decode_num_draft_tokens_total",
                 "vllm:spec_decode_num_accepted_tokens_total",
                 "vllm:spec_decode_num_emitted_tokens_total",
                 "vllm:spec_decode_num_accepted_tokens_per_pos_total"):
        assert _total(s, name) > 0, name
    labels = dict(next(k[1] for k in s if k[0] == "vllm:spec_decode_num_drafts_total"))
    assert labels["model_name"] == "fake-target" and labels["engine"] == "0"
    assert labels["route"] == "default" and labels["mode"] == "speculative"
    # the same quantities as the project's own counters (engine.metrics definitions)
    assert _total(s, "vllm:spec_decode_num_draft_tokens_total") == _total(
        s, "spec_decode_draft_tokens_total")
    assert _total(s, "vllm:spec_decode_num_accepted_tokens_total") == _total(
        s, "spec_decode_accepted_tokens_total")
    per_pos = sum(v for (n, _), v in s.items()
                  if n == "vllm:spec_decode_num_accepted_tokens_per_pos_total")
    assert per_pos == _total(s, "vllm:spec_decode_num_accepted_tokens_total")
    assert _total(s, "vllm:spec_decode_num_emitted_tokens_total") == (
        _total(s, "vllm:spec_decode_num_accepted_tokens_total")
        + _total(s, "vllm:spec_decode_num_drafts_total"))


def test_request_metrics_carry_genai_operation_and_model(make_client) -> None:
    client = make_client()
    client.post("/v1/completions", json=BODY, headers=auth())
    client.post("/v1/chat/completions", headers=auth(), json={
        "model": "fake-target", "messages": [{"role": "user", "content": "hi"}], "max_tokens": 4})
    s = _samples(client.get("/metrics", headers=auth("oncall")).text)
    ops = {dict(labels).get("gen_ai_operation_name") for (n, labels) in s
           if n == "guardian_requests_total"}
    assert ops == {"chat", "text_completion"}
    assert _total(s, "guardian_requests_total", gen_ai_request_model="fake-target") == 2
    assert genai_operation("embeddings") == "embeddings"  # unknown endpoints pass through


def test_incoming_traceparent_continues_the_callers_trace(make_client) -> None:
    exporter = InMemorySpanExporter()
    client = make_client(telemetry=Telemetry(span_exporter=exporter))
    header = {"traceparent": f"00-{TRACE_ID}-{PARENT_ID}-01", "tracestate": "vendor=x"}
    assert client.post("/v1/completions", json=BODY,
                       headers={**auth(), **header}).status_code == 200
    root = next(s for s in exporter.get_finished_spans() if s.name == "text_completion fake-target")
    assert format(root.context.trace_id, "032x") == TRACE_ID
    assert root.parent is not None and format(root.parent.span_id, "016x") == PARENT_ID
    assert root.attributes["gen_ai.operation.name"] == "text_completion"
    assert root.attributes["gen_ai.request.model"] == "fake-target"
    assert tuple(root.attributes["gen_ai.response.finish_reasons"]) == ("length",)
    assert root.attributes["gen_ai.usage.output_tokens"] == 8
    # without the header, or with a malformed one: a new trace (never an error)
    exporter.clear()
    for headers in ({}, {"traceparent": "garbage"}):
        assert client.post("/v1/completions", json=BODY,
                           headers={**auth(), **headers}).status_code == 200
    roots = [s for s in exporter.get_finished_spans() if s.name == "text_completion fake-target"]
    assert len(roots) == 2
    assert all(s.parent is None and format(s.context.trace_id, "032x") != TRACE_ID for s in roots)


def test_metrics_exposition_has_no_duplicate_families(make_client) -> None:
    client = make_client(policy(mode="speculative"))
    client.post("/v1/completions", json=BODY, headers=auth())
    text = client.get("/metrics", headers=auth("oncall")).text
    types = re.findall(r"^# TYPE (\S+) ", text, flags=re.M)
    assert len(types) == len(set(types))


def test_audit_health_gauges_defer_to_a_writer_that_exports_its_own() -> None:
    from guardian.observability.gauges import audit_health_rows

    class Health:
        def health(self) -> dict:
            return {"db_up": False, "spool_bytes": 4096, "queued": 3}

    class OwnSeries(Health):
        def gauges(self) -> dict:
            return {}

    rows = {name: value for name, _, _, value in audit_health_rows(Health())()}
    assert rows == {"guardian_audit_db_up": 0.0, "guardian_audit_spool_bytes": 4096.0,
                    "guardian_audit_queue_depth": 3.0}
    assert audit_health_rows(OwnSeries())() == []
    assert audit_health_rows(object())() == []
