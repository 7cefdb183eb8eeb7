"""Every row of the ledger's tables, read with a plain synchronous connection: what a
test compares before and after a refused action."""

from __future__ import annotations

from typing import Any

from sqlalchemy import create_engine, select
from sqlalchemy.engine import make_url

from tavla.ledger.tables import LedgerBase


def dump(url: str) -> dict[str, list[tuple[Any, ...]]]:
    parsed = make_url(url)
    if parsed.get_backend_name() == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    engine = create_engine(parsed)
    try:
        with engine.connect() as connection:
            return {
                name: sorted(tuple(row) for row in connection.execute(select(table)))
                for name, table in LedgerBase.metadata.tables.items()
            }
    finally:
        engine.dispose()
