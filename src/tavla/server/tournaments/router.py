"""The tournaments' JSON API (docs/tournaments.md): thin, each route hands the request
to the service (or, to start a round, the director), which authorises."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from tavla.server.deps import CurrentSession, Db, PlatformDep, RowId
from tavla.server.federations.service import federation_at
from tavla.server.stakes import tournaments as money
from tavla.server.stakes.schemas import Sponsorship
from tavla.server.tournaments import imports, service, views
from tavla.server.tournaments.report import report
from tavla.server.tournaments.schemas import (
    BotEntrantCreate,
    PairingView,
    TournamentCreate,
    TournamentSummary,
    TournamentView,
    TrfImport,
    WithdrawalRequest,
)
from tavla.server.tournaments.stored import load, read_one_moment, tournament_at
from tavla.storage.models import Federation

router = APIRouter(prefix="/api", tags=["tournaments"])


@router.get("/federations/{slug}/tournaments")
async def federation_tournaments(slug: str, db: Db) -> list[TournamentSummary]:
    return await service.list_tournaments(db, await federation_at(db, slug))


@router.post("/federations/{slug}/tournaments", status_code=201)
async def create(
    slug: str, body: TournamentCreate, db: Db, platform: PlatformDep, session: CurrentSession
) -> TournamentSummary:
    """Create a tournament of the federation (its administrators), with its entry fee
    and prize shares if it has money."""
    federation = await federation_at(db, slug)
    terms = money.checked_terms(federation, body.entry_fee_cents, body.prize_shares)
    made = await service.create(db, session.user, federation, body)
    if terms is not None:
        await db.commit()  # the ledger books on a connection of its own
        await money.open_books(platform.staked.ledger, made, terms)
    return service.summary(made)


@router.post("/federations/{slug}/tournaments/import", status_code=201)
async def import_report(slug: str, body: TrfImport, db: Db, session: CurrentSession) -> TournamentSummary:
    """Create a Swiss tournament from a TRF16 report, its rounds played (its administrators)."""
    made = await imports.import_trf(db, session.user, await federation_at(db, slug), body)
    return service.summary(made)


@router.get("/tournaments/{tournament_id}")
async def tournament(tournament_id: RowId, db: Db) -> TournamentView:
    """Entrants, the pairings of every round with their games, the standings: public."""
    await read_one_moment(db)
    return await views.view(db, await tournament_at(db, tournament_id))


@router.get("/tournaments/{tournament_id}/trf", response_class=PlainTextResponse)
async def tournament_report(tournament_id: RowId, db: Db) -> PlainTextResponse:
    """A Swiss tournament's official rounds as a FIDE Tournament Report File (TRF16)."""
    await read_one_moment(db)
    found = await tournament_at(db, tournament_id)
    text = report(await load(db, found))
    headers = {"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.trf"'}
    return PlainTextResponse(text, headers=headers)


@router.post("/tournaments/{tournament_id}/registration")
async def open_registration(tournament_id: RowId, db: Db, session: CurrentSession) -> TournamentSummary:
    """Open registration (the federation's administrators)."""
    found = await tournament_at(db, tournament_id)
    await service.advance(db, session.user, found, "registration")
    return service.summary(found)


@router.post("/tournaments/{tournament_id}/check-in")
async def open_check_in(tournament_id: RowId, db: Db, session: CurrentSession) -> TournamentSummary:
    """Close registration and open check-in (the federation's administrators)."""
    found = await tournament_at(db, tournament_id)
    await service.advance(db, session.user, found, "check_in")
    return service.summary(found)


@router.post("/tournaments/{tournament_id}/rounds", status_code=201)
async def start_round(tournament_id: RowId, platform: PlatformDep, session: CurrentSession) -> dict[str, int]:
    """Pair the next round and start its games (the federation's administrators)."""
    number = await platform.tournaments.start_round(session.user, tournament_id)
    return {"round": number}


@router.post("/tournaments/{tournament_id}/bots", status_code=201)
async def add_bot(
    tournament_id: RowId, body: BotEntrantCreate, db: Db, session: CurrentSession
) -> dict[str, str]:
    """Enter a bot account, checked in (the federation's administrators)."""
    name = await service.add_bot(db, session.user, await tournament_at(db, tournament_id), body.level)
    return {"name": name}


@router.put("/tournaments/{tournament_id}/entrants/me")
async def register(
    tournament_id: RowId, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, bool]:
    """Enter the tournament (a player of its federation, while registration is open),
    paying its entry fee."""
    found = await tournament_at(db, tournament_id)
    federation = await db.get(Federation, found.federation_id)
    if federation is not None:
        await money.entry_fee_due(platform.staked.ledger, found, federation, session.user)
    await service.register(db, session.user, found)
    entry = await money.entry_of(db, found, session.user)
    await db.commit()
    if entry is not None:
        await money.charge_entry(platform.staked.ledger, platform.sessions, found, session.user, entry)
    return {"ok": True}


@router.delete("/tournaments/{tournament_id}/entrants/me")
async def withdraw(
    tournament_id: RowId, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, bool]:
    """Take one's registration back before the tournament starts (its fee comes back),
    or withdraw from it while it runs (the fee stays in the pool; withdrawals.py)."""
    found = await tournament_at(db, tournament_id)
    if found.state == "running":
        await db.rollback()  # the director writes on a session of its own
        await platform.tournaments.withdraw(session.user, tournament_id, None, "")
        return {"ok": True}
    entry = await money.entry_of(db, found, session.user)
    await service.withdraw(db, session.user, found)
    await db.commit()
    if entry is not None:
        await money.refund_entry(platform.staked.ledger, found, session.user, entry)
    return {"ok": True}


@router.post("/tournaments/{tournament_id}/players/{number}/withdrawal")
async def withdraw_player(
    tournament_id: RowId,
    number: RowId,
    body: WithdrawalRequest,
    platform: PlatformDep,
    session: CurrentSession,
) -> dict[str, bool]:
    """An administrator or arbiter of the federation withdraws the player of start
    ``number`` from the running tournament, saying why."""
    await platform.tournaments.withdraw(session.user, tournament_id, number, body.reason)
    return {"ok": True}


@router.post("/tournaments/{tournament_id}/entrants/me/check-in")
async def check_in(tournament_id: RowId, db: Db, session: CurrentSession) -> dict[str, bool]:
    await service.check_in(db, session.user, await tournament_at(db, tournament_id))
    return {"ok": True}


@router.post("/tournaments/{tournament_id}/pairings/{pairing_id}/confirm")
async def confirm(
    tournament_id: RowId, pairing_id: RowId, db: Db, platform: PlatformDep, session: CurrentSession
) -> PairingView:
    """A player confirms his result; an arbiter of the federation makes it official."""
    # Locked as the director locks it: a game of the same round ending meanwhile would
    # otherwise decide from what it read before this confirmation whether the round, or
    # the tournament, is over (PostgreSQL; SQLite writes one at a time).
    found = await tournament_at(db, tournament_id, for_update=True)
    await service.confirm(db, session.user, found, pairing_id)
    shown = await views.view(db, found)
    if found.state == "finished":
        await db.commit()  # the prizes follow the final table, once it is stored
        await money.pay_prizes(platform.staked.ledger, platform.sessions, tournament_id)
    return next(p for r in shown.played_rounds for p in r.pairings if p.id == pairing_id)


@router.get("/tournaments/{tournament_id}/money")
async def tournament_money(tournament_id: RowId, db: Db, platform: PlatformDep) -> dict[str, Any]:
    """The entry fee, the prize shares and the pool now (public, like the standings)."""
    found = await tournament_at(db, tournament_id)
    return {"money": await money.terms_of(platform.staked.ledger, found.id)}


@router.post("/tournaments/{tournament_id}/sponsorships", status_code=201)
async def sponsor(
    tournament_id: RowId, body: Sponsorship, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """An administrator adds a sponsor's money to the prize pool."""
    found = await tournament_at(db, tournament_id)
    federation = await db.get(Federation, found.federation_id)
    if federation is None:  # the foreign key keeps it
        raise RuntimeError(f"tournament {tournament_id} has no federation")
    return await money.sponsor(db, platform.staked.ledger, session.user, federation, found, body)
