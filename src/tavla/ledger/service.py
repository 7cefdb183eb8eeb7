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

from sqlalchemy.ext.asyncio import AsyncSession

from tavla.ledger import postings, reports, store
from tavla.ledger.accounts import AccountKey, AccountKind
from tavla.ledger.errors import (
    AccountError,
    ConflictError,
    GameAlreadyClosedError,
    GameNotReservedError,
)
from tavla.ledger.games import GameStatus, StakedGame
from tavla.ledger.stakes import StakeTerms
from tavla.ledger.tables import StakedGameRow
from tavla.ledger.tournament_books import TournamentBooks
from tavla.ledger.views import FeeReport, Statement, TransactionRecord


class Ledger(TournamentBooks):
    """Every movement of money, each booked in one transaction (see above)."""

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

    # -- reading -------------------------------------------------------------------

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
