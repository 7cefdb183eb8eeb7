"""Opening the database and bringing its schema up to date.

URLs are the usual ones (``sqlite:///tavla.db``, ``postgresql://user@host/db``); the
drivers the server runs on (aiosqlite, psycopg) are chosen here, so settings and
documentation never name them.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import Connection, event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, async_sessionmaker, create_async_engine
from sqlalchemy.ext.asyncio import AsyncSession as AsyncSession

MIGRATIONS = Path(__file__).with_name("migrations")

_ASYNC_DRIVERS = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+psycopg"}


class DatabaseUrlError(ValueError):
    """A database URL the server cannot use."""


def async_url(url: str) -> str:
    """``url`` with the asynchronous driver of its database."""
    try:
        parsed = make_url(url)
    except Exception as error:  # sqlalchemy raises ArgumentError with its own wording
        raise DatabaseUrlError(f"database URL {url!r} is not a URL: {error}") from None
    backend = parsed.get_backend_name()
    if backend not in _ASYNC_DRIVERS:
        raise DatabaseUrlError(
            f"database URL {url!r}: the server runs on SQLite or PostgreSQL, not {backend!r}"
        )
    return parsed.set(drivername=_ASYNC_DRIVERS[backend]).render_as_string(hide_password=False)


def _sqlite_pragmas(dbapi_connection: object, _record: object) -> None:
    # WAL lets readers (spectators, the archive) go on while a game commits; foreign
    # keys are off by default in SQLite; a busy timeout rides out a concurrent writer.
    cursor = dbapi_connection.cursor()  # type: ignore[attr-defined]
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.execute("PRAGMA busy_timeout=5000")
    cursor.close()


def open_engine(url: str) -> AsyncEngine:
    """An engine for ``url``; SQLite files get WAL and foreign keys."""
    full = async_url(url)
    # No ping before each use: it doubled the transactions of every intent
    # (docs/capacity.md). A connection that died with a database restart fails its first
    # statement instead; the pool then starts afresh, and the caller answers
    # "unavailable" (the board resends, an HTTP client is told to try again).
    engine = create_async_engine(full, pool_pre_ping=False)
    if engine.dialect.name == "sqlite":
        event.listen(engine.sync_engine, "connect", _sqlite_pragmas)
    return engine


def sessions(engine: AsyncEngine) -> async_sessionmaker[AsyncSession]:
    return async_sessionmaker(engine, expire_on_commit=False)


def _alembic_config(connection: Connection) -> Config:
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    config.attributes["connection"] = connection
    return config


def _upgrade(connection: Connection) -> None:
    command.upgrade(_alembic_config(connection), "head")


async def migrate(engine: AsyncEngine) -> None:
    """Apply every migration the database has not had yet."""
    async with engine.begin() as connection:
        await connection.run_sync(_upgrade)
