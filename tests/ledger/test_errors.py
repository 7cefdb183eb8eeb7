"""Refused actions: a clear LedgerError (a TavlaError), and the books exactly as before."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable

import pytest

from tavla.core.errors import TavlaError
from tavla.ledger.accounts import SITE, escrow_account, player_account, pool_account
from tavla.ledger.errors import (
    AccountError,
    AmountError,
    ConflictError,
    GameAlreadyClosedError,
    GameNotInLedgerError,
    GameNotReservedError,
    InsufficientFundsError,
    LedgerError,
    PrizeError,
    SettlementError,
    TournamentClosedError,
    TournamentNotInLedgerError,
)
from tavla.ledger.service import Ledger
from tavla.ledger.stakes import GameStake, MatchStake
from tavla.ledger.tournaments import TournamentTerms

from .conftest import run_ledger
from .tables import dump

AYSE, BORIS = player_account(SITE, "ayse"), player_account(SITE, "boris")


async def _books(ledger: Ledger) -> None:
    """Ayşe 10.00, Boris 3.00 paid in; g1 (max 5.00) agreed only; g2 (match 1.00) reserved and
    g3 (0.50) won by Boris; an open tournament with a 2.00 entry fee that Ayşe entered.
    Ayşe has 6.50 left, Boris 2.45."""
    await ledger.deposit(AYSE, 1000, actor="admin", reason="t")
    await ledger.deposit(BORIS, 300, actor="admin", reason="t")
    await ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(100, 500))
    await ledger.agree_stake("g2", SITE, ("ayse", "boris"), MatchStake(100))
    await ledger.reserve("g2")
    await ledger.agree_stake("g3", SITE, ("ayse", "boris"), MatchStake(50))
    await ledger.reserve("g3")
    await ledger.settle("g3", "boris", 1)
    await ledger.open_tournament(TournamentTerms("t1", SITE, 200, (70, 30)))
    await ledger.enter_tournament("t1", "ayse")


Refusal = tuple[Callable[[Ledger], Awaitable[object]], type[LedgerError], str]

REFUSALS: dict[str, Refusal] = {
    "reserve beyond a player's balance": (
        lambda ledger: ledger.reserve("g1"),
        InsufficientFundsError,
        "insufficient funds in site/player:boris: balance 245 cents, needs 500 cents",
    ),
    "withdraw beyond the balance": (
        lambda ledger: ledger.withdraw(BORIS, 246, actor="admin", reason="t"),
        InsufficientFundsError,
        "balance 245 cents, needs 246 cents",
    ),
    "enter a tournament without the entry fee": (
        lambda ledger: ledger.enter_tournament("t1", "carla"),
        InsufficientFundsError,
        "site/player:carla: balance 0 cents, needs 200 cents",
    ),
    "settle an unknown game": (
        lambda ledger: ledger.settle("nope", "ayse", 1),
        GameNotInLedgerError,
        "game 'nope': no stake was agreed",
    ),
    "release an unknown game": (lambda ledger: ledger.release("nope"), GameNotInLedgerError, "'nope'"),
    "reserve an unknown game": (lambda ledger: ledger.reserve("nope"), GameNotInLedgerError, "'nope'"),
    "settle a game whose stakes were never reserved": (
        lambda ledger: ledger.settle("g1", "ayse", 1),
        GameNotReservedError,
        "game 'g1': cannot settle, its stakes are agreed, not reserved",
    ),
    "settle for a winner who did not play": (
        lambda ledger: ledger.settle("g2", "carla", 1),
        SettlementError,
        "winner 'carla' is not one of its players",
    ),
    "settle with no points": (lambda ledger: ledger.settle("g2", "ayse", 0), AmountError, "points won"),
    "settle a settled game for the other player": (
        lambda ledger: ledger.settle("g3", "ayse", 1),
        GameAlreadyClosedError,
        "game 'g3': already settled for boris with 1 points",
    ),
    "release a settled game": (
        lambda ledger: ledger.release("g3"),
        GameAlreadyClosedError,
        "game 'g3': already settled; a game closes once",
    ),
    "reserve a settled game": (
        lambda ledger: ledger.reserve("g3"),
        GameAlreadyClosedError,
        "game 'g3': already settled; a game closes once",
    ),
    "agree another stake under a used game id": (
        lambda ledger: ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(100, 600)),
        ConflictError,
        "already has another stake",
    ),
    "deposit straight into an escrow": (
        lambda ledger: ledger.deposit(escrow_account(SITE, "g2"), 100, actor="admin", reason="t"),
        AccountError,
        "only of player, sponsor and house accounts",
    ),
    "withdraw from a pool": (
        lambda ledger: ledger.withdraw(pool_account(SITE, "t1"), 100, actor="admin", reason="t"),
        AccountError,
        "site/pool:t1",
    ),
    "deposit nothing": (lambda ledger: ledger.deposit(AYSE, 0, actor="a", reason="t"), AmountError, ">= 1"),
    "pay prizes to too few winners": (
        lambda ledger: ledger.pay_prizes("t1", ["ayse"], actor="arbiter"),
        PrizeError,
        "2 prizes need 2 winners, got 1",
    ),
    "enter an unknown tournament": (
        lambda ledger: ledger.enter_tournament("t9", "ayse"),
        TournamentNotInLedgerError,
        "'t9'",
    ),
}


@pytest.mark.parametrize("name", list(REFUSALS))
def test_a_refused_action_raises_a_clear_error_and_changes_nothing(name: str, sqlite_url: str) -> None:
    action, error, words = REFUSALS[name]
    run_ledger(sqlite_url, _books)
    before = dump(sqlite_url)

    async def refused(ledger: Ledger) -> None:
        with pytest.raises(error, match=re.escape(words)) as caught:
            await action(ledger)
        assert isinstance(caught.value, TavlaError)
        if isinstance(caught.value, GameAlreadyClosedError):  # what a caller reads besides the words
            assert (caught.value.game_id, caught.value.closed_as.split()[0]) == ("g3", "settled")
        assert await ledger.audit() == []

    run_ledger(sqlite_url, refused, migrated=True)
    assert dump(sqlite_url) == before


def test_a_reservation_is_all_or_nothing(database_url: str) -> None:
    """Ayşe could pay her 5.00 but Boris could not: neither is reserved."""

    async def scenario(ledger: Ledger) -> None:
        await _books(ledger)
        with pytest.raises(InsufficientFundsError) as caught:
            await ledger.reserve("g1")
        assert caught.value.account == "site/player:boris"
        assert (caught.value.balance_cents, caught.value.needed_cents) == (245, 500)
        assert await ledger.balance(AYSE) == 1000 - 100 - 50 - 200
        assert (await ledger.game("g1")).status.value == "agreed"
        assert await ledger.balance(escrow_account(SITE, "g1")) == 0

    run_ledger(database_url, scenario)


def test_a_closed_tournament_takes_no_more_entries(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _books(ledger)
        await ledger.cancel_tournament("t1", actor="arbiter")
        assert await ledger.balance(AYSE) == 650 + 200
        with pytest.raises(TournamentClosedError, match="'t1': cancelled"):
            await ledger.enter_tournament("t1", "boris")
        with pytest.raises(TournamentClosedError):
            await ledger.pay_prizes("t1", ["ayse", "boris"], actor="arbiter")

    run_ledger(sqlite_url, scenario)
