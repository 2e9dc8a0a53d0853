"""The per-request instruments: counters and explicit-bucket histograms recorded on the
serving path, rendered at scrape time in the exposition OpenTelemetry's Prometheus reader
gives the same instruments.

Why not the OpenTelemetry SDK here: one measurement through it (attribute cleaning and
hashing, a Measurement object, the reader's storage) cost ~13 us of the event loop's time,
and a speculative request makes about fifteen. Here a measurement is a dict lookup and a few
additions under a lock; the labels are sanitised and the families built only when `/metrics`
is scraped: a third of the SDK's CPU per request (`guardian bench telemetry`;
docs/benchmarks/telemetry.md).

The exposition is the one the SDK's reader produces (`test_hotmetrics`'s parity tests
render both from the same measurements, edge cases included): names, units and label keys
through the reader's own rules (`s` -> `_seconds`, `{token}` dropped, `_total` on counters),
label values that are not strings as JSON, the instrumentation scope's `otel_scope_*`
labels, every row of a family carrying the family's whole label set (missing ones empty),
buckets as OpenTelemetry counts them (a value on a bound falls in that bound's bucket), and
what the SDK drops dropped too (negative or non-finite amounts and values).

OTLP: when metrics also go to a collector, each instrument forwards its measurements to an
OpenTelemetry instrument of a meter that only the OTLP reader reads (`mirror`), so the
collector gets them and `/metrics` does not show them twice.
"""

from __future__ import annotations

import json
import math
import threading
from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from typing import Any, TypeVar

# The reader's own naming rules (a private module of the exporter this project depends on:
# a release that moves it fails at import, in the tests, not silently in the exposition).
from opentelemetry.exporter.prometheus._mapping import (
    map_unit,
    sanitize_attribute,
    sanitize_full_name,
)
from prometheus_client.core import CounterMetricFamily, HistogramMetricFamily, Metric

__all__ = ["HotCounter", "HotHistogram", "HotMetrics"]


def _text(value: Any) -> str:
    """A label value as the SDK's reader writes it (not a string: its JSON)."""
    return value if isinstance(value, str) else json.dumps(value, default=str)


_Key = tuple[tuple[str, Any], ...]

# The SDK's default cardinality limit: past this many label sets an instrument records
# into one overflow series (the labels come from bounded sets - routes, pairs, modes, error
# kinds - so this only guards against a bug that lets a caller's value through).
MAX_SERIES = 2000
_OVERFLOW: _Key = (("otel.metric.overflow", "true"),)


class _Instrument:
    def __init__(self, owner: HotMetrics, name: str, unit: str, description: str) -> None:
        self.name, self.unit, self.description = name, unit, description
        self._lock = owner.lock
        self._mirror: Any = None  # the OTLP-only OpenTelemetry instrument, when there is one

    @staticmethod
    def _key(attributes: Mapping[str, Any] | None) -> _Key:
        # Values keep their type here (rendered at scrape time): the callers pass strings.
        if not attributes:
            return ()
        key = tuple(sorted(attributes.items()))
        try:
            hash(key)
        except TypeError:  # a sequence value, as OpenTelemetry attributes may hold
            key = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in key)
        return key

    @staticmethod
    def _bounded(values: dict[_Key, Any], key: _Key) -> _Key:
        return key if key in values or len(values) < MAX_SERIES else _OVERFLOW


class HotCounter(_Instrument):
    """A monotonic counter; `add` as OpenTelemetry's Counter.add (negative amounts ignored,
    as the SDK drops them)."""

    def __init__(self, owner: HotMetrics, name: str, unit: str, description: str) -> None:
        super().__init__(owner, name, unit, description)
        self._values: dict[_Key, float] = {}

    def add(self, amount: float, attributes: Mapping[str, Any] | None = None) -> None:
        if not 0 <= amount < math.inf:  # negative or not a number: the SDK drops it too
            return
        key = self._key(attributes)
        with self._lock:
            key = self._bounded(self._values, key)
            self._values[key] = self._values.get(key, 0) + amount
        if self._mirror is not None:
            self._mirror.add(amount, attributes)

    def rows(self) -> list[tuple[_Key, float]]:
        with self._lock:
            return list(self._values.items())


