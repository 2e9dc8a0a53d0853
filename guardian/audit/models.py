"""SQLAlchemy 2.0 models of the audit store and the governance state.

Two kinds of tables:

* Chained, append-only records (`audit_requests`, `audit_tokens`, `audit_shadow`,
  `audit_governance`): every row carries `chain_id`, `seq`, `prev_hash`, `hash`
  (see `guardian.audit.chain`). Producers never write them directly; the audit writer does.
  On Postgres a trigger rejects UPDATE/DELETE (see migrations) and `audit_tokens` is
  RANGE-partitioned by `created_at` (daily) so retention is a partition drop.
* Mutable current state (`model_pairs`, `route_state`, `policy_versions`, `policy_loads`): the registry and
  route modes every replica reads. Changes to them are recorded as governance-log events.

Gate results, rollbacks, re-enables, promotions and policy decisions are rows of the chained
`audit_governance` log distinguished by `kind` (one tamper-evident history, not five tables).

Bookkeeping: `audit_chains` (one row per writer incarnation), `audit_batches` (idempotency key
of each sealed batch: a replayed batch is skipped) and `audit_anchors` (hash of the last pruned
record per chain, so a pruned chain still verifies) and `audit_merkle_prefix` (the Merkle compact
range of what was pruned, so the rest stays provable against signed heads).

The same models and migrations serve Postgres and SQLite; JSON columns are JSONB on Postgres.
Producer-supplied strings are TEXT (no length limits): a too-long route name must never make a
batch unwritable (see the poison-batch handling in `guardian.audit.writer`).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.postgresql import JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

JSONType = sa.JSON().with_variant(JSONB(), "postgresql")
TS = sa.DateTime(timezone=True)
HASH = sa.String(64)  # hex SHA-256

NAMING = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    metadata = sa.MetaData(naming_convention=NAMING)


class ChainedMixin:
    # sort_order: chain columns first, so the primary key (chain_id, seq[, created_at]) is
    # also the index `audit verify` walks.
    chain_id: Mapped[str] = mapped_column(sa.Text, primary_key=True, sort_order=-3)
    seq: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True, sort_order=-2)
    prev_hash: Mapped[str] = mapped_column(HASH, sort_order=-1)
    hash: Mapped[str] = mapped_column(HASH, sort_order=-1)


class AuditRequest(ChainedMixin, Base):
    """One served (or mirrored) request."""

    __tablename__ = "audit_requests"
    __table_args__ = (sa.Index("ix_audit_requests_created_at_route", "created_at", "route"),)

    request_id: Mapped[str] = mapped_column(sa.Text, index=True)
    created_at: Mapped[datetime] = mapped_column(TS)
    route: Mapped[str] = mapped_column(sa.Text)
    mode: Mapped[str] = mapped_column(sa.Text)
    served_path: Mapped[str] = mapped_column(sa.Text)
    endpoint: Mapped[str] = mapped_column(sa.Text)
    pair_hash: Mapped[str] = mapped_column(sa.Text, index=True)
    policy_hash: Mapped[str] = mapped_column(sa.Text)
    redaction: Mapped[str] = mapped_column(sa.Text)
    prompt_text: Mapped[str | None] = mapped_column(sa.Text)
    completion_text: Mapped[str | None] = mapped_column(sa.Text)
    prompt_hash: Mapped[str | None] = mapped_column(HASH)
    completion_hash: Mapped[str | None] = mapped_column(HASH)
    prompt_token_ids: Mapped[Any | None] = mapped_column(JSONType)
    completion_token_ids: Mapped[Any | None] = mapped_column(JSONType)
    prompt_tokens: Mapped[int] = mapped_column(sa.Integer)
    completion_tokens: Mapped[int] = mapped_column(sa.Integer)
    finish_reason: Mapped[str] = mapped_column(sa.Text)
    params: Mapped[Any] = mapped_column(JSONType)
    queue_time_s: Mapped[float] = mapped_column(sa.Float)
    compute_time_s: Mapped[float] = mapped_column(sa.Float)
    time_to_first_token_s: Mapped[float] = mapped_column(sa.Float)
    time_per_output_token_s: Mapped[float] = mapped_column(sa.Float)
    acceptance_rate: Mapped[float | None] = mapped_column(sa.Float)
    mean_acceptance_length: Mapped[float | None] = mapped_column(sa.Float)
    stats: Mapped[Any] = mapped_column(JSONType)
    fallback_reason: Mapped[str | None] = mapped_column(sa.Text)
    replica_id: Mapped[str | None] = mapped_column(sa.Text)
    trace_len: Mapped[int] = mapped_column(sa.Integer)  # its audit_tokens rows: seq+1..seq+trace_len


class AuditToken(ChainedMixin, Base):
    """One emitted token of a request's served path (`source='served'`) or shadow path."""

    __tablename__ = "audit_tokens"
    # Only the primary key is indexed: a second index halved COPY throughput (measured). A
    # request's tokens are found through the request row instead - they are the
    # `trace_len` records that follow it in its chain (see `queries.get_request`).
    __table_args__ = ({"postgresql_partition_by": "RANGE (created_at)"},)

    # Part of the primary key because Postgres requires the partition key in every unique index.
    created_at: Mapped[datetime] = mapped_column(TS, primary_key=True)
    request_id: Mapped[str] = mapped_column(sa.Text)
    source: Mapped[str] = mapped_column(sa.Text)  # served | shadow
    position: Mapped[int] = mapped_column(sa.Integer)
    token_id: Mapped[int | None] = mapped_column(sa.Integer)  # full mode only
    token_hash: Mapped[str | None] = mapped_column(HASH)  # hashed mode only
    origin: Mapped[str] = mapped_column(sa.Text)
    draft_prob: Mapped[float | None] = mapped_column(sa.Float)
    target_prob: Mapped[float] = mapped_column(sa.Float)
    target_margin: Mapped[float] = mapped_column(sa.Float)
    step: Mapped[int] = mapped_column(sa.Integer)
    gamma: Mapped[int] = mapped_column(sa.Integer)


