"""Which roles an account holds: the one thing every authorisation question reads."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.storage.models import FederationRole, User


class Role(StrEnum):
    """A role in one federation (the site owner's is the site's, on the account)."""

    ADMINISTRATOR = "administrator"
    ARBITER = "arbiter"
    PLAYER = "player"


@dataclass(frozen=True)
class Standing:
    """An account's roles: site owner or not, and (federation id, role) pairs.

    Nobody (a visitor without a session) stands with ``user_id`` None and no roles."""

    user_id: int | None
    site_owner: bool = False
    roles: frozenset[tuple[int, Role]] = frozenset()

    def holds(self, federation_id: int | None, role: Role) -> bool:
        return federation_id is not None and (federation_id, role) in self.roles


NOBODY = Standing(None)


async def standing_of(db: AsyncSession, user: User | None) -> Standing:
    """``user``'s standing as the database holds it now (a guest holds no role)."""
    if user is None:
        return NOBODY
    rows = await db.execute(
        select(FederationRole.federation_id, FederationRole.role).where(FederationRole.user_id == user.id)
    )
    roles = frozenset((federation_id, Role(role)) for federation_id, role in rows)
    return Standing(user.id, bool(user.site_owner) and not user.guest, roles)
