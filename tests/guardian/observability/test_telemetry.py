"""Telemetry: GenAI-convention metrics with their bucket advice, speculative counters
labelled by route/pair/mode, and one trace per request with draft/verify/shadow children."""

from __future__ import annotations

import re
import time

from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from guardian.audit.events import ShadowEvent
from guardian.observability.telemetry import DURATION_BUCKETS, TTFT_BUCKETS, Telemetry
from tests.support.api import auth, policy

BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 8, "temperature": 0}


def _metrics(client) -> str:
    return client.get("/metrics", headers=auth("oncall")).text


def test_genai_metrics_use_the_convention_buckets(make_client) -> None:
    client = make_client(policy(mode="speculative"))
    client.post("/v1/completions", json=BODY, headers=auth())
    text = _metrics(client)
    for le in DURATION_BUCKETS:
        assert re.search(rf'gen_ai_server_request_duration_seconds_bucket{{[^}}]*le="{le}"', text)
    for le in TTFT_BUCKETS:
        assert re.search(rf'gen_ai_server_time_to_first_token_seconds_bucket{{[^}}]*le="{le}"', text)
    assert "gen_ai_server_time_per_output_token_seconds_count" in text
    assert 'gen_ai_token_type="output"' in text and 'gen_ai_token_type="input"' in text


def test_speculative_counters_are_labelled_by_route_pair_mode(make_client) -> None:
    client = make_client(policy(mode="speculative"))
    ext = client.post("/v1/completions", json=BODY, headers=auth()).json()["spec_guardian"]
    text = _metrics(client)
    labels = 'mode="speculative",otel_scope_name="guardian"'

    def value(name: str, extra: str = "") -> float:
        line = next(x for x in text.splitlines() if x.startswith(name + "{") and labels in x
                    and 'route="default"' in x and 'pair="ffffffffffff"' in x and extra in x)
        return float(line.rsplit(" ", 1)[1])

    stats = ext["stats"]
    # spec_decode.draft_tokens counts proposed tokens (vLLM's num_draft_tokens)
    assert value("spec_decode_draft_tokens_total") == stats["proposed_tokens"]
    assert value("spec_decode_judged_tokens_total") == stats["judged_tokens"]
    assert value("spec_decode_accepted_tokens_total") == stats["accepted"]
    assert value("spec_decode_drafts_total") == stats["drafted_per_position"][0]
    assert value("spec_decode_accepted_tokens_per_position_total", 'position="0"') == \
        stats["accepted_per_position"][0]
    assert value("spec_decode_mean_acceptance_length_sum") == \
        stats["mean_acceptance_length"]


def test_verdict_counts(make_client, sink) -> None:
    client = make_client(policy(sample_rate=1.0))
    client.post("/v1/completions", json=BODY, headers=auth())
    deadline = time.monotonic() + 5
    while not sink.of(ShadowEvent) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert any(x.startswith("guardian_shadow_verdicts_total{") and 'verdict="match"' in x
               for x in _metrics(client).splitlines())


def test_one_trace_per_request_with_draft_verify_and_shadow_children(make_client, sink,
                                                                    ) -> None:
    exporter = InMemorySpanExporter()
    client = make_client(policy(mode="speculative", sample_rate=1.0),
                         telemetry=Telemetry(span_exporter=exporter))
    rid = client.post("/v1/completions", json=BODY, headers=auth()).json()["id"]
    deadline = time.monotonic() + 5
    while not sink.of(ShadowEvent, rid) and time.monotonic() < deadline:
        time.sleep(0.01)
    spans = {s.name: s for s in exporter.get_finished_spans()}
    root = spans["text_completion fake-target"]  # GenAI operation name
    assert root.attributes["guardian.request_id"] == rid and root.parent is None
    for child in ("spec_decode.draft", "spec_decode.verify", "guardian.shadow"):
        assert spans[child].context.trace_id == root.context.trace_id, child
        assert spans[child].parent.span_id == root.context.span_id, child
    draft, verify = spans["spec_decode.draft"], spans["spec_decode.verify"]
    assert draft.attributes["guardian.synthetic"] is True
    assert draft.end_time <= verify.start_time  # laid back to back
    assert spans["guardian.shadow"].attributes["guardian.verdict"] == "match"


def test_a_fallback_span_carries_the_reason_code_not_the_exception_text(make_client, backend,
                                                                        ) -> None:
    """Exception text can carry anything (paths, hosts, an upstream's body): the span keeps
    the reason's code; the full text is in the audit record and the client's response."""
    exporter = InMemorySpanExporter()
    client = make_client(policy(mode="speculative"), telemetry=Telemetry(span_exporter=exporter))
    backend.spec_error = RuntimeError("kv cache rollback bug at /srv/secret/path")
    r = client.post("/v1/completions", json=BODY, headers=auth())
    assert r.json()["spec_guardian"]["fallback_reason"].startswith("speculative_error: ")
    root = next(s for s in exporter.get_finished_spans() if s.name.startswith("text_completion"))
    assert root.attributes["guardian.fallback_reason"] == "speculative_error"