class AuditShadow(ChainedMixin, Base):
    """One shadow comparison (served path vs the other path on the same request)."""

    __tablename__ = "audit_shadow"
    __table_args__ = (sa.Index("ix_audit_shadow_created_at_route", "created_at", "route"),)

    request_id: Mapped[str] = mapped_column(sa.Text, index=True)
    created_at: Mapped[datetime] = mapped_column(TS)
    route: Mapped[str] = mapped_column(sa.Text)
    pair_hash: Mapped[str] = mapped_column(sa.Text)
    policy_hash: Mapped[str] = mapped_column(sa.Text)
    shadow_path: Mapped[str] = mapped_column(sa.Text)
    verdict: Mapped[str] = mapped_column(sa.Text, index=True)
    first_divergence_position: Mapped[int | None] = mapped_column(sa.Integer)
    margin_at_divergence: Mapped[float | None] = mapped_column(sa.Float)
    tolerance: Mapped[float] = mapped_column(sa.Float)
    acceptance_rate: Mapped[float | None] = mapped_column(sa.Float)
    mean_acceptance_length: Mapped[float | None] = mapped_column(sa.Float)
    stats: Mapped[Any] = mapped_column(JSONType)
    shadow_compute_time_s: Mapped[float] = mapped_column(sa.Float)
    trace_len: Mapped[int] = mapped_column(sa.Integer)  # shadow tokens: seq+1..seq+trace_len


class AuditGovernance(ChainedMixin, Base):
    """Governance log: policy decisions, gate results, rollbacks, promotions, prunes, gaps."""

    __tablename__ = "audit_governance"
    __table_args__ = (sa.Index("ix_audit_governance_kind_created_at", "kind", "created_at"),)

    event_id: Mapped[str] = mapped_column(sa.Text, index=True)
    created_at: Mapped[datetime] = mapped_column(TS)
    kind: Mapped[str] = mapped_column(sa.Text)
    route: Mapped[str | None] = mapped_column(sa.Text)
    pair_hash: Mapped[str | None] = mapped_column(sa.Text)
    policy_hash: Mapped[str | None] = mapped_column(sa.Text)
    actor: Mapped[str] = mapped_column(sa.Text)
    details: Mapped[Any] = mapped_column(JSONType)


class AuditChain(Base):
    """One writer incarnation = one hash chain."""

    __tablename__ = "audit_chains"

    chain_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    replica_id: Mapped[str] = mapped_column(sa.Text)
    started_at: Mapped[datetime] = mapped_column(TS)


class AuditBatch(Base):
    """Idempotency key of a sealed batch: replays of a committed batch are skipped."""

    __tablename__ = "audit_batches"

    chain_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    first_seq: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True)
    last_seq: Mapped[int] = mapped_column(sa.BigInteger)
    n_rows: Mapped[int] = mapped_column(sa.Integer)
    written_at: Mapped[datetime] = mapped_column(TS)


class AuditAnchor(Base):
    """Hash of the last record pruned from a chain: verification of the rest starts there."""

    __tablename__ = "audit_anchors"

    chain_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    seq: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True)
    hash: Mapped[str] = mapped_column(HASH)
    cutoff: Mapped[datetime] = mapped_column(TS)
    pruned_at: Mapped[datetime] = mapped_column(TS)
    actor: Mapped[str] = mapped_column(sa.Text)


class AuditMerklePrefix(Base):
    """Compact range (RFC 6962 subtree hashes) of a chain's pruned leaves: with it the
    remaining records stay provable against heads signed before the prune
    (`guardian.audit.merkle`). One row per prune, like `audit_anchors`."""

    __tablename__ = "audit_merkle_prefix"

    chain_id: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    leaves: Mapped[int] = mapped_column(sa.BigInteger, primary_key=True)  # pruned leaf count
    seq: Mapped[int] = mapped_column(sa.BigInteger)  # last pruned seq (= the anchor's)
    peaks: Mapped[Any] = mapped_column(JSONType)  # hex subtree hashes, largest first
    pruned_at: Mapped[datetime] = mapped_column(TS)


