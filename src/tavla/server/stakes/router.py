"""Money's JSON API (docs/ledger.md, the platform): thin, the services authorise."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tavla.server.deps import CurrentSession, Db, PlatformDep
from tavla.server.federations.service import federation_at
from tavla.server.stakes import money
from tavla.server.stakes.schemas import CashMovement

router = APIRouter(prefix="/api/federations/{slug}", tags=["money"])


@router.post("/money/{name}/deposits", status_code=201)
async def deposit(
    slug: str, name: str, body: CashMovement, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """An administrator records money a player paid in (from the federation's cash)."""
    federation = await federation_at(db, slug)
    record = await money.move_cash(
        db, platform.staked.ledger, session.user, federation, name, body, withdrawal=False
    )
    return money.transaction_json(record)


@router.post("/money/{name}/withdrawals", status_code=201)
async def withdraw(
    slug: str, name: str, body: CashMovement, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """An administrator records money paid out to a player, up to what he has available."""
    federation = await federation_at(db, slug)
    record = await money.move_cash(
        db, platform.staked.ledger, session.user, federation, name, body, withdrawal=True
    )
    return money.transaction_json(record)


@router.get("/money/{name}")
async def statement(
    slug: str, name: str, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """A player's balance and statement: his own, or his administrators'."""
    federation = await federation_at(db, slug)
    return await money.player_statement(db, platform.staked.ledger, session.user, federation, name)


@router.get("/books")
async def books(slug: str, db: Db, platform: PlatformDep, session: CurrentSession) -> dict[str, Any]:
    """The federation's fees, cash and accounts, summing to zero: its administrators."""
    federation = await federation_at(db, slug)
    return await money.books(db, platform.staked.ledger, session.user, federation)
