"""Governance gauges of the sidecar's `/metrics`: `GovernanceCollector` (read at scrape time
from in-memory state, never the database) and the audit store's health rows. (Split out of
`guardian.observability.telemetry`, whose `Telemetry` registers one collector per app and
which re-exports these names.)

Governance gauges (`GovernanceCollector`, read at scrape time from in-memory state, never
the database): `guardian_route_mode{route,mode}` (1 for the mode in force),
`guardian_canary_weight_percent{route}` (the share served speculatively: the running canary's
weight, 100 for a speculative route without one, else 0), `guardian_canary_step{route}`,
`guardian_route_rolled_back{route}` (1 while a trigger's rollback is in force),
`guardian_trigger_failing{route,trigger}`, `guardian_trigger_consecutive_failures`,
`guardian_analysis_verdict{route,verdict}` and the audit store's health
(`guardian_audit_db_up`, `guardian_audit_spool_bytes`, `guardian_audit_queue_depth`).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from typing import Any

from prometheus_client.core import GaugeMetricFamily, Metric

logger = logging.getLogger(__name__)

GaugeRows = list[tuple[str, str, dict[str, str], float]]  # (name, help, labels, value)


class GovernanceCollector:
    """Gauges read at scrape time from in-memory sources (see the module docstring).

    Sources are callables returning `GaugeRows`; the rollback controller adds its own
    (routes, canaries, triggers) and the audit sink's health is added by `watch_audit`.
    A failing source is logged and skipped: a scrape never fails for it."""

    def __init__(self) -> None:
        self.sources: list[Callable[[], GaugeRows]] = []

    def add(self, source: Callable[[], GaugeRows]) -> None:
        self.sources.append(source)

    def describe(self) -> list[Metric]:
        return []  # unchecked collector: its series depend on the routes

    def collect(self) -> Iterator[Metric]:
        families: dict[str, GaugeMetricFamily] = {}
        label_names: dict[str, tuple[str, ...]] = {}
        for source in list(self.sources):
            try:
                rows = source()
            except Exception:
                logger.exception("governance gauge source failed")
                continue
            for name, doc, labels, value in rows:
                keys = tuple(sorted(labels))
                if name not in families:
                    families[name] = GaugeMetricFamily(name, doc, labels=keys)
                    label_names[name] = keys
                if label_names[name] != keys:
                    continue  # a family keeps one label set
                families[name].add_metric([labels[k] for k in keys], value)
        yield from families.values()


def audit_health_rows(sink: Any) -> Callable[[], GaugeRows]:
    """Gauges of the audit store's health (`sink.health()`, probed at most every 5 s), for
    writers that do not export their own `guardian_audit_*` series."""

    def rows() -> GaugeRows:
        health = getattr(sink, "health", None)
        if health is None or callable(getattr(sink, "gauges", None)):
            # A writer with `gauges()` exports these very names itself, through the meter
            # (guardian.audit.metrics): exporting them twice would break the exposition.
            return []
        h = health()
        return [("guardian_audit_db_up", "1 while the audit database accepts writes.", {},
                 1.0 if h.get("db_up") else 0.0),
                ("guardian_audit_spool_bytes", "Audit records spooled on local disk, in bytes "
                 "(waiting for the database).", {}, float(h.get("spool_bytes") or 0)),
                ("guardian_audit_queue_depth", "Audit events queued in memory for the writer.",
                 {}, float(h.get("queued") or 0))]

    return rows
