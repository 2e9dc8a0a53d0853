"""guardian.observability.hotmetrics: the per-request instruments render what OpenTelemetry's Prometheus
reader renders for the same instruments and measurements (dashboards, alert rules and
scrapers see no difference), and recording is safe from several threads."""

from __future__ import annotations

import math
import threading

import pytest
from opentelemetry.exporter.prometheus import PrometheusMetricReader
from opentelemetry.sdk.metrics import AlwaysOffExemplarFilter, MeterProvider
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.parser import text_string_to_metric_families

from guardian.observability.hotmetrics import HotCounter, HotMetrics
from guardian.observability.telemetry import Telemetry

LABELS = {"gen_ai.operation.name": "text_completion", "gen_ai.request.model": "m",
          "route": "default", "pair": "p1", "mode": "speculative"}


def _families(text: str) -> dict[str, tuple[str, str, set[tuple[str, tuple, float]]]]:
    out = {}
    for fam in text_string_to_metric_families(text):
        samples = {(s.name, tuple(sorted(s.labels.items())), s.value) for s in fam.samples}
        out[fam.name] = (fam.type, fam.documentation, samples)
    return out


def _measure(instruments: dict[str, object]) -> None:
    """The same measurements into either set of instruments (by instrument name)."""
    for name, inst in instruments.items():
        if hasattr(inst, "record"):
            bounds = HISTOGRAM_BOUNDS[name]
            # below the first bound, on bounds (OpenTelemetry: a bound's own bucket), between
            # bounds, above every bound, ints and floats
            for v in (bounds[0] / 2, bounds[0], bounds[1], (bounds[2] + bounds[3]) / 2,
                      bounds[-1], bounds[-1] * 3, 0, int(bounds[-1])):
                inst.record(v, LABELS)
            inst.record(bounds[1], {**LABELS, "error.type": "TimeoutError"})
            inst.record(bounds[2], {"gen_ai.token.type": "input", **LABELS})  # other key order
        else:
            inst.add(1, LABELS)
            inst.add(5, dict(reversed(list(LABELS.items()))))  # same labels, other order
            inst.add(2, {**LABELS, "position": "3"})
            inst.add(0, {**LABELS, "reason": "shed"})
            inst.add(1)  # no attributes at all
            inst.add(-4, LABELS)  # a counter never goes down: dropped


HISTOGRAM_BOUNDS: dict[str, list[float]] = {}


def test_the_exposition_is_the_opentelemetry_readers() -> None:
    telemetry = Telemetry()
    hot = telemetry.hot
    registry = CollectorRegistry(auto_describe=True)
    provider = MeterProvider(metric_readers=[PrometheusMetricReader(registry=registry)],
                             exemplar_filter=AlwaysOffExemplarFilter())
    otel = hot.sdk_twins(provider.get_meter("guardian"))
    ours = {inst.name: inst for inst in hot._instruments}
    for inst in hot._instruments:
        if not isinstance(inst, HotCounter):
            HISTOGRAM_BOUNDS[inst.name] = inst.bounds
    assert len(ours) >= 12 and HISTOGRAM_BOUNDS  # every per-request instrument is compared
    _measure(otel)
    _measure(ours)
    want = _families(generate_latest(registry).decode())
    want.pop("target_info", None)  # target_info: the resource, rendered by the SDK's reader once
    reg = CollectorRegistry(auto_describe=True)
    reg.register(hot)
    got = _families(generate_latest(reg).decode())
    assert got.keys() == want.keys()
    for name in want:
        assert got[name] == want[name], name
    # and the text itself, line by line (label order, value formatting, HELP/TYPE)
    want_lines = sorted(x for x in generate_latest(registry).decode().splitlines()
                        if "target_info" not in x)
    assert sorted(generate_latest(reg).decode().splitlines()) == want_lines
    provider.shutdown()
    telemetry.shutdown()


def test_a_family_appears_with_its_first_measurement() -> None:
    telemetry = Telemetry()
    text = telemetry.render_prometheus().decode()
    assert "guardian_requests_total" not in text
    telemetry.requests.add(1, {"route": "r"})
    text = telemetry.render_prometheus().decode()
    assert 'guardian_requests_total{otel_scope_name="guardian",otel_scope_schema_url="",' \
           'otel_scope_version="",route="r"} 1.0' in text
    telemetry.shutdown()


