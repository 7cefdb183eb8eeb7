"""`tavla serve` as a user starts it, for the browser tests: a free port, a fresh
database (SQLite, or PostgreSQL when ``make test`` has started one), the process
stopped afterwards and its log checked for tracebacks."""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from collections.abc import Iterator
from pathlib import Path

POSTGRES = os.environ.get("TAVLA_TEST_POSTGRES")
"""A PostgreSQL server to create a database on: the walk-throughs then run on it too."""

DATABASE_KINDS = ["sqlite"] + (["postgresql"] if POSTGRES else [])

FAST_BOTS = {
    "TAVLA_PASSWORD_TIME_COST": "1",  # argon2 at its real cost is tested in tests/server
    "TAVLA_PASSWORD_MEMORY_KIB": "64",
    "TAVLA_BOT_DELAY_MS": "0",
    "TAVLA_BOT_MOVETIME_MS": "50",
    "TAVLA_MESSAGES_PER_SECOND": "10000",
    "TAVLA_ACTIONS_PER_SECOND_PER_ACCOUNT": "10000",
    "TAVLA_CHANGES_PER_MINUTE": "10000",
    "TAVLA_CONNECTIONS_PER_MINUTE_PER_ADDRESS": "10000",
    "TAVLA_CONNECTIONS_PER_MINUTE_PER_ACCOUNT": "10000",
    "TAVLA_ROLLOUT_TRIALS": "4",
    "TAVLA_ROLLOUT_TRUNCATE": "2",
}
"""Bots that answer at once, rollouts of 4 short trials a turn, and a rate limit no test
reaches: a walk-through in seconds."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def healthy(url: str) -> bool:
    try:
        with urllib.request.urlopen(f"{url}/api/health", timeout=1) as response:
            return bool(response.status == 200)
    except OSError:
        return False


def database_for(kind: str, folder: Path) -> str:
    if kind == "sqlite":
        return f"sqlite:///{folder / 'tavla.db'}"
    import psycopg

    name = f"tavla_e2e_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(f"{POSTGRES}/postgres", autocommit=True) as connection:
        connection.execute(f'CREATE DATABASE "{name}"')
    return f"{POSTGRES}/{name}"


def tavla_command(*arguments: str) -> list[str]:
    return [sys.executable, "-c", "from tavla.cli.main import app; app()", *arguments]


@contextlib.contextmanager
def tavla_server(folder: Path, database: str, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """The URL of `tavla serve` on ``database``, running while the block runs."""
    port = free_port()
    log = (folder / "server.log").open("wb")
    command = tavla_command("serve", "--host", "127.0.0.1", "--port", str(port), "--database", database)
    env = {**os.environ, **(extra_env or {})}
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while not healthy(url):
            if process.poll() is not None or time.monotonic() > deadline:
                log.flush()
                raise RuntimeError(
                    f"tavla serve did not start:\n{(folder / 'server.log').read_text(errors='replace')}"
                )
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()
        text = (folder / "server.log").read_text(errors="replace")
        if "Traceback" in text:
            raise AssertionError(f"the server logged an error:\n{text[-5000:]}")
