"""withdrawals: the round, the official and the reason of a withdrawal from a running tournament

Revision ID: 0007
Revises: 0006
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.add_column(sa.Column("withdrawn_round", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("withdrawn_by", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("withdrawn_note", sa.String(length=200), nullable=True))
        batch_op.create_foreign_key(
            "fk_tournament_entrants_withdrawn_by", "users", ["withdrawn_by"], ["id"], ondelete="SET NULL"
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.drop_constraint("fk_tournament_entrants_withdrawn_by", type_="foreignkey")
        batch_op.drop_column("withdrawn_note")
        batch_op.drop_column("withdrawn_by")
        batch_op.drop_column("withdrawn_round")