def test_recording_from_several_threads_loses_nothing() -> None:
    hot = HotMetrics()
    counter = hot.counter("c", "{request}", "d")
    histogram = hot.histogram("h", "s", "d", buckets=[0.1, 1.0])
    n, threads = 20_000, 4

    def work(i: int) -> None:
        for k in range(n):
            counter.add(1, {"route": f"r{k % 3}"})
            histogram.record(0.5, {"route": f"r{k % 3}"})

    ts = [threading.Thread(target=work, args=(i,)) for i in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    assert sum(v for _, v in counter.rows()) == n * threads
    rows = histogram.rows()
    assert sum(row[1] for _, row in rows) == n * threads  # all in the (0.1, 1.0] bucket
    assert sum(row[-1] for _, row in rows) == pytest.approx(0.5 * n * threads)


def _pair(kind: str, name: str = "guardian.requests", unit: str = "{request}",
          buckets: tuple[float, ...] = (0.1, 1.0)):  # type: ignore[no-untyped-def]
    """One instrument both ways, and a function that renders (ours, the SDK reader's)."""
    hot = HotMetrics("guardian")
    inst = (hot.counter(name, unit, "d") if kind == "counter"
            else hot.histogram(name, unit, "d", buckets))
    reg = CollectorRegistry(auto_describe=True)
    provider = MeterProvider(metric_readers=[PrometheusMetricReader(registry=reg)],
                             exemplar_filter=AlwaysOffExemplarFilter())
    twin = hot.sdk_twins(provider.get_meter("guardian"))[name]
    ours = CollectorRegistry(auto_describe=True)
    ours.register(hot)

    def render() -> tuple[list[str], list[str]]:
        want = sorted(x for x in generate_latest(reg).decode().splitlines()
                      if "target_info" not in x)
        return sorted(generate_latest(ours).decode().splitlines()), want

    return inst, twin, render


def test_past_the_series_limit_both_record_into_one_overflow_series() -> None:
    from guardian.observability.hotmetrics import MAX_SERIES

    hot, sdk, render = _pair("counter")
    for inst in (hot, sdk):
        for i in range(MAX_SERIES + 50):
            inst.add(1, {"route": f"r{i}"})
        inst.add(1, {"route": "r0"})  # a known series still counts as itself
    got, want = render()
    assert got == want
    assert any('otel_metric_overflow="true"' in line and line.endswith(" 50.0") for line in got)


@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0])
def test_amounts_the_sdk_drops_are_dropped(value: float) -> None:
    for kind in ("counter", "histogram"):
        hot, sdk, render = _pair(kind)
        for inst in (hot, sdk):
            if kind == "counter":
                inst.add(1, {"route": "r"})
                inst.add(value, {"route": "r"})
            else:
                inst.record(0.5, {"route": "r"})
                inst.record(value, {"route": "r"})
        got, want = render()
        assert got == want, kind


@pytest.mark.parametrize("attributes", [
    {"route": None}, {"route": 1.5}, {"route": ["a", "b"]}, {"route": math.nan},
    {"route": True}, {"a..b": "v", "x-_y": "w"}, {"otel.scope.name": "caller"}])
def test_attributes_render_as_the_sdk_renders_them(attributes: dict) -> None:
    hot, sdk, render = _pair("counter")
    for inst in (hot, sdk):
        inst.add(1, attributes)
    got, want = render()
    assert got == want


@pytest.mark.parametrize("name,unit", [("guardian.things", "1"), ("guardian.things", "ms"),
                                       ("guardian.things", "By/s"), ("guardian..x_.y", "_x_"),
                                       ("guardian.things", "{request}/s")])
def test_names_and_units_render_as_the_sdk_renders_them(name: str, unit: str) -> None:
    hot, sdk, render = _pair("counter", name, unit)
    for inst in (hot, sdk):
        inst.add(1, {"route": "r"})
    got, want = render()
    assert got == want
