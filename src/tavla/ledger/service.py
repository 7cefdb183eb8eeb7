"""The ledger over a database: every operation is one database transaction.

The caller hands in an async session factory (``tavla.storage.database.sessions``);
this package never opens a database itself. The server authorises (a federation
administrator deposits only into his own federation's accounts); the ledger checks
that money may move and books it.

Idempotency: an operation that records an event (reserving a game, settling it,
entering a player in a tournament, paying its prizes) can be repeated: the repeat
finds the event booked and returns it with ``repeated=True``, moving nothing. A
repeat that contradicts the first booking (another winner) is refused instead. Two
processes racing to book the same event both reach the database's unique key; the
loser of the race is rolled back and retried, and then finds the event booked.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

from sqlalchemy import select, text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tavla.ledger import postings, reports, store
from tavla.ledger.accounts import AccountKey, AccountKind, pool_account
from tavla.ledger.errors import (
    AccountError,
    ConflictError,
    GameAlreadyClosedError,
    GameNotReservedError,
    TournamentClosedError,
)
from tavla.ledger.games import GameStatus, StakedGame
from tavla.ledger.postings import Posting, TransactionKind
from tavla.ledger.stakes import FEE_BASIS_POINTS, StakeTerms
from tavla.ledger.tables import AccountRow, EntryRow, StakedGameRow, TournamentRow, TransactionRow
from tavla.ledger.tournaments import TournamentStatus, TournamentTerms
from tavla.ledger.views import FeeReport, Statement, TransactionRecord

T = TypeVar("T")

_ATTEMPTS = 5
"""How often a unit of work is tried when the database reports a race it lost."""


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class Ledger:
    def __init__(
        self,
        sessions: async_sessionmaker[AsyncSession],
        *,
        clock_ms: Callable[[], int] = _wall_clock_ms,
        fee_basis_points: int = FEE_BASIS_POINTS,
    ) -> None:
        self._sessions = sessions
        self._clock_ms = clock_ms
        self._fee_basis_points = fee_basis_points

    # -- units of work -------------------------------------------------------------

    async def _write(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        for attempt in range(_ATTEMPTS):
            try:
                async with self._sessions() as session, session.begin():
                    if session.get_bind().dialect.name == "sqlite":
                        # Take SQLite's write lock at once: a transaction that read first
                        # and wrote later could find another writer ahead of it and fail
                        # instead of waiting (busy_timeout does not cover that case).
                        await session.execute(text("BEGIN IMMEDIATE"))
                    return await work(session)
            except IntegrityError:
                # Another transaction booked the same key or opened the same row first;
                # the next attempt reads what it committed.
                if attempt == _ATTEMPTS - 1:
                    raise
        raise AssertionError("unreachable")

    async def _read(self, work: Callable[[AsyncSession], Awaitable[T]]) -> T:
        async with self._sessions() as session, session.begin():
            return await work(session)

    async def _book_once(self, session: AsyncSession, posting: Posting) -> TransactionRecord:
        """Book ``posting`` unless its key is booked; a booked key with other entries is
        a conflict (a deposit key reused for another amount)."""
        if posting.key is not None:
            existing = await store.booked(session, posting.key)
            if existing is not None:
                if existing.entries != posting.entries:
                    raise ConflictError(f"key {posting.key!r} is already booked for other movements")
                return existing
        return await store.book(session, posting, self._clock_ms())

    # -- cash in and out -----------------------------------------------------------

    async def deposit(
        self, account: AccountKey, amount_cents: int, *, actor: str, reason: str, key: str | None = None
    ) -> TransactionRecord:
        """Money paid in from outside; ``key`` (the payment's reference) makes a retried
        deposit harmless."""
        posting = postings.deposit(account, amount_cents, actor=actor, reason=reason, key=key)
        _refuse_internal(account)
        return await self._write(lambda session: self._book_once(session, posting))

    async def withdraw(
        self, account: AccountKey, amount_cents: int, *, actor: str, reason: str, key: str | None = None
    ) -> TransactionRecord:
        posting = postings.withdrawal(account, amount_cents, actor=actor, reason=reason, key=key)
        _refuse_internal(account)
        return await self._write(lambda session: self._book_once(session, posting))

    # -- games ---------------------------------------------------------------------

    async def agree_stake(
        self, game_id: str, federation: str, players: tuple[str, str], terms: StakeTerms
    ) -> StakedGame:
        """Record the stake when the game or match is made; agreeing the same stake again
        returns it, a different one for the same game id is a conflict."""
        wanted = StakedGame(game_id, federation, players, terms)

        async def work(session: AsyncSession) -> StakedGame:
            row = await session.get(StakedGameRow, game_id)
            if row is not None:
                existing = store.staked_game(row)
                if not existing.same_deal(wanted):
                    raise ConflictError(f"game {game_id!r} already has another stake: {existing}")
                return existing
            session.add(
                StakedGameRow(
                    game_id=game_id,
                    federation=federation,
                    player0=players[0],
                    player1=players[1],
                    terms=terms.to_json(),
                    status=GameStatus.AGREED.value,
                    created_ms=self._clock_ms(),
                )
            )
            await session.flush()
            return wanted

        return await self._write(work)

    async def reserve(self, game_id: str, *, actor: str = "server") -> TransactionRecord:
        """Hold both players' maximum stakes when play starts; all or nothing."""

        async def work(session: AsyncSession) -> TransactionRecord:
            row = await store.game_row(session, game_id)
            game = store.staked_game(row)
            if game.status is GameStatus.RESERVED:
                existing = await store.booked(session, postings.game_reserve_key(game_id))
                if existing is None:  # the status and the booking are written together
                    raise RuntimeError(f"game {game_id!r} is reserved but its booking is missing")
                return existing
            if game.status.closed:
                raise GameAlreadyClosedError(game_id, game.status.value)
            booked = await store.book(session, postings.reservation(game, actor=actor), self._clock_ms())
            row.status = GameStatus.RESERVED.value
            return booked

        return await self._write(work)

    async def settle(
        self,
        game_id: str,
        winner: str,
        points: int,
        *,
        actor: str = "server",
        reason: str = "official result",
    ) -> TransactionRecord:
        """Pay out the escrow for the official result (``points`` won, cube included; a
        match's fixed stake ignores them). Settling again with the same result returns
        the first settlement; with another result it is refused."""

        async def work(session: AsyncSession) -> TransactionRecord:
            row = await store.game_row(session, game_id)
            game = store.staked_game(row)
            if game.status is GameStatus.SETTLED:
                if (game.winner, game.points) != (winner, points):
                    raise GameAlreadyClosedError(
                        game_id, f"settled for {game.winner} with {game.points} points"
                    )
                existing = await store.booked(session, postings.game_close_key(game_id))
                if existing is None:  # the status and the booking are written together
                    raise RuntimeError(f"game {game_id!r} is closed but its booking is missing")
                return existing
            if game.status.closed:
                raise GameAlreadyClosedError(game_id, game.status.value)
            if game.status is not GameStatus.RESERVED:
                raise GameNotReservedError(game_id, game.status.value)
            posting = postings.settlement(
                game, winner, points, actor=actor, reason=reason, basis_points=self._fee_basis_points
            )
            booked = await store.book(session, posting, self._clock_ms())
            row.status, row.winner, row.points = GameStatus.SETTLED.value, winner, points
            row.closed_ms = booked.created_ms
            return booked

        return await self._write(work)

    async def release(
        self, game_id: str, *, actor: str = "server", reason: str = "game void"
    ) -> TransactionRecord | None:
        """Give both reservations back (an abandoned or void game). A game released before
        play started is cancelled and ``None`` returned: nothing was held."""

        async def work(session: AsyncSession) -> TransactionRecord | None:
            row = await store.game_row(session, game_id)
            game = store.staked_game(row)
            if game.status is GameStatus.SETTLED:
                raise GameAlreadyClosedError(game_id, "settled")
            if game.status in (GameStatus.RELEASED, GameStatus.CANCELLED):
                return await store.booked(session, postings.game_close_key(game_id))
            if game.status is GameStatus.AGREED:
                row.status, row.closed_ms = GameStatus.CANCELLED.value, self._clock_ms()
                return None
            posting = postings.release(game, actor=actor, reason=reason)
            booked = await store.book(session, posting, self._clock_ms())
            row.status, row.closed_ms = GameStatus.RELEASED.value, booked.created_ms
            return booked

        return await self._write(work)

    async def game(self, game_id: str) -> StakedGame:
        async def work(session: AsyncSession) -> StakedGame:
            return store.staked_game(await store.game_row(session, game_id))

        return await self._read(work)

    # -- tournaments ---------------------------------------------------------------

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

    # -- reading -------------------------------------------------------------------

    async def tournament_row(self, tournament_id: str) -> TournamentRow | None:
        """A tournament's terms and status as stored; ``None`` when it has no books."""

        async def work(session: AsyncSession) -> TournamentRow | None:
            return await session.get(TournamentRow, tournament_id)

        return await self._read(work)

    async def balance(self, account: AccountKey) -> int:
        return await self._read(lambda session: reports.balance(session, account))

    async def balances(self, federation: str) -> dict[AccountKey, int]:
        return await self._read(lambda session: reports.balances(session, federation))

    async def statement(self, account: AccountKey) -> Statement:
        return await self._read(lambda session: reports.statement(session, account))

    async def fee_report(self, federation: str) -> FeeReport:
        return await self._read(lambda session: reports.fee_report(session, federation))

    async def game_transactions(self, game_id: str) -> list[TransactionRecord]:
        return await self._read(lambda session: reports.transactions_of_game(session, game_id))

    async def audit(self) -> list[str]:
        """Every broken promise of the books (empty when they hold); see reports.audit."""
        return await self._read(reports.audit)


def _refuse_internal(account: AccountKey) -> None:
    # Escrows and pools are filled and emptied only by their games and tournaments: a
    # deposit into an escrow would outlive the settlement that empties it.
    if account.kind not in (AccountKind.PLAYER, AccountKind.SPONSOR, AccountKind.HOUSE):
        raise AccountError(f"{account}: money is paid in and out only of player, sponsor and house accounts")


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
