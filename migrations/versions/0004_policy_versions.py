"""policy loads: every time a sidecar put a policy in force

Revision ID: 0004
Revises: 0003
`policy_versions` (0001) keeps each policy's content once, by content hash; nothing wrote it.
`policy_loads` adds the history: one row per load or reload by a sidecar replica (when, by
whom, from which file, replacing which hash), so the dashboard shows the policy in force and
what was in force before. Both are written by `guardian.policy.loading.record_policy_load`.
The chained `policy_loaded` governance events stay the tamper-evident record of the same acts.

Create Date: 2026-11-23 20:30:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "policy_loads",
        sa.Column("id", sa.Integer(), autoincrement=True, nullable=False),
        sa.Column("policy_hash", sa.Text(), nullable=False),
        sa.Column("loaded_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("loaded_by", sa.Text(), nullable=False),
        sa.Column("policy_file", sa.Text(), nullable=True),
        sa.Column("previous_policy_hash", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_policy_loads")),
    )
    op.create_index(op.f("ix_policy_loads_loaded_at"), "policy_loads", ["loaded_at"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_policy_loads_loaded_at"), table_name="policy_loads")
    op.drop_table("policy_loads")
