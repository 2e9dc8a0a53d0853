"""Audit store: per-token audit trail, tamper-evident, written off the request path.

Public API (other packages import only these names):

* `open_sink(settings)` -> a started `AuditWriter` (an `AuditSink`) for the configured DB.
* `MemorySink` for tests of producers.
* `upgrade(url)` applies the Alembic migrations (and creates Postgres token partitions).
* read helpers: `guardian.audit.queries`; verification: `guardian.audit.verify`.

Module map: events (contract) -> rows (redaction + hash chain, via chain/redaction) ->
writer (queue, batching, spool) -> store (one idempotent transaction per batch) -> models;
`acts.record_act`: a governance act's record, durable before the act is reported done.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from guardian.audit.memory import MemorySink

if TYPE_CHECKING:
    from guardian.audit.config import AuditSettings
    from guardian.audit.writer import AuditWriter
    from guardian.settings import Settings

__all__ = ["MemorySink", "open_sink", "upgrade"]


def open_sink(settings: Settings | None = None, *,
              audit_settings: AuditSettings | None = None) -> AuditWriter:
    """A started background writer for `settings.resolved_database_url`, spooling under
    `settings.spool_dir`. The schema must already be migrated (`upgrade`)."""
    from guardian.audit.heads import heads_config
    from guardian.audit.writer import AuditWriter, default_replica_id
    from guardian.core.fileio import private_dir
    from guardian.settings import get_settings

    settings = settings or get_settings()
    private_dir(settings.home)
    replica = settings.replica_id or default_replica_id()
    return AuditWriter(settings.resolved_database_url, spool_dir=settings.spool_dir,
                       replica_id=replica, config=audit_settings,
                       heads=heads_config(settings, replica))


def upgrade(url: str, revision: str = "head") -> None:
    """Apply the audit/governance migrations to `url` (idempotent)."""
    from guardian.audit.migrate import upgrade as _upgrade

    _upgrade(url, revision)