class HotHistogram(_Instrument):
    """An explicit-bucket histogram; `record` as OpenTelemetry's Histogram.record."""

    def __init__(self, owner: HotMetrics, name: str, unit: str, description: str,
                 buckets: Sequence[float]) -> None:
        super().__init__(owner, name, unit, description)
        self.bounds = list(buckets)
        # key -> [count per bucket (the last one: above every bound)..., sum]
        self._values: dict[_Key, list[float]] = {}

    def record(self, value: float, attributes: Mapping[str, Any] | None = None) -> None:
        if not 0 <= value < math.inf:  # as the SDK: a negative or non-finite value is dropped
            return
        key = self._key(attributes)
        i = bisect_left(self.bounds, value)
        with self._lock:
            key = self._bounded(self._values, key)
            row = self._values.get(key)
            if row is None:
                row = self._values[key] = [0] * (len(self.bounds) + 1) + [0.0]
            row[i] += 1
            row[-1] += value
        if self._mirror is not None:
            self._mirror.record(value, attributes)

    def rows(self) -> list[tuple[_Key, list[float]]]:
        with self._lock:
            return [(k, list(v)) for k, v in self._values.items()]


_I = TypeVar("_I", HotCounter, HotHistogram)


def _sdk_twin(meter: Any, inst: HotCounter | HotHistogram) -> Any:
    """`inst` as an OpenTelemetry instrument of `meter` (name, unit, description, buckets)."""
    if isinstance(inst, HotCounter):
        return meter.create_counter(inst.name, unit=inst.unit, description=inst.description)
    return meter.create_histogram(inst.name, unit=inst.unit, description=inst.description,
                                  explicit_bucket_boundaries_advisory=list(inst.bounds))


class HotMetrics:
    """The per-request instruments of one app and their Prometheus collector (register it
    in the app's registry). `scope`: the instrumentation scope named in `otel_scope_name`."""

    def __init__(self, scope: str = "guardian", mirror_meter: Any = None) -> None:
        self.scope = scope
        self.lock = threading.Lock()  # one for all: a measurement holds it for a few additions
        self._instruments: list[HotCounter | HotHistogram] = []
        self._mirror_meter = mirror_meter

    def counter(self, name: str, unit: str = "", description: str = "") -> HotCounter:
        return self._add(HotCounter(self, name, unit, description))

    def histogram(self, name: str, unit: str = "", description: str = "",
                  buckets: Sequence[float] = ()) -> HotHistogram:
        return self._add(HotHistogram(self, name, unit, description, buckets))

    def _add(self, inst: _I) -> _I:
        if self._mirror_meter is not None:
            inst._mirror = _sdk_twin(self._mirror_meter, inst)
        self._instruments.append(inst)
        return inst

    def sdk_twins(self, meter: Any) -> dict[str, Any]:
        """The same instruments made by an OpenTelemetry `meter`, by name: what the sidecar
        recorded through before (`guardian bench telemetry` compares; the parity test
        renders both)."""
        return {inst.name: _sdk_twin(meter, inst) for inst in self._instruments}

    # --- prometheus_client collector -----------------------------------------------------
    def describe(self) -> list[Metric]:
        return []  # families appear with their first measurement, as the SDK's reader does

    def collect(self) -> Iterator[Metric]:
        scope = (("otel_scope_name", self.scope), ("otel_scope_schema_url", ""),
                 ("otel_scope_version", ""))
        for inst in self._instruments:
            rows = inst.rows()
            if not rows:
                continue
            # Scope first: an attribute of the same name wins, as in the SDK's reader.
            labelled = [({**dict(scope), **{sanitize_attribute(k): _text(v) for k, v in key}},
                         value) for key, value in rows]
            keys = sorted({k for labels, _ in labelled for k in labels})
            kwargs = {"name": sanitize_full_name(inst.name), "documentation": inst.description,
                      "labels": keys, "unit": map_unit(inst.unit)}
            if isinstance(inst, HotCounter):
                family: Metric = CounterMetricFamily(**kwargs)
                for labels, total in labelled:
                    family.add_metric([labels.get(k, "") for k in keys], total)
            else:
                family = HistogramMetricFamily(**kwargs)
                bounds = [str(b) for b in inst.bounds] + ["+Inf"]
                for labels, row in labelled:
                    cumulative, buckets = 0.0, []
                    for le, count in zip(bounds, row[:-1], strict=True):
                        cumulative += count
                        buckets.append((le, cumulative))
                    family.add_metric([labels.get(k, "") for k in keys], buckets,
                                      sum_value=row[-1])
            yield family
