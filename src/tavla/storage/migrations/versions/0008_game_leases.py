"""game leases: the process that owns each live game, its fencing token and its clock's wall time

Revision ID: 0008
Revises: 0007
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("owner", sa.String(length=40), nullable=True))
        batch_op.add_column(sa.Column("fence", sa.Integer(), server_default="0", nullable=False))
        batch_op.add_column(sa.Column("lease_until_ms", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("stored_wall_ms", sa.BigInteger(), nullable=True))
        batch_op.add_column(sa.Column("held_ms", sa.BigInteger(), nullable=True))
        batch_op.create_index("ix_games_owner", ["owner"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_owner")
        batch_op.drop_column("held_ms")
        batch_op.drop_column("stored_wall_ms")
        batch_op.drop_column("lease_until_ms")
        batch_op.drop_column("fence")
        batch_op.drop_column("owner")
