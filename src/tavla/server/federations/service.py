"""The federations' rules applied to the database: every function authorises first,
then changes or reads; a refusal changes nothing (the request's transaction ends
with the exception)."""

from __future__ import annotations

import re

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.accounts import name_key, now_ms
from tavla.server.errors import ApiError, forbidden, invalid, not_found
from tavla.server.federations import powers
from tavla.server.federations.schemas import (
    ApplicationCreate,
    ApplicationPrivate,
    FederationCreate,
    FederationPrivate,
    FederationPublic,
    FederationSummary,
    MemberPrivate,
    Membership,
)
from tavla.server.federations.standing import Role, Standing, standing_of
from tavla.server.i18n import N_
from tavla.storage.models import Federation, FederationApplication, FederationRole, User

SLUG_PATTERN = re.compile(r"^[a-z0-9](?:[a-z0-9-]{0,30}[a-z0-9])$")
"""2 to 32 lower-case Latin letters, digits and '-', a letter or digit at each end:
the federation's address (/federations/tbf) and its key in the ledger's books."""
RESERVED_SLUGS = frozenset({"site"})
"""The ledger keeps the site's own games under the federation key ``site``."""
NAME_LENGTH = (2, 80)
EMAIL_PATTERN = re.compile(r"^[^@\s]+@[^@\s]+\.[^@\s]+$")

_FORBIDDEN_TO_APPOINT = {
    Role.ADMINISTRATOR: N_("only the site owner may appoint or remove the administrators of {federation}"),
    Role.ARBITER: N_("only an administrator of {federation} may appoint or remove its arbiters"),
    Role.PLAYER: N_("only an administrator of {federation} may admit or remove its players"),
}
_NOT_HOLDING = {
    Role.ADMINISTRATOR: N_("{name} is not an administrator of {federation}"),
    Role.ARBITER: N_("{name} is not an arbiter of {federation}"),
    Role.PLAYER: N_("{name} is not a player of {federation}"),
}


# ---------------------------------------------------------------- reading
async def federation_at(db: AsyncSession, slug: str) -> Federation:
    federation = await db.scalar(select(Federation).where(Federation.slug == slug.lower()))
    if federation is None:
        raise not_found(N_("no federation has the address {slug}"), slug=slug)
    return federation


async def list_federations(db: AsyncSession) -> list[FederationSummary]:
    rows = await db.scalars(select(Federation).order_by(Federation.name))
    return [FederationSummary(slug=f.slug, name=f.name, url=f"/federations/{f.slug}") for f in rows]


async def _holders(db: AsyncSession, federation: Federation) -> list[tuple[FederationRole, User]]:
    rows = await db.execute(
        select(FederationRole, User)
        .join(User, User.id == FederationRole.user_id)
        .where(FederationRole.federation_id == federation.id)
        .order_by(User.name_key)
    )
    return [(role, user) for role, user in rows.all()]


async def public_view(db: AsyncSession, federation: Federation) -> FederationPublic:
    """What anybody may read: the name and who holds which role, nothing private."""
    names: dict[Role, list[str]] = {role: [] for role in Role}
    for held, user in await _holders(db, federation):
        names[Role(held.role)].append(user.name)
    return FederationPublic(
        slug=federation.slug,
        name=federation.name,
        administrators=names[Role.ADMINISTRATOR],
        arbiters=names[Role.ARBITER],
        players=names[Role.PLAYER],
    )


def refusal_to_administer(federation: Federation) -> ApiError:
    return forbidden(
        N_("only the administrators of {federation} may see its members' contacts and applications"),
        federation=federation.name,
    )


async def private_view(db: AsyncSession, actor: User | None, federation: Federation) -> FederationPrivate:
    who = await standing_of(db, actor)
    if not powers.can_see_private(who, federation.id):
        raise refusal_to_administer(federation)
    members = [
        MemberPrivate(
            name=user.name, role=Role(held.role), contact_email=held.contact_email, since_ms=held.created_ms
        )
        for held, user in await _holders(db, federation)
    ]
    waiting = await db.execute(
        select(FederationApplication, User)
        .join(User, User.id == FederationApplication.user_id)
        .where(FederationApplication.federation_id == federation.id)
        .order_by(FederationApplication.created_ms)
    )
    applications = [
        ApplicationPrivate(
            name=user.name, contact_email=application.contact_email, created_ms=application.created_ms
        )
        for application, user in waiting.all()
    ]
    return FederationPrivate(
        slug=federation.slug, name=federation.name, members=members, applications=applications
    )


# ---------------------------------------------------------------- the site owner
async def create_federation(db: AsyncSession, actor: User | None, body: FederationCreate) -> Federation:
    who = await standing_of(db, actor)
    if not powers.can_create_federation(who):
        raise forbidden(N_("only the site owner may create federations"))
    name = " ".join(body.name.split())
    if not NAME_LENGTH[0] <= len(name) <= NAME_LENGTH[1]:
        raise invalid(
            N_("name: a federation's name is {least} to {most} characters"),
            least=NAME_LENGTH[0],
            most=NAME_LENGTH[1],
        )
    slug = body.slug.strip()
    if not SLUG_PATTERN.match(slug):
        raise invalid(
            N_("slug: {slug} is not 2 to 32 letters a-z, digits or inner '-'"),
            slug=repr(slug),
        )
    if slug in RESERVED_SLUGS:
        raise invalid(N_("slug: {slug} is reserved"), slug=slug)
    if await db.scalar(select(Federation.id).where(Federation.slug == slug)) is not None:
        raise ApiError(409, "slug_taken", N_("the federation address {slug} is taken"), slug=slug)
    federation = Federation(slug=slug, name=name, created_by=who.user_id, created_ms=now_ms())
    db.add(federation)
    await db.flush()
    return federation


