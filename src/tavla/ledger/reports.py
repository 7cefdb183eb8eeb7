"""Reading the books: balances, statements, the fee report and the audit."""

from __future__ import annotations

from collections import defaultdict

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.ledger import store
from tavla.ledger.accounts import AccountKey, escrow_account, house_account, pool_account
from tavla.ledger.games import GameStatus
from tavla.ledger.postings import TransactionKind
from tavla.ledger.tables import AccountRow, EntryRow, StakedGameRow, TournamentRow, TransactionRow
from tavla.ledger.tournaments import TournamentStatus
from tavla.ledger.views import FeeReport, Statement, StatementLine, TransactionRecord


async def balance(session: AsyncSession, account: AccountKey) -> int:
    """The account's balance; 0 for an account never used."""
    row = await store.find_account(session, account)
    return 0 if row is None else row.balance_cents


async def balances(session: AsyncSession, federation: str) -> dict[AccountKey, int]:
    """Every account of the federation with its balance: its books at a glance."""
    query = select(AccountRow).where(AccountRow.federation == federation)
    return {store.account_key(row): row.balance_cents for row in (await session.execute(query)).scalars()}


async def statement(session: AsyncSession, account: AccountKey) -> Statement:
    row = await store.find_account(session, account)
    if row is None:
        return Statement(account, 0, ())
    query = (
        select(EntryRow, TransactionRow)
        .join(TransactionRow, EntryRow.transaction_id == TransactionRow.id)
        .where(EntryRow.account_id == row.id)
        .order_by(EntryRow.id)
    )
    lines: list[StatementLine] = []
    running = 0
    for entry, transaction in (await session.execute(query)).all():
        running += entry.amount_cents
        lines.append(
            StatementLine(
                transaction_id=transaction.id,
                kind=TransactionKind(transaction.kind),
                amount_cents=entry.amount_cents,
                balance_after_cents=running,
                memo=entry.memo,
                actor=transaction.actor,
                reason=transaction.reason,
                created_ms=transaction.created_ms,
                game_id=transaction.game_id,
                tournament_id=transaction.tournament_id,
            )
        )
    return Statement(account, row.balance_cents, tuple(lines))


async def fee_report(session: AsyncSession, federation: str) -> FeeReport:
    house = await statement(session, house_account(federation))
    by_game: dict[str, int] = defaultdict(int)
    for line in house.lines:
        if line.kind is TransactionKind.SETTLEMENT and line.game_id is not None:
            by_game[line.game_id] += line.amount_cents
    return FeeReport(
        federation=federation,
        balance_cents=house.balance_cents,
        collected_cents=sum(by_game.values()),
        fee_by_game=tuple(sorted(by_game.items())),
        statement=house,
    )


async def transactions_of_game(session: AsyncSession, game_id: str) -> list[TransactionRecord]:
    query = select(TransactionRow).where(TransactionRow.game_id == game_id).order_by(TransactionRow.id)
    return [await store.record(session, row) for row in (await session.execute(query)).scalars()]


async def audit(session: AsyncSession) -> list[str]:
    """The promises the books keep, checked from the rows; each broken one is a line.

    Every transaction's entries sum to zero; every balance is the sum of its entries;
    no account but cash is below zero; each federation's accounts sum to zero (so the
    sum over all accounts never changes); a closed game's escrow and a closed
    tournament's pool are empty; a game is closed by at most one transaction.
    """
    problems: list[str] = []
    unbalanced = (
        select(EntryRow.transaction_id, func.sum(EntryRow.amount_cents))
        .group_by(EntryRow.transaction_id)
        .having(func.sum(EntryRow.amount_cents) != 0)
    )
    for transaction_id, total in (await session.execute(unbalanced)).all():
        problems.append(f"transaction {transaction_id} sums to {total} cents")
    sums = dict(
        (
            await session.execute(
                select(EntryRow.account_id, func.sum(EntryRow.amount_cents)).group_by(EntryRow.account_id)
            )
        ).all()
    )
    by_federation: dict[str, int] = defaultdict(int)
    balances: dict[AccountKey, int] = {}
    for account in (await session.execute(select(AccountRow))).scalars():
        key = store.account_key(account)
        balances[key] = account.balance_cents
        by_federation[account.federation] += account.balance_cents
        if account.balance_cents != sums.get(account.id, 0):
            problems.append(
                f"{key}: balance {account.balance_cents} but entries sum to {sums.get(account.id, 0)}"
            )
        if account.balance_cents < 0 and not key.kind.may_go_negative:
            problems.append(f"{key}: balance {account.balance_cents} below zero")
    problems.extend(
        f"federation {federation!r}: accounts sum to {total} cents"
        for federation, total in by_federation.items()
        if total
    )
    for game in (await session.execute(select(StakedGameRow))).scalars():
        escrow = balances.get(escrow_account(game.federation, game.game_id), 0)
        if GameStatus(game.status).closed and escrow:
            problems.append(f"game {game.game_id} is {game.status} but its escrow holds {escrow}")
    for tournament in (await session.execute(select(TournamentRow))).scalars():
        pool = balances.get(pool_account(tournament.federation, tournament.tournament_id), 0)
        if tournament.status != TournamentStatus.OPEN.value and pool:
            problems.append(
                f"tournament {tournament.tournament_id} is {tournament.status} but its pool holds {pool}"
            )
    closings = (
        select(TransactionRow.game_id, func.count())
        .where(TransactionRow.kind.in_([TransactionKind.SETTLEMENT.value, TransactionKind.RELEASE.value]))
        .group_by(TransactionRow.game_id)
        .having(func.count() > 1)
    )
    for game_id, count in (await session.execute(closings)).all():
        problems.append(f"game {game_id} closed {count} times")
    return problems
