"""A tournament's money in the ledger: its terms, entry fees and refunds, sponsors'
money, the prizes paid once, and the refunds of a cancelled tournament (RULES.md 12)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.ledger import postings, reports, store
from tavla.ledger.accounts import AccountKey, AccountKind, pool_account
from tavla.ledger.core import LedgerCore
from tavla.ledger.errors import ConflictError, TournamentClosedError
from tavla.ledger.postings import TransactionKind
from tavla.ledger.tables import AccountRow, EntryRow, TournamentRow, TransactionRow
from tavla.ledger.tournaments import TournamentStatus, TournamentTerms
from tavla.ledger.views import TransactionRecord


class TournamentBooks(LedgerCore):
    async def open_tournament(self, terms: TournamentTerms) -> TournamentTerms:
        async def work(session: AsyncSession) -> TournamentTerms:
            row = await session.get(TournamentRow, terms.tournament_id)
            if row is not None:
                existing = store.tournament_terms(row)
                same = (existing.federation, existing.entry_fee_cents, existing.prize_shares) == (
                    terms.federation,
                    terms.entry_fee_cents,
                    terms.prize_shares,
                )
                if not same:
                    raise ConflictError(f"tournament {terms.tournament_id!r} already has other terms")
                return existing
            session.add(
                TournamentRow(
                    tournament_id=terms.tournament_id,
                    federation=terms.federation,
                    entry_fee_cents=terms.entry_fee_cents,
                    prize_shares=list(terms.prize_shares),
                    status=TournamentStatus.OPEN.value,
                    created_ms=self._clock_ms(),
                )
            )
            await session.flush()
            return TournamentTerms(
                terms.tournament_id, terms.federation, terms.entry_fee_cents, terms.prize_shares
            )

        return await self._write(work)

    async def _open_tournament(self, session: AsyncSession, tournament_id: str) -> TournamentRow:
        row = await store.tournament_row(session, tournament_id)
        if row.status != TournamentStatus.OPEN.value:
            raise TournamentClosedError(tournament_id, row.status)
        return row

    async def enter_tournament(
        self, tournament_id: str, player_id: str, *, actor: str = "server", entry: str | None = None
    ) -> TransactionRecord | None:
        """The entry fee from the player into the pool, once per player (per ``entry``,
        one registration, when given); ``None`` for a free tournament (the tournament,
        not the ledger, keeps its entrants)."""

        async def work(session: AsyncSession) -> TransactionRecord | None:
            terms = store.tournament_terms(await self._open_tournament(session, tournament_id))
            if terms.entry_fee_cents == 0:
                return None
            posting = postings.entry_fee(terms, player_id, actor=actor, entry=entry)
            return await self._book_once(session, posting)

        return await self._write(work)

    async def refund_entry(
        self, tournament_id: str, player_id: str, *, actor: str = "server", entry: str | None = None
    ) -> TransactionRecord | None:
        """The entry fee of a registration withdrawn before the start back to the player,
        once; ``None`` when that registration paid nothing."""

        async def work(session: AsyncSession) -> TransactionRecord | None:
            terms = store.tournament_terms(await self._open_tournament(session, tournament_id))
            paid = await store.booked(session, postings.tournament_entry_key(tournament_id, player_id, entry))
            if paid is None:
                return None
            fee = max(line.amount_cents for line in paid.entries)
            posting = postings.entry_refund(terms, player_id, fee, actor=actor, entry=entry)
            return await self._book_once(session, posting)

        return await self._write(work)

    async def sponsor_tournament(
        self, tournament_id: str, sponsor: str, amount_cents: int, *, actor: str, key: str | None = None
    ) -> TransactionRecord:
        """Add to the pool from the sponsor's account (funded by a deposit)."""

        async def work(session: AsyncSession) -> TransactionRecord:
            terms = store.tournament_terms(await self._open_tournament(session, tournament_id))
            posting = postings.sponsorship(terms, sponsor, amount_cents, actor=actor, key=key)
            return await self._book_once(session, posting)

        return await self._write(work)

    async def pay_prizes(
        self, tournament_id: str, winners: Sequence[str], *, actor: str
    ) -> TransactionRecord | None:
        """The whole pool to ``winners`` (best first, one per prize share), once; paying
        again to the same winners returns the first payment. ``None``: the pool was empty."""

        async def work(session: AsyncSession) -> TransactionRecord | None:
            row = await store.tournament_row(session, tournament_id)
            terms = store.tournament_terms(row)
            if terms.status is TournamentStatus.CANCELLED:
                raise TournamentClosedError(tournament_id, "cancelled")
            close_key = postings.tournament_close_key(tournament_id)
            postings.check_winners(terms, winners)
            if terms.status is TournamentStatus.PAID:
                existing = await store.booked(session, close_key)
                if existing is not None:
                    pool = -existing.entries[0].amount_cents
                    if postings.prizes(terms, winners, pool, actor=actor).entries != existing.entries:
                        raise ConflictError(f"tournament {tournament_id!r}: prizes already paid to others")
                return existing
            pool = await reports.balance(session, pool_account(terms.federation, tournament_id))
            row.status = TournamentStatus.PAID.value
            if pool == 0:
                return None
            posting = postings.prizes(terms, winners, pool, actor=actor)
            return await store.book(session, posting, self._clock_ms())

        return await self._write(work)

    async def cancel_tournament(
        self, tournament_id: str, *, actor: str, reason: str = "tournament cancelled"
    ) -> TransactionRecord | None:
        """Every entry fee and sponsorship back to whoever paid it."""

        async def work(session: AsyncSession) -> TransactionRecord | None:
            row = await store.tournament_row(session, tournament_id)
            terms = store.tournament_terms(row)
            if terms.status is TournamentStatus.PAID:
                raise TournamentClosedError(tournament_id, "paid")
            close_key = postings.tournament_close_key(tournament_id)
            if terms.status is TournamentStatus.CANCELLED:
                return await store.booked(session, close_key)
            paid_in = await _contributions(session, tournament_id)
            row.status = TournamentStatus.CANCELLED.value
            posting = postings.refunds(terms, paid_in, actor=actor, reason=reason)
            return None if posting is None else await store.book(session, posting, self._clock_ms())

        return await self._write(work)

    async def tournament_row(self, tournament_id: str) -> TournamentRow | None:
        """A tournament's terms and status as stored; ``None`` when it has no books."""

        async def work(session: AsyncSession) -> TournamentRow | None:
            return await session.get(TournamentRow, tournament_id)

        return await self._read(work)


async def _contributions(session: AsyncSession, tournament_id: str) -> dict[AccountKey, int]:
    """What each account paid into the tournament's pool."""
    query = (
        select(EntryRow.amount_cents, AccountRow)
        .join(TransactionRow, EntryRow.transaction_id == TransactionRow.id)
        .join(AccountRow, EntryRow.account_id == AccountRow.id)
        .where(
            TransactionRow.tournament_id == tournament_id,
            TransactionRow.kind.in_(
                [
                    TransactionKind.ENTRY_FEE.value,
                    TransactionKind.SPONSORSHIP.value,
                    TransactionKind.REFUND.value,
                ]
            ),
        )
    )
    paid: dict[AccountKey, int] = defaultdict(int)
    for amount, account in (await session.execute(query)).all():
        key = store.account_key(account)
        if key.kind is not AccountKind.POOL:
            # Paid in (negative) less any entry fee already refunded (positive).
            paid[key] -= amount
    return {key: amount for key, amount in paid.items() if amount}
