"""signed route and canary states: route_state.signature/canary_run, canary_state.signature/run_id

Revision ID: 0005
Revises: 0004
A database writer without the key could undo a rollback of a pair that holds a genuine
signed gate report by rewriting, replaying or deleting the `route_state` row, or widen a
canary by editing its row. Rows that turn speculation on, and every canary row, are now
signed by the act that writes them; a state written by a canary start names the canary run
(`canary_run`), and the canary row carries it (`run_id`); replicas check signatures and
versions (`guardian.governance.statesig`). NULL signatures: rows written before this
revision — on gated routes they no longer grant speculation (promote, re-enable or restart
the canary once after upgrading).

Create Date: 2026-11-27 15:00:00
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = {"route_state": ("signature", "canary_run"), "canary_state": ("signature", "run_id")}


def upgrade() -> None:
    for table, columns in COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for column in columns:
                batch.add_column(sa.Column(column, sa.Text(), nullable=True))


def downgrade() -> None:
    for table, columns in COLUMNS.items():
        with op.batch_alter_table(table) as batch:
            for column in reversed(columns):
                batch.drop_column(column)
