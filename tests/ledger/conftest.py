"""A ledger on a fresh database per test: SQLite in a temporary folder, and PostgreSQL.

PostgreSQL comes as for the server's tests (tests/server/conftest.py): when
``TAVLA_TEST_POSTGRES`` names a server (``make test`` starts one with
scripts/with-postgres.sh), each test creates its own database on it. Without the
variable, the ledger's tests start a throwaway server themselves when PostgreSQL is
installed (the recipe of scripts/with-postgres.sh), so a plain ``pytest tests/ledger``
also checks PostgreSQL; they are skipped, with the reason, only when it is not.
"""

from __future__ import annotations

import asyncio
import glob
import os
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Awaitable, Callable, Iterator
from itertools import count
from pathlib import Path
from typing import TypeVar

import pytest

pytest.importorskip("sqlalchemy")

from tavla.ledger.service import Ledger
from tavla.storage.database import migrate, open_engine, sessions

T = TypeVar("T")


def run_ledger(url: str, scenario: Callable[[Ledger], Awaitable[T]], *, migrated: bool = False) -> T:
    """Run ``scenario`` on a ledger over ``url`` in its own event loop."""

    async def main() -> T:
        engine = open_engine(url)
        try:
            if not migrated:
                await migrate(engine)
            ticks = count(1_700_000_000_000)
            return await scenario(Ledger(sessions(engine), clock_ms=lambda: next(ticks)))
        finally:
            await engine.dispose()

    return asyncio.run(main())


def _as_postgres(command: list[str]) -> list[str]:
    return ["runuser", "-u", "postgres", "--", *command] if os.getuid() == 0 else command


def _start_postgres() -> Iterator[str | None]:
    """A throwaway server for the session; ``None`` when PostgreSQL is not installed."""
    bins = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if not bins:
        yield None
        return
    bin_dir = Path(bins[-1]).parent
    folder = tempfile.mkdtemp(prefix="tavla-ledger-pg.")
    os.chmod(folder, 0o755)
    if os.getuid() == 0:
        shutil.chown(folder, "postgres")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    data = f"{folder}/data"
    try:
        subprocess.run(
            _as_postgres([str(bin_dir / "initdb"), "-D", data, "-A", "trust", "-U", "postgres"]),
            check=True,
            capture_output=True,
        )
        options = f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            _as_postgres(
                [str(bin_dir / "pg_ctl"), "-D", data, "-o", options, "-l", f"{folder}/log", "start", "-w"]
            ),
            check=True,
            capture_output=True,
        )
        yield f"postgresql://postgres@127.0.0.1:{port}"
    finally:
        subprocess.run(
            _as_postgres([str(bin_dir / "pg_ctl"), "-D", data, "stop", "-m", "fast"]), capture_output=True
        )
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def postgres_server() -> Iterator[str]:
    configured = os.environ.get("TAVLA_TEST_POSTGRES")
    if configured:
        yield configured
        return
    try:
        servers = _start_postgres()
        server = next(servers)
    except (subprocess.CalledProcessError, OSError) as error:
        pytest.skip(f"PostgreSQL is installed but a throwaway server did not start: {error}")
    if server is None:
        pytest.skip("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
    yield server
    next(servers, None)


def new_postgres_database(server: str) -> str:
    import psycopg

    name = f"tavla_ledger_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(f"{server}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{server}/{name}"


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'ledger.db'}"


@pytest.fixture
def postgres_url(postgres_server: str) -> str:
    return new_postgres_database(postgres_server)


@pytest.fixture(params=["sqlite", "postgresql"])
def database_url(request: pytest.FixtureRequest) -> str:
    """Both databases: the ledger's promises must hold on each."""
    name = "sqlite_url" if request.param == "sqlite" else "postgres_url"
    return str(request.getfixturevalue(name))
