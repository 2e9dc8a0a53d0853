"""Audit-store tuning and secrets, read from `GUARDIAN_AUDIT_*` environment variables.

Kept apart from `guardian.settings.Settings` (a shared file) so the audit store can grow knobs
without touching it; built on demand, never at import time.

This is the one place the salt and checkpoint key are resolved — the sidecar, `guardian audit
verify/checkpoint`, `guardian demo` and every `AuditWriter` read them through `AuditSettings`.
Precedence (documented in guardian.settings): constructor argument > environment / `.env` >
the secrets file > (dev mode only) the public development values. Anything else raises
`SecretsError`. Only `AuditSettings.for_server` may create the secrets file, and only for the
embedded quickstart (`guardian.security.secrets.may_generate`).
"""

from __future__ import annotations

import contextvars
import logging
from typing import TYPE_CHECKING, Any

from pydantic import Field, PrivateAttr
from pydantic_settings import BaseSettings, SettingsConfigDict

from guardian.security.secrets import (
    DEV_DEFAULTS,
    MIN_SECRET_CHARS,
    SECRET_VARS,
    SecretsError,
    create_secrets_file,
    may_generate,
    missing_message,
    read_secrets_file,
)

if TYPE_CHECKING:
    from guardian.settings import Settings

logger = logging.getLogger(__name__)

# (settings, may create the secrets file) for the AuditSettings being built by `for_server`;
# unset: the environment's Settings, never create.
_RESOLVING: contextvars.ContextVar[tuple[Settings, bool] | None] = contextvars.ContextVar(
    "guardian_audit_resolving", default=None)


class AuditSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GUARDIAN_AUDIT_", env_file=".env", extra="ignore")

    # Secret key for `hashed` redaction and token hashes. Without it a salted hash of a token
    # id can be brute-forced over the vocabulary (12 of 12 tokens in 0.02 s with a public salt).
    # Empty here = not given: resolved from the secrets file after construction.
    salt: str = Field(default="", description="HMAC key for hashed redaction.")
    checkpoint_key: str = Field(default="", description="HMAC key that signs chain checkpoints.")
    queue_size: int = Field(default=20_000, description="Events held in memory before submit drops.")
    batch_events: int = Field(default=512, description="Seal a batch after this many events ...")
    batch_rows: int = Field(default=16_384, description="... or this many per-token rows ...")
    flush_interval_s: float = Field(default=0.2, description="... or after this long.")
    handoff_batches: int = Field(default=4, description="Sealed batches waiting for the DB before "
                                 "new ones go to the spool (the 'DB is slow' threshold).")
    handoff_wait_s: float = Field(default=0.25, ge=0.0, description="The least the sealer waits "
                                  "for room among those before spooling a batch (it waits twice "
                                  "the DB's recent batch write time, up to 2 s: a burst rides "
                                  "out in memory; a stalled or down DB still spools; 0 = never "
                                  "wait).")
    spool_max_bytes: int = Field(default=2 * 1024**3, description="Spool size cap; beyond it "
                                 "sealed batches are dropped and declared as a gap.")
    db_writers: int = Field(default=3, description="Postgres connections writing batches in "
                            "parallel (SQLite: always 1).")
    retry_interval_s: float = Field(default=1.0, description="How often a down DB is retried.")
    connect_timeout_s: int = Field(default=3, description="Postgres connect timeout / SQLite "
                                   "busy timeout: past it the DB counts as down.")
    statement_timeout_ms: int = Field(default=30_000, description="Postgres statement timeout.")
    partition_days_ahead: int = Field(default=7, description="Daily partitions created ahead.")
    # `audit.durability: sync` routes (guardian.audit.writer, group commit).
    sync_window_s: float = Field(default=0.002, ge=0.0, description="Group-commit window: how "
                                 "long the sealer waits after the first sync event for others "
                                 "to share its fsync.")
    sync_timeout_s: float = Field(default=10.0, gt=0.0, description="A sync request whose audit "
                                  "record is not durable after this long is answered 503.")
    wal_segment_bytes: int = Field(default=16 * 1024**2, description="Write-ahead log segment "
                                   "size; a full segment is removed once its batches are in the "
                                   "DB or the spool.")

    # Where each secret came from ("environment", a file path, "development default").
    _secret_sources: dict[str, str] = PrivateAttr(default_factory=dict)

    @classmethod
    def for_server(cls, settings: Settings, *, announce: bool = True,
                   **overrides: Any) -> AuditSettings:
        """Resolve against `settings` (its home, secrets file, dev mode); for the embedded
        quickstart, create the secrets file on first start. With `announce`, logs where each
        secret came from (pre-flight checks pass False: the app says it once)."""
        token = _RESOLVING.set((settings, True))
        try:
            audit = cls(**overrides)
        finally:
            _RESOLVING.reset(token)
        if announce:
            logger.info("audit secrets: salt from %s, checkpoint key from %s",
                        audit._secret_sources["salt"], audit._secret_sources["checkpoint_key"])
        return audit

    @property
    def secret_sources(self) -> dict[str, str]:
        return dict(self._secret_sources)

    def model_post_init(self, context: Any, /) -> None:
        resolving = _RESOLVING.get()
        if resolving is None:
            from guardian.settings import Settings

            settings, generate = Settings(), False
        else:
            settings, generate = resolving
        self._resolve_secrets(settings, generate=generate)

    def _resolve_secrets(self, settings: Settings, *, generate: bool) -> None:
        sources = {name: "environment" for name in SECRET_VARS if getattr(self, name)}
        missing = [name for name in SECRET_VARS if name not in sources]
        path = settings.resolved_secrets_file
        if missing:
            found = read_secrets_file(path)
            if (not found and generate and not settings.dev_mode
                    and may_generate(settings.database_url, settings.host)):
                found, created = create_secrets_file(path)
                if created:
                    logger.warning("generated audit secrets %s into %s (mode 0600); keep the "
                                   "file: it keys hashed redaction and signs checkpoints",
                                   ", ".join(SECRET_VARS.values()), path)
            for name in missing:
                value = found.get(SECRET_VARS[name])
                if value:
                    setattr(self, name, value)
                    sources[name] = str(path)
            missing = [name for name in SECRET_VARS if name not in sources]
        if missing and settings.dev_mode:
            for name in missing:
                setattr(self, name, DEV_DEFAULTS[name])
                sources[name] = "development default"
            logger.warning("dev mode: public development %s in use; hashed redaction is "
                           "reversible and checkpoints are forgeable",
                           " and ".join(SECRET_VARS[m] for m in missing))
            missing = []
        if missing:
            raise SecretsError(missing_message(missing, path))
        if not settings.dev_mode:
            for name, var in SECRET_VARS.items():
                value = getattr(self, name)
                if value == DEV_DEFAULTS[name]:
                    raise SecretsError(f"{var} (from {sources[name]}) is the public development "
                                       "value; set a secret of your own, or use dev mode")
                if len(value) < MIN_SECRET_CHARS:
                    raise SecretsError(f"{var} (from {sources[name]}) is shorter than "
                                       f"{MIN_SECRET_CHARS} characters; set a longer secret")
        self._secret_sources = sources


class TransparencySettings(BaseSettings):
    """How the audit log presents itself to outsiders (docs/guides/transparency.md): the name
    its checkpoints are signed under, the witnesses that cosign them, and the database roles
    that may read it. Apart from `AuditSettings` because reading them resolves no secrets."""

    model_config = SettingsConfigDict(env_prefix="GUARDIAN_AUDIT_", env_file=".env", extra="ignore")

    log_name: str = Field(default="", description="The key name checkpoints are signed under "
                          "(c2sp.org/tlog-checkpoint origin prefix); empty: "
                          "spec-guardian.local/audit.")
    witness_policy: str = Field(default="", description="A c2sp.org/tlog-policy file: the "
                                "witnesses every signed head is sent to for cosigning; empty: "
                                "none.")
    reader_roles: str = Field(default="", description="Comma-separated database roles, beside "
                              "those granted SELECT, that `guardian audit verify` treats as "
                              "readers of the audit tables.")
