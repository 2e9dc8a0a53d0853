"""OpenTelemetry metrics and traces for the sidecar.

Owns the meter/tracer providers (one set per app, never the process-global ones, so tests
and several apps in one process do not collide), the Prometheus text rendering behind
`/metrics`, and the OTLP exporters (enabled when `OTEL_EXPORTER_OTLP_ENDPOINT` is set).

Names: GenAI semantic conventions where they exist (`gen_ai.server.request.duration`,
`gen_ai.server.time_to_first_token`, `gen_ai.server.time_per_output_token`,
`gen_ai.client.token.usage`, with the conventions' bucket advice), and the project's
vocabulary for speculation (`spec_decode.*`) and governance (`guardian.*`). Every
speculative/governance instrument is labelled by route, pair and mode.

Speculative counters come from the backend result's `SpecCounters` (engine.metrics, vLLM
definitions): `spec_decode.draft_tokens` counts draft tokens *proposed* (vLLM's
`num_draft_tokens`), `spec_decode.judged_tokens` the positions judged (up to and including
the first rejection of a step), `spec_decode.accepted_tokens` the accepted ones, so
rate(accepted)/rate(draft_tokens) is vLLM's acceptance rate and rate(accepted)/rate(judged)
is alpha. Per-position acceptance and forward counts come from the raw stats.

vLLM-compatible series (`VLLM_COUNTERS`): the same spec-decode counters under vLLM v1's
names and labels (`vllm:spec_decode_num_drafts_total`, `..._num_draft_tokens_total`,
`..._num_accepted_tokens_total`, `..._num_accepted_tokens_per_pos_total{position}`, plus v0's
`vllm:spec_decode_num_emitted_tokens_total`), labelled `model_name` and `engine` like vLLM's
and also `route`, `pair`, `mode`, so existing vLLM dashboards and alerts work unchanged.
Every request metric also carries `gen_ai.operation.name` (`chat` / `text_completion`) and
`gen_ai.request.model` (`genai_labels`).

Governance gauges: `guardian.observability.gauges` (`GovernanceCollector`,
`audit_health_rows`). Trace context (`TraceContextMiddleware`, `trace_headers`,
`CallerSamplingGuard`): `guardian.observability.tracecontext`. Both re-exported here.


Exporter down: spans wait in the batch processor's bounded queue (2,048 spans; beyond it the
oldest are dropped) and export on its own thread; `shutdown` waits at most
`SHUTDOWN_TIMEOUT_S` in all for a collector that refuses or never answers (the SDK's own
waits add up to a minute, past a pod's termination grace period). The collector URL is
logged without its user info, query or fragment.

Spans: one trace per request (`{operation} {model}` span, GenAI style, operation per the
GenAI conventions: `chat`, `text_completion`). The engine does not
emit spans and only reports aggregate draft/verify times, so `spec_decode.draft` and
`spec_decode.verify` are *synthetic* child spans: real start (engine call start) and real
total durations, laid back to back — not per-step intervals. The shadow run is a real span,
a child of the request's span, that starts when the shadow worker picks the job up.
"""

from __future__ import annotations

import logging
import os
import re
import sys
import threading
import time
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit, urlunsplit

from opentelemetry import trace
from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.sdk.metrics import AlwaysOffExemplarFilter, MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanProcessor
from prometheus_client import CollectorRegistry, Counter, generate_latest

from guardian.observability.gauges import GaugeRows as GaugeRows
from guardian.observability.gauges import GovernanceCollector
from guardian.observability.gauges import audit_health_rows as audit_health_rows
from guardian.observability.hotmetrics import HotMetrics
from guardian.observability.tracecontext import MAX_TRACEPARENT as MAX_TRACEPARENT
from guardian.observability.tracecontext import MAX_TRACESTATE as MAX_TRACESTATE
from guardian.observability.tracecontext import MAX_TRACESTATE_MEMBERS as MAX_TRACESTATE_MEMBERS
from guardian.observability.tracecontext import CallerSamplingGuard, _configured_sampler
from guardian.observability.tracecontext import TraceContextMiddleware as TraceContextMiddleware
from guardian.observability.tracecontext import trace_headers as trace_headers

if TYPE_CHECKING:
    from guardian.backends import BackendResult

