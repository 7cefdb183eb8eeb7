"""tournaments on the server: tournaments, entrants, pairings; bot accounts

Revision ID: 0004
Revises: 0003
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("federation_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("game", sa.String(length=32), nullable=False),
        sa.Column("format", sa.String(length=16), nullable=False),
        sa.Column("match_lengths", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("current_round", sa.Integer(), nullable=False),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.ForeignKeyConstraint(["federation_id"], ["federations.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["created_by"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_tournaments_federation_id"), ["federation_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_tournaments_state"), ["state"], unique=False)
    op.create_table(
        "tournament_entrants",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("start_number", sa.Integer(), nullable=True),
        sa.Column("rating", sa.Integer(), nullable=False),
        sa.Column("checked_in", sa.Boolean(), nullable=False),
        sa.Column("withdrawn", sa.Boolean(), nullable=False),
        sa.Column("final_rank", sa.Integer(), nullable=True),
        sa.Column("registered_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("tournament_id", "user_id"),
    )
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_entrants_tournament_id"), ["tournament_id"], unique=False
        )
        batch_op.create_index(batch_op.f("ix_tournament_entrants_user_id"), ["user_id"], unique=False)
    op.create_table(
        "tournament_pairings",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("board", sa.Integer(), nullable=False),
        sa.Column("white_id", sa.Integer(), nullable=False),
        sa.Column("black_id", sa.Integer(), nullable=True),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("result", sa.String(length=8), nullable=True),
        sa.Column("white_score", sa.Integer(), nullable=False),
        sa.Column("black_score", sa.Integer(), nullable=False),
        sa.Column("white_confirmed", sa.Boolean(), nullable=False),
        sa.Column("black_confirmed", sa.Boolean(), nullable=False),
        sa.Column("confirmed_by_arbiter", sa.Integer(), nullable=True),
        sa.Column("official", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["tournament_id"], ["tournaments.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["white_id"], ["tournament_entrants.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["black_id"], ["tournament_entrants.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="SET NULL"),
        sa.ForeignKeyConstraint(["confirmed_by_arbiter"], ["users.id"], ondelete="SET NULL"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id"),
        sa.UniqueConstraint("tournament_id", "round", "board"),
    )
    with op.batch_alter_table("tournament_pairings", schema=None) as batch_op:
        batch_op.create_index(
            batch_op.f("ix_tournament_pairings_tournament_id"), ["tournament_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("tournament_pairings", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_pairings_tournament_id"))
    op.drop_table("tournament_pairings")
    with op.batch_alter_table("tournament_entrants", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournament_entrants_user_id"))
        batch_op.drop_index(batch_op.f("ix_tournament_entrants_tournament_id"))
    op.drop_table("tournament_entrants")
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_tournaments_state"))
        batch_op.drop_index(batch_op.f("ix_tournaments_federation_id"))
    op.drop_table("tournaments")
    with op.batch_alter_table("users", schema=None) as batch_op:
        batch_op.drop_column("bot_level")
