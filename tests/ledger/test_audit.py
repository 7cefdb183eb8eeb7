"""The audit finds each broken promise of the books (docs/ledger.md): books made by the
ledger, then damaged by hand in the database, one way at a time, and put right again."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tavla.ledger.accounts import SITE, player_account
from tavla.ledger.service import Ledger
from tavla.ledger.stakes import GameStake
from tavla.ledger.tournaments import TournamentTerms

from .conftest import run_ledger

pytestmark = pytest.mark.timeout(60)

AYSE, BORIS = player_account(SITE, "ayse"), player_account(SITE, "boris")


def database_file(sqlite_url: str) -> Path:
    return Path(sqlite_url.removeprefix("sqlite:///"))


def change(sqlite_url: str, *statements: str) -> None:
    with sqlite3.connect(database_file(sqlite_url)) as db:
        for statement in statements:
            db.execute(statement)


def one(sqlite_url: str, query: str) -> int:
    with sqlite3.connect(database_file(sqlite_url)) as db:
        return int(db.execute(query).fetchone()[0])


def account_id(sqlite_url: str, kind: str, owner: str) -> int:
    return one(sqlite_url, f"SELECT id FROM ledger_accounts WHERE kind = '{kind}' AND owner = '{owner}'")


def test_the_audit_names_each_kind_of_damage(sqlite_url: str) -> None:
    async def books(ledger: Ledger) -> None:
        await ledger.deposit(AYSE, 1000, actor="admin", reason="t")
        await ledger.deposit(BORIS, 1000, actor="admin", reason="t")
        await ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(100, 300))
        await ledger.reserve("g1")
        await ledger.settle("g1", "ayse", 1)
        await ledger.open_tournament(TournamentTerms("cup", SITE, 200, (1,)))
        await ledger.enter_tournament("cup", "boris")
        await ledger.pay_prizes("cup", ["boris"], actor="arbiter")
        assert await ledger.audit() == []

    run_ledger(sqlite_url, books)

    def audit() -> list[str]:
        async def read(ledger: Ledger) -> list[str]:
            return await ledger.audit()

        return run_ledger(sqlite_url, read, migrated=True)

    ayse = account_id(sqlite_url, "player", "ayse")
    deposit = one(sqlite_url, f"SELECT id FROM ledger_entries WHERE account_id = {ayse} ORDER BY id LIMIT 1")
    transaction = one(sqlite_url, f"SELECT transaction_id FROM ledger_entries WHERE id = {deposit}")

    # One entry changed: its transaction no longer sums to zero, nor its account to its balance.
    change(sqlite_url, f"UPDATE ledger_entries SET amount_cents = amount_cents + 1 WHERE id = {deposit}")
    balance = one(sqlite_url, f"SELECT balance_cents FROM ledger_accounts WHERE id = {ayse}")
    assert audit() == [
        f"transaction {transaction} sums to 1 cents",
        f"{AYSE}: balance {balance} but entries sum to {balance + 1}",
    ]
    change(sqlite_url, f"UPDATE ledger_entries SET amount_cents = amount_cents - 1 WHERE id = {deposit}")
    assert audit() == []

    # Money left in a settled game's escrow and in a paid tournament's pool: booked by a
    # balanced transaction from Ayşe, so that only those promises break.
    escrow, pool = account_id(sqlite_url, "escrow", "g1"), account_id(sqlite_url, "pool", "cup")
    move(sqlite_url, ayse, escrow, 7)
    assert audit() == ["game g1 is settled but its escrow holds 7"]
    move(sqlite_url, escrow, ayse, 7)
    move(sqlite_url, ayse, pool, 3)
    assert audit() == ["tournament cup is paid but its pool holds 3"]
    move(sqlite_url, pool, ayse, 3)
    assert audit() == []

    # A game closed twice: a second settlement of g1, moving nothing.
    change(
        sqlite_url,
        "INSERT INTO ledger_transactions (key, kind, federation, game_id, tournament_id, actor, reason,"
        " created_ms) VALUES (NULL, 'settlement', 'site', 'g1', NULL, 'hand', 'damage', 0)",
    )
    assert audit() == ["game g1 closed 2 times"]


def move(sqlite_url: str, source: int, target: int, cents: int) -> None:
    """A balanced transaction of ``cents`` from account ``source`` to ``target``, booked by hand."""
    with sqlite3.connect(database_file(sqlite_url)) as db:
        made = db.execute(
            "INSERT INTO ledger_transactions (key, kind, federation, game_id, tournament_id, actor,"
            " reason, created_ms) VALUES (NULL, 'deposit', 'site', NULL, NULL, 'hand', 'damage', 0)"
        )
        for account, amount in ((source, -cents), (target, cents)):
            db.execute(
                "INSERT INTO ledger_entries (transaction_id, account_id, amount_cents, memo)"
                " VALUES (?, ?, ?, 'damage')",
                (made.lastrowid, account, amount),
            )
            db.execute(
                "UPDATE ledger_accounts SET balance_cents = balance_cents + ? WHERE id = ?", (amount, account)
            )
