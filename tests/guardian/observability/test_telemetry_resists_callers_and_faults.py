"""The observability surface under attack and under faults, through the real app (fake
backend): trace headers from any caller, sampling a caller cannot steer, label sets a caller
cannot grow, no secrets in logs, a bounded shutdown with the collector down, and
`error.type` values that tell the caller's doing from the sidecar's faults."""

from __future__ import annotations

import logging
import socket
import time

import pytest
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from prometheus_client.parser import text_string_to_metric_families

from guardian.observability import telemetry as tel
from guardian.observability.telemetry import Telemetry
from tests.support.api import auth, policy
from tests.support.fakes import FakeBackend

BODY = {"model": "fake-target", "prompt": "hello", "max_tokens": 4, "temperature": 0}
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT = f"00-{TRACE_ID}-00f067aa0ba902b7-01"


def _request_spans(exporter: InMemorySpanExporter) -> list:
    return [s for s in exporter.get_finished_spans() if s.name.startswith("text_completion")]


# --- sampling ------------------------------------------------------------------------------------
def test_a_caller_cannot_force_sampling_past_the_configured_ratio(make_client,
                                                                  monkeypatch) -> None:
    """Operator samples 0 % of traces; a caller sends sampled parents, with trace ids whose
    low bits pass any `traceidratio` threshold. Before: every one of its requests was
    exported (ParentBased honours the remote sampled flag). Now: none."""
    monkeypatch.setenv("OTEL_TRACES_SAMPLER", "parentbased_traceidratio")
    monkeypatch.setenv("OTEL_TRACES_SAMPLER_ARG", "0.0")
    exporter = InMemorySpanExporter()
    client = make_client(policy(), telemetry=Telemetry(span_exporter=exporter))
    for i in range(20):
        parent = f"00-{i + 1:032x}-00f067aa0ba902b7-01"
        assert client.post("/v1/completions", json=BODY,
                           headers={**auth(), "traceparent": parent}).status_code == 200
    assert _request_spans(exporter) == []
    # the ratio itself samples non-remote traces as configured (here: none either)
    client.post("/v1/completions", json=BODY, headers=auth())
    assert _request_spans(exporter) == []


def test_a_caller_cannot_hide_its_requests_with_an_unsampled_parent(make_client) -> None:
    """Default sampler (always on): a request whose caller says `not sampled` is traced
    all the same, in the caller's trace, with the caller's tracestate."""
    exporter = InMemorySpanExporter()
    client = make_client(policy(), telemetry=Telemetry(span_exporter=exporter))
    r = client.post("/v1/completions", json=BODY, headers={
        **auth(), "traceparent": f"00-{TRACE_ID}-00f067aa0ba902b7-00", "tracestate": "v=1"})
    assert r.status_code == 200
    [span] = _request_spans(exporter)
    assert format(span.context.trace_id, "032x") == TRACE_ID and span.parent.is_remote
    assert span.context.trace_flags.sampled and span.context.trace_state.get("v") == "1"


# --- hostile trace headers -----------------------------------------------------------------------
HOSTILE = [
    {"traceparent": PARENT + "-" + "x" * 600},                        # oversized
    {"traceparent": "00-" + "0" * 32 + "-00f067aa0ba902b7-01"},        # all-zero trace id
    {"traceparent": "zz<script>alert(1)</script>"},                    # not a traceparent
    {"traceparent": PARENT, "tracestate": ",".join(f"k{i}=v" for i in range(40))},  # > 32
    {"traceparent": PARENT, "tracestate": "ok=1,BAD KEY=<script>"},     # malformed member
    {"traceparent": PARENT, "tracestate": "k=" + "v" * 250 + ",j=" + "w" * 250 + ",i=1"},
    {"traceparent": PARENT, "tracestate": "a=1,a=2"},                   # duplicate key
    {"traceparent": PARENT, "tracestate": "x=" + "y" * 9000},           # over the SDK's cap
    {"traceparent": PARENT, "baggage": "user=" + "z" * 8000},
]


@pytest.mark.parametrize("path", ["/v1/completions", "/healthz", "/nope"])
def test_hostile_trace_headers_are_dropped_silently(make_client, caplog, path) -> None:
    """Any caller, signed in or not: never a 500, never reflected, and never a log line
    (before: the propagator logged each oversized or malformed value, raw, at WARNING - an
    unauthenticated caller's text in the log, one line per request)."""
    client = make_client(policy())
    caplog.set_level(logging.INFO)
    for headers in HOSTILE:
        if path == "/v1/completions":
            r = client.post(path, json=BODY, headers={**auth(), **headers})
            assert r.status_code == 200, (headers, r.text)
        else:
            r = client.get(path, headers=headers)
            assert r.status_code < 500
        for marker in ("script", "xxxxxxxx", "zzzzzzzz", "yyyyyyyy"):
            assert marker not in r.text
    noisy = [r for r in caplog.records if r.name.startswith("opentelemetry")]
    assert noisy == [], [r.getMessage()[:120] for r in noisy]


def test_trace_headers_keep_valid_context_only() -> None:
    tp = (b"traceparent", PARENT.encode())
    assert tel.trace_headers([tp, (b"tracestate", b"a=1, b=2")]) == {
        "traceparent": PARENT, "tracestate": "a=1,b=2"}
    assert tel.trace_headers([tp, (b"tracestate", b"a=1"), (b"tracestate", b"b=2")])[
        "tracestate"] == "a=1,b=2"  # repeated header lines combine (RFC 9110)
    assert tel.trace_headers([tp, (b"tracestate", b"a=\xff")]) == {"traceparent": PARENT}
    assert tel.trace_headers([tp, tp]) == {}  # two traceparents: no parent
    assert tel.trace_headers([(b"tracestate", b"a=1")]) == {}
    assert tel.trace_headers([(b"TraceParent", PARENT.encode())]) == {"traceparent": PARENT}


