"""Money's pages: a player's own balance and statement, the federation's books."""

from __future__ import annotations

from datetime import UTC, datetime
from functools import partial

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, Response

from tavla.server.deps import Db, OptionalSession, PlatformDep
from tavla.server.errors import ApiError
from tavla.server.federations import service
from tavla.server.i18n import N_, translate
from tavla.server.pages import page_language, render
from tavla.server.stakes import memos, money, voids

router = APIRouter(include_in_schema=False)

KIND_NAMES = {
    "deposit": N_("Deposit"),
    "withdrawal": N_("Withdrawal"),
    "reservation": N_("Reservation"),
    "settlement": N_("Settlement"),
    "release": N_("Reservation released"),
    "entry_fee": N_("Entry fee"),
    "sponsorship": N_("Sponsorship"),
    "prizes": N_("Prize"),
    "refund": N_("Refund"),
}
"""A statement line's kind in the reader's language; the ledger's own memo follows it,
translated where it is shown (memos.py)."""


def _when(ms: int) -> str:
    return datetime.fromtimestamp(ms / 1000, UTC).strftime("%Y-%m-%d %H:%M")


def _refused(request: Request, session: OptionalSession, error: ApiError) -> Response:
    message = translate(page_language(request, session), error.template, error.params)
    return render(request, session, "missing.html", status=error.status, refused=message)


@router.get("/federations/{slug}/money", response_class=HTMLResponse)
async def money_page(
    slug: str, request: Request, db: Db, platform: PlatformDep, session: OptionalSession
) -> Response:
    """The signed-in player's balance and every movement of his money."""
    try:
        federation = await service.federation_at(db, slug)
        if session is None:
            raise ApiError(401, "not_signed_in", N_("sign in (or play as a guest) first"))
        statement = await money.player_statement(
            db, platform.staked.ledger, session.user, federation, session.user.name
        )
    except ApiError as error:
        return _refused(request, session, error)
    return render(
        request,
        session,
        "money.html",
        federation=federation,
        statement=statement,
        when=_when,
        kind_names=KIND_NAMES,
        details=partial(memos.details, page_language(request, session)),
        actor=partial(memos.actor, page_language(request, session)),
    )


@router.get("/federations/{slug}/books", response_class=HTMLResponse)
async def books_page(
    slug: str, request: Request, db: Db, platform: PlatformDep, session: OptionalSession
) -> Response:
    """The administrators': fees, cash, every account, and deposits and withdrawals."""
    try:
        federation = await service.federation_at(db, slug)
        books = await money.books(
            db, platform.staked.ledger, None if session is None else session.user, federation
        )
    except ApiError as error:
        return _refused(request, session, error)
    return render(
        request,
        session,
        "federation_books.html",
        federation=federation,
        books=books,
        staked_games=await voids.abandoned_candidates(db, federation),
        when=_when,
    )
