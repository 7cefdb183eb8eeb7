"""The federations' pages: the list, a federation's public page, its administration."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tavla.server.deps import Db, OptionalSession
from tavla.server.errors import ApiError
from tavla.server.federations import powers, service
from tavla.server.federations.standing import Role, standing_of
from tavla.server.i18n import translate
from tavla.server.pages import page_language, render
from tavla.server.tournaments import pages as tournament_pages
from tavla.server.tournaments import service as tournament_service

router = APIRouter(include_in_schema=False)


@router.get("/federations", response_class=HTMLResponse)
async def federations_page(request: Request, db: Db, session: OptionalSession) -> Response:
    who = await standing_of(db, None if session is None else session.user)
    return render(
        request,
        session,
        "federations.html",
        federations=await service.list_federations(db),
        may_create=powers.can_create_federation(who),
    )


@router.get("/federations/{slug}", response_class=HTMLResponse)
async def federation_page(slug: str, request: Request, db: Db, session: OptionalSession) -> Response:
    try:
        federation = await service.federation_at(db, slug)
    except ApiError:
        return render(request, session, "missing.html", status=404)
    user = None if session is None else session.user
    who = await standing_of(db, user)
    applied = await service.has_applied(db, federation, user)
    return render(
        request,
        session,
        "federation.html",
        federation=await service.public_view(db, federation),
        tournaments=await tournament_service.list_tournaments(db, federation),
        state_names=tournament_pages.STATE_NAMES,
        games=tournament_pages.game_titles(),
        runs_it=powers.can_see_private(who, federation.id) or who.site_owner,
        is_player=who.holds(federation.id, Role.PLAYER),
        applied=applied,
        may_apply=not applied
        and user is not None
        and not user.guest
        and powers.can_apply(who, federation.id),
    )


@router.get("/federations/{slug}/admin", response_class=HTMLResponse)
async def administration_page(slug: str, request: Request, db: Db, session: OptionalSession) -> Response:
    """The administrators run the federation here; the site owner sees only the part
    that is his, its administrators (not the members' contacts or applications)."""
    try:
        federation = await service.federation_at(db, slug)
    except ApiError:
        return render(request, session, "missing.html", status=404)
    user = None if session is None else session.user
    who = await standing_of(db, user)
    private = None
    if powers.can_see_private(who, federation.id):
        private = await service.private_view(db, user, federation)
    elif not who.site_owner:
        refusal = service.refusal_to_administer(federation)
        message = translate(page_language(request, session), refusal.template, refusal.params)
        return render(request, session, "missing.html", status=403, refused=message)
    return render(
        request,
        session,
        "federation_admin.html",
        federation=await service.public_view(db, federation),
        private=private,
        tournaments=await tournament_service.list_tournaments(db, federation),
        state_names=tournament_pages.STATE_NAMES,
        formats=tournament_pages.FORMAT_NAMES,
        games=tournament_pages.game_titles(),
        may_appoint_administrators=powers.can_appoint(who, federation.id, Role.ADMINISTRATOR),
    )
