"""One owner per live game: a lease in the database, and a fencing token.

A process owns a live game while its lease runs (``lease_until_ms``, wall clock); it
renews the leases of all its games in one statement, well before they run out. A
process that finds a lease run out takes the game over: the claim raises the game's
``fence``. Every change the owner stores is conditional on the fence it took, in the
same transaction, so an owner that was paused past its lease and wakes up after
another took over can store nothing more (gamerows.py).

With one process (no hub between processes) nobody else can own a game: a claim then
takes over at once whatever the lease says, so a restart after a crash resumes the
games without waiting for the dead process's leases to run out.
"""

from __future__ import annotations

import os
import secrets
import time
from dataclasses import dataclass
from typing import cast

from sqlalchemy import Table, and_, bindparam, or_, select
from sqlalchemy.ext.asyncio import AsyncEngine

from tavla.storage.models import LiveGame

GAMES = cast(Table, LiveGame.__table__)


def wall_ms() -> int:
    return time.time_ns() // 1_000_000


def new_node_id() -> str:
    """This process's name in the leases: its pid (for people reading the table) and
    random bits (pids repeat across machines and restarts)."""
    return f"{os.getpid()}-{secrets.token_hex(6)}"


class LeaseLost(RuntimeError):
    """The game has another owner now: this process may store nothing more for it."""


@dataclass(frozen=True)
class Holder:
    """Who holds a live game's lease, as the database says."""

    owner: str | None
    fence: int
    lease_until_ms: int | None


class Leases:
    def __init__(self, engine: AsyncEngine, *, node: str, lease_ms: int, exclusive: bool) -> None:
        self.engine = engine
        self.node = node
        self.lease_ms = lease_ms
        self.exclusive = exclusive
        """The only process: a claim never waits for another's lease to run out."""

    def new_game_values(self) -> dict[str, object]:
        """The lease columns of a game this process creates (and so owns, fence 1)."""
        now = wall_ms()
        return {"owner": self.node, "fence": 1, "lease_until_ms": now + self.lease_ms, "held_ms": now}

    async def claim(self, game_id: str) -> int | None:
        """Take the live game if nobody holds it (or this process already does): the new
        fence; None when another process holds it or it is not live."""
        now = wall_ms()
        free = or_(GAMES.c.owner.is_(None), GAMES.c.lease_until_ms < now, GAMES.c.owner == self.node)
        condition = and_(GAMES.c.id == game_id, GAMES.c.status == "live")
        if not self.exclusive:
            condition = and_(condition, free)
        statement = (
            GAMES.update()
            .where(condition)
            .values(owner=self.node, fence=GAMES.c.fence + 1, lease_until_ms=now + self.lease_ms)
            .returning(GAMES.c.fence)
        )
        async with self.engine.begin() as connection:
            fence = (await connection.execute(statement)).scalar_one_or_none()
        return None if fence is None else int(fence)

    async def renew(self) -> dict[str, int]:
        """Extend every lease this process holds; the games it still holds, with their fences."""
        now = wall_ms()
        statement = (
            GAMES.update()
            .where(GAMES.c.owner == self.node, GAMES.c.status == "live")
            .values(lease_until_ms=now + self.lease_ms, held_ms=now)
            .returning(GAMES.c.id, GAMES.c.fence)
        )
        async with self.engine.begin() as connection:
            rows = (await connection.execute(statement)).all()
        return {str(row.id): int(row.fence) for row in rows}

    async def release(self, fences: dict[str, int]) -> None:
        """Let go of these games (a clean stop): another process may take them at once."""
        if not fences:
            return
        statement = (
            GAMES.update()
            .where(
                GAMES.c.id == bindparam("b_id"),
                GAMES.c.fence == bindparam("b_fence"),
                GAMES.c.owner == self.node,
            )
            .values(owner=None, lease_until_ms=None)
        )
        async with self.engine.begin() as connection:
            await connection.execute(
                statement, [{"b_id": game_id, "b_fence": fence} for game_id, fence in fences.items()]
            )

    async def unowned(self, limit: int = 100) -> list[str]:
        """Live games nobody holds now (their owner stopped or died)."""
        now = wall_ms()
        condition = GAMES.c.status == "live"
        if not self.exclusive:
            condition = and_(condition, or_(GAMES.c.owner.is_(None), GAMES.c.lease_until_ms < now))
        else:
            condition = and_(condition, or_(GAMES.c.owner.is_(None), GAMES.c.owner != self.node))
        async with self.engine.connect() as connection:
            rows = await connection.execute(select(GAMES.c.id).where(condition).limit(limit))
            return [str(row.id) for row in rows]

    async def holders(self, game_ids: list[str]) -> dict[str, Holder]:
        if not game_ids:
            return {}
        statement = select(GAMES.c.id, GAMES.c.owner, GAMES.c.fence, GAMES.c.lease_until_ms).where(
            GAMES.c.id.in_(game_ids), GAMES.c.status == "live"
        )
        async with self.engine.connect() as connection:
            rows = (await connection.execute(statement)).all()
        return {str(row.id): Holder(row.owner, int(row.fence), row.lease_until_ms) for row in rows}