logger = logging.getLogger(__name__)

# Bucket advice from the GenAI semantic conventions (metrics spec, v1.30+).
DURATION_BUCKETS = [0.01, 0.02, 0.04, 0.08, 0.16, 0.32, 0.64, 1.28, 2.56, 5.12, 10.24, 20.48,
                    40.96, 81.92]
TTFT_BUCKETS = [0.001, 0.005, 0.01, 0.02, 0.04, 0.06, 0.08, 0.1, 0.25, 0.5, 0.75, 1.0, 2.5,
                5.0, 7.5, 10.0]
TPOT_BUCKETS = [0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.75, 1.0, 2.5]
TOKEN_BUCKETS = [1, 4, 16, 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304,
                 16777216, 67108864]
ACCEPTANCE_LENGTH_BUCKETS = [1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0, 3.5, 4.0, 5.0, 6.0, 8.0, 10.0]

PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"

# GenAI semantic conventions' operation names for the sidecar's endpoints.
GENAI_OPERATIONS = {"chat.completions": "chat", "completions": "text_completion"}
VLLM_LABELS = ("model_name", "engine", "route", "pair", "mode")
# vLLM metric name (without `_total`) -> description
VLLM_COUNTERS = {
    "vllm:spec_decode_num_drafts": "Number of spec decoding drafts (steps that drafted).",
    "vllm:spec_decode_num_draft_tokens": "Number of draft tokens proposed.",
    "vllm:spec_decode_num_accepted_tokens": "Number of accepted draft tokens.",
    "vllm:spec_decode_num_emitted_tokens": "Number of tokens emitted by speculative steps "
                                           "(accepted + one target token per step).",
}
VLLM_PER_POS = "vllm:spec_decode_num_accepted_tokens_per_pos"
MODES = ("speculative", "target_only", "off")
# How long `Telemetry.shutdown` may wait, in all, for the collector (OTLP export on).
SHUTDOWN_TIMEOUT_S = 5.0
# `error.type` values a request's own exception may refine the class name into (its `code`
# or cancel `reason`): code-defined identifiers only, never free text.
_ERROR_CODE = re.compile(r"[a-z][a-z0-9_]{0,47}")


def safe_url(url: str) -> str:
    """`url` fit for a log line: scheme, host, port and path only (no user info - a password -,
    no query or fragment - a token)."""
    try:
        parts = urlsplit(url.strip())
        host = parts.hostname or ""
        if ":" in host:
            host = f"[{host}]"
        netloc = f"{host}:{parts.port}" if parts.port else host
    except ValueError:
        return "<unparsable URL>"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def error_kind(error_type: str, error: BaseException | None = None) -> str:
    """The `error.type` of a failed request: the exception's `code` (a ServingError's, e.g.
    `deadline_exceeded`, `upstream_refused`) or cancel `reason` (`client_disconnected`) where
    it has one, else its class name. The alert rules tell caller-caused outcomes (a deadline
    the caller chose, a client that hung up) from the sidecar's faults by these values.

    Without `error`, the exception being handled (`sys.exc_info`) is used when its class
    name is `error_type` (the serving core records from inside its `except` block)."""
    if error is None:
        handled = sys.exc_info()[1]
        if handled is not None and type(handled).__name__ == error_type:
            error = handled
    if error is not None:
        for attr in ("reason", "code"):
            value = getattr(error, attr, None)
            if isinstance(value, str) and _ERROR_CODE.fullmatch(value):
                return value
    return error_type



def genai_operation(endpoint: str) -> str:
    return GENAI_OPERATIONS.get(endpoint, endpoint)


def genai_labels(endpoint: str, model: str) -> dict[str, str]:
    """GenAI semantic-convention attributes for a request's metrics."""
    return {"gen_ai.operation.name": genai_operation(endpoint), "gen_ai.request.model": model}


