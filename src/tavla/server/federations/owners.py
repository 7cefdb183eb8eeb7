"""Setting the site owner on the server's database (``tavla site-owner``)."""

from __future__ import annotations

from sqlalchemy import select

from tavla.server.accounts import name_key
from tavla.storage.database import migrate, open_engine, sessions
from tavla.storage.models import User


class OwnerError(ValueError):
    """An account that cannot be made the site owner: the message says which and why."""


async def set_owner(database_url: str, name: str, owner: bool) -> str:
    """Make ``name`` a site owner (or not); the account's name as registered."""
    engine = open_engine(database_url)
    try:
        await migrate(engine)
        async with sessions(engine)() as db, db.begin():
            user = await db.scalar(select(User).where(User.name_key == name_key(name.strip())))
            if user is None:
                raise OwnerError(f"no account is named {name!r} in {database_url}: register it first")
            if user.guest:
                raise OwnerError(f"{user.name} is a guest account; a site owner needs a registered one")
            user.site_owner = owner
            return user.name
    finally:
        await engine.dispose()


async def list_owners(database_url: str) -> list[str]:
    engine = open_engine(database_url)
    try:
        await migrate(engine)
        async with sessions(engine)() as db:
            return list(
                await db.scalars(select(User.name).where(User.site_owner.is_(True)).order_by(User.name))
            )
    finally:
        await engine.dispose()
