"""The migrations make the schema the models describe (tavla.storage.models, tavla.ledger.tables).

The server's queries are written against the models, and a database is made by the
migrations alone: a column the migrations make nullable, of another type, without its
index or under another name would go unnoticed until a query met it. Alembic's own
comparison (the one behind ``alembic revision --autogenerate``) reads the migrated
database back and lists every difference from the models; there must be none, after
the migrations and after going all the way back and up again. That comparison passes
over a text column's length when the database reports none, so lengths are compared
on their own.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Engine, MetaData, create_engine, inspect
from tests.server.federation_world import sync_url

from tavla.ledger.tables import LedgerBase
from tavla.storage.database import _alembic_config
from tavla.storage.models import Base


def models() -> MetaData:
    """The platform's tables and the ledger's, which share the database, in one."""
    both = MetaData()
    for metadata in (Base.metadata, LedgerBase.metadata):
        for table in metadata.sorted_tables:
            table.to_metadata(both)
    return both


@contextmanager
def opened(url: str) -> Iterator[Engine]:
    engine = create_engine(sync_url(url))
    try:
        yield engine
    finally:
        engine.dispose()


def differences(url: str) -> list[Any]:
    expected = models()
    with opened(url) as engine:
        with engine.connect() as connection:
            context = MigrationContext.configure(connection, opts={"compare_type": True})
            found: list[Any] = list(compare_metadata(context, expected))
        database = inspect(engine)
        for table in expected.sorted_tables:
            reflected = {column["name"]: column["type"] for column in database.get_columns(table.name)}
            for column in table.columns:
                length = getattr(column.type, "length", None)
                if length is not None and getattr(reflected[column.name], "length", None) != length:
                    found.append(("length", table.name, column.name, reflected[column.name], length))
    return found


def migrate(url: str, revision: str) -> None:
    with opened(url) as engine, engine.begin() as connection:
        if revision == "base":
            command.downgrade(_alembic_config(connection), revision)
        else:
            command.upgrade(_alembic_config(connection), revision)


def tables(url: str) -> set[str]:
    with opened(url) as engine:
        return set(inspect(engine).get_table_names())


def test_the_migrated_schema_is_the_models_schema(database_url: str) -> None:
    assert differences(database_url) == []
    assert tables(database_url) >= {"users", "games", "ledger_entries", "tournaments"}


def test_the_migrations_go_back_to_nothing_and_up_to_the_same_schema(database_url: str) -> None:
    migrate(database_url, "base")
    assert tables(database_url) == {"alembic_version"}
    migrate(database_url, "head")
    assert differences(database_url) == []
