"""Voiding an abandoned game played for a stake (RULES.md 12; docs/ledger.md).

A game without a clock waits for ever for a player who left, and its stakes stay
reserved. An administrator of the game's federation ends it with no winner: the match
library's ``void`` action, recorded in the game with his note, after which the game's
end releases both reservations as any game without a winner does (games.py).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.ledger.games import GameStatus
from tavla.ledger.tables import StakedGameRow
from tavla.server.deps import CurrentSession, Db, PlatformDep
from tavla.server.errors import ApiError, forbidden, not_found
from tavla.server.events import GameFinished
from tavla.server.federations.standing import Role, standing_of
from tavla.server.i18n import N_
from tavla.server.live.room import Refused
from tavla.server.stakes.schemas import VoidRequest
from tavla.storage.models import Federation, LiveGame, User

router = APIRouter(prefix="/api", tags=["money"])


async def check_may_void(db: AsyncSession, row: LiveGame, user: User | None) -> None:
    """An administrator of the game's federation who does not play in it; a game of a
    federation, played for a stake that is still held, and not over."""
    who = await standing_of(db, user)
    if row.federation_id is None or not who.holds(row.federation_id, Role.ADMINISTRATOR):
        raise forbidden(N_("only an administrator of this game's federation may void it"))
    if who.user_id in (row.seat0_user_id, row.seat1_user_id):
        raise forbidden(N_("a player may not void his own game"))
    staked = await db.get(StakedGameRow, row.id)
    if staked is None:
        raise ApiError(409, "not_staked", N_("only a game played for a stake can be voided"))
    if row.status != "live" or staked.status != GameStatus.RESERVED.value:
        raise ApiError(409, "over", N_("the match is over"))


@router.post("/games/{game_id}/void")
async def void_game(
    game_id: str, body: VoidRequest, db: Db, platform: PlatformDep, session: CurrentSession
) -> dict[str, Any]:
    """End the game with no winner and release both stakes (the federation's administrators)."""
    row = await db.get(LiveGame, game_id)
    if row is None:
        raise not_found(N_("game not found"))
    await check_may_void(db, row, session.user)
    await db.commit()  # the room stores the change on its own connection
    try:
        outcome = await platform.rooms.officiate(game_id, "forfeit", None, body.note)
    except Refused as refused:
        status = 409 if refused.code == "over" else 503 if refused.code == "unavailable" else 422
        raise ApiError(status, refused.code, refused.template, **refused.params) from None  # type: ignore[arg-type]
    if outcome is None:
        raise ApiError(409, "over", N_("the match is over"))
    # The rooms announce the end to the ledger too; releasing here as well (the ledger
    # does it once) means the money is free when the administrator reads the answer.
    await platform.staked.game_finished(
        GameFinished(game_id, outcome.federation_id, outcome.winner, outcome.score)
    )
    return {"ok": True, "over": outcome.over, "winner": outcome.winner}


async def abandoned_candidates(db: AsyncSession, federation: Federation) -> list[dict[str, Any]]:
    """The federation's live games whose stakes are held: what its books page offers
    to void (the administrator judges which are abandoned)."""
    rows = await db.execute(
        select(LiveGame.id, StakedGameRow.player0, StakedGameRow.player1, LiveGame.created_ms)
        .join(StakedGameRow, StakedGameRow.game_id == LiveGame.id)
        .where(
            StakedGameRow.federation == federation.slug,
            StakedGameRow.status == GameStatus.RESERVED.value,
            LiveGame.status == "live",
        )
        .order_by(LiveGame.created_ms)
    )
    return [
        {"game_id": game, "players": (first, second), "created_ms": created}
        for game, first, second, created in rows.all()
    ]
