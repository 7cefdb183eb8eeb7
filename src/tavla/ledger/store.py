"""Reading and writing the ledger's rows inside one database transaction.

Every write goes through :func:`book`: it claims the posting's key first (so a
second booking of the same event stops before it touches a balance), then changes
each balance in one conditional statement, in a fixed account order so that two
transactions sharing accounts cannot deadlock, and finally stores the entries.
"""

from __future__ import annotations

from sqlalchemy import select, update
from sqlalchemy.dialects.postgresql import insert as postgresql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.ledger.accounts import AccountKey, AccountKind
from tavla.ledger.errors import GameNotInLedgerError, InsufficientFundsError, TournamentNotInLedgerError
from tavla.ledger.games import GameStatus, StakedGame
from tavla.ledger.postings import Entry, Posting, TransactionKind
from tavla.ledger.stakes import stake_terms_from_json
from tavla.ledger.tables import AccountRow, EntryRow, StakedGameRow, TournamentRow, TransactionRow
from tavla.ledger.tournaments import TournamentStatus, TournamentTerms
from tavla.ledger.views import TransactionRecord


def account_key(row: AccountRow) -> AccountKey:
    return AccountKey(AccountKind(row.kind), row.federation, row.owner)


async def find_account(session: AsyncSession, key: AccountKey) -> AccountRow | None:
    query = select(AccountRow).where(
        AccountRow.kind == key.kind.value,
        AccountRow.federation == key.federation,
        AccountRow.owner == key.owner,
    )
    return (await session.execute(query)).scalar_one_or_none()


async def account_id(session: AsyncSession, key: AccountKey, now_ms: int) -> int:
    """The account's id, opening it (balance 0) on first use; two transactions opening
    the same account at once both see the one row."""
    row = await find_account(session, key)
    if row is not None:
        return row.id
    values = {
        "kind": key.kind.value,
        "federation": key.federation,
        "owner": key.owner,
        "balance_cents": 0,
        "created_ms": now_ms,
    }
    insert = postgresql_insert if session.get_bind().dialect.name == "postgresql" else sqlite_insert
    statement = insert(AccountRow).values(values).on_conflict_do_nothing()
    await session.execute(statement)
    row = await find_account(session, key)
    if row is None:  # inserted or already there a line above
        raise RuntimeError(f"account {key} could not be created")
    return row.id


async def _apply(session: AsyncSession, key: AccountKey, account: int, delta_cents: int) -> None:
    change = update(AccountRow).where(AccountRow.id == account)
    if delta_cents < 0 and not key.kind.may_go_negative:
        # Check and debit in one statement: a concurrent debit cannot slip between them.
        change = change.where(AccountRow.balance_cents + delta_cents >= 0)
    change = change.values(balance_cents=AccountRow.balance_cents + delta_cents).returning(AccountRow.id)
    if (await session.execute(change)).scalar_one_or_none() is None:
        balance = await session.scalar(select(AccountRow.balance_cents).where(AccountRow.id == account))
        raise InsufficientFundsError(str(key), balance or 0, -delta_cents)


async def book(session: AsyncSession, posting: Posting, now_ms: int) -> TransactionRecord:
    """Store ``posting`` and move the balances; raises (and the caller rolls back) when
    an account cannot pay or when the key is already booked."""
    row = TransactionRow(
        key=posting.key,
        kind=posting.kind.value,
        federation=posting.federation,
        game_id=posting.game_id,
        tournament_id=posting.tournament_id,
        actor=posting.actor,
        reason=posting.reason,
        created_ms=now_ms,
    )
    session.add(row)
    await session.flush()  # claims the key: a duplicate fails here, before any balance moves
    ids: dict[AccountKey, int] = {}
    for key, delta in posting.net_cents().items():
        ids[key] = await account_id(session, key, now_ms)
        if delta:
            await _apply(session, key, ids[key], delta)
    session.add_all(
        EntryRow(transaction_id=row.id, account_id=ids[e.account], amount_cents=e.amount_cents, memo=e.memo)
        for e in posting.entries
    )
    await session.flush()
    return _record(row, posting.entries)


def _record(row: TransactionRow, entries: tuple[Entry, ...], *, repeated: bool = False) -> TransactionRecord:
    return TransactionRecord(
        id=row.id,
        kind=TransactionKind(row.kind),
        federation=row.federation,
        key=row.key,
        actor=row.actor,
        reason=row.reason,
        created_ms=row.created_ms,
        entries=entries,
        game_id=row.game_id,
        tournament_id=row.tournament_id,
        repeated=repeated,
    )


async def _entries_of(session: AsyncSession, transaction_id: int) -> tuple[Entry, ...]:
    query = (
        select(EntryRow, AccountRow)
        .join(AccountRow, EntryRow.account_id == AccountRow.id)
        .where(EntryRow.transaction_id == transaction_id)
        .order_by(EntryRow.id)
    )
    rows = (await session.execute(query)).all()
    return tuple(Entry(account_key(account), entry.amount_cents, entry.memo) for entry, account in rows)


async def record(session: AsyncSession, row: TransactionRow, *, repeated: bool = False) -> TransactionRecord:
    return _record(row, await _entries_of(session, row.id), repeated=repeated)


async def booked(session: AsyncSession, key: str) -> TransactionRecord | None:
    """The transaction already booked under ``key``, marked as a repeat."""
    row = (
        await session.execute(select(TransactionRow).where(TransactionRow.key == key))
    ).scalar_one_or_none()
    return None if row is None else await record(session, row, repeated=True)


async def game_row(session: AsyncSession, game_id: str) -> StakedGameRow:
    row = await session.get(StakedGameRow, game_id)
    if row is None:
        raise GameNotInLedgerError(game_id)
    return row


def staked_game(row: StakedGameRow) -> StakedGame:
    return StakedGame(
        game_id=row.game_id,
        federation=row.federation,
        players=(row.player0, row.player1),
        terms=stake_terms_from_json(row.terms),
        status=GameStatus(row.status),
        winner=row.winner,
        points=row.points,
    )


async def tournament_row(session: AsyncSession, tournament_id: str) -> TournamentRow:
    row = await session.get(TournamentRow, tournament_id)
    if row is None:
        raise TournamentNotInLedgerError(tournament_id)
    return row


def tournament_terms(row: TournamentRow) -> TournamentTerms:
    return TournamentTerms(
        tournament_id=row.tournament_id,
        federation=row.federation,
        entry_fee_cents=row.entry_fee_cents,
        prize_shares=tuple(row.prize_shares),
        status=TournamentStatus(row.status),
    )