def test_otlp_export_when_endpoint_is_set(monkeypatch) -> None:
    """With OTEL_EXPORTER_OTLP_ENDPOINT set, spans and metrics are POSTed to the collector."""
    import http.server
    import threading

    received: list[str] = []
    bodies: list[bytes] = []

    class Collector(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            bodies.append(self.rfile.read(int(self.headers["content-length"] or 0)))
            received.append(self.path)
            self.send_response(200)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), Collector)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{server.server_port}")
    telemetry = Telemetry()
    with telemetry.request_span("completions", "m", {"guardian.route": "default"}):
        telemetry.requests.add(1, {"route": "default"})
    telemetry.shutdown()  # flushes both exporters
    server.shutdown()
    assert "/v1/traces" in received and "/v1/metrics" in received
    # the per-request instruments (guardian.observability.hotmetrics) reach the collector too
    assert any(b"guardian.requests" in b for p, b in zip(received, bodies, strict=True)
               if p == "/v1/metrics")


def test_spec_counters_feed_proposed_judged_and_accepted() -> None:
    from engine.metrics import SpecCounters
    from guardian.backends import BackendResult, Timings

    telemetry = Telemetry()
    result = BackendResult([1], [2, 3, 4], "abc", "length", [], True,
                           SpecCounters(proposed=8, judged=5, accepted=3, steps=2), Timings(),
                           {"drafted_per_position": [2, 2, 2, 2], "accepted_per_position": [2, 1, 0, 0]})
    telemetry.record_speculation({"route": "r", "pair": "p", "mode": "speculative"}, result)
    lines = telemetry.render_prometheus().decode().splitlines()

    def value(name: str) -> float:
        return float(next(x for x in lines if x.startswith(name + "{")).rsplit(" ", 1)[1])

    assert value("spec_decode_draft_tokens_total") == 8  # proposed (vLLM num_draft_tokens)
    assert value("spec_decode_judged_tokens_total") == 5
    assert value("spec_decode_accepted_tokens_total") == 3
    assert value("spec_decode_mean_acceptance_length_sum") == 2.5  # 1 + 3/2
    telemetry.shutdown()


def test_without_an_exporter_no_synthetic_child_spans_are_built() -> None:
    """Nothing would export them: the request span still carries the trace context, the
    draft/verify children are skipped (the proxy path does not pay for what it drops)."""
    from engine.metrics import SpecCounters
    from guardian.backends import BackendResult, Timings

    result = BackendResult([1], [2], "a", "length", [], True, SpecCounters(), Timings())
    quiet, exporting = Telemetry(), Telemetry(span_exporter=InMemorySpanExporter())
    assert not quiet.exports_spans and exporting.exports_spans
    built: list[str] = []
    for telemetry in (quiet, exporting):
        start_span = telemetry.tracer.start_span

        def counting(name, *args, _start=start_span, **kwargs):  # type: ignore[no-untyped-def]
            built.append(name)
            return _start(name, *args, **kwargs)

        telemetry.tracer.start_span = counting  # type: ignore[method-assign]
        with telemetry.request_span("completions", "m", {}) as span:
            telemetry.engine_child_spans(span, time.time_ns(), result, speculative=True)
            assert span.get_span_context().is_valid
        telemetry.shutdown()
    children = [n for n in built if n.startswith("spec_decode")]
    assert children == ["spec_decode.draft", "spec_decode.verify"]  # the exporting one only


def test_exemplars_are_off_unless_otlp_could_send_them(monkeypatch) -> None:
    """The Prometheus reader drops exemplars: sampling them cost a quarter of a request's
    telemetry CPU (guardian bench telemetry). An explicit OTEL_METRICS_EXEMPLAR_FILTER rules."""
    from opentelemetry.sdk.metrics import AlwaysOffExemplarFilter, TraceBasedExemplarFilter

    def exemplar_filter(t: Telemetry) -> object:
        return t.meter_provider._sdk_config.exemplar_filter  # no public accessor

    monkeypatch.delenv("OTEL_EXPORTER_OTLP_ENDPOINT", raising=False)
    monkeypatch.delenv("OTEL_METRICS_EXEMPLAR_FILTER", raising=False)
    t = Telemetry()
    assert isinstance(exemplar_filter(t), AlwaysOffExemplarFilter)
    t.shutdown()
    monkeypatch.setenv("OTEL_METRICS_EXEMPLAR_FILTER", "trace_based")
    t = Telemetry()
    assert isinstance(exemplar_filter(t), TraceBasedExemplarFilter)
    t.shutdown()


def test_the_telemetry_bench_reports_every_case(tmp_path) -> None:
    import json

    from typer.testing import CliRunner

    from guardian.cli import app

    out = CliRunner().invoke(app, ["bench", "telemetry", "--requests", "100", "--rounds", "1",
                                   "--json", str(tmp_path / "t.json")])
    assert out.exit_code == 0, out.output
    data = json.loads((tmp_path / "t.json").read_text())
    assert set(data["us_cpu_per_request"]) == {"span", "metrics, OpenTelemetry SDK",
                                               "metrics, hotmetrics"}
    assert all(v[0] > 0 for v in data["us_cpu_per_request"].values()) and data["hot_over_sdk"] > 0
