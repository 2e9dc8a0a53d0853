"""merkle prefix of pruned audit records (signed tree heads)

Revision ID: 0002
Revises: 0001
`audit_merkle_prefix`: per chain and prune, the RFC 6962 compact range of the pruned leaves,
so every record left after `guardian audit prune` stays provable against signed tree heads
(`guardian.audit.merkle`, `guardian.audit.retention`). Same DDL on Postgres and SQLite.

Create Date: 2026-11-23 20:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op
from sqlalchemy.dialects import postgresql

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "audit_merkle_prefix",
        sa.Column("chain_id", sa.Text(), nullable=False),
        sa.Column("leaves", sa.BigInteger(), nullable=False),
        sa.Column("seq", sa.BigInteger(), nullable=False),
        sa.Column(
            "peaks",
            sa.JSON().with_variant(postgresql.JSONB(astext_type=sa.Text()), "postgresql"),
            nullable=False,
        ),
        sa.Column("pruned_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("chain_id", "leaves", name=op.f("pk_audit_merkle_prefix")),
    )


def downgrade() -> None:
    op.drop_table("audit_merkle_prefix")
