"""The rules of watching (games.py) applied to a stored game, for the HTTP API and
the pages: seeing a game, reading its chat, closing it, warning its players."""

from __future__ import annotations

from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.errors import forbidden
from tavla.server.federations.games import (
    GameAccess,
    can_moderate_chat,
    can_observe,
    can_read_chat,
    can_warn,
)
from tavla.server.federations.standing import standing_of
from tavla.server.i18n import N_
from tavla.storage.models import ChatMessage, LiveGame, User


async def check_may_observe(db: AsyncSession, row: LiveGame, user: User | None) -> None:
    if not can_observe(await standing_of(db, user), GameAccess.of_row(row)):
        raise forbidden(N_("the players of this game do not allow spectators"))


async def chat_lines(db: AsyncSession, row: LiveGame, user: User | None) -> list[dict[str, Any]]:
    """The players' chat, for the players and the arbiters of the game's federation."""
    if not can_read_chat(await standing_of(db, user), GameAccess.of_row(row)):
        raise forbidden(N_("only the players and the arbiters of the game's federation read its chat"))
    lines = await db.scalars(
        select(ChatMessage).where(ChatMessage.game_id == row.id).order_by(ChatMessage.index)
    )
    return [{"seat": line.seat, "text": line.text, "t_ms": line.t_ms} for line in lines]


async def check_may_close_chat(db: AsyncSession, row: LiveGame, user: User | None) -> None:
    if not can_moderate_chat(await standing_of(db, user), GameAccess.of_row(row)):
        raise forbidden(N_("only an arbiter of this game's federation may close its chat"))


NOT_A_TOURNAMENT_GAME = N_("warnings are given only in the games of a federation's tournament")
MAY_NOT_WARN = N_(
    "only an arbiter or an administrator of this game's federation may warn its players or declare a forfeit"
)


async def check_may_warn(db: AsyncSession, row: LiveGame, user: User | None) -> None:
    if row.federation_id is None:
        raise forbidden(NOT_A_TOURNAMENT_GAME)
    if not can_warn(await standing_of(db, user), GameAccess.of_row(row)):
        raise forbidden(MAY_NOT_WARN)
