"""The tournaments' JSON API (docs/tournaments.md): thin, each route hands the request
to the service (or, to start a round, the director), which authorises."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import PlainTextResponse

from tavla.server.deps import CurrentSession, Db, PlatformDep
from tavla.server.federations.service import federation_at
from tavla.server.tournaments import imports, service, views
from tavla.server.tournaments.report import report
from tavla.server.tournaments.schemas import (
    BotEntrantCreate,
    PairingView,
    TournamentCreate,
    TournamentSummary,
    TournamentView,
    TrfImport,
)
from tavla.server.tournaments.stored import load, read_one_moment, tournament_at

router = APIRouter(prefix="/api", tags=["tournaments"])


@router.get("/federations/{slug}/tournaments")
async def federation_tournaments(slug: str, db: Db) -> list[TournamentSummary]:
    return await service.list_tournaments(db, await federation_at(db, slug))


@router.post("/federations/{slug}/tournaments", status_code=201)
async def create(slug: str, body: TournamentCreate, db: Db, session: CurrentSession) -> TournamentSummary:
    """Create a tournament of the federation (its administrators)."""
    made = await service.create(db, session.user, await federation_at(db, slug), body)
    return service.summary(made)


@router.post("/federations/{slug}/tournaments/import", status_code=201)
async def import_report(slug: str, body: TrfImport, db: Db, session: CurrentSession) -> TournamentSummary:
    """Create a Swiss tournament from a TRF16 report, its rounds played (its administrators)."""
    made = await imports.import_trf(db, session.user, await federation_at(db, slug), body)
    return service.summary(made)


@router.get("/tournaments/{tournament_id}")
async def tournament(tournament_id: int, db: Db) -> TournamentView:
    """Entrants, the pairings of every round with their games, the standings: public."""
    await read_one_moment(db)
    return await views.view(db, await tournament_at(db, tournament_id))


@router.get("/tournaments/{tournament_id}/trf", response_class=PlainTextResponse)
async def tournament_report(tournament_id: int, db: Db) -> PlainTextResponse:
    """A Swiss tournament's official rounds as a FIDE Tournament Report File (TRF16)."""
    await read_one_moment(db)
    found = await tournament_at(db, tournament_id)
    text = report(await load(db, found))
    headers = {"Content-Disposition": f'attachment; filename="tournament-{tournament_id}.trf"'}
    return PlainTextResponse(text, headers=headers)


@router.post("/tournaments/{tournament_id}/registration")
async def open_registration(tournament_id: int, db: Db, session: CurrentSession) -> TournamentSummary:
    """Open registration (the federation's administrators)."""
    found = await tournament_at(db, tournament_id)
    await service.advance(db, session.user, found, "registration")
    return service.summary(found)


@router.post("/tournaments/{tournament_id}/check-in")
async def open_check_in(tournament_id: int, db: Db, session: CurrentSession) -> TournamentSummary:
    """Close registration and open check-in (the federation's administrators)."""
    found = await tournament_at(db, tournament_id)
    await service.advance(db, session.user, found, "check_in")
    return service.summary(found)


@router.post("/tournaments/{tournament_id}/rounds", status_code=201)
async def start_round(tournament_id: int, platform: PlatformDep, session: CurrentSession) -> dict[str, int]:
    """Pair the next round and start its games (the federation's administrators)."""
    number = await platform.tournaments.start_round(session.user, tournament_id)
    return {"round": number}


@router.post("/tournaments/{tournament_id}/bots", status_code=201)
async def add_bot(
    tournament_id: int, body: BotEntrantCreate, db: Db, session: CurrentSession
) -> dict[str, str]:
    """Enter a bot account, checked in (the federation's administrators)."""
    name = await service.add_bot(db, session.user, await tournament_at(db, tournament_id), body.level)
    return {"name": name}


@router.put("/tournaments/{tournament_id}/entrants/me")
async def register(tournament_id: int, db: Db, session: CurrentSession) -> dict[str, bool]:
    """Enter the tournament (a player of its federation, while registration is open)."""
    await service.register(db, session.user, await tournament_at(db, tournament_id))
    return {"ok": True}


@router.delete("/tournaments/{tournament_id}/entrants/me")
async def withdraw(tournament_id: int, db: Db, session: CurrentSession) -> dict[str, bool]:
    """Take one's registration back before the tournament starts."""
    await service.withdraw(db, session.user, await tournament_at(db, tournament_id))
    return {"ok": True}


@router.post("/tournaments/{tournament_id}/entrants/me/check-in")
async def check_in(tournament_id: int, db: Db, session: CurrentSession) -> dict[str, bool]:
    await service.check_in(db, session.user, await tournament_at(db, tournament_id))
    return {"ok": True}


@router.post("/tournaments/{tournament_id}/pairings/{pairing_id}/confirm")
async def confirm(tournament_id: int, pairing_id: int, db: Db, session: CurrentSession) -> PairingView:
    """A player confirms his result; an arbiter of the federation makes it official."""
    # Locked as the director locks it: a game of the same round ending meanwhile would
    # otherwise decide from what it read before this confirmation whether the round, or
    # the tournament, is over (PostgreSQL; SQLite writes one at a time).
    found = await tournament_at(db, tournament_id, for_update=True)
    await service.confirm(db, session.user, found, pairing_id)
    shown = await views.view(db, found)
    return next(p for r in shown.played_rounds for p in r.pairings if p.id == pairing_id)
