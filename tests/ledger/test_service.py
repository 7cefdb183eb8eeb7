"""The ledger's operations one by one: releases, matches, keys, federations, tournaments."""

from __future__ import annotations

import pytest

from tavla.ledger.accounts import (
    SITE,
    cash_account,
    escrow_account,
    house_account,
    player_account,
    pool_account,
    sponsor_account,
)
from tavla.ledger.errors import AmountError, ConflictError, TournamentClosedError
from tavla.ledger.games import GameStatus
from tavla.ledger.postings import TransactionKind
from tavla.ledger.service import Ledger
from tavla.ledger.stakes import GameStake, MatchStake, fee_cents, prize_pool_cents
from tavla.ledger.tournaments import TournamentTerms

from .conftest import run_ledger

AYSE, BORIS = player_account(SITE, "ayse"), player_account(SITE, "boris")


async def _funded(ledger: Ledger, cents: int = 2000) -> None:
    await ledger.deposit(AYSE, cents, actor="admin:1", reason="t")
    await ledger.deposit(BORIS, cents, actor="admin:1", reason="t")


def test_a_void_game_gives_both_reservations_back_once(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _funded(ledger)
        await ledger.agree_stake("tapa1", SITE, ("ayse", "boris"), GameStake(200, 500))
        await ledger.reserve("tapa1")
        released = await ledger.release("tapa1", actor="server", reason="void: both mothers pinned")
        assert released is not None and released.kind is TransactionKind.RELEASE
        assert released.reason == "void: both mothers pinned" and released.game_id == "tapa1"
        again = await ledger.release("tapa1")
        assert again is not None and again.repeated and again.id == released.id
        assert await ledger.balance(AYSE) == await ledger.balance(BORIS) == 2000
        assert await ledger.balance(house_account(SITE)) == 0
        assert (await ledger.game("tapa1")).status is GameStatus.RELEASED
        assert await ledger.audit() == []

    run_ledger(sqlite_url, scenario)


def test_a_game_called_off_before_play_moves_no_money(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _funded(ledger)
        await ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(200, 500))
        assert await ledger.release("g1", reason="offer withdrawn") is None
        assert (await ledger.game("g1")).status is GameStatus.CANCELLED
        assert await ledger.game_transactions("g1") == []

    run_ledger(sqlite_url, scenario)


def test_a_match_pays_its_fixed_stake_less_the_fee(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _funded(ledger)
        await ledger.agree_stake("m7", SITE, ("ayse", "boris"), MatchStake(1000))
        await ledger.reserve("m7")
        assert (await ledger.reserve("m7")).repeated  # a second start holds nothing more
        assert await ledger.balance(AYSE) == 1000
        await ledger.settle("m7", "boris", 1)
        assert await ledger.balance(BORIS) == 2000 + 1000 - 100  # 5% of the 20.00 pot
        assert await ledger.balance(AYSE) == 1000
        settled = await ledger.settle("m7", "boris", 1)
        assert settled.repeated
        assert await ledger.balance(BORIS) == 2900

    run_ledger(sqlite_url, scenario)


def test_a_stake_ending_in_five_cents_rounds_the_half_cent_fee_up(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _funded(ledger)
        await ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(105, 105))
        await ledger.reserve("g1")
        await ledger.settle("g1", "ayse", 2)
        assert await ledger.balance(house_account(SITE)) == 11  # 10.5 cents, half up
        assert await ledger.balance(AYSE) == 2000 + 105 - 11

    run_ledger(sqlite_url, scenario)


def test_a_deposit_key_makes_a_retry_harmless_and_refuses_another_amount(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        first = await ledger.deposit(AYSE, 500, actor="admin:1", reason="bank transfer", key="bank:4711")
        again = await ledger.deposit(AYSE, 500, actor="admin:1", reason="bank transfer", key="bank:4711")
        assert again.repeated and again.id == first.id
        assert await ledger.balance(AYSE) == 500
        with pytest.raises(ConflictError, match="bank:4711"):
            await ledger.deposit(AYSE, 600, actor="admin:1", reason="bank transfer", key="bank:4711")
        await ledger.withdraw(AYSE, 200, actor="admin:1", reason="paid out")
        assert await ledger.balance(cash_account(SITE)) == -300

    run_ledger(sqlite_url, scenario)


def test_each_federation_keeps_its_own_books_and_fees(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        for federation in (SITE, "istanbul"):
            for player in ("ayse", "boris"):
                await ledger.deposit(player_account(federation, player), 1000, actor="admin", reason="t")
        await ledger.agree_stake("s1", SITE, ("ayse", "boris"), GameStake(100, 300))
        await ledger.agree_stake("i1", "istanbul", ("ayse", "boris"), GameStake(100, 300))
        for game_id in ("s1", "i1"):
            await ledger.reserve(game_id)
        await ledger.settle("s1", "ayse", 1)
        await ledger.settle("i1", "boris", 2)
        site, istanbul = await ledger.fee_report(SITE), await ledger.fee_report("istanbul")
        assert (site.collected_cents, site.fee_by_game) == (10, (("s1", 10),))
        assert site.statement.account == house_account(SITE) and site.statement.balance_cents == 10
        assert (istanbul.collected_cents, istanbul.fee_by_game) == (20, (("i1", 20),))
        assert await ledger.balance(player_account("istanbul", "ayse")) == 800
        assert await ledger.balance(player_account(SITE, "ayse")) == 1090
        assert sum((await ledger.balances("istanbul")).values()) == 0
        # Each game's transactions, read back, name the federation whose books hold them.
        for game_id, federation in (("s1", SITE), ("i1", "istanbul")):
            booked = await ledger.game_transactions(game_id)
            assert [t.kind for t in booked] == [TransactionKind.RESERVATION, TransactionKind.SETTLEMENT]
            assert {t.federation for t in booked} == {federation}
        assert await ledger.audit() == []

    run_ledger(sqlite_url, scenario)


def test_a_tournament_pool_of_entry_fees_and_sponsorship_is_paid_out_exactly(database_url: str) -> None:
    players = ["p1", "p2", "p3", "p4", "p5", "p6", "p7"]

    async def scenario(ledger: Ledger) -> None:
        for player in players:
            await ledger.deposit(player_account(SITE, player), 1000, actor="admin", reason="t")
        await ledger.deposit(sponsor_account(SITE, "kahve"), 5000, actor="admin", reason="sponsor")
        await ledger.deposit(sponsor_account(SITE, "simit"), 40, actor="admin", reason="sponsor")
        assert await ledger.balance(sponsor_account(SITE, "kahve")) == 5000  # each sponsor his own account
        await ledger.open_tournament(TournamentTerms("cup", SITE, 333, (50, 30, 20)))
        row = await ledger.tournament_row("cup")
        assert row is not None and (row.entry_fee_cents, row.status) == (333, "open")
        assert await ledger.tournament_row("no such cup") is None
        for player in players:
            await ledger.enter_tournament("cup", player)
        again = await ledger.enter_tournament("cup", "p1")
        assert again is not None and again.repeated  # one fee per player
        await ledger.sponsor_tournament("cup", "kahve", 1000, actor="admin", key="kahve:cup")
        pool = pool_account(SITE, "cup")
        assert await ledger.balance(pool) == 7 * 333 + 1000 == 3331
        prizes = await ledger.pay_prizes("cup", ["p3", "p1", "p7"], actor="arbiter:2")
        assert prizes is not None
        # 1665.5, 999.3 and 666.2: the cent left over goes to the largest remainder, 1st place.
        assert [(e.account.owner, e.amount_cents) for e in prizes.entries[1:]] == [
            ("p3", 1666),
            ("p1", 999),
            ("p7", 666),
        ]
        # Each winner's statement line says which place it paid.
        assert [e.memo for e in prizes.entries[1:]] == [f"prize for place {n}" for n in (1, 2, 3)]
        assert await ledger.balance(pool) == 0
        assert (await ledger.pay_prizes("cup", ["p3", "p1", "p7"], actor="arbiter:2")).repeated  # type: ignore[union-attr]
        with pytest.raises(ConflictError):
            await ledger.pay_prizes("cup", ["p1", "p3", "p7"], actor="arbiter:2")
        assert await ledger.balance(player_account(SITE, "p3")) == 1000 - 333 + 1666
        assert await ledger.audit() == []

    run_ledger(database_url, scenario)


def test_a_cancelled_tournament_refunds_every_entry_and_the_sponsor(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _funded(ledger)
        await ledger.deposit(sponsor_account(SITE, "kahve"), 700, actor="admin", reason="sponsor")
        await ledger.open_tournament(TournamentTerms("cup", SITE, 250, (1,)))
        await ledger.enter_tournament("cup", "ayse")
        await ledger.enter_tournament("cup", "boris")
        await ledger.sponsor_tournament("cup", "kahve", 700, actor="admin")
        refund = await ledger.cancel_tournament("cup", actor="arbiter", reason="hall flooded")
        assert refund is not None and refund.kind is TransactionKind.REFUND
        assert await ledger.balance(AYSE) == await ledger.balance(BORIS) == 2000
        assert await ledger.balance(sponsor_account(SITE, "kahve")) == 700
        again = await ledger.cancel_tournament("cup", actor="arbiter")
        assert again is not None and again.repeated
        assert await ledger.audit() == []

    run_ledger(sqlite_url, scenario)


def test_a_tournament_s_money_is_booked_against_it_in_its_federation(sqlite_url: str) -> None:
    """RULES.md 12: the entry fee, its refund before the start, the prizes; the terms are
    fixed once, and a paid tournament cannot be cancelled."""
    fed = "istanbul"

    async def scenario(ledger: Ledger) -> None:
        for player in ("ayse", "boris", "cem"):
            await ledger.deposit(player_account(fed, player), 1000, actor="admin", reason="t")
        terms = TournamentTerms("cup", fed, 250, (1,))
        assert await ledger.open_tournament(terms) == terms
        assert await ledger.open_tournament(terms) == terms  # the same terms again: a retry
        with pytest.raises(ConflictError, match="already has other terms"):
            await ledger.open_tournament(TournamentTerms("cup", fed, 300, (1,)))
        fee = await ledger.enter_tournament("cup", "ayse")
        assert fee is not None and (fee.kind, fee.tournament_id, fee.federation) == (
            TransactionKind.ENTRY_FEE,
            "cup",
            fed,
        )
        # Ayşe withdraws before the start: her fee comes back once.
        refund = await ledger.refund_entry("cup", "ayse")
        assert refund is not None and (refund.kind, refund.tournament_id) == (TransactionKind.REFUND, "cup")
        assert sorted((e.account.owner, e.amount_cents) for e in refund.entries) == [
            ("ayse", 250),
            ("cup", -250),
        ]
        again = await ledger.refund_entry("cup", "ayse")
        assert again is not None and again.repeated and again.id == refund.id
        assert await ledger.refund_entry("cup", "cem") is None  # never paid
        assert await ledger.balance(player_account(fed, "ayse")) == 1000
        await ledger.enter_tournament("cup", "boris")
        await ledger.enter_tournament("cup", "cem")
        prizes = await ledger.pay_prizes("cup", ["cem"], actor="arbiter")
        assert prizes is not None and (prizes.kind, prizes.tournament_id, prizes.federation) == (
            TransactionKind.PRIZES,
            "cup",
            fed,
        )
        assert await ledger.balance(player_account(fed, "cem")) == 1000 - 250 + 500
        paid_again = await ledger.pay_prizes("cup", ["cem"], actor="arbiter")
        assert paid_again is not None and paid_again.tournament_id == "cup" and paid_again.federation == fed
        assert paid_again.entries == prizes.entries  # read back, in the order they were booked
        with pytest.raises(TournamentClosedError, match="tournament 'cup': paid;"):
            await ledger.cancel_tournament("cup", actor="arbiter")
        with pytest.raises(TournamentClosedError, match="tournament 'cup': paid;"):
            await ledger.refund_entry("cup", "boris")
        assert await ledger.audit() == []

    run_ledger(sqlite_url, scenario)


def test_amounts_out_of_bounds_are_refused_by_name() -> None:
    with pytest.raises(AmountError, match=r"^entrants must be a whole number of cents >= 0, not -1$"):
        prize_pool_cents(100, -1)
    with pytest.raises(AmountError, match=r"^entry fee must be"):
        prize_pool_cents(-5, 3)
    with pytest.raises(AmountError, match=r"^sponsorship must be"):
        prize_pool_cents(100, 3, True)
    assert prize_pool_cents(250, 4, 700) == 1700 and prize_pool_cents(250, 4) == 1000
    with pytest.raises(AmountError, match=r"^initial stake must be a whole number of cents >= 1, not 0$"):
        GameStake(0, 100)
    with pytest.raises(AmountError, match=r"^fee rate must be"):
        fee_cents(1000, -1)
    with pytest.raises(AmountError, match=r"^entry fee must be a whole number of cents >= 0, not '5'$"):
        TournamentTerms("cup", SITE, "5", (1,))  # type: ignore[arg-type]


def test_the_escrow_holds_exactly_the_reservations_while_play_goes_on(sqlite_url: str) -> None:
    async def scenario(ledger: Ledger) -> None:
        await _funded(ledger)
        await ledger.agree_stake("g1", SITE, ("ayse", "boris"), GameStake(150, 450))
        await ledger.reserve("g1")
        assert await ledger.balance(escrow_account(SITE, "g1")) == 900
        statement = await ledger.statement(escrow_account(SITE, "g1"))
        assert [line.amount_cents for line in statement.lines] == [900]

    run_ledger(sqlite_url, scenario)
