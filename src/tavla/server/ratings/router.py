"""The ratings lists: a federation's, for one game, as JSON and as a page."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tavla.server.deps import Db, OptionalSession
from tavla.server.errors import ApiError
from tavla.server.federations import service
from tavla.server.pages import render
from tavla.server.ratings.apply import uses_glicko2
from tavla.server.ratings.views import SORTS, RatingsList, game_titles, ratings_list

router = APIRouter(prefix="/api", tags=["ratings"])
pages = APIRouter(include_in_schema=False)


@router.get("/federations/{slug}/ratings/{game}")
async def federation_ratings(slug: str, game: str, db: Db, sort: str = "rating") -> RatingsList:
    return await ratings_list(db, await service.federation_at(db, slug), game, sort)


@pages.get("/federations/{slug}/ratings/{game}", response_class=HTMLResponse)
async def ratings_page(
    slug: str, game: str, request: Request, db: Db, session: OptionalSession, sort: str = "rating"
) -> Response:
    try:
        federation = await service.federation_at(db, slug)
        shown = await ratings_list(db, federation, game, sort)
    except ApiError:
        return render(request, session, "missing.html", status=404)
    return render(
        request,
        session,
        "ratings.html",
        federation=federation,
        game_title=game_titles()[game],
        games=game_titles(),
        shown=shown,
        sorts=SORTS,
        glicko=uses_glicko2(game),
    )
