"""`guardian bench telemetry`: the CPU one served request's telemetry costs, side by side.

The serving core's telemetry for one request - its span (`Telemetry.request_span`) and its
metrics (`Telemetry.record_request`: GenAI latency/usage histograms and the spec-decode
counters of a speculative answer) - timed in this process (CPU time, so a busy machine weighs
less) in alternating rounds:

* `span`: the request span alone;
* `metrics, OpenTelemetry SDK`: the span and the metrics recorded through the SDK's
  instruments (exemplars off), as the sidecar did before `guardian.observability.hotmetrics`;
* `metrics, hotmetrics`: the same measurements through the sidecar's own per-request
  instruments (same `/metrics` exposition).
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

import typer


def _measure(case: str, n: int) -> float:
    """Microseconds of CPU per request for `case`."""
    from opentelemetry.exporter.prometheus import PrometheusMetricReader
    from prometheus_client import CollectorRegistry

    from engine.metrics import SpecCounters
    from guardian.backends import BackendResult, Timings
    from guardian.observability.telemetry import Telemetry

    os.environ["OTEL_METRICS_EXEMPLAR_FILTER"] = "always_off"
    telemetry = Telemetry()
    sdk = None
    if case == SDK:
        from opentelemetry.sdk.metrics import AlwaysOffExemplarFilter, MeterProvider

        from guardian.observability.hotmetrics import HotCounter, HotHistogram

        sdk = MeterProvider(metric_readers=[PrometheusMetricReader(registry=CollectorRegistry())],
                            exemplar_filter=AlwaysOffExemplarFilter())
        twins = telemetry.hot.sdk_twins(sdk.get_meter("guardian"))
        for attr, inst in list(vars(telemetry).items()):
            if isinstance(inst, HotCounter | HotHistogram):
                setattr(telemetry, attr, twins[inst.name])
    result = BackendResult([1], [2] * 16, "a", "length", [], True,
                           SpecCounters(proposed=20, judged=16, accepted=12, steps=4), Timings(),
                           {"drafted_per_position": [4, 4, 4, 4],
                            "accepted_per_position": [4, 3, 3, 2]})
    labels = {"route": "default", "pair": "0123456789ab", "mode": "speculative",
              "gen_ai.request.model": "m", "gen_ai.operation.name": "text_completion"}
    metrics = case != "span"
    try:
        t0 = time.process_time()
        for _ in range(n):
            with telemetry.request_span("completions", "m", {"guardian.route": "default"}):
                if metrics:
                    telemetry.record_request(labels, duration_s=0.01, ttft_s=0.005,
                                             tpot_s=0.001, prompt_tokens=3,
                                             completion_tokens=16, result=result,
                                             speculative=True)
        return (time.process_time() - t0) / n * 1e6
    finally:
        telemetry.shutdown()
        if sdk is not None:
            sdk.shutdown()


SDK, HOT = "metrics, OpenTelemetry SDK", "metrics, hotmetrics"


def cli(requests: int = typer.Option(20000, min=100, help="Requests per case and round."),
        rounds: int = typer.Option(3, min=1, help="Alternations of the cases."),
        json_path: Path | None = typer.Option(None, "--json", help="Write the results here."),
        ) -> None:
    """CPU per served request of the sidecar's telemetry (span; metrics through the
    OpenTelemetry SDK vs the sidecar's own instruments), cases alternating in one process."""
    saved = os.environ.get("OTEL_METRICS_EXEMPLAR_FILTER")
    cases = ["span", SDK, HOT]
    out: dict[str, list[float]] = {c: [] for c in cases}
    try:
        for _ in range(rounds):
            for case in cases:
                out[case].append(round(_measure(case, requests), 1))
    finally:
        if saved is None:
            os.environ.pop("OTEL_METRICS_EXEMPLAR_FILTER", None)
        else:
            os.environ["OTEL_METRICS_EXEMPLAR_FILTER"] = saved
    for case in cases:
        typer.echo(f"{case:<28} " + ", ".join(f"{v:.1f}" for v in out[case])
                   + " us CPU per request")
    sdk, hot = sorted(out[SDK]), sorted(out[HOT])
    ratio = hot[len(hot) // 2] / sdk[len(sdk) // 2]
    typer.echo(f"hotmetrics / OpenTelemetry SDK, span included (medians): {ratio:.2f}")
    result: dict[str, Any] = {"benchmark": "telemetry", "requests": requests,
                              "us_cpu_per_request": out, "hot_over_sdk": round(ratio, 3)}
    if json_path:
        json_path.write_text(json.dumps(result, indent=2))
        typer.echo(f"wrote {json_path}")


__all__ = ["cli"]
