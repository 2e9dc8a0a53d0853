"""The audit writer's `/metrics` series, registered on an app's `Telemetry` meter provider.

Owns the names below (read at scrape time from `AuditWriter.stats()` / `gauges()`, so they
cost nothing on the request path). Rendered by the Prometheus exporter with `_` for `.`
and suffixes (e.g. `guardian_audit_spool_bytes`, `guardian_audit_records_total`,
`guardian_audit_last_durable_write_age_seconds`).

* `guardian.audit.queue_depth`: events accepted and not yet sealed (the async loss window).
* `guardian.audit.spool_bytes` / `guardian.audit.spool_segments`: what waits on local disk
  for the database; `guardian.audit.wal_bytes`: sync routes' write-ahead log not yet
  released.
* `guardian.audit.records{outcome}`: rows written to the DB / spooled / dropped (sealed,
  then lost: spool full) / quarantined (rejected by the DB); `guardian.audit.dropped_events
  {reason}`: events lost before sealing (queue_full, unsealable, crash: declared on restart
  from a killed writer's intent log). Every one of them is declared in an `audit_gap` record.
* `guardian.audit.sync_events` / `guardian.audit.sync_fsyncs`: their ratio is the group
  commit's sharing (`guardian.audit.wal_fsyncs`: those of the WAL);
  `guardian.audit.sync_failed`: sync requests answered 503.
* `guardian.audit.last_durable_write_age` (s): since the last DB commit, spool or WAL fsync;
  `guardian.audit.last_signed_head_age` (s): since the last signed tree head was published
  (from the writer's head publisher; absent without one or before its first head).
* `guardian.audit.db_up`: 1 while writes to the database succeed.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from opentelemetry.metrics import CallbackOptions, Observation

__all__ = ["register_audit_metrics"]


def register_audit_metrics(telemetry: Any, sink: Any) -> bool:
    """Register the series for `sink` when it is an `AuditWriter` (has `gauges`); returns
    whether it did (an in-memory sink has nothing to report)."""
    if not callable(getattr(sink, "gauges", None)) or not callable(getattr(sink, "stats", None)):
        return False
    meter = telemetry.meter_provider.get_meter("guardian.audit")

    def gauge(key: str) -> Callable[[CallbackOptions], Iterable[Observation]]:
        def observe(_options: CallbackOptions) -> Iterable[Observation]:
            value = sink.gauges().get(key)
            return [] if value is None else [Observation(value)]
        return observe

    def counter(*pairs: tuple[str, dict[str, str]]
                ) -> Callable[[CallbackOptions], Iterable[Observation]]:
        def observe(_options: CallbackOptions) -> Iterable[Observation]:
            stats = sink.stats()
            return [Observation(int(stats.get(key, 0)), attrs) for key, attrs in pairs]
        return observe

    for name, key, unit, text in (
            ("guardian.audit.queue_depth", "queue_depth", "{event}",
             "Audit events accepted and not yet sealed."),
            ("guardian.audit.spool_bytes", "spool_bytes", "By",
             "Sealed audit batches waiting on local disk for the database."),
            ("guardian.audit.spool_segments", "spool_segments", "{segment}",
             "Spool segment files waiting for the database."),
            ("guardian.audit.wal_bytes", "wal_bytes", "By",
             "Write-ahead log of sync routes not yet released (in the DB or spool)."),
            ("guardian.audit.last_durable_write_age", "last_durable_age_s", "s",
             "Seconds since the last audit write known durable (DB, spool or WAL)."),
            ("guardian.audit.last_signed_head_age", "last_signed_head_age_s", "s",
             "Seconds since the last signed tree head was published."),
            ("guardian.audit.db_up", "db_up", "1",
             "1 while audit writes to the database succeed, 0 while spooling.")):
        meter.create_observable_gauge(name, callbacks=[gauge(key)], unit=unit, description=text)
    meter.create_observable_counter(
        "guardian.audit.records", unit="{record}",
        description="Audit rows by outcome: written to the DB, spooled, dropped (declared "
                    "lost), quarantined (rejected by the DB).",
        callbacks=[counter(("written_rows", {"outcome": "written"}),
                           ("spooled_rows", {"outcome": "spooled"}),
                           ("lost_rows", {"outcome": "dropped"}),
                           ("quarantined_rows", {"outcome": "quarantined"}))])
    meter.create_observable_counter(
        "guardian.audit.dropped_events", unit="{event}",
        description="Audit events lost before sealing, all declared in audit_gap records.",
        callbacks=[counter(("dropped_events", {"reason": "queue_full"}),
                           ("unsealable_events", {"reason": "unsealable"}),
                           ("recovered_lost_events", {"reason": "crash"}))])
    for name, key, text in (
            ("guardian.audit.sync_events", "sync_events",
             "Events of sync routes made durable before their response."),
            ("guardian.audit.wal_fsyncs", "wal_fsyncs",
             "Write-ahead log fsyncs (group commits) for sync routes."),
            ("guardian.audit.sync_fsyncs", "sync_fsyncs",
             "fsyncs that released sync requests (WAL, or the spool while the DB lags)."),
            ("guardian.audit.sync_failed", "sync_failed",
             "Sync events whose record could not be made durable (answered 503).")):
        meter.create_observable_counter(name, unit="{event}" if "fsync" not in name else "{fsync}",
                                        description=text, callbacks=[counter((key, {}))])
    return True