# --- label sets a caller cannot grow -------------------------------------------------------------
def _series(client) -> set[tuple[str, tuple]]:  # type: ignore[no-untyped-def]
    text = client.get("/metrics", headers=auth("oncall")).text
    return {(s.name, tuple(sorted(s.labels.items())))
            for f in text_string_to_metric_families(text) for s in f.samples}


def test_callers_cannot_grow_metric_label_sets_or_span_attributes(make_client) -> None:
    """150 requests that vary everything a caller controls (model, route header, user agent,
    stop strings, user, API key, trace ids, deadlines that fail): the set of series and of
    span attribute values stays that of a handful of requests."""
    exporter = InMemorySpanExporter()
    client = make_client(policy(mode="speculative"), telemetry=Telemetry(span_exporter=exporter))

    def burst(n: int, offset: int) -> None:
        for i in range(offset, offset + n):
            headers = {**auth(), "User-Agent": f"ua-{i}", "traceparent":
                       f"00-{i + 1:032x}-{i + 1:016x}-01", "tracestate": f"k{i}=v{i}"}
            if i % 5 == 0:
                headers["X-Guardian-Route"] = f"route-{i}"
            body = {**BODY, "stop": [f"stop-{i}"], "user": f"user-{i}",
                    "model": f"model-{i}" if i % 3 == 0 else "fake-target"}
            assert client.post("/v1/completions", json=body, headers=headers).status_code < 500
            client.post("/v1/completions", json=BODY, headers={"Authorization": f"Bearer k{i}"})
            client.post("/v1/completions", json=body,
                        headers={**headers, "X-Guardian-Deadline-Ms": f"bad-{i}"})

    burst(10, 0)
    first = _series(client)
    burst(140, 10)
    grown = _series(client) - first
    assert grown == set(), sorted(grown)[:5]
    values: dict[str, set[str]] = {}
    for span in exporter.get_finished_spans():
        for k, v in (span.attributes or {}).items():
            values.setdefault(k, set()).add(str(v))
    per_request = {"guardian.request_id", "guardian.aggregate_seconds"}
    for k, v in values.items():
        assert k in per_request or len(v) <= 4, (k, sorted(v)[:5])


# --- secrets -------------------------------------------------------------------------------------
def test_the_collector_url_is_logged_without_credentials(monkeypatch, caplog) -> None:
    """OTEL_EXPORTER_OTLP_ENDPOINT=https://user:password@collector/?token=...: before, the
    INFO line `OTLP export enabled to ...` carried the password and the token."""
    monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT",
                       "http://svc:hunter2@127.0.0.1:9/otlp?api_key=tok3n#frag")
    caplog.set_level(logging.DEBUG, logger="guardian.observability.telemetry")
    telemetry = Telemetry()
    try:
        text = "\n".join(r.getMessage() for r in caplog.records)
        assert "127.0.0.1:9/otlp" in text
        assert "hunter2" not in text and "tok3n" not in text and "svc" not in text
    finally:
        telemetry.shutdown(timeout_s=0.5)
    assert tel.safe_url("https://[::1]:4318/v1") == "https://[::1]:4318/v1"
    assert tel.safe_url("http://a:b@[::1") == "<unparsable URL>"


# --- the collector down ----------------------------------------------------------------------------
@pytest.mark.parametrize("fault", ["refused", "black_hole"])
def test_shutdown_is_bounded_when_the_collector_is_down(monkeypatch, fault) -> None:
    """Before: 37-40 s to stop with spans queued and a collector that refuses or never
    answers (the SDK's span and metric shutdowns wait 30 s each, with retries), past a
    pod's default 30 s grace period. Serving never waits on the exporter either way."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    if fault == "black_hole":
        listener.listen(64)  # connections queue; nothing ever reads or answers
    else:
        listener.close()
    try:
        monkeypatch.setenv("OTEL_EXPORTER_OTLP_ENDPOINT", f"http://127.0.0.1:{port}")
        telemetry = Telemetry()
        t0 = time.perf_counter()
        for _ in range(3000):  # more than the span queue holds: the overflow is dropped
            with telemetry.request_span("completions", "m", {"guardian.route": "default"}):
                telemetry.requests.add(1, {"route": "default"})
        assert time.perf_counter() - t0 < 3.0  # recording never waits on the collector
        t0 = time.perf_counter()
        telemetry.shutdown(timeout_s=1.5)
        assert time.perf_counter() - t0 < 2.5
    finally:
        listener.close()


# --- error.type: the caller's doing vs the sidecar's faults ---------------------------------------
def test_a_callers_own_deadline_is_labelled_as_such(make_client, backend: FakeBackend) -> None:
    """A 5 ms X-Guardian-Deadline-Ms fails every request (504). Before: error_type
    `ServingError`, the same as a server fault, so the errors SLO alert (which now skips
    `deadline_exceeded`) paged on any inference key's say-so."""
    backend.step_s = 0.02
    client = make_client(policy())
    for _ in range(2):
        r = client.post("/v1/completions", json={**BODY, "max_tokens": 20},
                        headers={**auth(), "X-Guardian-Deadline-Ms": "5"})
        assert r.status_code == 504
    errors = {dict(labels).get("error_type") for name, labels in _series(client)
              if name == "guardian_requests_total"}
    assert errors == {"deadline_exceeded"}
