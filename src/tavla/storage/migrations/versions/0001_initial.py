"""the platform's first tables

Revision ID: 0001
Revises:
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:

    op.create_table(
        "users",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=32), nullable=False),
        sa.Column("name_key", sa.String(length=32), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=True),
        sa.Column("guest", sa.Boolean(), nullable=False),
        sa.Column("language", sa.String(length=8), nullable=False),
        sa.Column("home_side", sa.String(length=8), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name_key"),
    )
    op.create_table(
        "dice_commitments",
        sa.Column("id", sa.String(length=24), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("seed_chain_end", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("used", sa.Boolean(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("dice_commitments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_dice_commitments_user_id"), ["user_id"], unique=False)

    op.create_table(
        "games",
        sa.Column("id", sa.String(length=16), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seat0_user_id", sa.Integer(), nullable=True),
        sa.Column("seat1_user_id", sa.Integer(), nullable=True),
        sa.Column("seat0_bot", sa.String(length=32), nullable=True),
        sa.Column("seat1_bot", sa.String(length=32), nullable=True),
        sa.Column("spectators", sa.Boolean(), nullable=False),
        sa.Column("chat0", sa.Boolean(), nullable=False),
        sa.Column("chat1", sa.Boolean(), nullable=False),
        sa.Column("seed_chain_end", sa.String(length=64), nullable=True),
        sa.Column("client_seed0", sa.String(length=64), nullable=False),
        sa.Column("client_seed1", sa.String(length=64), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("last_seq0", sa.Integer(), nullable=False),
        sa.Column("last_seq1", sa.Integer(), nullable=False),
        sa.Column("last_ack0", sa.Integer(), nullable=False),
        sa.Column("last_ack1", sa.Integer(), nullable=False),
        sa.Column("pending_steps", sa.JSON(), nullable=False),
        sa.Column("winner", sa.Integer(), nullable=True),
        sa.Column("score", sa.JSON(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("finished_ms", sa.BigInteger(), nullable=True),
        sa.Column("rematch_of", sa.String(length=16), nullable=True),
        sa.ForeignKeyConstraint(
            ["seat0_user_id"],
            ["users.id"],
        ),
        sa.ForeignKeyConstraint(
            ["seat1_user_id"],
            ["users.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_games_seat0_user_id"), ["seat0_user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_seat1_user_id"), ["seat1_user_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_games_status"), ["status"], unique=False)
        batch_op.create_index("ix_games_status_created", ["status", "created_ms"], unique=False)

    op.create_table(
        "offers",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("creator_id", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("spectators", sa.Boolean(), nullable=False),
        sa.Column("chat", sa.Boolean(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("game_id", sa.String(length=16), nullable=True),
        sa.Column("for_user_id", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["creator_id"], ["users.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["for_user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("offers", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_offers_creator_id"), ["creator_id"], unique=False)
        batch_op.create_index(batch_op.f("ix_offers_status"), ["status"], unique=False)

    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("user_id", sa.Integer(), nullable=False),
        sa.Column("csrf_token", sa.String(length=64), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("expires_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["users.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("token_hash"),
    )
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_sessions_user_id"), ["user_id"], unique=False)

    op.create_table(
        "chat_messages",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("t_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "index"),
    )
    op.create_table(
        "game_actions",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("value", sa.Text(), nullable=False),
        sa.Column("t_ms", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "index"),
    )
    op.create_table(
        "game_dice",
        sa.Column("game_id", sa.String(length=16), nullable=False),
        sa.Column("game_number", sa.Integer(), nullable=False),
        sa.Column("server_seed", sa.String(length=64), nullable=False),
        sa.Column("commitment", sa.String(length=64), nullable=False),
        sa.Column("client_seed", sa.String(length=160), nullable=False),
        sa.Column("dice_drawn", sa.Integer(), nullable=False),
        sa.Column("revealed", sa.Boolean(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["games.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id", "game_number"),
    )


def downgrade() -> None:
    op.drop_table("dice_commitments")

    op.drop_table("game_dice")
    op.drop_table("game_actions")
    op.drop_table("chat_messages")
    with op.batch_alter_table("sessions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_sessions_user_id"))

    op.drop_table("sessions")
    with op.batch_alter_table("offers", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_offers_status"))
        batch_op.drop_index(batch_op.f("ix_offers_creator_id"))

    op.drop_table("offers")
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_status_created")
        batch_op.drop_index(batch_op.f("ix_games_status"))
        batch_op.drop_index(batch_op.f("ix_games_seat1_user_id"))
        batch_op.drop_index(batch_op.f("ix_games_seat0_user_id"))

    op.drop_table("games")
    op.drop_table("users")
