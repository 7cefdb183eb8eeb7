"""The ledger's units of work: one database transaction each, retried when a race
with another writer was lost (see service.py for what the ledger promises)."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker

from tavla.ledger import store
from tavla.ledger.errors import ConflictError
from tavla.ledger.postings import Posting
from tavla.ledger.stakes import FEE_BASIS_POINTS
from tavla.ledger.views import TransactionRecord

T = TypeVar("T")

_ATTEMPTS = 5
"""How often a unit of work is tried when the database reports a race it lost."""


def _wall_clock_ms() -> int:
    return time.time_ns() // 1_000_000


class LedgerCore:
    """The session factory, the clock and the fee, and the units of work on them."""

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