class Telemetry:
    """Instruments and tracer of one sidecar app.

    span_exporter: extra exporter for tests (e.g. InMemorySpanExporter), added beside OTLP.
    """

    def __init__(self, service_name: str = "spec-guardian", *,
                 span_exporter: SpanExporter | None = None,
                 span_processor: SpanProcessor | None = None) -> None:
        resource = Resource.create({"service.name": service_name})
        self.registry = CollectorRegistry(auto_describe=True)
        readers: list[MetricReader] = [PrometheusMetricReader(registry=self.registry)]
        otlp = os.environ.get("OTEL_EXPORTER_OTLP_ENDPOINT")
        if otlp:
            # Imported lazily: the OTLP exporter pulls in protobuf and requests.
            from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter
            readers.append(PeriodicExportingMetricReader(OTLPMetricExporter()))
        # Exemplars go out only through OTLP (the Prometheus reader drops them): without it,
        # sampling one per measurement cost ~75 of a request's ~300 us of telemetry CPU
        # (docs/benchmarks/telemetry.md). OTEL_METRICS_EXEMPLAR_FILTER still rules.
        exemplars = (None if otlp or os.environ.get("OTEL_METRICS_EXEMPLAR_FILTER")
                     else AlwaysOffExemplarFilter())
        self.meter_provider = MeterProvider(metric_readers=readers, resource=resource,
                                            exemplar_filter=exemplars)
        # The per-request instruments (guardian.observability.hotmetrics); with OTLP, mirrored to a meter
        # only the OTLP reader reads.
        self.otlp_meter_provider: MeterProvider | None = None
        if otlp:
            from opentelemetry.exporter.otlp.proto.http.metric_exporter import OTLPMetricExporter

            self.otlp_meter_provider = MeterProvider(
                metric_readers=[PeriodicExportingMetricReader(OTLPMetricExporter())],
                resource=resource, exemplar_filter=exemplars)
        hot = HotMetrics("guardian", None if self.otlp_meter_provider is None
                         else self.otlp_meter_provider.get_meter("guardian"))
        self.tracer_provider = TracerProvider(
            resource=resource, sampler=CallerSamplingGuard(_configured_sampler()))
        if otlp:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            self.tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
            logger.info("OTLP export enabled to %s", safe_url(otlp))
        if span_exporter is not None:
            from opentelemetry.sdk.trace.export import SimpleSpanProcessor
            self.tracer_provider.add_span_processor(SimpleSpanProcessor(span_exporter))
        if span_processor is not None:
            self.tracer_provider.add_span_processor(span_processor)
        # Whether any span leaves the process: without an exporter the request span still
        # carries the trace context (traceparent, exemplars, shadow links), but synthetic
        # child spans would be built only to be dropped.
        self.exports_spans = bool(otlp) or span_exporter is not None or span_processor is not None
        self.tracer = self.tracer_provider.get_tracer("guardian")
        m = self.meter_provider.get_meter("guardian")

        self.request_duration = hot.histogram(
            "gen_ai.server.request.duration", unit="s",
            description="Generative AI server request duration (queue + compute).",
            buckets=DURATION_BUCKETS)
        self.time_to_first_token = hot.histogram(
            "gen_ai.server.time_to_first_token", unit="s",
            description="Time to generate the first token (engine measured).",
            buckets=TTFT_BUCKETS)
        self.time_per_output_token = hot.histogram(
            "gen_ai.server.time_per_output_token", unit="s",
            description="Time per output token after the first.",
            buckets=TPOT_BUCKETS)
        self.token_usage = hot.histogram(
            "gen_ai.client.token.usage", unit="{token}",
            description="Input and output tokens per request.",
            buckets=TOKEN_BUCKETS)
        self.drafts = hot.counter(
            "spec_decode.drafts", unit="{step}", description="Speculative steps that drafted tokens.")
        self.draft_tokens = hot.counter(
            "spec_decode.draft_tokens", unit="{token}",
            description="Draft tokens proposed (vLLM num_draft_tokens).")
        self.judged_tokens = hot.counter(
            "spec_decode.judged_tokens", unit="{token}",
            description="Draft positions judged: up to and including each step's first rejection.")
        self.accepted_tokens = hot.counter(
            "spec_decode.accepted_tokens", unit="{token}", description="Draft tokens accepted.")
        self.accepted_per_position = hot.counter(
            "spec_decode.accepted_tokens_per_position", unit="{token}",
            description="Draft tokens accepted at each draft position (label position).")
        self.mean_acceptance_length = hot.histogram(
            "spec_decode.mean_acceptance_length", unit="{token}",
            description="Tokens emitted per target forward (1 + accepted/steps), per request.",
            buckets=ACCEPTANCE_LENGTH_BUCKETS)
        self.verdicts = m.create_counter(
            "guardian.shadow.verdicts", unit="{verdict}", description="Shadow comparison verdicts.")
        # Issue 11: near ties per greedy verdict (last 500, per route and pair) and speed-only
        # anomalies (exact outputs, slower speculation); both written by guardian.equivalence.shadow.
        self.near_tie_rate = m.create_gauge(
            "guardian.shadow.near_tie_rate", unit="1",
            description="Share of recent greedy shadow verdicts that were proven near ties.")
        self.speed_anomalies = m.create_counter(
            "guardian.shadow.speed_anomalies", unit="{verdict}",
            description="Shadow comparisons with a speed-only anomaly (label anomaly).")
        self.shadow_drops = m.create_counter(
            "guardian.shadow.drops", unit="{request}",
            description="Sampled shadow work dropped (queue full or preempted by serving).")
        self.fallbacks = hot.counter(
            "guardian.serving.fallbacks", unit="{request}",
            description="Requests served target-only because speculation failed or was shed.")
        self.requests = hot.counter(
            "guardian.requests", unit="{request}", description="Requests by route, mode, outcome.")
        # vLLM-compatible names (prometheus_client: OTel cannot name a series `vllm:...`).
        self.vllm = {name: Counter(name, doc, VLLM_LABELS, registry=self.registry)
                     for name, doc in VLLM_COUNTERS.items()}
        self._vllm_children: dict[tuple[Counter, tuple[str, ...]], Any] = {}
        self.vllm_per_pos = Counter(VLLM_PER_POS, "Accepted draft tokens at each position.",
                                    (*VLLM_LABELS, "position"), registry=self.registry)
        self.hot = hot
        self.registry.register(hot)
        self.governance = GovernanceCollector()
        self.registry.register(self.governance)

    # --- recording helpers -------------------------------------------------------------
    def record_request(self, labels: Mapping[str, str], *, duration_s: float, ttft_s: float,
                       tpot_s: float, prompt_tokens: int, completion_tokens: int,
                       result: BackendResult | None, speculative: bool,
                       error_type: str | None = None, error: BaseException | None = None,
                       ) -> None:
        """One served request: GenAI latency/usage metrics, then spec-decode counters.
        A failed one: `error_type` (its exception's class name), refined by `error_kind`."""
        attrs = dict(labels)
        if error_type:
            attrs["error.type"] = error_kind(error_type, error)
        self.requests.add(1, attrs)
        self.request_duration.record(duration_s, attrs)
        if error_type:
            return
        self.time_to_first_token.record(ttft_s, attrs)
        if completion_tokens > 1:
            self.time_per_output_token.record(tpot_s, attrs)
        self.token_usage.record(prompt_tokens, {**attrs, "gen_ai.token.type": "input"})
        self.token_usage.record(completion_tokens, {**attrs, "gen_ai.token.type": "output"})
        if speculative and result is not None:
            self.record_speculation(labels, result)

    def record_speculation(self, labels: Mapping[str, str], result: BackendResult) -> None:
        attrs = dict(labels)
        counters, stats = result.counters, result.stats
        drafted = stats.get("drafted_per_position") or []
        self.drafts.add(int(drafted[0]) if drafted else 0, attrs)
        self.draft_tokens.add(counters.proposed, attrs)
        self.judged_tokens.add(counters.judged, attrs)
        self.accepted_tokens.add(counters.accepted, attrs)
        for pos, accepted in enumerate(stats.get("accepted_per_position") or []):
            self.accepted_per_position.add(int(accepted), {**attrs, "position": str(pos)})
        if counters.steps:
            self.mean_acceptance_length.record(counters.mean_acceptance_length, attrs)
        self._record_vllm(labels, counters.steps, counters.proposed, counters.accepted,
                          stats.get("accepted_per_position") or [])

    def _record_vllm(self, labels: Mapping[str, str], steps: int, proposed: int, accepted: int,
                     per_position: Iterable[Any]) -> None:
        values = (labels.get("gen_ai.request.model", ""), "0", labels.get("route", ""),
                  labels.get("pair", ""), labels.get("mode", ""))
        for name, amount in (("vllm:spec_decode_num_drafts", steps),
                             ("vllm:spec_decode_num_draft_tokens", proposed),
                             ("vllm:spec_decode_num_accepted_tokens", accepted),
                             ("vllm:spec_decode_num_emitted_tokens", accepted + steps)):
            self._vllm_child(self.vllm[name], values).inc(max(0, int(amount)))
        for pos, n in enumerate(per_position):
            self._vllm_child(self.vllm_per_pos, (*values, str(pos))).inc(max(0, int(n)))

    def _vllm_child(self, counter: Counter, values: tuple[str, ...]) -> Any:
        """`counter.labels(*values)`, looked up once per label set (prometheus_client
        checks and converts the values at every call)."""
        key = (counter, values)
        child = self._vllm_children.get(key)
        if child is None:
            child = self._vllm_children[key] = counter.labels(*values)
        return child

    # --- spans ---------------------------------------------------------------------------
    @contextmanager
    def request_span(self, operation: str, model: str, attributes: Mapping[str, Any],
                     ) -> Iterator[trace.Span]:
        operation = genai_operation(operation)
        with self.tracer.start_as_current_span(f"{operation} {model}", kind=trace.SpanKind.SERVER,
                                               attributes={"gen_ai.operation.name": operation,
                                                           "gen_ai.request.model": model,
                                                           **attributes}) as span:
            yield span

    def engine_child_spans(self, parent: trace.Span, start_ns: int, result: BackendResult,
                           speculative: bool) -> None:
        """Synthetic draft/verify child spans from the engine's aggregate timings (see module doc)."""
        if result.finish_reason:
            parent.set_attribute("gen_ai.response.finish_reasons", [str(result.finish_reason)])
        if not self.exports_spans:
            return
        ctx = trace.set_span_in_context(parent)
        t = start_ns
        timings, stats = result.timings, result.stats
        phases = [("spec_decode.draft", timings.draft_s)] if speculative else []
        phases.append(("spec_decode.verify" if speculative else "target.forward", timings.verify_s))
        for name, seconds in phases:
            end = t + int(seconds * 1e9)
            span = self.tracer.start_span(name, context=ctx, start_time=t, attributes={
                "guardian.synthetic": True, "guardian.aggregate_seconds": seconds,
                "spec_decode.forwards": int(stats.get("draft_forwards" if name.endswith("draft")
                                                      else "target_forwards") or 0)})
            span.end(end_time=end)
            t = end

    def render_prometheus(self) -> bytes:
        return generate_latest(self.registry)

    def shutdown(self, timeout_s: float = SHUTDOWN_TIMEOUT_S) -> None:
        """Flush and stop both providers, waiting at most `timeout_s` in all: a collector that
        refuses or never answers costs the stopping process no more (what is unsent then is
        dropped, with a warning)."""
        deadline = time.monotonic() + timeout_s

        def traces() -> None:
            try:
                self.tracer_provider.shutdown()
            except Exception:  # shutdown must never mask the reason the app is stopping
                logger.exception("telemetry shutdown failed (traces)")

        # The SDK's span processors take no timeout (each waits up to 30 s): on a thread.
        worker = threading.Thread(target=traces, name="guardian-otel-shutdown", daemon=True)
        worker.start()
        worker.join(max(0.0, deadline - time.monotonic()) * 0.6)
        if worker.is_alive():
            logger.warning("telemetry shutdown: the span exporter did not finish in time; "
                           "unsent spans are dropped")

        def metrics(provider: MeterProvider) -> None:
            try:
                provider.shutdown(timeout_millis=max(1.0, (deadline - time.monotonic()) * 1000))
            except Exception:
                logger.exception("telemetry shutdown failed (metrics)")

        # With OTLP, the per-request instruments' provider exports beside the other one, not
        # after it: each gets what is left of the deadline, not what the other left over.
        mirror = None
        if self.otlp_meter_provider is not None:
            mirror = threading.Thread(target=metrics, args=(self.otlp_meter_provider,),
                                      name="guardian-otel-shutdown-hot", daemon=True)
            mirror.start()
        metrics(self.meter_provider)
        if mirror is not None:
            mirror.join(max(0.0, deadline - time.monotonic()))


def now_ns() -> int:
    return time.time_ns()
