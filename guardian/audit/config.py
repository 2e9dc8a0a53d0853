"""Audit-store tuning and secrets, read from `GUARDIAN_AUDIT_*` environment variables.

Kept apart from `guardian.settings.Settings` (a shared file) so the audit store can grow knobs
without touching it; built on demand, never at import time.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict


class AuditSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GUARDIAN_AUDIT_", env_file=".env", extra="ignore")

    # Secret key for `hashed` redaction and token hashes. Without it a salted hash of a token
    # id can be brute-forced over the vocabulary, so production must set it.
    salt: str = Field(default="spec-guardian-dev-salt",
                      description="HMAC key for hashed redaction (set a secret in production).")
    checkpoint_key: str = Field(default="spec-guardian-dev-checkpoint-key",
                                description="HMAC key that signs chain checkpoints.")
    queue_size: int = Field(default=20_000, description="Events held in memory before submit drops.")
    batch_events: int = Field(default=512, description="Seal a batch after this many events ...")
    batch_rows: int = Field(default=16_384, description="... or this many per-token rows ...")
    flush_interval_s: float = Field(default=0.2, description="... or after this long.")
    handoff_batches: int = Field(default=4, description="Sealed batches waiting for the DB before "
                                 "new ones go to the spool (the 'DB is slow' threshold).")
    spool_max_bytes: int = Field(default=2 * 1024**3, description="Spool size cap; beyond it "
                                 "sealed batches are dropped and declared as a gap.")
    db_writers: int = Field(default=3, description="Postgres connections writing batches in "
                            "parallel (SQLite: always 1).")
    retry_interval_s: float = Field(default=1.0, description="How often a down DB is retried.")
    connect_timeout_s: int = Field(default=3, description="Postgres connect timeout / SQLite "
                                   "busy timeout: past it the DB counts as down.")
    statement_timeout_ms: int = Field(default=30_000, description="Postgres statement timeout.")
    partition_days_ahead: int = Field(default=7, description="Daily partitions created ahead.")