# ---------------------------------------------------------------- roles
async def _account(db: AsyncSession, name: str) -> User:
    """The registered account ``name``. A guest's name finds nobody (guests' keys are
    made unique apart from their names), so guests hold no role: their account lasts a day."""
    user = await db.scalar(select(User).where(User.name_key == name_key(name.strip()), User.guest.is_(False)))
    if user is None:
        raise not_found(N_("player {name} not found"), name=name)
    return user


def _check_may_appoint(who: Standing, federation: Federation, role: Role) -> None:
    if not powers.can_appoint(who, federation.id, role):
        raise forbidden(_FORBIDDEN_TO_APPOINT[role], federation=federation.name)


async def _held(db: AsyncSession, federation: Federation, user: User, role: Role) -> FederationRole | None:
    return await db.get(FederationRole, (federation.id, user.id, str(role)))


async def appoint(
    db: AsyncSession, actor: User | None, federation: Federation, name: str, role: Role
) -> Membership:
    """Give ``role`` to ``name``; admitting a player takes the contact address of his
    application and closes it. Giving a role already held changes nothing."""
    who = await standing_of(db, actor)
    _check_may_appoint(who, federation, role)
    user = await _account(db, name)
    if await _held(db, federation, user, role) is None:
        contact = None
        if role is Role.PLAYER:
            application = await db.get(FederationApplication, (federation.id, user.id))
            if application is not None:
                contact = application.contact_email
                await db.delete(application)
        db.add(
            FederationRole(
                federation_id=federation.id,
                user_id=user.id,
                role=str(role),
                contact_email=contact,
                appointed_by=who.user_id,
                created_ms=now_ms(),
            )
        )
        await db.flush()
    return Membership(federation=federation.slug, name=user.name, role=role)


async def dismiss(
    db: AsyncSession, actor: User | None, federation: Federation, name: str, role: Role
) -> None:
    """Take ``role`` from ``name``. A player may also leave a federation himself."""
    who = await standing_of(db, actor)
    leaving = role is Role.PLAYER and actor is not None and name_key(name.strip()) == actor.name_key
    if not leaving:
        _check_may_appoint(who, federation, role)
    user = await _account(db, name)
    held = await _held(db, federation, user, role)
    if held is None:
        raise not_found(_NOT_HOLDING[role], name=user.name, federation=federation.name)
    await db.delete(held)
    await db.flush()


# ---------------------------------------------------------------- applications
async def has_applied(db: AsyncSession, federation: Federation, user: User | None) -> bool:
    """Is ``user``'s own application to the federation waiting?"""
    if user is None:
        return False
    return await db.get(FederationApplication, (federation.id, user.id)) is not None


async def apply(
    db: AsyncSession, actor: User | None, federation: Federation, body: ApplicationCreate
) -> None:
    """``actor`` asks to be admitted as a player; an administrator decides."""
    if actor is None:
        raise ApiError(401, "not_signed_in", N_("sign in (or play as a guest) first"))
    if actor.guest:
        raise forbidden(N_("guests cannot join a federation; register first"))
    who = await standing_of(db, actor)
    if not powers.can_apply(who, federation.id):
        raise ApiError(
            409, "already_member", N_("you are already a player of {federation}"), federation=federation.name
        )
    if await db.get(FederationApplication, (federation.id, actor.id)) is not None:
        raise ApiError(
            409, "already_applied", N_("you have already applied to {federation}"), federation=federation.name
        )
    contact = (body.contact_email or "").strip() or None
    if contact is not None and not EMAIL_PATTERN.match(contact):
        raise invalid(N_("contact_email: {email} is not an e-mail address"), email=repr(contact))
    db.add(
        FederationApplication(
            federation_id=federation.id, user_id=actor.id, contact_email=contact, created_ms=now_ms()
        )
    )
    await db.flush()


async def withdraw_application(
    db: AsyncSession, actor: User | None, federation: Federation, name: str
) -> None:
    """An administrator turns an application down, or the applicant withdraws it."""
    own = actor is not None and name_key(name.strip()) == actor.name_key
    if not own and not powers.can_decide_applications(await standing_of(db, actor), federation.id):
        raise forbidden(
            N_("only an administrator of {federation} may turn down its applications"),
            federation=federation.name,
        )
    user = await _account(db, name)
    removed = await db.execute(
        delete(FederationApplication).where(
            FederationApplication.federation_id == federation.id, FederationApplication.user_id == user.id
        )
    )
    if not removed.rowcount:  # type: ignore[attr-defined]
        raise not_found(
            N_("{name} has not applied to {federation}"), name=user.name, federation=federation.name
        )
