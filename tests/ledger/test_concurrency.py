"""A game is settled once however many contenders race to settle it: asyncio tasks
and threads on SQLite (and PostgreSQL), OS processes on PostgreSQL (and SQLite)."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert
from sqlalchemy.engine import make_url
from sqlalchemy.exc import IntegrityError

import tavla
from tavla.ledger.accounts import SITE, escrow_account, house_account, player_account
from tavla.ledger.errors import InsufficientFundsError
from tavla.ledger.postings import TransactionKind, game_close_key
from tavla.ledger.service import Ledger
from tavla.ledger.stakes import GameStake
from tavla.ledger.tables import TransactionRow
from tavla.ledger.views import TransactionRecord

from .conftest import run_ledger

AYSE, BORIS = player_account(SITE, "ayse"), player_account(SITE, "boris")
CONTENDERS = 6
WORKER = Path(__file__).with_name("settle_worker.py")


async def _reserved_game(ledger: Ledger) -> None:
    await ledger.deposit(AYSE, 1000, actor="admin", reason="t")
    await ledger.deposit(BORIS, 1000, actor="admin", reason="t")
    await ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(200, 500))
    await ledger.reserve("g1")


async def _settled_once(ledger: Ledger, records: list[TransactionRecord]) -> None:
    assert len(records) == CONTENDERS
    assert len({record.id for record in records}) == 1
    assert sorted(record.repeated for record in records) == [False] + [True] * (CONTENDERS - 1)
    kinds = [record.kind for record in await ledger.game_transactions("g1")]
    assert kinds == [TransactionKind.RESERVATION, TransactionKind.SETTLEMENT]
    assert await ledger.balance(AYSE) == 1450
    assert await ledger.balance(BORIS) == 500
    assert await ledger.balance(house_account(SITE)) == 50
    assert await ledger.balance(escrow_account(SITE, "g1")) == 0
    assert await ledger.audit() == []


def test_asyncio_tasks_settle_a_game_once(database_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _reserved_game(ledger)
        records = await asyncio.gather(*(ledger.settle("g1", "ayse", 3) for _ in range(CONTENDERS)))
        await _settled_once(ledger, list(records))

    run_ledger(database_url, scenario)


def test_threads_settle_a_game_once(database_url: str) -> None:
    """Each thread has its own event loop and its own connection pool, as separate
    workers of one server process would."""
    run_ledger(database_url, _reserved_game)
    start = threading.Barrier(CONTENDERS)
    records: list[TransactionRecord] = []
    failures: list[BaseException] = []

    def contend() -> None:
        async def settle(ledger: Ledger) -> TransactionRecord:
            await ledger.balance(AYSE)  # connect before the race
            await asyncio.to_thread(start.wait, 30)
            return await ledger.settle("g1", "ayse", 3)

        try:
            records.append(run_ledger(database_url, settle, migrated=True))
        except BaseException as error:  # reported by the test below
            failures.append(error)

    threads = [threading.Thread(target=contend) for _ in range(CONTENDERS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=90)
    assert failures == []

    async def check(ledger: Ledger) -> None:
        await _settled_once(ledger, records)

    run_ledger(database_url, check, migrated=True)


def test_processes_settle_a_game_once(database_url: str, tmp_path: Path) -> None:
    run_ledger(database_url, _reserved_game)
    source = str(Path(tavla.__file__).parent.parent)
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join([source, os.environ.get("PYTHONPATH", "")])}
    processes = [
        subprocess.Popen(
            [sys.executable, str(WORKER), database_url, "g1", str(tmp_path), str(number)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=environment,
        )
        for number in range(CONTENDERS)
    ]
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.glob("ready-*"))) < CONTENDERS:
            assert time.monotonic() < deadline, "the contenders did not all start"
            assert all(process.poll() is None for process in processes), processes[0].communicate()
            time.sleep(0.01)
        (tmp_path / "go").touch()
        outputs = [process.communicate(timeout=60) for process in processes]
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
    assert all(process.returncode == 0 for process in processes), outputs
    records = [json.loads(stdout) for stdout, _ in outputs]

    async def check(ledger: Ledger) -> None:
        assert len({record["id"] for record in records}) == 1
        assert sorted(record["repeated"] for record in records) == [False] + [True] * (CONTENDERS - 1)
        closing = [r for r in await ledger.game_transactions("g1") if r.kind is TransactionKind.SETTLEMENT]
        assert [r.id for r in closing] == [records[0]["id"]]
        assert await ledger.balance(AYSE) == 1450
        assert await ledger.audit() == []

    run_ledger(database_url, check, migrated=True)


def test_concurrent_reservations_never_overdraw_a_player(database_url: str) -> None:
    """Boris can afford two of five games at 2.00: two reservations win, three are refused."""

    async def scenario(ledger: Ledger) -> None:
        await ledger.deposit(BORIS, 500, actor="admin", reason="t")
        for number in range(5):
            player = f"rich{number}"
            await ledger.deposit(player_account(SITE, player), 10_000, actor="admin", reason="t")
            await ledger.agree_stake(f"g{number}", SITE, (player, "boris"), GameStake(100, 200))
        results = await asyncio.gather(
            *(ledger.reserve(f"g{number}") for number in range(5)), return_exceptions=True
        )
        assert sum(isinstance(result, TransactionRecord) for result in results) == 2
        assert sum(isinstance(result, InsufficientFundsError) for result in results) == 3
        assert await ledger.balance(BORIS) == 100
        assert await ledger.audit() == []

    run_ledger(database_url, scenario)


def test_the_database_itself_refuses_a_second_closing_of_a_game(database_url: str) -> None:
    """The unique key is the last line of defence, below the service's own checks."""
    run_ledger(database_url, _reserved_game)
    parsed = make_url(database_url)
    if parsed.get_backend_name() == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    engine = create_engine(parsed)
    row = {
        "key": game_close_key("g1"),
        "kind": "settlement",
        "federation": SITE,
        "game_id": "g1",
        "actor": "a second process",
        "reason": "t",
        "created_ms": 0,
    }
    try:
        with engine.begin() as connection:
            connection.execute(insert(TransactionRow).values(row))
        with pytest.raises(IntegrityError), engine.begin() as connection:
            connection.execute(insert(TransactionRow).values({**row, "actor": "a third process"}))
    finally:
        engine.dispose()
