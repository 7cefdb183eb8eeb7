"""The ledger's tables (SQLAlchemy 2 models); storage's migrations create them.

They have their own declarative base so that this package does not import the
storage layer above it (storage's migration environment lists both). Game and
tournament ids are plain strings, not foreign keys: the ledger keeps its books
whether or not the server keeps the game.

The database itself keeps the two promises that concurrency could break:
``ledger_transactions.key`` is unique (a game is settled once even when two
processes race to do it), and a balance below zero is refused by a check constraint
(except for the cash accounts, the outside world).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column


class LedgerBase(DeclarativeBase):
    """The declarative base of the ledger's tables."""


NOT_NEGATIVE = "balance_cents >= 0 OR kind = 'cash'"


class AccountRow(LedgerBase):
    __tablename__ = "ledger_accounts"
    __table_args__ = (
        UniqueConstraint("kind", "federation", "owner", name="uq_ledger_accounts_key"),
        CheckConstraint(NOT_NEGATIVE, name="ck_ledger_accounts_not_negative"),
    )

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    federation: Mapped[str] = mapped_column(String(64), index=True)
    owner: Mapped[str] = mapped_column(String(64))
    # The sum of the account's entries, kept beside them so that a debit can be
    # checked and applied in one statement.
    balance_cents: Mapped[int] = mapped_column(BigInteger)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class TransactionRow(LedgerBase):
    """Who moved money, what for and why; its entries are the movements."""

    __tablename__ = "ledger_transactions"
    __table_args__ = (UniqueConstraint("key", name="uq_ledger_transactions_key"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # The event booked ("game:g7:close"); NULL for events that may repeat (deposits
    # without a key). Unique: the database refuses to book one event twice.
    key: Mapped[str | None] = mapped_column(String(200))
    kind: Mapped[str] = mapped_column(String(16))
    federation: Mapped[str] = mapped_column(String(64), index=True)
    game_id: Mapped[str | None] = mapped_column(String(64), index=True)
    tournament_id: Mapped[str | None] = mapped_column(String(64), index=True)
    actor: Mapped[str] = mapped_column(String(64))
    reason: Mapped[str] = mapped_column(Text)
    created_ms: Mapped[int] = mapped_column(BigInteger)


class EntryRow(LedgerBase):
    __tablename__ = "ledger_entries"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    transaction_id: Mapped[int] = mapped_column(ForeignKey("ledger_transactions.id"), index=True)
    account_id: Mapped[int] = mapped_column(ForeignKey("ledger_accounts.id"))
    amount_cents: Mapped[int] = mapped_column(BigInteger)
    memo: Mapped[str] = mapped_column(String(200))


class StakedGameRow(LedgerBase):
    __tablename__ = "ledger_games"

    game_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    federation: Mapped[str] = mapped_column(String(64), index=True)
    player0: Mapped[str] = mapped_column(String(64))
    player1: Mapped[str] = mapped_column(String(64))
    terms: Mapped[dict[str, Any]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    winner: Mapped[str | None] = mapped_column(String(64))
    points: Mapped[int | None] = mapped_column(Integer)
    created_ms: Mapped[int] = mapped_column(BigInteger)
    closed_ms: Mapped[int | None] = mapped_column(BigInteger)


class TournamentRow(LedgerBase):
    __tablename__ = "ledger_tournaments"

    tournament_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    federation: Mapped[str] = mapped_column(String(64), index=True)
    entry_fee_cents: Mapped[int] = mapped_column(BigInteger)
    prize_shares: Mapped[list[int]] = mapped_column(JSON)
    status: Mapped[str] = mapped_column(String(16))
    created_ms: Mapped[int] = mapped_column(BigInteger)


# A statement reads one account's entries in booking order.
Index("ix_ledger_entries_account", EntryRow.account_id, EntryRow.id)
