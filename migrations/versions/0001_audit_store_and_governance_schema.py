"""audit store and governance schema

Revision ID: 0001
Revises:
Tables of the audit store (chained, append-only) and the governance state (mutable).
Postgres extras, in this revision because they are part of the contract: `audit_tokens` is
RANGE-partitioned by created_at (daily partitions are created at run time by
`guardian.audit.partitions`), and a trigger makes the four chained tables append-only.

Create Date: 2026-11-22 11:24:26.157924
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CHAINED = ("audit_requests", "audit_tokens", "audit_shadow", "audit_governance")

# Postgres: a trigger, not REVOKE, enforces append-only: REVOKE does not bind the table owner or
# superusers (who the sidecar usually connects as). `guardian audit prune` sets the
# transaction-local GUC guardian.allow_prune to delete expired rows of the non-partitioned
# tables; audit_tokens is pruned by dropping partitions, which fires no row trigger.
PG_FUNCTION = """
CREATE OR REPLACE FUNCTION guardian_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' AND current_setting('guardian.allow_prune', true) = 'on' THEN
        RETURN OLD;
    END IF;
    RAISE EXCEPTION 'audit table % is append-only: % rejected', TG_TABLE_NAME, TG_OP
        USING HINT = 'Records are never edited; use `guardian audit prune` for retention.';
