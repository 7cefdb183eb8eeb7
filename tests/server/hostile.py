"""Helpers of the hostile-client tests: what the database holds, and hostile values."""

from __future__ import annotations

from typing import Any

from hypothesis import strategies as st
from sqlalchemy import Engine, column, create_engine, inspect, select, table
from sqlalchemy.pool import NullPool
from sqlalchemy.sql.elements import ColumnClause
from tests.server.federation_world import sync_url

HUGE_INTS = st.sampled_from([2**63, -(2**63) - 1, 10**300, -1, 0, 2**31, 2**53 + 1])
HOSTILE_TEXT = st.one_of(
    st.text(max_size=40),
    st.sampled_from(
        [
            "",
            "\x00",
            "\ud7ff\ue000\U0010ffff",
            "ş" * 5000,
            "x" * 100_000,
            "../../etc/passwd",
            "' OR 1=1 --",
            "<script>alert(1)</script>",
            "%00",
            "null",
            "NaN",
            "🂡" * 50,
        ]
    ),
)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    HUGE_INTS,
    st.floats(allow_nan=False, allow_infinity=False),
    HOSTILE_TEXT,
)
JSON_VALUES = st.recursive(
    SCALARS,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=12), inner, max_size=4)
    ),
    max_leaves=12,
)


def nested(depth: int) -> str:
    """A JSON text nesting ``depth`` arrays and objects in each other."""
    return '{"a":[' * depth + "1" + "]}" * depth


BOOKKEEPING = {"owner", "fence", "lease_until_ms", "held_ms"}
"""Columns a process sets by itself as it takes and keeps a game (live/leases.py): no change
of the game."""


def dump(
    database_url: str, game_id: str | None = None, *, among: set[str] | None = None
) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, or, given a game, that game's rows only. With ``among``,
    the rows of games not among those are left out: games made meanwhile, whose bots
    play on by themselves. SQLite or PostgreSQL, as the test's server runs on."""
    engine = _engine(database_url)
    rows: dict[str, list[tuple[Any, ...]]] = {}
    with engine.connect() as db:
        for name, columns in _tables(database_url):
            key = "id" if name == "games" else "game_id"
            selected: list[ColumnClause[Any]] = [column(c) for c in columns]  # any type: as stored
            statement = select(*selected).select_from(table(name))
            if game_id is not None:
                if key not in columns:
                    continue
                statement = statement.where(column(key) == game_id)
            found = [tuple(row) for row in db.execute(statement)]
            if game_id is None and among is not None and key in columns:
                at = columns.index(key)
                found = [row for row in found if row[at] is None or row[at] in among]
            rows[name] = sorted(found, key=repr)
    return rows


_SCHEMAS: dict[str, list[tuple[str, list[str]]]] = {}


def _tables(database_url: str) -> list[tuple[str, list[str]]]:
    """Each table's name and its columns but the bookkeeping ones, read from the database
    once per test (a schema does not change under a test; reading it is most of a dump's
    time on PostgreSQL)."""
    if database_url not in _SCHEMAS:
        with _engine(database_url).connect() as db:
            found = inspect(db)
            _SCHEMAS[database_url] = [
                (name, [c["name"] for c in found.get_columns(name) if c["name"] not in BOOKKEEPING])
                for name in sorted(found.get_table_names())
            ]
    return _SCHEMAS[database_url]


def game_ids(database_url: str) -> set[str]:
    game_id: ColumnClause[Any] = column("id")
    with _engine(database_url).connect() as db:
        return {str(row[0]) for row in db.execute(select(game_id).select_from(table("games")))}


_ENGINES: dict[str, Engine] = {}


def _engine(database_url: str) -> Engine:
    url = sync_url(database_url)
    if url not in _ENGINES:
        _ENGINES[url] = create_engine(url, poolclass=NullPool)
    return _ENGINES[url]


def routes(app: Any) -> list[tuple[str, str, list[str]]]:
    """(method, path, path parameters) of every HTTP route of the app, those of included
    routers too, so that a route added later is covered without naming it here."""
    found: list[tuple[str, str, list[str]]] = []

    def walk(items: Any) -> None:
        for route in items:
            inner = getattr(route, "original_router", None)
            if inner is not None:
                walk(inner.routes)
                continue
            methods = getattr(route, "methods", None)
            path = getattr(route, "path", None)
            if not methods or path is None:
                continue  # websockets and the static files
            parameters = [part[1:-1].split(":")[0] for part in path.split("/") if part.startswith("{")]
            for method in sorted(methods - {"HEAD"}):
                found.append((method, path, parameters))

    walk(app.routes)
    return found


def settled(database_url: str, wait_s: float = 10.0) -> None:
    """Wait until what the database holds stops changing (a player who just left is
    stored a moment later), so that a test's "before" is not taken mid-change."""
    import time

    deadline = time.monotonic() + wait_s
    last = dump(database_url)
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = dump(database_url)
        if now == last:
            return
        last = now
    raise AssertionError("the database never settled")
