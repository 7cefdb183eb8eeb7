"""The federations' JSON API (docs/federations.md): thin, each route hands the
request to the service, which authorises."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from tavla.server.deps import CurrentSession, Db, OptionalSession, PlatformDep
from tavla.server.errors import ApiError, not_found
from tavla.server.federations import observing, service
from tavla.server.federations.schemas import (
    ApplicationCreate,
    FederationCreate,
    FederationPrivate,
    FederationPublic,
    FederationSummary,
    ForfeitCreate,
    Membership,
    WarningCreate,
)
from tavla.server.federations.standing import Role
from tavla.server.i18n import N_
from tavla.server.live.officials import Outcome
from tavla.server.live.room import Refused
from tavla.storage.models import LiveGame

router = APIRouter(prefix="/api", tags=["federations"])

# The roles' segments in addresses: /api/federations/tbf/arbiters/ayse
ROLE_PATHS = {"administrators": Role.ADMINISTRATOR, "arbiters": Role.ARBITER, "players": Role.PLAYER}


def _role(segment: str) -> Role:
    role = ROLE_PATHS.get(segment)
    if role is None:
        raise not_found(N_("no such role: {role}; administrators, arbiters or players"), role=segment)
    return role


@router.get("/federations")
async def federations(db: Db) -> list[FederationSummary]:
    return await service.list_federations(db)


@router.post("/federations", status_code=201)
async def create_federation(body: FederationCreate, db: Db, session: CurrentSession) -> FederationSummary:
    """Create a federation (the site owner only)."""
    made = await service.create_federation(db, session.user, body)
    return FederationSummary(slug=made.slug, name=made.name, url=f"/federations/{made.slug}")


@router.get("/federations/{slug}")
async def federation(slug: str, db: Db) -> FederationPublic:
    """The federation's name and who holds which role: public."""
    return await service.public_view(db, await service.federation_at(db, slug))


@router.get("/federations/{slug}/administration")
async def administration(slug: str, db: Db, session: OptionalSession) -> FederationPrivate:
    """Members with their contact addresses, and pending applications: the federation's
    administrators only."""
    found = await service.federation_at(db, slug)
    return await service.private_view(db, None if session is None else session.user, found)


@router.put("/federations/{slug}/{roles}/{name}")
async def appoint(slug: str, roles: str, name: str, db: Db, session: CurrentSession) -> Membership:
    """Appoint an administrator (site owner), an arbiter or admit a player (administrators)."""
    role = _role(roles)
    return await service.appoint(db, session.user, await service.federation_at(db, slug), name, role)


@router.post("/federations/{slug}/applications", status_code=201)
async def apply(
    slug: str, db: Db, session: CurrentSession, body: ApplicationCreate | None = None
) -> dict[str, bool]:
    """Ask to be admitted as a player; an administrator decides."""
    await service.apply(db, session.user, await service.federation_at(db, slug), body or ApplicationCreate())
    return {"ok": True}


@router.delete("/federations/{slug}/applications/{name}")
async def turn_down(slug: str, name: str, db: Db, session: CurrentSession) -> dict[str, bool]:
    """An administrator turns an application down; the applicant may withdraw his own."""
    await service.withdraw_application(db, session.user, await service.federation_at(db, slug), name)
    return {"ok": True}


# After the applications' route: its address would match this one's pattern too.
@router.delete("/federations/{slug}/{roles}/{name}")
async def dismiss(slug: str, roles: str, name: str, db: Db, session: CurrentSession) -> dict[str, bool]:
    """Take a role away (as appointing it); a player may also leave by himself."""
    role = _role(roles)
    await service.dismiss(db, session.user, await service.federation_at(db, slug), name, role)
    return {"ok": True}


# ---------------------------------------------------------------- a game's chat
async def _game(db: Db, game_id: str) -> LiveGame:
    row = await db.get(LiveGame, game_id)
    if row is None:
        raise not_found(N_("game not found"))
    return row


@router.get("/games/{game_id}/chat")
async def game_chat(game_id: str, db: Db, session: OptionalSession) -> dict[str, Any]:
    """The players' chat: for the players and the arbiters of the game's federation."""
    row = await _game(db, game_id)
    lines = await observing.chat_lines(db, row, None if session is None else session.user)
    return {"closed": row.chat_closed, "messages": lines}


@router.post("/games/{game_id}/chat/close")
async def close_chat(game_id: str, db: Db, platform: PlatformDep, session: CurrentSession) -> dict[str, bool]:
    """An arbiter of the game's federation closes the players' chat for good."""
    row = await _game(db, game_id)
    await observing.check_may_close_chat(db, row, session.user)
    await _officiate(game_id, db, platform, session, "close_chat", checked=True)
    return {"ok": True, "closed": True}


async def _officiate(
    game_id: str,
    db: Db,
    platform: PlatformDep,
    session: CurrentSession,
    action: str,
    body: ForfeitCreate | WarningCreate | None = None,
    *,
    checked: bool = False,
) -> Outcome:
    """An official's action on a live tournament game, once the caller may make it
    (an arbiter or administrator of its federation; ``checked``: the caller checked);
    the match afterwards, wherever its room runs."""
    row = await _game(db, game_id)
    if not checked:
        await observing.check_may_warn(db, row, session.user)
    await db.commit()  # the room stores the change on its own connection
    try:
        outcome = None
        if row.status == "live":
            seat, note = (None, "") if body is None else (body.seat, body.note)
            outcome = await platform.rooms.officiate(game_id, action, seat, note)
    except Refused as refused:
        status = 409 if refused.code == "over" else 503 if refused.code == "unavailable" else 422
        raise ApiError(status, refused.code, refused.template, **refused.params) from None  # type: ignore[arg-type]
    if outcome is None:
        raise ApiError(409, "over", N_("the match is over"))
    return outcome


@router.post("/games/{game_id}/forfeit")
async def declare_forfeit(
    game_id: str, body: ForfeitCreate, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """An arbiter or administrator of a tournament game's federation declares that one
    player (or, with seat null, both) loses the match at once: a no-show both ways, or
    his decision (docs/tournaments.md)."""
    outcome = await _officiate(game_id, db, platform, session, "forfeit", body)
    return {"ok": True, "over": outcome.over, "winner": outcome.winner, "forfeit": outcome.forfeit}


@router.post("/games/{game_id}/warnings")
async def warn_player(
    game_id: str, body: WarningCreate, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """An arbiter or administrator of a tournament game's federation warns one of its
    players; the third warning loses the match (RULES.md 8.3, 11.4)."""
    outcome = await _officiate(game_id, db, platform, session, "warn", body)
    return {"ok": True, "warnings": list(outcome.warnings), "over": outcome.over, "winner": outcome.winner}
