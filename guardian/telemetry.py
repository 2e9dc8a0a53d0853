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

Spans: one trace per request (`{operation} {model}` span, GenAI style). The engine does not
emit spans and only reports aggregate draft/verify times, so `spec_decode.draft` and
`spec_decode.verify` are *synthetic* child spans: real start (engine call start) and real
total durations, laid back to back — not per-step intervals. The shadow run is a real span,
a child of the request's span, that starts when the shadow worker picks the job up.
"""

from __future__ import annotations

import logging
import os
import time
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from opentelemetry import trace
from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.sdk.metrics import MeterProvider
from opentelemetry.sdk.metrics.export import MetricReader, PeriodicExportingMetricReader
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanProcessor
from prometheus_client import CollectorRegistry, generate_latest

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
        self.meter_provider = MeterProvider(metric_readers=readers, resource=resource)
        self.tracer_provider = TracerProvider(resource=resource)
        if otlp:
            from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
            self.tracer_provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
            logger.info("OTLP export enabled to %s", otlp)
        if span_exporter is not None:
            from opentelemetry.sdk.trace.export import SimpleSpanProcessor
            self.tracer_provider.add_span_processor(SimpleSpanProcessor(span_exporter))
        if span_processor is not None:
            self.tracer_provider.add_span_processor(span_processor)
        self.tracer = self.tracer_provider.get_tracer("guardian")
        m = self.meter_provider.get_meter("guardian")

        self.request_duration = m.create_histogram(
            "gen_ai.server.request.duration", unit="s",
            description="Generative AI server request duration (queue + compute).",
            explicit_bucket_boundaries_advisory=DURATION_BUCKETS)
        self.time_to_first_token = m.create_histogram(
            "gen_ai.server.time_to_first_token", unit="s",
            description="Time to generate the first token (engine measured).",
            explicit_bucket_boundaries_advisory=TTFT_BUCKETS)
        self.time_per_output_token = m.create_histogram(
            "gen_ai.server.time_per_output_token", unit="s",
            description="Time per output token after the first.",
            explicit_bucket_boundaries_advisory=TPOT_BUCKETS)
        self.token_usage = m.create_histogram(
            "gen_ai.client.token.usage", unit="{token}",
            description="Input and output tokens per request.",
            explicit_bucket_boundaries_advisory=TOKEN_BUCKETS)
        self.drafts = m.create_counter(
            "spec_decode.drafts", unit="{step}", description="Speculative steps that drafted tokens.")
        self.draft_tokens = m.create_counter(
            "spec_decode.draft_tokens", unit="{token}",
            description="Draft tokens proposed (vLLM num_draft_tokens).")
        self.judged_tokens = m.create_counter(
            "spec_decode.judged_tokens", unit="{token}",
            description="Draft positions judged: up to and including each step's first rejection.")
        self.accepted_tokens = m.create_counter(
            "spec_decode.accepted_tokens", unit="{token}", description="Draft tokens accepted.")
        self.accepted_per_position = m.create_counter(
            "spec_decode.accepted_tokens_per_position", unit="{token}",
            description="Draft tokens accepted at each draft position (label position).")
        self.mean_acceptance_length = m.create_histogram(
            "spec_decode.mean_acceptance_length", unit="{token}",
            description="Tokens emitted per target forward (1 + accepted/steps), per request.",
            explicit_bucket_boundaries_advisory=ACCEPTANCE_LENGTH_BUCKETS)
        self.verdicts = m.create_counter(
            "guardian.shadow.verdicts", unit="{verdict}", description="Shadow comparison verdicts.")
        # Issue 11: near ties per greedy verdict (last 500, per route and pair) and speed-only
        # anomalies (exact outputs, slower speculation); both written by guardian.shadow.
        self.near_tie_rate = m.create_gauge(
            "guardian.shadow.near_tie_rate", unit="1",
            description="Share of recent greedy shadow verdicts that were proven near ties.")
        self.speed_anomalies = m.create_counter(
            "guardian.shadow.speed_anomalies", unit="{verdict}",
            description="Shadow comparisons with a speed-only anomaly (label anomaly).")
        self.shadow_drops = m.create_counter(
            "guardian.shadow.drops", unit="{request}",
            description="Sampled shadow work dropped (queue full or preempted by serving).")
        self.fallbacks = m.create_counter(
            "guardian.serving.fallbacks", unit="{request}",
            description="Requests served target-only because speculation failed or was shed.")
        self.requests = m.create_counter(
            "guardian.requests", unit="{request}", description="Requests by route, mode, outcome.")

    # --- recording helpers -------------------------------------------------------------
    def record_request(self, labels: Mapping[str, str], *, duration_s: float, ttft_s: float,
                       tpot_s: float, prompt_tokens: int, completion_tokens: int,
                       result: BackendResult | None, speculative: bool,
                       error_type: str | None = None) -> None:
        """One served request: GenAI latency/usage metrics, then spec-decode counters."""
        attrs = dict(labels)
        if error_type:
            attrs["error.type"] = error_type
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

    # --- spans ---------------------------------------------------------------------------
    @contextmanager
    def request_span(self, operation: str, model: str, attributes: Mapping[str, Any],
                     ) -> Iterator[trace.Span]:
        with self.tracer.start_as_current_span(f"{operation} {model}", kind=trace.SpanKind.SERVER,
                                               attributes={"gen_ai.operation.name": operation,
                                                           "gen_ai.request.model": model,
                                                           **attributes}) as span:
            yield span

    def engine_child_spans(self, parent: trace.Span, start_ns: int, result: BackendResult,
                           speculative: bool) -> None:
        """Synthetic draft/verify child spans from the engine's aggregate timings (see module doc)."""
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

    def shutdown(self) -> None:
        try:
            self.tracer_provider.shutdown()
            self.meter_provider.shutdown()
        except Exception:  # shutdown must never mask the reason the app is stopping
            logger.exception("telemetry shutdown failed")


def now_ns() -> int:
    return time.time_ns()
