"""no-shows: a tournament game awaits both players; arrivals and the room's clock

Revision ID: 0006
Revises: 0005
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.add_column(sa.Column("clock_ms", sa.BigInteger(), nullable=False, server_default="0"))
        batch.add_column(sa.Column("no_show_from_ms", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("arrived0_ms", sa.BigInteger(), nullable=True))
        batch.add_column(sa.Column("arrived1_ms", sa.BigInteger(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("arrived1_ms")
        batch.drop_column("arrived0_ms")
        batch.drop_column("no_show_from_ms")
        batch.drop_column("clock_ms")
