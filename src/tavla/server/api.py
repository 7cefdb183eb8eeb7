"""The JSON HTTP API (OpenAPI at /docs): accounts, lobby, games, records, profiles."""

from __future__ import annotations

import os
import socket
from typing import Any

from fastapi import APIRouter, Request, Response
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server import accounts, archive
from tavla.server import lobby as lobby_module
from tavla.server.accounts import SessionInfo
from tavla.server.deps import SESSION_COOKIE, CurrentSession, Db, OptionalSession, PlatformDep, RowId
from tavla.server.errors import ApiError, forbidden, not_found
from tavla.server.federations.observing import check_may_observe
from tavla.server.i18n import N_
from tavla.server.limits import client_address
from tavla.server.live.gamerows import site_bots
from tavla.server.offers import BotGameCreate, OfferAccept, OfferCreate
from tavla.server.platform import Platform
from tavla.server.rollouts import results_of, status_json
from tavla.storage.models import LiveGame, Offer, User

router = APIRouter(prefix="/api")


class Credentials(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str = Field(max_length=64)
    password: str = Field(max_length=accounts.MAX_PASSWORD)
    language: str | None = None


class GuestRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    language: str | None = None


class Preferences(BaseModel):
    model_config = ConfigDict(extra="forbid")

    language: str | None = None
    home_side: str | None = None


class Account(BaseModel):
    """A player as the player sees themself (never the password hash)."""

    name: str
    guest: bool
    language: str
    home_side: str
    csrf_token: str


def _account(user: User, csrf: str) -> Account:
    return Account(
        name=user.name, guest=user.guest, language=user.language, home_side=user.home_side, csrf_token=csrf
    )


def _set_cookie(request: Request, response: Response, token: str, days: int) -> None:
    response.set_cookie(
        SESSION_COOKIE,
        token,
        max_age=days * 86_400,
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
        path="/",
    )


GUEST_DAYS = 1
"""A guest's session lasts a day: there is no password to come back with."""


async def _sign_in(
    request: Request, response: Response, db: AsyncSession, platform: Platform, user: User, days: int
) -> Account:
    """Open a session for ``user`` and set its cookie; the account as answered."""
    token, csrf = await accounts.open_session(db, user, platform.settings.signing_key, days)
    _set_cookie(request, response, token, days)
    return _account(user, csrf)


@router.get("/health")
async def health(platform: PlatformDep) -> dict[str, Any]:
    """200 once the database is migrated and the server takes requests."""
    if not platform.ready:
        raise ApiError(503, "starting", N_("the server is starting"))
    return {
        "status": "ok",
        "live_games": sum(1 for room in platform.rooms.rooms.values() if not room.over),
        # Behind a balancer, which process answered (docs/deploy.md); ``node`` is the
        # name its game leases and relayed sockets go by (docs/API.md 8).
        "process": {
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "port": platform.settings.port,
            "node": platform.relay.node,
        },
        # Where the bots think (docs/deploy.md): workers dying again and again show here.
        "bots": {
            "processes": platform.thinking.processes,
            "started": platform.thinking.started,
            "replaced": platform.thinking.replaced,
        },
    }


@router.post("/register")
async def register(
    body: Credentials,
    request: Request,
    response: Response,
    db: Db,
    platform: PlatformDep,
    _s: OptionalSession,
) -> Account:
    language = body.language or _browser_language(request)
    user = await accounts.register(db, platform.passwords, body.name, body.password, language)
    return await _sign_in(request, response, db, platform, user, platform.settings.session_days)


@router.post("/login")
async def login(
    body: Credentials,
    request: Request,
    response: Response,
    db: Db,
    platform: PlatformDep,
    _s: OptionalSession,
) -> Account:
    address = client_address(
        request.client.host if request.client else None, request.headers, platform.settings.trusted_proxies
    )
    for limit, key in (
        (platform.limits.login_by_address, address),
        (platform.limits.login_by_name, accounts.name_key(body.name)),
    ):
        wait = await limit.retry_after(key)
        if wait:
            raise ApiError(
                429,
                "rate_limited",
                N_("too many attempts; try again in {seconds} s"),
                retry_after_s=wait,
                seconds=wait,
            )
    user = await accounts.authenticate(db, platform.passwords, body.name, body.password)
    if user is None:
        raise ApiError(401, "bad_login", N_("wrong name or password"))
    return await _sign_in(request, response, db, platform, user, platform.settings.session_days)


@router.post("/guest")
async def guest(
    body: GuestRequest,
    request: Request,
    response: Response,
    db: Db,
    platform: PlatformDep,
    _s: OptionalSession,
) -> Account:
    user = await accounts.make_guest(db, body.language or _browser_language(request))
    return await _sign_in(request, response, db, platform, user, GUEST_DAYS)


@router.post("/logout")
async def logout(
    request: Request, response: Response, db: Db, platform: PlatformDep, _s: CurrentSession
) -> dict[str, bool]:
    await accounts.close_session(db, request.cookies.get(SESSION_COOKIE, ""), platform.settings.signing_key)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return {"ok": True}


@router.get("/me")
async def me(session: CurrentSession) -> Account:
    return _account(session.user, session.csrf_token)


@router.put("/me/preferences")
async def preferences(body: Preferences, db: Db, session: CurrentSession) -> Account:
    user = await db.get(User, session.user.id)
    if user is None:  # the account was removed while its session lived
        raise ApiError(401, "not_signed_in", N_("sign in (or play as a guest) first"))
    await accounts.set_preferences(db, user, body.language, body.home_side)
    return _account(user, session.csrf_token)


# ------------------------------------------------------------------- lobby
@router.get("/lobby")
async def lobby(platform: PlatformDep) -> dict[str, Any]:
    """The open offers and the live games that may be watched (as /ws/lobby sends them)."""
    return await platform.lobby.snapshot()


@router.post("/dice-commitments", status_code=201)
async def dice_commitment(db: Db, session: CurrentSession) -> dict[str, str]:
    """The server's commitment to the dice seeds of your next game, drawn before you
    choose your own seed: pass its ``id`` as ``commitment_id`` with the seed when you
    offer a game or play a bot (docs/fair-dice.md)."""
    drawn = await lobby_module.draw_commitment(db, session.user)
    return {"id": drawn.id, "commitment": drawn.commitment}


@router.post("/offers", status_code=201)
async def create_offer(
    body: OfferCreate, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    offer = await platform.lobby.create_offer(db, session.user, body)
    await db.commit()
    await platform.lobby.publish()
    return {"id": offer.id}


@router.delete("/offers/{offer_id}")
async def cancel_offer(
    offer_id: RowId, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, bool]:
    await platform.lobby.cancel_offer(db, session.user, offer_id)
    await db.commit()
    await platform.lobby.publish()
    return {"ok": True}


@router.post("/offers/{offer_id}/accept")
async def accept_offer(
    offer_id: RowId, platform: PlatformDep, session: CurrentSession, body: OfferAccept | None = None
) -> dict[str, Any]:
    room = await platform.lobby.accept_offer(session.user, offer_id, body or OfferAccept())
    await platform.lobby.publish()
    return {"game_id": room.game_id, "url": f"/game/{room.game_id}"}


@router.post("/bot-games", status_code=201)
async def bot_game(body: BotGameCreate, platform: PlatformDep, session: CurrentSession) -> dict[str, Any]:
    room = await platform.lobby.play_bot(session.user, body)
    await platform.lobby.publish()
    return {"game_id": room.game_id, "url": f"/game/{room.game_id}"}


@router.post("/games/{game_id}/rematch", status_code=201)
async def rematch(game_id: str, platform: PlatformDep, session: CurrentSession) -> dict[str, Any]:
    result = await platform.lobby.rematch(session.user, game_id)
    await platform.lobby.publish()
    if isinstance(result, Offer):
        return {"offer_id": result.id}
    return {"game_id": result.game_id, "url": f"/game/{result.game_id}"}


# ------------------------------------------------------------------- games
@router.get("/games")
async def games(platform: PlatformDep) -> dict[str, Any]:
    """The live games anybody may watch."""
    return {"live": (await platform.lobby.snapshot())["live"]}


async def visible_game(game_id: str, db: AsyncSession, session: SessionInfo | None) -> LiveGame:
    """The game, if this visitor may see it (federations/games.py); else 404 or 403."""
    row = await db.get(LiveGame, game_id)
    if row is None:
        raise not_found(N_("game not found"))
    await check_may_observe(db, row, None if session is None else session.user)
    return row


@router.get("/games/{game_id}")
async def game_summary(game_id: str, db: Db, session: OptionalSession) -> dict[str, Any]:
    row = await visible_game(game_id, db, session)
    return await archive.summary(db, row)


@router.get("/games/{game_id}/record")
async def game_record(game_id: str, db: Db, session: OptionalSession) -> Response:
    """The match record (docs/records.md): JSON, seeds of the finished games revealed."""
    row = await visible_game(game_id, db, session)
    text = await archive.record_json(db, row)
    headers = {"Content-Disposition": f'attachment; filename="tavla-{game_id}.json"'}
    return Response(text, media_type="application/json", headers=headers)


@router.get("/games/{game_id}/record.mat")
async def game_mat(game_id: str, db: Db, session: OptionalSession) -> Response:
    """The match in Jellyfish .mat form (tabla only), as GNU Backgammon imports it."""
    row = await visible_game(game_id, db, session)
    text = await archive.record_mat(db, row)
    headers = {"Content-Disposition": f'attachment; filename="tavla-{game_id}.mat"'}
    return Response(text, media_type="text/plain; charset=utf-8", headers=headers)


@router.get("/games/{game_id}/replay")
async def game_replay(game_id: str, db: Db, session: OptionalSession) -> dict[str, Any]:
    """Every state of the match, the start and after each action, for stepping through it."""
    row = await visible_game(game_id, db, session)
    return await archive.replay_json(db, row)


@router.get("/games/{game_id}/analysis")
async def game_analysis(
    game_id: str, db: Db, platform: PlatformDep, session: OptionalSession
) -> dict[str, Any]:
    """The bot's review of a finished game: each turn's equity lost and mark, each cube
    decision, each roll's luck, each player's totals (docs/analysis.md). 409 while the
    game is played, and for a game no bot reviews."""
    row = await visible_game(game_id, db, session)
    record = await archive.record(db, row)
    rollout = await platform.rollouts.row(row.id)
    found = await platform.analyses.of(row.id, row.status == "finished", record, results_of(rollout))
    return {
        "id": row.id,
        "players": await archive.player_names(db, row),
        "bots": site_bots(row),
        **found,
        "rollout": status_json(rollout),
    }


@router.post("/games/{game_id}/analysis/rollout", status_code=202)
async def start_rollout(
    game_id: str, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """Has the bot roll out the turns its analysis marks (docs/analysis.md): started once
    for everybody, followed with GET. Registered players only: it keeps a core busy for
    minutes. 409 while the game is played, and for a game no bot reviews."""
    if session.user.guest:
        raise forbidden(N_("register to have a game rolled out"))
    row = await visible_game(game_id, db, session)
    record = await archive.record(db, row)
    state = await platform.rollouts.start(row.id, row.status == "finished", record, session.user.id)
    return {"id": row.id, "rollout": state}


@router.get("/games/{game_id}/analysis/rollout")
async def rollout_state(
    game_id: str, db: Db, platform: PlatformDep, session: OptionalSession
) -> dict[str, Any]:
    """How far the rollout of the game's marked turns is: ``{"state", "done", "total",
    "settings"}``, or null when nobody asked for one."""
    row = await visible_game(game_id, db, session)
    return {"id": row.id, "rollout": status_json(await platform.rollouts.row(row.id))}


@router.get("/users/{name}")
async def profile(name: str, db: Db) -> dict[str, Any]:
    user = await db.scalar(select(User).where(User.name_key == accounts.name_key(name)))
    if user is None or user.guest:
        raise not_found(N_("player not found"))
    return await archive.profile(db, user)


def _browser_language(request: Request) -> str:
    from tavla.server.i18n import browser_language

    return browser_language(request.headers.get("accept-language", ""))