class ModelPair(Base):
    """Registry of draft/target pairs and their lifecycle state (mutable current state)."""

    __tablename__ = "model_pairs"

    pair_hash: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    draft_name: Mapped[str] = mapped_column(sa.Text)
    draft_revision: Mapped[str | None] = mapped_column(sa.Text)
    target_name: Mapped[str] = mapped_column(sa.Text)
    target_revision: Mapped[str | None] = mapped_column(sa.Text)
    tokenizer_hash: Mapped[str] = mapped_column(sa.Text)
    chat_template_hash: Mapped[str | None] = mapped_column(sa.Text)
    # registered -> candidate -> gated -> promoted -> retired (owned by the governance module)
    state: Mapped[str] = mapped_column(sa.Text, default="registered")
    details: Mapped[Any | None] = mapped_column(JSONType)
    created_at: Mapped[datetime] = mapped_column(TS)
    updated_at: Mapped[datetime] = mapped_column(TS)
    updated_by: Mapped[str] = mapped_column(sa.Text)


class RouteState(Base):
    """Mode each route is in; lives in the DB so a rollback on one replica reaches all."""

    __tablename__ = "route_state"

    route: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    mode: Mapped[str] = mapped_column(sa.Text)
    pair_hash: Mapped[str | None] = mapped_column(sa.Text)
    policy_hash: Mapped[str | None] = mapped_column(sa.Text)
    reason: Mapped[str | None] = mapped_column(sa.Text)
    # Bumped on every change: compare-and-set keeps two replicas from overwriting each other.
    version: Mapped[int] = mapped_column(sa.Integer, default=1)
    updated_at: Mapped[datetime] = mapped_column(TS)
    updated_by: Mapped[str] = mapped_column(sa.Text)
    # A speculative row's signature (JSON, `reportsig.STATE_FORMAT`) by the act that wrote it;
    # NULL on rows that turn speculation off (they need none) and on rows written before 0005.
    signature: Mapped[str | None] = mapped_column(sa.Text)
    # The canary run a canary start wrote this state for (signed; NULL: another act wrote it).
    canary_run: Mapped[str | None] = mapped_column(sa.Text)


class CanaryState(Base):
    """A route's canary: the share of its traffic served speculatively, step by step
    (`guardian.governance.canary`); in the DB so every replica serves the same share."""

    __tablename__ = "canary_state"

    route: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    status: Mapped[str] = mapped_column(sa.Text)  # running | complete | aborted
    steps: Mapped[str] = mapped_column(sa.Text)  # JSON list of percentages, e.g. [1, 5, 25, 100]
    step_index: Mapped[int] = mapped_column(sa.Integer)
    weight_pct: Mapped[float] = mapped_column(sa.Float)  # 0 once aborted
    pair_hash: Mapped[str | None] = mapped_column(sa.Text)
    reason: Mapped[str | None] = mapped_column(sa.Text)
    version: Mapped[int] = mapped_column(sa.Integer, default=1)  # compare-and-set, as route_state
    step_started_at: Mapped[datetime] = mapped_column(TS)
    updated_at: Mapped[datetime] = mapped_column(TS)
    updated_by: Mapped[str] = mapped_column(sa.Text)
    # The act's signature (JSON, `reportsig.CANARY_FORMAT`); NULL before 0005 or unsigned.
    signature: Mapped[str | None] = mapped_column(sa.Text)
    # The run (one `canary start` and its steps) the row belongs to; NULL before 0005.
    run_id: Mapped[str | None] = mapped_column(sa.Text)


class PolicyVersion(Base):
    """Every policy file ever loaded, by content hash."""

    __tablename__ = "policy_versions"

    policy_hash: Mapped[str] = mapped_column(sa.Text, primary_key=True)
    name: Mapped[str] = mapped_column(sa.Text)
    version: Mapped[str | None] = mapped_column(sa.String(64))
    content: Mapped[str] = mapped_column(sa.Text)
    loaded_at: Mapped[datetime] = mapped_column(TS)
    loaded_by: Mapped[str] = mapped_column(sa.Text)


class PolicyLoad(Base):
    """One load or reload of a policy by a sidecar replica (history of `policy_versions`)."""

    __tablename__ = "policy_loads"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True, autoincrement=True)
    policy_hash: Mapped[str] = mapped_column(sa.Text)
    loaded_at: Mapped[datetime] = mapped_column(TS, index=True)
    loaded_by: Mapped[str] = mapped_column(sa.Text)
    policy_file: Mapped[str | None] = mapped_column(sa.Text)
    previous_policy_hash: Mapped[str | None] = mapped_column(sa.Text)


CHAINED_TABLES: dict[str, sa.Table] = {
    "requests": AuditRequest.__table__,
    "tokens": AuditToken.__table__,
    "shadow": AuditShadow.__table__,
    "governance": AuditGovernance.__table__,
}
