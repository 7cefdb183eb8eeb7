"""Accounts and sessions: registration, login, guests, logout, preferences."""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from dataclasses import dataclass

from sqlalchemy import delete, select
from sqlalchemy.ext.asyncio import AsyncSession

from tavla.server.errors import ApiError, invalid
from tavla.server.i18n import N_
from tavla.server.security import Passwords, new_token, token_digest
from tavla.storage.models import Session, User

LANGUAGES = ("en", "tr", "bg")
HOME_SIDES = ("right", "left")
NAME_PATTERN = re.compile(r"^[^\W_][\w.-]{1,23}$")
"""2 to 24 letters (any script: Çağrı, Иван), digits, '.', '-', '_'; a letter or digit first."""
RESERVED_PREFIXES = ("guest-", "bot-")
"""Names the site gives its guests (guest-3fa9c1) and tournaments' bot entrants
(bot-hard-1): nobody registers one, so a name like them is always what it says."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256


def now_ms() -> int:
    return time.time_ns() // 1_000_000


def name_key(name: str) -> str:
    """The form names are compared in: NFKC, case-folded (İ and i, Ş and ş)."""
    return unicodedata.normalize("NFKC", name).casefold()


@dataclass(frozen=True)
class SessionInfo:
    user: User
    csrf_token: str


def check_name(name: str) -> str:
    name = unicodedata.normalize("NFC", name.strip())
    if not NAME_PATTERN.match(name):
        raise invalid(
            N_("a name is 2 to 24 letters, digits, '.', '-' or '_', beginning with a letter or digit")
        )
    if name_key(name).startswith(RESERVED_PREFIXES):
        raise invalid(N_("names beginning with 'guest-' or 'bot-' are kept for the site's guests and bots"))
    return name


def check_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise invalid(N_("a password is {least} to {most} characters"), least=MIN_PASSWORD, most=MAX_PASSWORD)
    return password


async def register(
    db: AsyncSession, passwords: Passwords, name: str, password: str, language: str = "en"
) -> User:
    name = check_name(name)
    check_password(password)
    if language not in LANGUAGES:
        raise invalid(N_("language must be one of {languages}"), languages=", ".join(LANGUAGES))
    key = name_key(name)
    if (await db.scalar(select(User.id).where(User.name_key == key))) is not None:
        raise ApiError(409, "name_taken", N_("the name {name} is taken"), name=name)
    user = User(
        name=name,
        name_key=key,
        password_hash=await passwords.hash(password),
        guest=False,
        language=language,
        created_ms=now_ms(),
    )
    db.add(user)
    await db.flush()
    return user


async def make_guest(db: AsyncSession, language: str = "en") -> User:
    name = f"guest-{secrets.token_hex(3)}"
    user = User(
        name=name,
        name_key=name_key(name) + "-" + secrets.token_hex(4),
        password_hash=None,
        guest=True,
        language=language if language in LANGUAGES else "en",
        created_ms=now_ms(),
    )
    db.add(user)
    await db.flush()
    return user


async def authenticate(db: AsyncSession, passwords: Passwords, name: str, password: str) -> User | None:
    """The account that ``name`` and ``password`` sign in to, else None. A password hashed
    at another cost than the site's now is hashed again at the new cost as it signs in."""
    user = await db.scalar(select(User).where(User.name_key == name_key(name.strip())))
    if user is None or user.password_hash is None:
        await passwords.waste_a_verification(password)
        return None
    if not await passwords.matches(user.password_hash, password):
        return None
    if passwords.needs_rehash(user.password_hash):
        user.password_hash = await passwords.hash(password)
    return user


async def open_session(db: AsyncSession, user: User, key: bytes, days: int) -> tuple[str, str]:
    """A new session for ``user``: (the cookie's token, the CSRF token)."""
    token = new_token()
    csrf = new_token()
    created = now_ms()
    db.add(
        Session(
            token_hash=token_digest(key, token),
            user_id=user.id,
            csrf_token=csrf,
            created_ms=created,
            expires_ms=created + days * 86_400_000,
        )
    )
    await db.flush()
    return token, csrf


async def session_of(db: AsyncSession, token: str | None, key: bytes) -> SessionInfo | None:
    if not token or len(token) > 100:
        return None
    row = await db.get(Session, token_digest(key, token))
    if row is None or row.expires_ms < now_ms():
        return None
    user = await db.get(User, row.user_id)
    return None if user is None else SessionInfo(user, row.csrf_token)


async def close_session(db: AsyncSession, token: str, key: bytes) -> None:
    await db.execute(delete(Session).where(Session.token_hash == token_digest(key, token)))


async def set_preferences(db: AsyncSession, user: User, language: str | None, home_side: str | None) -> User:
    if language is not None:
        if language not in LANGUAGES:
            raise invalid(N_("language must be one of {languages}"), languages=", ".join(LANGUAGES))
        user.language = language
    if home_side is not None:
        if home_side not in HOME_SIDES:
            raise invalid(N_("home_side must be right or left"))
        user.home_side = home_side
    await db.flush()
    return user
