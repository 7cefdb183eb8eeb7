"""Request dependencies: the platform, a database session, the signed-in player, CSRF."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import Depends, Path, Request
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.accounts import SessionInfo, session_of
from tavla.server.errors import ApiError
from tavla.server.i18n import N_, Reader
from tavla.server.limits import client_address
from tavla.server.platform import Platform
from tavla.server.security import same_secret

SESSION_COOKIE = "tavla_session"
CSRF_HEADER = "X-CSRF-Token"
UNSAFE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}

ROW_ID_LIMIT = 2**63 - 1
RowId = Annotated[int, Path(ge=-ROW_ID_LIMIT, le=ROW_ID_LIMIT)]
"""A number in an address that names a row: one beyond what the database's integers
hold is refused as invalid (422) before it reaches a query, which would fail with 500."""


def get_platform(request: Request) -> Platform:
    platform: Platform = request.app.state.platform
    return platform


PlatformDep = Annotated[Platform, Depends(get_platform)]


async def get_db(platform: PlatformDep) -> AsyncIterator[AsyncSession]:
    async with platform.sessions() as db, db.begin():
        yield db


Db = Annotated[AsyncSession, Depends(get_db, scope="function")]
"""The request's transaction, committed when its handler returns and before the answer
is sent ("function" scope): an answer never tells of a change the database has not
stored, a page loaded right after it sees the change, and a commit that fails answers
as an error instead of after a success was sent."""


def same_origin(request: Request, origin: str, platform: Platform) -> bool:
    own = f"{request.url.scheme}://{request.url.netloc}"
    own_ws = own.replace("ws://", "http://").replace("wss://", "https://")
    return origin in (own, own_ws, *platform.settings.allowed_origins)


async def optional_session(request: Request, platform: PlatformDep) -> SessionInfo | None:
    # A session of its own, closed at once: a request's ``Db`` would hold its pooled
    # connection for the whole request, and a request that opens more (accepting an
    # offer makes a room, which stores its first change) could then wait forever for
    # a connection that requests just like it hold (the pool's timeout, then 500).
    async with platform.sessions() as db:
        info = await session_of(db, request.cookies.get(SESSION_COOKIE), platform.settings.signing_key)
    # A refusal is answered in the session's language (app.py).
    request.state.reader = None if info is None else Reader(info.user.guest, info.user.language)
    if info is not None and request.method in UNSAFE_METHODS:
        # A signed-in browser's request that changes something must prove it comes
        # from our own page: the session's CSRF token in a header.
        token = request.headers.get(CSRF_HEADER, "")
        if not same_secret(token, info.csrf_token):
            raise ApiError(403, "csrf", N_("the request lacks this session's CSRF token"))
    elif request.method in UNSAFE_METHODS:
        # Before a session exists (register, log in) a browser's cross-site form is
        # told apart by its Origin header; programs without one may go on.
        origin = request.headers.get("origin")
        if origin is not None and not same_origin(request, origin, platform):
            raise ApiError(403, "csrf", N_("cross-site request refused"))
    if request.method in UNSAFE_METHODS:
        await _count_change(request, platform, info)
    return info


async def _count_change(request: Request, platform: Platform, info: SessionInfo | None) -> None:
    """Refuse a change beyond the account's (or, without a session, the address's) limit."""
    if info is not None:
        key = f"user:{info.user.id}"
    else:
        peer = request.client.host if request.client else None
        key = "address:" + client_address(peer, request.headers, platform.settings.trusted_proxies)
    wait = await platform.limits.changes.retry_after(key)
    if wait:
        raise ApiError(
            429,
            "rate_limited",
            N_("too many requests; try again in {seconds} s"),
            retry_after_s=wait,
            seconds=wait,
        )


OptionalSession = Annotated[SessionInfo | None, Depends(optional_session)]


async def required_session(info: OptionalSession) -> SessionInfo:
    if info is None:
        raise ApiError(401, "not_signed_in", N_("sign in (or play as a guest) first"))
    return info


CurrentSession = Annotated[SessionInfo, Depends(required_session)]
