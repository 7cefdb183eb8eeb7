"""A rematch against a person: an offer of the same settings for the opponent alone.

It is offered without a stake: money is agreed afresh for every game (docs/ledger.md)."""

from __future__ import annotations

import secrets
from typing import Any

from sqlalchemy.ext.asyncio import AsyncSession

from tavla.match.settings import MatchSettings
from tavla.server.accounts import now_ms
from tavla.server.live.dicefeed import new_chain_end
from tavla.storage.models import LiveGame, Offer, User


async def rematch_offer(db: AsyncSession, user: User, row: LiveGame) -> Offer:
    """Against a person, a rematch is an offer of the same settings for the opponent."""
    opponent = row.seat1_user_id if user.id == row.seat0_user_id else row.seat0_user_id
    settings = MatchSettings.from_json(row.settings)
    data: dict[str, Any] = {
        "game": settings.game,
        "options": dict(settings.options),
        "length": settings.length,
        "cube": settings.cube,
        "beavers": settings.beavers,
        "raccoons": settings.raccoons,
        "jacoby": settings.jacoby,
        "sets": settings.sets,
        "clock": _clock_choice(settings),
        "client_seed": secrets.token_hex(8),  # as the lobby draws one for nobody's choice
        "seed_chain_end": new_chain_end(),
    }
    offer = Offer(
        creator_id=user.id,
        settings=data,
        spectators=row.spectators,
        chat=row.chat0 if user.id == row.seat0_user_id else row.chat1,
        status="open",
        for_user_id=opponent,
        created_ms=now_ms(),
    )
    db.add(offer)
    await db.commit()
    return offer


def _clock_choice(settings: MatchSettings) -> dict[str, int] | None:
    """The lobby's clock choice that gives ``settings``' clock again."""
    clock = settings.clock
    if clock is None:
        return None
    if clock.per_game:
        return {
            "move_s": clock.move_ms // 1000,
            "reserve_s": clock.reserve_ms // 1000 // max(settings.length, 1),
        }
    return {"move_s": 0, "reserve_s": clock.reserve_ms // 1000}
