"""Fresh databases for the tests, each a copy of one migrated once in this process.

Migrating an empty database takes about 0.15 s on SQLite and on PostgreSQL, and the
server tests make some six hundred; a copy takes a few milliseconds. A server started
on a copy still runs its migrations and finds nothing to do. Migrating an empty
database is tested where one server starts as a user starts it (tests/e2e,
``serve_sqlite`` in tests/server/served.py) and by the ledger's own tests; the pairs of
processes of tests/realtime's fault tests start side by side on a migrated one.
"""

from __future__ import annotations

import asyncio
import atexit
import shutil
import tempfile
import uuid
from pathlib import Path

from tavla.storage.database import migrate, open_engine

_sqlite_template: Path | None = None
_postgres_templates: dict[str, str] = {}


def migrate_database(url: str) -> None:
    """Run the migrations on the database at ``url``."""

    async def run() -> None:
        engine = open_engine(url)
        await migrate(engine)
        await engine.dispose()  # the last connection closed: WAL checkpointed, no -wal file left

    asyncio.run(run())


def migrated_sqlite(path: Path) -> str:
    """The URL of a migrated SQLite database written at ``path``."""
    global _sqlite_template
    if _sqlite_template is None:
        folder = tempfile.mkdtemp(prefix="tavla-template.")
        atexit.register(shutil.rmtree, folder, True)
        template = Path(folder) / "template.db"
        migrate_database(f"sqlite:///{template}")
        _sqlite_template = template
    shutil.copyfile(_sqlite_template, path)
    return f"sqlite:///{path}"


def migrated_postgres(server: str) -> str:
    """The URL of a new migrated database on the PostgreSQL ``server``
    (``postgresql://user@host:port``), copied from this process's template."""
    import psycopg

    if server not in _postgres_templates:
        template = f"tavla_template_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
            connection.execute(f'CREATE DATABASE "{template}"')
        migrate_database(f"{server}/{template}")
        _postgres_templates[server] = template
    name = f"tavla_test_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        # A template must have no other connection while it is copied: nothing but
        # this function connects to it, and only while migrating it above.
        connection.execute(f'CREATE DATABASE "{name}" TEMPLATE "{_postgres_templates[server]}"')
    return f"{server}/{name}"
