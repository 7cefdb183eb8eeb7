"""Helpers of the hostile-client tests: what the database holds, and hostile values."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

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
    database: Path, game_id: str | None = None, *, among: set[str] | None = None
) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table, or, given a game, that game's rows only. With ``among``,
    the rows of games not among those are left out: games made meanwhile, whose bots
    play on by themselves."""
    with sqlite3.connect(database) as db:
        tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        rows: dict[str, list[tuple[Any, ...]]] = {}
        for table in sorted(tables):
            columns = [row[1] for row in db.execute(f'PRAGMA table_info("{table}")')]
            columns = [column for column in columns if column not in BOOKKEEPING]
            key = "id" if table == "games" else "game_id"
            selected = ", ".join(f'"{column}"' for column in columns)
            if game_id is not None:
                if key not in columns:
                    continue
                found = db.execute(
                    f'SELECT {selected} FROM "{table}" WHERE "{key}" = ?', (game_id,)
                ).fetchall()
            else:
                found = db.execute(f'SELECT {selected} FROM "{table}"').fetchall()
                if among is not None and key in columns:
                    at = columns.index(key)
                    found = [row for row in found if row[at] is None or row[at] in among]
            rows[table] = sorted(found, key=repr)
        return rows


def game_ids(database: Path) -> set[str]:
    with sqlite3.connect(database) as db:
        return {row[0] for row in db.execute("SELECT id FROM games")}


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


def settled(database: Path, wait_s: float = 10.0) -> None:
    """Wait until what the database holds stops changing (a player who just left is
    stored a moment later), so that a test's "before" is not taken mid-change."""
    import time

    deadline = time.monotonic() + wait_s
    last = dump(database)
    while time.monotonic() < deadline:
        time.sleep(0.2)
        now = dump(database)
        if now == last:
            return
        last = now
    raise AssertionError("the database never settled")