END $$
"""


def _pg_triggers() -> None:
    op.execute(PG_FUNCTION)
    for table in CHAINED:
        op.execute(
            f"CREATE TRIGGER {table}_append_only BEFORE UPDATE OR DELETE ON {table} "
            "FOR EACH ROW EXECUTE FUNCTION guardian_append_only()"
        )
        op.execute(
            f"CREATE TRIGGER {table}_no_truncate BEFORE TRUNCATE ON {table} "
            "FOR EACH STATEMENT EXECUTE FUNCTION guardian_append_only()"
        )


def _sqlite_triggers() -> None:
    # SQLite has no session variables: prune drops and re-creates these triggers inside its
    # own transaction (SQLite DDL is transactional).
    for table in CHAINED:
        for op_name in ("UPDATE", "DELETE"):
            op.execute(
                f"CREATE TRIGGER {table}_no_{op_name.lower()} BEFORE {op_name} ON {table} "
                f"BEGIN SELECT RAISE(ABORT, 'audit table {table} is append-only: "
                f"{op_name} rejected; use guardian audit prune for retention'); END"
            )


def upgrade() -> None:
    op.create_table(
        "audit_anchors",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("cutoff", sa.DateTime(timezone=True), nullable=False),
        sa.Column("pruned_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("chain_id", "seq", name=op.f("pk_audit_anchors")),
    )
    op.create_table(
        "audit_batches",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("first_seq", sa.BigInteger(), nullable=False),
        sa.Column("last_seq", sa.BigInteger(), nullable=False),
        sa.Column("n_rows", sa.Integer(), nullable=False),
        sa.Column("written_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chain_id", "first_seq", name=op.f("pk_audit_batches")),
    )
    op.create_table(
        "audit_chains",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("replica_id", sa.Text(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chain_id", name=op.f("pk_audit_chains")),
    )
    op.create_table(
        "audit_governance",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("event_id", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("route", sa.Text(), nullable=True),
        sa.Column("pair_hash", sa.Text(), nullable=True),
        sa.Column("policy_hash", sa.Text(), nullable=True),
        sa.Column("actor", sa.Text(), nullable=False),
        sa.Column(
            "details",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.PrimaryKeyConstraint("chain_id", "seq", name=op.f("pk_audit_governance")),
    )
    op.create_index(op.f("ix_audit_governance_event_id"), "audit_governance", ["event_id"], unique=False)
    op.create_index(
        "ix_audit_governance_kind_created_at", "audit_governance", ["kind", "created_at"], unique=False
    )
    op.create_table(
        "audit_requests",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("route", sa.Text(), nullable=False),
        sa.Column("mode", sa.Text(), nullable=False),
        sa.Column("served_path", sa.Text(), nullable=False),
        sa.Column("endpoint", sa.Text(), nullable=False),
        sa.Column("pair_hash", sa.Text(), nullable=False),
        sa.Column("policy_hash", sa.Text(), nullable=False),
        sa.Column("redaction", sa.Text(), nullable=False),
        sa.Column("prompt_text", sa.Text(), nullable=True),
        sa.Column("completion_text", sa.Text(), nullable=True),
        sa.Column("prompt_hash", sa.String(length=64), nullable=True),
        sa.Column("completion_hash", sa.String(length=64), nullable=True),
        sa.Column(
            "prompt_token_ids",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column(
            "completion_token_ids",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("prompt_tokens", sa.Integer(), nullable=False),
        sa.Column("completion_tokens", sa.Integer(), nullable=False),
        sa.Column("finish_reason", sa.Text(), nullable=False),
        sa.Column(
            "params",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("queue_time_s", sa.Float(), nullable=False),
        sa.Column("compute_time_s", sa.Float(), nullable=False),
        sa.Column("time_to_first_token_s", sa.Float(), nullable=False),
        sa.Column("time_per_output_token_s", sa.Float(), nullable=False),
        sa.Column("acceptance_rate", sa.Float(), nullable=True),
        sa.Column("mean_acceptance_length", sa.Float(), nullable=True),
        sa.Column(
            "stats",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("fallback_reason", sa.Text(), nullable=True),
        sa.Column("replica_id", sa.Text(), nullable=True),
        sa.Column("trace_len", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("chain_id", "seq", name=op.f("pk_audit_requests")),
    )
    op.create_index(
        "ix_audit_requests_created_at_route", "audit_requests", ["created_at", "route"], unique=False
    )
    op.create_index(op.f("ix_audit_requests_pair_hash"), "audit_requests", ["pair_hash"], unique=False)
    op.create_index(op.f("ix_audit_requests_request_id"), "audit_requests", ["request_id"], unique=False)
    op.create_table(
        "audit_shadow",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("request_id", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("route", sa.Text(), nullable=False),
        sa.Column("pair_hash", sa.Text(), nullable=False),
        sa.Column("policy_hash", sa.Text(), nullable=False),
        sa.Column("shadow_path", sa.Text(), nullable=False),
        sa.Column("verdict", sa.Text(), nullable=False),
        sa.Column("first_divergence_position", sa.Integer(), nullable=True),
        sa.Column("margin_at_divergence", sa.Float(), nullable=True),
        sa.Column("tolerance", sa.Float(), nullable=False),
        sa.Column("acceptance_rate", sa.Float(), nullable=True),
        sa.Column("mean_acceptance_length", sa.Float(), nullable=True),
        sa.Column(
            "stats",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("shadow_compute_time_s", sa.Float(), nullable=False),
        sa.Column("trace_len", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("chain_id", "seq", name=op.f("pk_audit_shadow")),
    )
    op.create_index("ix_audit_shadow_created_at_route", "audit_shadow", ["created_at", "route"], unique=False)
    op.create_index(op.f("ix_audit_shadow_request_id"), "audit_shadow", ["request_id"], unique=False)
    op.create_index(op.f("ix_audit_shadow_verdict"), "audit_shadow", ["verdict"], unique=False)
    op.create_table(
        "audit_tokens",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("request_id", sa.Text(), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("token_id", sa.Integer(), nullable=True),
        sa.Column("token_hash", sa.String(length=64), nullable=True),
        sa.Column("origin", sa.Text(), nullable=False),
        sa.Column("draft_prob", sa.Float(), nullable=True),
        sa.Column("target_prob", sa.Float(), nullable=False),
        sa.Column("target_margin", sa.Float(), nullable=False),
        sa.Column("step", sa.Integer(), nullable=False),
        sa.Column("gamma", sa.Integer(), nullable=False),
        sa.PrimaryKeyConstraint("chain_id", "seq", "created_at", name=op.f("pk_audit_tokens")),
        postgresql_partition_by="RANGE (created_at)",
    )
    if op.get_bind().dialect.name == "postgresql":
        _pg_triggers()
    else:
        _sqlite_triggers()
    op.create_table(
        "model_pairs",
        sa.Column("pair_hash", sa.Text(), nullable=False),
        sa.Column("draft_name", sa.Text(), nullable=False),
        sa.Column("draft_revision", sa.Text(), nullable=True),
        sa.Column("target_name", sa.Text(), nullable=False),
        sa.Column("target_revision", sa.Text(), nullable=True),
        sa.Column("tokenizer_hash", sa.Text(), nullable=False),
        sa.Column("chat_template_hash", sa.Text(), nullable=True),
        sa.Column("state", sa.Text(), nullable=False),
        sa.Column(
            "details",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=True,
        ),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("pair_hash", name=op.f("pk_model_pairs")),
    )
    op.create_table(
        "policy_versions",
        sa.Column("policy_hash", sa.Text(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("version", sa.String(length=64), nullable=True),
        sa.Column("content", sa.Text(), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("loaded_by", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("policy_hash", name=op.f("pk_policy_versions")),
    )
    op.create_table(
        "route_state",
        sa.Column("route", sa.Text(), nullable=False),
        sa.Column("mode", sa.Text(), nullable=False),
        sa.Column("pair_hash", sa.Text(), nullable=True),
        sa.Column("policy_hash", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("route", name=op.f("pk_route_state")),
    )


def downgrade() -> None:
    # Triggers go with their tables; only the Postgres function needs an explicit drop (below).
    op.drop_table("route_state")
    op.drop_table("policy_versions")
    op.drop_table("model_pairs")
    op.drop_table("audit_tokens")
    op.drop_index(op.f("ix_audit_shadow_verdict"), table_name="audit_shadow")
    op.drop_index(op.f("ix_audit_shadow_request_id"), table_name="audit_shadow")
    op.drop_index("ix_audit_shadow_created_at_route", table_name="audit_shadow")
    op.drop_table("audit_shadow")
    op.drop_index(op.f("ix_audit_requests_request_id"), table_name="audit_requests")
    op.drop_index(op.f("ix_audit_requests_pair_hash"), table_name="audit_requests")
    op.drop_index("ix_audit_requests_created_at_route", table_name="audit_requests")
    op.drop_table("audit_requests")
    op.drop_index("ix_audit_governance_kind_created_at", table_name="audit_governance")
    op.drop_index(op.f("ix_audit_governance_event_id"), table_name="audit_governance")
    op.drop_table("audit_governance")
    op.drop_table("audit_chains")
    op.drop_table("audit_batches")
    op.drop_table("audit_anchors")
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP FUNCTION IF EXISTS guardian_append_only()")
