"""The ASGI application: ``create_app(settings)``; ``tavla serve`` runs it with uvicorn."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles
from sqlalchemy.exc import DataError, DBAPIError
from starlette.exceptions import HTTPException

import tavla
from tavla.server import api, pages, ws
from tavla.server.errors import ApiError, invalid_request
from tavla.server.federations import pages as federation_pages
from tavla.server.federations import router as federations
from tavla.server.i18n import LANGUAGE_COOKIE, N_, choose_language, translate
from tavla.server.lobby import DIRTY_TOPIC, LOBBY_TOPIC
from tavla.server.nul import RefuseNul
from tavla.server.platform import Platform
from tavla.server.ratings import router as ratings
from tavla.server.settings import Settings
from tavla.server.stakes import pages as money_pages
from tavla.server.stakes import router as money_api
from tavla.server.stakes import voids as money_voids
from tavla.server.tournaments import pages as tournament_pages
from tavla.server.tournaments import router as tournaments

STATIC = Path(__file__).with_name("static")
LOBBY_DEBOUNCE_S = 0.25
LOBBY_RETRY_S = 1.0
log = logging.getLogger(__name__)
FRAMEWORK_REFUSALS = {
    400: ("invalid", N_("the request's body could not be read as JSON")),
    404: ("not_found", N_("there is nothing at this address")),
    405: ("method_not_allowed", N_("this address does not take this method")),
}


def answer_language(request: Request) -> str:
    """The language a refusal is answered in: the session's (deps.py keeps it on the
    request), else the one picked on a page, else the browser's."""
    return choose_language(
        getattr(request.state, "reader", None),
        request.cookies.get(LANGUAGE_COOKIE),
        request.headers.get("accept-language", ""),
    )


async def _lobby_refresher(platform: Platform) -> None:
    """Publishes the lobby after changes, at most four times a second."""
    dirty = asyncio.Event()
    platform.hub.subscribe(DIRTY_TOPIC, lambda _message: dirty.set())
    # While Redis was away, the other processes' changes passed by unheard.
    platform.hub.on_reconnect.append(dirty.set)
    while True:
        await dirty.wait()
        await asyncio.sleep(LOBBY_DEBOUNCE_S)
        dirty.clear()
        if platform.hub.subscribers(LOBBY_TOPIC):
            try:
                await platform.lobby.show_here()
            except Exception:
                # The database is away: the lobby is drawn again once it is back, not
                # at the next change, which may be long in coming.
                log.warning("the lobby could not be drawn; trying again", exc_info=True)
                await asyncio.sleep(LOBBY_RETRY_S)
                dirty.set()


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    platform = Platform.build(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await platform.start()
        refresher = asyncio.create_task(_lobby_refresher(platform))
        try:
            yield
        finally:
            refresher.cancel()
            await platform.stop()

    app = FastAPI(
        title="Tavla",
        version=tavla.__version__,
        summary="Play the Turkish and Balkan backgammon family and Abluka online.",
        lifespan=lifespan,
    )
    app.state.platform = platform

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, error: ApiError) -> JSONResponse:
        headers = {"Retry-After": str(error.retry_after_s)} if error.retry_after_s else None
        body = {"error": {"code": error.code, "message": error.text(answer_language(request))}}
        return JSONResponse(body, status_code=error.status, headers=headers)

    @app.exception_handler(HTTPException)
    async def _refused_by_the_framework(request: Request, error: HTTPException) -> JSONResponse:
        # An address no route matches, or a method a route lacks: the same error shape
        # as every other refusal, not the framework's own {"detail": ...}.
        code, template = FRAMEWORK_REFUSALS.get(error.status_code, ("invalid", N_("the request was refused")))
        message = translate(answer_language(request), template, {})
        return JSONResponse(
            {"error": {"code": code, "message": message}},
            status_code=error.status_code,
            headers=error.headers,
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        template, params = invalid_request(error.errors()[0] if error.errors() else {})
        message = translate(answer_language(request), template, params)
        return JSONResponse({"error": {"code": "invalid", "message": message}}, status_code=422)

    @app.exception_handler(DataError)
    async def _unstorable(request: Request, error: DataError) -> JSONResponse:
        # A value the database cannot hold (a character PostgreSQL's text refuses, a
        # number beyond its column) is the request's fault; its transaction rolled back.
        log.warning("refused a value the database cannot hold: %s", error.orig)
        detail = {"detail": "a value the database cannot hold"}
        message = translate(answer_language(request), N_("invalid request: {detail}"), detail)
        return JSONResponse({"error": {"code": "invalid", "message": message}}, status_code=422)

    @app.exception_handler(DBAPIError)
    async def _database_lost(request: Request, error: DBAPIError) -> JSONResponse:
        if not error.connection_invalidated:
            raise error
        # The pool pings no connection before lending it (storage/database.py): one
        # that died with a database restart fails its first statement, and the pool
        # starts afresh. The request stored nothing; asked again, it finds a new one.
        log.warning("a database connection was lost in a request; the pool reconnects: %s", error.orig)
        message = translate(answer_language(request), N_("the database could not be reached; try again"))
        return JSONResponse(
            {"error": {"code": "unavailable", "message": message}},
            status_code=503,
            headers={"Retry-After": "1"},
        )

    app.add_middleware(RefuseNul)
    app.include_router(api.router)
    app.include_router(federations.router)
    app.include_router(tournaments.router)
    app.include_router(money_api.router)
    app.include_router(money_voids.router)
    app.include_router(ratings.router)
    app.include_router(ratings.pages)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.include_router(federation_pages.router)
    app.include_router(tournament_pages.router)
    app.include_router(money_pages.router)
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=STATIC), name="static")
    return app
