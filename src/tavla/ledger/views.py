"""What the ledger answers with: booked transactions, statements, fee reports."""

from __future__ import annotations

from dataclasses import dataclass

from tavla.ledger.accounts import AccountKey
from tavla.ledger.postings import Entry, TransactionKind


@dataclass(frozen=True)
class TransactionRecord:
    """A booked transaction. ``repeated`` is true when the call that returned it asked
    for an event that was already booked (a second settlement), and nothing moved."""

    id: int
    kind: TransactionKind
    federation: str
    key: str | None
    actor: str
    reason: str
    created_ms: int
    entries: tuple[Entry, ...]
    game_id: str | None = None
    tournament_id: str | None = None
    repeated: bool = False


@dataclass(frozen=True)
class StatementLine:
    transaction_id: int
    kind: TransactionKind
    amount_cents: int
    balance_after_cents: int
    memo: str
    actor: str
    reason: str
    created_ms: int
    game_id: str | None
    tournament_id: str | None


@dataclass(frozen=True)
class Statement:
    """An account's entries in booking order, each with the balance after it."""

    account: AccountKey
    balance_cents: int
    lines: tuple[StatementLine, ...]


@dataclass(frozen=True)
class FeeReport:
    """A federation administrator's view of the house fees: the total, the fee of each
    settled game (games whose fee rounded to 0 are not listed), and the house account's
    statement (which also shows fees paid out, if the federation withdraws them)."""

    federation: str
    balance_cents: int
    collected_cents: int
    fee_by_game: tuple[tuple[str, int], ...]
    statement: Statement
