"""federations and their roles, the site owner, and federation games' arbiter columns

Revision ID: 0003
Revises: 0002
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "federations",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("slug"),
    )
    op.create_table(
        "federation_roles",
        sa.Column("federation_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("contact_email", sa.String(length=254), nullable=True),
        sa.Column("appointed_by", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["federation_id"], ["federations.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["appointed_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("federation_id", "user_id", "role"),
    )
    with op.batch_alter_table("federation_roles", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_federation_roles_user_id"), ["user_id"], unique=False)

    op.create_table(
        "federation_applications",
        sa.Column("federation_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("contact_email", sa.String(length=254), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["federation_id"], ["federations.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("federation_id", "user_id"),
    )
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("site_owner", sa.Boolean(), server_default=sa.false(), nullable=False))
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.add_column(sa.Column("federation_id", sa.Integer(), nullable=True))
        batch_op.add_column(sa.Column("chat_closed", sa.Boolean(), server_default=sa.false(), nullable=False))
        batch_op.create_index(batch_op.f("ix_games_federation_id"), ["federation_id"], unique=False)
        batch_op.create_foreign_key("fk_games_federation_id", "federations", ["federation_id"], ["id"])


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_constraint("fk_games_federation_id", type_="foreignkey")
        batch_op.drop_index(batch_op.f("ix_games_federation_id"))
        batch_op.drop_column("chat_closed")
        batch_op.drop_column("federation_id")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("site_owner")
    op.drop_table("federation_applications")
    with op.batch_alter_table("federation_roles", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_federation_roles_user_id"))
    op.drop_table("federation_roles")
    op.drop_table("federations")
