"""canary state

Revision ID: 0003
Revises: 0002
The `canary_state` table (guardian.governance.canary): one row per route that has had a
canary, the share of its traffic served speculatively and the step it is at. Mutable
governance state, like `route_state` (compare-and-set on `version`), not a chained table.

Create Date: 2026-11-23 20:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "canary_state",
        sa.Column("route", sa.Text(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("steps", sa.Text(), nullable=False),
        sa.Column("step_index", sa.Integer(), nullable=False),
        sa.Column("weight_pct", sa.Float(), nullable=False),
        sa.Column("pair_hash", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("step_started_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_by", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("route", name=op.f("pk_canary_state")),
    )


def downgrade() -> None:
    op.drop_table("canary_state")
