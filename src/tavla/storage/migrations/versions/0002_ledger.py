"""the ledger's tables: accounts, transactions, entries, staked games, tournaments

Revision ID: 0002
Revises: 0001
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "ledger_accounts",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("federation", sa.String(length=64), nullable=False),
        sa.Column("owner", sa.String(length=64), nullable=False),
        sa.Column("balance_cents", sa.BigInteger(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.CheckConstraint("balance_cents >= 0 OR kind = 'cash'", name="ck_ledger_accounts_not_negative"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("kind", "federation", "owner", name="uq_ledger_accounts_key"),
    )
    with op.batch_alter_table("ledger_accounts", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_accounts_federation"), ["federation"], unique=False)

    op.create_table(
        "ledger_games",
        sa.Column("game_id", sa.String(length=64), nullable=False),
        sa.Column("federation", sa.String(length=64), nullable=False),
        sa.Column("player0", sa.String(length=64), nullable=False),
        sa.Column("player1", sa.String(length=64), nullable=False),
        sa.Column("terms", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("winner", sa.String(length=64), nullable=True),
        sa.Column("points", sa.Integer(), nullable=True),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.Column("closed_ms", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("game_id"),
    )
    with op.batch_alter_table("ledger_games", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_games_federation"), ["federation"], unique=False)

    op.create_table(
        "ledger_tournaments",
        sa.Column("tournament_id", sa.String(length=64), nullable=False),
        sa.Column("federation", sa.String(length=64), nullable=False),
        sa.Column("entry_fee_cents", sa.BigInteger(), nullable=False),
        sa.Column("prize_shares", sa.JSON(), nullable=False),
        sa.Column("status", sa.String(length=16), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("tournament_id"),
    )
    with op.batch_alter_table("ledger_tournaments", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_tournaments_federation"), ["federation"], unique=False)

    op.create_table(
        "ledger_transactions",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=True),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("federation", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=64), nullable=True),
        sa.Column("tournament_id", sa.String(length=64), nullable=True),
        sa.Column("actor", sa.String(length=64), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("created_ms", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key", name="uq_ledger_transactions_key"),
    )
    with op.batch_alter_table("ledger_transactions", schema=None) as batch_op:
        batch_op.create_index(batch_op.f("ix_ledger_transactions_federation"), ["federation"], unique=False)
        batch_op.create_index(batch_op.f("ix_ledger_transactions_game_id"), ["game_id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_ledger_transactions_tournament_id"), ["tournament_id"], unique=False
        )

    op.create_table(
        "ledger_entries",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("transaction_id", sa.Integer(), nullable=False),
        sa.Column("account_id", sa.Integer(), nullable=False),
        sa.Column("amount_cents", sa.BigInteger(), nullable=False),
        sa.Column("memo", sa.String(length=200), nullable=False),
        sa.ForeignKeyConstraint(
            ["account_id"],
            ["ledger_accounts.id"],
        ),
        sa.ForeignKeyConstraint(
            ["transaction_id"],
            ["ledger_transactions.id"],
        ),
        sa.PrimaryKeyConstraint("id"),
    )
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.create_index("ix_ledger_entries_account", ["account_id", "id"], unique=False)
        batch_op.create_index(
            batch_op.f("ix_ledger_entries_transaction_id"), ["transaction_id"], unique=False
        )


def downgrade() -> None:
    with op.batch_alter_table("ledger_entries", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_entries_transaction_id"))
        batch_op.drop_index("ix_ledger_entries_account")

    op.drop_table("ledger_entries")
    with op.batch_alter_table("ledger_transactions", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_transactions_tournament_id"))
        batch_op.drop_index(batch_op.f("ix_ledger_transactions_game_id"))
        batch_op.drop_index(batch_op.f("ix_ledger_transactions_federation"))

    op.drop_table("ledger_transactions")
    with op.batch_alter_table("ledger_tournaments", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_tournaments_federation"))

    op.drop_table("ledger_tournaments")
    with op.batch_alter_table("ledger_games", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_games_federation"))

    op.drop_table("ledger_games")
    with op.batch_alter_table("ledger_accounts", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_ledger_accounts_federation"))

    op.drop_table("ledger_accounts")
